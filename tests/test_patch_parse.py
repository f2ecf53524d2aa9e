"""Parsing unified diffs into the patch model: hand-written diffs, expected values by hand."""

from __future__ import annotations

import pytest

from hunkmetrics import FileStatus, LineKind, PatchError, parse_patch

TWO_FILES = b"""diff --git a/src/A.java b/src/A.java
index 1111111..2222222 100644
--- a/src/A.java
+++ b/src/A.java
@@ -10,4 +10,4 @@ class A {
   int a;
-  int b;
+  long b;
   int c;
   int d;
@@ -20,3 +20,5 @@ class A {
   x();
+  y();
+  z();
   w();
   v();
diff --git a/src/B.java b/src/B.java
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/src/B.java
@@ -0,0 +1,2 @@
+class B {
+}
"""


def test_hunks_numbered_across_files_in_order() -> None:
    patch = parse_patch(TWO_FILES)
    assert [h.index for h in patch.hunks] == [0, 1, 2]
    assert [h.path for h in patch.hunks] == ["src/A.java", "src/A.java", "src/B.java"]
    first = patch.hunks[0]
    assert (first.old_start, first.old_lines, first.new_start, first.new_lines) == (10, 4, 10, 4)
    assert first.section == "class A {"
    assert first.removed_text == ["  int b;"] and first.added_text == ["  long b;"]
    assert [(ln.old_lineno, ln.new_lineno) for ln in first.lines] == [
        (10, 10),
        (11, None),
        (None, 11),
        (12, 12),
        (13, 13),
    ]


def test_changed_lines_are_removed_lines_or_the_insertion_point() -> None:
    patch = parse_patch(TWO_FILES)
    assert patch.hunks[0].changed_lines == (11,)
    # Lines y(); z(); are added after pre-image line 20 (x();).
    assert patch.hunks[1].changed_lines == (20,)
    # A whole new file is inserted at the top: point 0.
    assert patch.hunks[2].changed_lines == (0,)


def test_file_statuses_and_blobs() -> None:
    patch = parse_patch(TWO_FILES)
    a, b = patch.files
    assert a.status is FileStatus.MODIFIED and (a.old_blob, a.new_blob) == ("1111111", "2222222")
    assert b.status is FileStatus.ADDED and b.old_path is None and b.old_blob is None


def test_reverse_swaps_sides() -> None:
    patch = parse_patch(TWO_FILES, reverse=True)
    first = patch.hunks[0]
    assert first.removed_text == ["  long b;"] and first.added_text == ["  int b;"]
    assert patch.files[1].status is FileStatus.DELETED
    assert patch.files[1].new_path is None and patch.files[1].old_path == "src/B.java"
    # Reversing twice is the identity on the model.
    again = parse_patch(TWO_FILES, reverse=True).files[0].swapped()
    assert again == parse_patch(TWO_FILES).files[0]


def test_binary_mode_only_and_rename() -> None:
    diff = b"""diff --git a/img.png b/img.png
index 1234567..89abcde 100644
Binary files a/img.png and b/img.png differ
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/old/X.java b/new/X.java
similarity index 90%
rename from old/X.java
rename to new/X.java
index 1111111..2222222 100644
--- a/old/X.java
+++ b/new/X.java
@@ -1 +1 @@
-x
\\ No newline at end of file
+y
"""
    patch = parse_patch(diff)
    png, script, renamed = patch.files
    assert png.is_binary and png.excluded_reason == "binary"
    assert script.is_mode_only and script.excluded_reason == "mode change only"
    assert renamed.status is FileStatus.RENAMED
    assert (renamed.old_path, renamed.new_path) == ("old/X.java", "new/X.java")
    assert len(patch.hunks) == 1 and patch.hunks[0].index == 0
    removed, added = patch.hunks[0].lines
    assert removed.eol == "" and added.eol == "\n"
    assert any("binary" in w for w in patch.warnings)
    assert any("mode change only" in w for w in patch.warnings)


