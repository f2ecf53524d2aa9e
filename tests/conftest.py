"""Shared test fixtures: where the repository's fixtures and the shared sample live."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromium import Chromium

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
SAMPLE = ROOT.parent / "shared" / "hunk4j-sample"


@pytest.fixture
def sample_dir() -> Path:
    """The Hunk4J sample beside the checkout; tests using it skip on a fresh clone."""
    if not (SAMPLE / "reference.csv").is_file():
        pytest.skip("../shared/hunk4j-sample is not present")
    return SAMPLE


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Chromium]:
    """A headless Chromium with a page open (the browser tests skip without one)."""
    chromium = Chromium(tmp_path)
    try:
        chromium.open_page()
        yield chromium
    finally:
        chromium.close()


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    """Where the screenshot is kept: $HUNKMETRICS_ARTIFACTS, else pytest's tmp dir."""
    where = os.environ.get("HUNKMETRICS_ARTIFACTS")
    path = Path(where) if where else tmp_path / "artifacts"
    path.mkdir(parents=True, exist_ok=True)
    return path
