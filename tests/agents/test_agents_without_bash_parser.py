"""The action model and the non-shell readers work without tree-sitter-bash; a trajectory
with shell calls then fails with one clear input error, never a crash or a guess."""

from __future__ import annotations

import subprocess
import sys

from .fixture_paths import FIXTURES

SCRIPT = """
import sys

class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "tree_sitter_bash":
            raise ImportError("blocked for the test")
        return None

sys.meta_path.insert(0, Block())
import hunkmetrics.agents as agents
from hunkmetrics.errors import HunkmetricsError

attempt = agents.read_trajectory(sys.argv[1])
print("calls", len(attempt.calls), "tokens", attempt.tokens.output)
try:
    agents.read_trajectory(sys.argv[2])
except HunkmetricsError as exc:
    print("error", exc)
print("loaded", "tree_sitter_bash" in sys.modules)
"""


def test_reading_without_tree_sitter_bash():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            SCRIPT,
            str(FIXTURES / "claude" / "result.json"),
            str(FIXTURES / "codex" / "direct.jsonl"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "calls 0 tokens 25000"
    assert lines[1] == (
        "error splitting shell commands needs tree-sitter-bash: pip install tree-sitter-bash"
    )
    assert lines[2] == "loaded False"