def test_plain_diff_u_paths_are_stripped_like_p1() -> None:
    diff = b"""--- project.orig/src/a.py\t2024-01-01 10:00:00
+++ project/src/a.py\t2024-01-02 10:00:00
@@ -1,2 +1,2 @@
-x = 1
+x = 2
 y = 3
"""
    patch = parse_patch(diff)
    assert patch.files[0].path == "src/a.py"
    assert patch.files[0].status is FileStatus.MODIFIED


def test_crlf_content_lines_keep_their_ending() -> None:
    diff = b"--- a/w.txt\n+++ b/w.txt\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"
    hunk = parse_patch(diff).hunks[0]
    assert [(ln.text, ln.eol) for ln in hunk.lines] == [("a", "\r\n"), ("b", "\r\n"), ("c", "\r\n")]


def test_diff_converted_to_crlf_as_a_whole_is_read_with_a_warning() -> None:
    diff = b"--- a/w.txt\r\n+++ b/w.txt\r\n@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+c\r\n"
    patch = parse_patch(diff)
    assert [(ln.text, ln.eol) for ln in patch.hunks[0].lines] == [
        ("a", "\n"),
        ("b", "\n"),
        ("c", "\n"),
    ]
    assert any("CRLF" in w for w in patch.warnings)


def test_non_utf8_bytes_are_kept() -> None:
    diff = b"--- a/l.txt\n+++ b/l.txt\n@@ -1 +1 @@\n-caf\xe9\n+caf\xc3\xa9\n"
    hunk = parse_patch(diff).hunks[0]
    assert hunk.removed_text[0].encode("utf-8", "surrogateescape") == b"caf\xe9"
    assert hunk.added_text[0] == "caf\u00e9"


def test_hunk_with_empty_side() -> None:
    diff = b"--- a/f.txt\n+++ b/f.txt\n@@ -3,2 +2,0 @@\n-gone\n-too\n"
    hunk = parse_patch(diff).hunks[0]
    assert (hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines) == (3, 2, 2, 0)
    assert hunk.changed_lines == (3, 4)
    assert hunk.lines[0].kind is LineKind.REMOVED


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty diff"),
        (b"   \n\n", "empty diff"),
        (b"hello world\nthis is not a diff\n", "no file changes found"),
        (b"--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n", "fewer lines than its @@"),
        (
            b"diff --git a/f.txt b/f.txt\nindex 1..2 100644\n--- a/f.txt\n+++ b/f.txt\n",
            "looks truncated",
        ),
    ],
)
def test_bad_input_is_one_clear_error(data: bytes, message: str) -> None:
    with pytest.raises(PatchError, match=message) as info:
        parse_patch(data, name="x.diff")
    assert "\n" not in str(info.value)


def test_regions_make_context_width_irrelevant() -> None:
    """The same change with 0, 3 and 10 lines of context gives the same regions."""
    base = [f"line{i}" for i in range(1, 41)]

    def diff(context: int) -> bytes:
        # Change line 5 and 9 (4 lines apart → one region), insert after 20, change 30.
        import difflib

        new = list(base)
        new[4], new[8], new[29] = "five", "nine", "thirty"
        new.insert(20, "inserted")
        lines = difflib.unified_diff(
            [s + "\n" for s in base], [s + "\n" for s in new], "a/f.txt", "b/f.txt", n=context
        )
        return "".join(lines).encode()

    def summary(context: int):
        patch = parse_patch(diff(context), hunking="regions")
        return [(h.removed_text, h.added_text, h.changed_lines) for h in patch.hunks]

    expected = [
        (["line5", "line9"], ["five", "nine"], (5, 9)),
        ([], ["inserted"], (20,)),
        (["line30"], ["thirty"], (30,)),
    ]
    assert summary(3) == expected
    assert summary(0) == expected
    assert summary(10) == expected
    # As given, -U10 merges everything into one hunk and -U0 splits lines 5 and 9.
    assert len(parse_patch(diff(10)).hunks) == 1
    assert len(parse_patch(diff(0)).hunks) == 4
