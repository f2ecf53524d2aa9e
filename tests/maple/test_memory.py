"""What keeps the server's memory small, checked without timing it: a start on the cache
reads the index in place (no Python object per scope or posting) and imports no numpy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hunkmetrics.maple.names import NameTable
from hunkmetrics.maple.records import Stored
from hunkmetrics.maple.sections import FileSections

from .conftest import index_of, project

ROOT = Path(__file__).resolve().parents[2]


def test_a_start_on_the_cache_reads_the_index_in_place(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    index_of(root, tmp_path)
    warm = index_of(root, tmp_path)
    assert warm.parsed == 0
    assert all(isinstance(r.source, Stored) and r.held_words is None for r in warm.files.values())
    for table in (warm.names.types, warm.names.callables):
        assert isinstance(table, NameTable) and not table._held  # all in the segment's tables
    postings = warm.postings
    assert postings is not None and isinstance(postings.sections, FileSections)
    assert postings.words.numbers.nbytes == 0  # each word's files read on demand


def test_a_server_imports_no_numpy_cold_or_warm(tmp_path: Path) -> None:
    """A cold start builds the n-gram index with numpy in a child process, whose memory
    goes when it ends; the server reads the index from the cache as a warm start does."""
    root = project(tmp_path, "java-project")
    script = (
        "import sys\n"
        "from hunkmetrics.maple import Maple, open_index\n"
        "from hunkmetrics.maple.server import build_server\n"
        f"index = open_index({str(root)!r}, cache_dir={str(tmp_path / 'cache')!r})\n"
        "maple = Maple(index)\n"
        "build_server(maple, extra_tools=True)\n"
        "maple.find_code('int count')\n"
        "maple.find_references('fire')\n"
        "print(index.parsed, 'numpy' in sys.modules)\n"
    )
    for parsed in (11, 0):  # cold, then warm
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == [str(parsed), "False"]


def test_a_stale_code_search_index_is_rebuilt_apart(tmp_path: Path) -> None:
    """More than a fifth of the files changed since the code-search index was built: a
    start rebuilds it (in a child process: numpy stays out of the server), and a search
    finds what the changed files hold."""
    root = project(tmp_path, "java-project")
    index_of(root, tmp_path)
    changed = sorted(root.rglob("*.java"))[:4]  # of 11
    for number, path in enumerate(changed):
        path.write_text(path.read_text() + f"\n// marker{number} freshly written\n")
    script = (
        "import sys\n"
        "from hunkmetrics.maple import Maple, open_index\n"
        f"index = open_index({str(root)!r}, cache_dir={str(tmp_path / 'cache')!r})\n"
        "print(index.parsed, len(index.postings.files_with(b'freshly')), 'numpy' in sys.modules)\n"
        "print(Maple(index).find_code('freshly written').splitlines()[0])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["4 4 False", "Found 4 matches for the code."]
