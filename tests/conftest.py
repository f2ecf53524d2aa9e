"""Shared test fixtures: where the repository's fixtures and the shared sample live."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
SAMPLE = ROOT.parent / "shared" / "hunk4j-sample"


@pytest.fixture
def sample_dir() -> Path:
    """The Hunk4J sample beside the checkout; tests using it skip on a fresh clone."""
    if not (SAMPLE / "reference.csv").is_file():
        pytest.skip("../shared/hunk4j-sample is not present")
    return SAMPLE
