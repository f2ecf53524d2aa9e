"""Shared fixtures: MAPLE indexes over copies of the fixture projects."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hunkmetrics.maple import Maple, RepoIndex, open_index

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
INVENTORY = "src/main/java/com/acme/core/Inventory.java"
CART = "src/shop/cart.py"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def project(tmp_path: Path, name: str) -> Path:
    """A writable copy of a fixture project."""
    root = tmp_path / name
    shutil.copytree(FIXTURES / name, root)
    return root


def index_of(root: Path, tmp_path: Path, **options: object) -> RepoIndex:
    options.setdefault("rescan_interval", 0.0)
    return open_index(root, cache_dir=tmp_path / "cache", **options)  # type: ignore[arg-type]


@pytest.fixture
def java(tmp_path: Path) -> Maple:
    return Maple(index_of(project(tmp_path, "java-project"), tmp_path), max_results=3)


@pytest.fixture
def python(tmp_path: Path) -> Maple:
    return Maple(index_of(project(tmp_path, "python-project"), tmp_path), max_results=3)
