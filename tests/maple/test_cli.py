"""`hunkmetrics maple` without the mcp package, and the library without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .conftest import FIXTURES

# A meta path finder that hides `mcp`, as if it were not installed.
HIDE_MCP = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == 'mcp' or name.startswith('mcp.'):
            raise ModuleNotFoundError(name, name=name)
        return None
sys.meta_path.insert(0, Block())
"""


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "sitecustomize.py").write_text(HIDE_MCP)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "c")}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_missing_mcp_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = run(tmp_path, "-m", "hunkmetrics", "maple", "--repo", str(FIXTURES / "java-project"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        'hunkmetrics: the maple server needs the mcp package: pip install "hunkmetrics[mcp]"'
    ]


def test_the_index_and_tools_work_without_mcp(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from hunkmetrics.maple import Maple, open_index\n"
        "m = Maple(open_index(sys.argv[1], use_cache=False))\n"
        "print(m.find_method('itemCount').splitlines()[3])\n"
        "assert 'mcp' not in sys.modules\n"
    )
    done = run(tmp_path, "-c", code, str(FIXTURES / "java-project"))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "file: src/main/java/com/acme/core/Order.java, lines 23-29\n"


def test_help_needs_no_mcp(tmp_path: Path) -> None:
    done = run(tmp_path, "-m", "hunkmetrics", "maple", "--help")
    assert done.returncode == 0
    assert "--extra-tools" in done.stdout and "--max-results" in done.stdout
