"""`maple_find_enclosing` gives the class and method `hunkmetrics hunks` gives for a hunk
that changes that one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from hunkmetrics.maple import Maple
from hunkmetrics.workspace import open_workspace

from .conftest import INVENTORY, index_of, project

CASES = [
    ("java-project", INVENTORY, 20),  # a field: class only
    ("java-project", INVENTORY, 60),  # add(String,int)
    ("java-project", INVENTORY, 120),  # the anonymous Runnable's run()
    ("java-project", INVENTORY, 133),  # an interface method
    ("java-project", INVENTORY, 169),  # Auditor$1.run()
    ("java-project", "src/main/java/com/acme/core/Status.java", 8),  # enum constant body
    ("python-project", "src/shop/pricing/rules.py", 71),  # a function's function
    ("python-project", "src/shop/pricing/rules.py", 78),  # a class in a function
    ("python-project", "src/shop/cart.py", 31),  # a nested class's method
]


def _patch(path: str, line: int, old: str) -> str:
    return (
        f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
        f"@@ -{line} +{line} @@\n-{old}\n+{old} // changed\n"
    )


@pytest.mark.parametrize(("name", "path", "line"), CASES)
def test_enclosing_is_the_hunks_location(tmp_path: Path, name: str, path: str, line: int) -> None:
    root = project(tmp_path, name)
    maple = Maple(index_of(root, tmp_path))
    answer = dict(row.split(": ", 1) for row in maple.find_enclosing(path, line).splitlines()[1:])
    # the working tree holds the patched file; hunkmetrics derives the pre-image
    text = (root / path).read_text()
    lines = text.split("\n")
    old = lines[line - 1]
    lines[line - 1] = old + " // changed"
    (root / path).write_text("\n".join(lines))
    ws = open_workspace(_patch(path, line, old).encode(), repo=root)
    located = ws.located()
    assert len(located) == 1
    where = located[0].location
    assert answer["class"] == (where.class_name or "-")
    method = answer["method"].split(" (lines ")[0]
    assert method == (where.method or "-")
    assert answer["package"] == (where.package or "-")
