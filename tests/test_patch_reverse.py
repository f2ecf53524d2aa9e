"""`reverse_diff`: a unified diff's text with its sides swapped (a Harbor task whose
solve.sh applies the bug's patch with --reverse)."""

from __future__ import annotations

import pytest

from hunkmetrics.errors import PatchError
from hunkmetrics.patch.parse import parse_patch
from hunkmetrics.patch.reverse import reverse_diff

DIFF = """\
diff --git a/calc.py b/calc.py
index 35f9119..d386076 100644
--- a/calc.py
+++ b/calc.py
@@ -1,3 +1,3 @@
 def add(a, b):
-    return a - b
+    return a + b
 
@@ -5,2 +5,3 @@ def scale
 def scale(values, k):
-    return [v + k for v in values]
\\ No newline at end of file
+    return [v * k for v in values]
+# end
\\ No newline at end of file
diff --git a/new.py b/new.py
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/new.py
@@ -0,0 +1 @@
+x = 1
"""
# worked by hand: ranges and names swapped, each run's removed lines first again, the
# "no newline" marks staying with their lines, a new file now deleted
REVERSED = """\
diff --git a/calc.py b/calc.py
index d386076..35f9119 100644
--- b/calc.py
+++ a/calc.py
@@ -1,3 +1,3 @@
 def add(a, b):
-    return a + b
+    return a - b
 
@@ -5,3 +5,2 @@ def scale
 def scale(values, k):
-    return [v * k for v in values]
-# end
\\ No newline at end of file
+    return [v + k for v in values]
\\ No newline at end of file
diff --git a/new.py b/new.py
deleted file mode 100644
index 1111111..0000000
--- b/new.py
+++ /dev/null
@@ -1 +0,0 @@
-x = 1
"""


def shape(text: str, reverse: bool = False) -> list[object]:
    patch = parse_patch(text, reverse=reverse)
    return [
        (f.path, f.status, [(h.old_start, h.old_lines, h.new_start, h.new_lines) for h in f.hunks])
        for f in patch.files
    ]


def test_reverse_by_hand():
    assert reverse_diff(DIFF) == REVERSED
    assert reverse_diff(REVERSED) == DIFF


def test_reversed_text_reads_as_the_parser_reverses():
    assert shape(REVERSED) == shape(DIFF, reverse=True)


def test_a_rename_swaps_its_names():
    rename = "diff --git a/x.py b/y.py\nsimilarity index 100%\nrename from x.py\nrename to y.py\n"
    assert reverse_diff(rename) == (
        "diff --git a/y.py b/x.py\nsimilarity index 100%\nrename to x.py\nrename from y.py\n"
    )


def test_what_text_cannot_reverse():
    with pytest.raises(PatchError, match="cannot reverse a diff with GIT binary"):
        reverse_diff("diff --git a/x b/x\nGIT binary patch\nliteral 0\n")
