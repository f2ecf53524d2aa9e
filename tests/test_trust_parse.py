"""Issue 15, parse and model level: valid diffs that were rejected or misread, and bad
ones that crashed. Every expectation is worked out by hand from the diff text."""

from __future__ import annotations

import pytest

from hunkmetrics import FileStatus, PatchError, parse_patch


def _one_file(diff: bytes):
    patch = parse_patch(diff)
    assert len(patch.files) == 1
    return patch.files[0]


def test_no_prefix_git_diff_keeps_the_whole_path() -> None:
    # `git diff --no-prefix`: the same name twice, no a/ b/.
    diff = (
        b"diff --git src/pkg/m.py src/pkg/m.py\n"
        b"index 1111111..2222222 100644\n"
        b"--- src/pkg/m.py\n+++ src/pkg/m.py\n"
        b"@@ -1 +1 @@\n-a\n+b\n"
    )
    f = _one_file(diff)
    assert (f.old_path, f.new_path, f.status) == ("src/pkg/m.py", "src/pkg/m.py", "modified")
    assert f.hunks[0].path == "src/pkg/m.py"


def test_no_prefix_new_file_and_prefixed_diff_side_by_side() -> None:
    diff = (
        b"diff --git lib/n.py lib/n.py\nnew file mode 100644\nindex 0000000..3333333\n"
        b"--- /dev/null\n+++ lib/n.py\n@@ -0,0 +1 @@\n+x\n"
        b"diff --git a/lib/o.py b/lib/o.py\nindex 1111111..2222222 100644\n"
        b"--- a/lib/o.py\n+++ b/lib/o.py\n@@ -2 +2 @@\n-y\n+z\n"
    )
    new, old = parse_patch(diff).files
    assert (new.old_path, new.new_path, new.status) == (None, "lib/n.py", FileStatus.ADDED)
    assert (old.old_path, old.new_path, old.status) == ("lib/o.py", "lib/o.py", "modified")


def test_plain_diff_with_equal_paths_keeps_its_first_directory() -> None:
    # `svn diff` style: no prefixes, the same path twice; nothing to strip.
    diff = b"--- src/a.py\t(revision 1)\n+++ src/a.py\t(working copy)\n@@ -1 +1 @@\n-a\n+b\n"
    assert _one_file(diff).path == "src/a.py"


def test_path_containing_space_b_slash() -> None:
    # git appends a TAB to ---/+++ names holding a space.
    diff = (
        b"diff --git a/x b/y.py b/x b/y.py\nindex 1111111..2222222 100644\n"
        b"--- a/x b/y.py\t\n+++ b/x b/y.py\t\n@@ -1 +1 @@\n-a\n+b\n"
    )
    f = _one_file(diff)
    assert (f.old_path, f.new_path, f.status) == ("x b/y.py", "x b/y.py", "modified")


def test_quoted_non_ascii_names_are_unquoted() -> None:
    # core.quotePath: é is written as the octal bytes of its UTF-8 form.
    diff = (
        b'diff --git "a/d\\303\\251j\\303\\240.py" "b/d\\303\\251j\\303\\240.py"\n'
        b"index 1111111..2222222 100644\n"
        b'--- "a/d\\303\\251j\\303\\240.py"\n+++ "b/d\\303\\251j\\303\\240.py"\n'
        b"@@ -1 +1 @@\n-a\n+b\n"
    )
    assert _one_file(diff).path == "d\u00e9j\u00e0.py"


def test_byte_order_mark_is_dropped() -> None:
    diff = (
        b"\xef\xbb\xbfdiff --git a/x.py b/x.py\nindex 1111111..2222222 100644\n"
        b"--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n"
    )
    f = _one_file(diff)
    # The index line was read: the BOM did not hide the `diff --git` line.
    assert (f.path, f.old_blob, f.new_blob) == ("x.py", "1111111", "2222222")


def test_utf16_diff_is_read_as_utf8_with_a_warning() -> None:
    text = "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-caf\u00e9\n+cafe\n"
    patch = parse_patch(b"\xff\xfe" + text.encode("utf-16-le"))
    assert patch.hunks[0].removed_text == ["caf\u00e9"]
    assert any("UTF-16" in w for w in patch.warnings)


def test_insertion_at_the_top_of_an_existing_file_is_a_modification() -> None:
    # `git diff -U0` of a line added before line 1: no `new file mode`, so not added.
    diff = (
        b"diff --git a/x.py b/x.py\nindex 1111111..2222222 100644\n"
        b"--- a/x.py\n+++ b/x.py\n@@ -0,0 +1 @@\n+first\n"
    )
    f = _one_file(diff)
    assert (f.old_path, f.new_path, f.status) == ("x.py", "x.py", FileStatus.MODIFIED)
    assert f.hunks[0].changed_lines == (0,)


def test_adding_to_an_empty_file_is_a_modification() -> None:
    diff = (
        b"diff --git a/e.txt b/e.txt\nindex e69de29..2222222 100644\n"
        b"--- a/e.txt\n+++ b/e.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n"
    )
    f = _one_file(diff)
    assert f.status is FileStatus.MODIFIED and f.old_blob == "e69de29"


def test_type_change_is_a_deleted_file_and_an_excluded_symlink() -> None:
    # git writes a file → symlink change as two sections for one path.
    diff = (
        b"diff --git a/x.py b/x.py\ndeleted file mode 100644\nindex 1111111..0000000\n"
        b"--- a/x.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a = 1\n-b = 2\n"
        b"diff --git a/x.py b/x.py\nnew file mode 120000\nindex 0000000..2222222\n"
        b"--- /dev/null\n+++ b/x.py\n@@ -0,0 +1 @@\n+y.py\n\\ No newline at end of file\n"
    )
    patch = parse_patch(diff)
    gone, link = patch.files
    assert (gone.status, gone.old_path, gone.new_path) == (FileStatus.DELETED, "x.py", None)
    assert gone.excluded_reason is None and len(gone.hunks) == 1
    assert (link.status, link.new_path, link.new_mode) == (FileStatus.ADDED, "x.py", "120000")
    # Like a binary file, the symlink keeps no hunk: only the deleted file's counts.
    assert link.excluded_reason == "symlink" and link.hunks == ()
    assert [(h.index, h.removed_text) for h in patch.hunks] == [(0, ["a = 1", "b = 2"])]
    assert patch.content_files == (gone,)
    assert "x.py: symlink, excluded from metrics" in patch.warnings


def test_trailing_incomplete_line_is_a_whole_line() -> None:
    diff = b"--- a/x.java\n+++ b/x.java\n@@ -1,2 +1,2 @@\n a\n-b\n+c"
    hunk = parse_patch(diff).hunks[0]
    assert [(ln.kind, ln.text, ln.eol) for ln in hunk.lines] == [
        ("context", "a", "\n"),
        ("removed", "b", "\n"),
        ("added", "c", "\n"),
    ]


def test_blank_line_after_a_hunk_adds_no_line() -> None:
    diff = b"--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n\n@@ -5 +5 @@\n-c\n+d\n\n"
    patch = parse_patch(diff)
    assert [len(h.lines) for h in patch.hunks] == [2, 2]


def test_mbox_input_is_read_around_the_mail() -> None:
    diff = (
        b"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
        b"From: A <a@example.org>\nSubject: [PATCH] fix\n\nbody --- text\n---\n"
        b" x.py | 2 +-\n 1 file changed\n\n"
        b"diff --git a/x.py b/x.py\nindex 1111111..2222222 100644\n"
        b"--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n-- \n2.39.5\n\n"
    )
    patch = parse_patch(diff)
    assert [f.path for f in patch.files] == ["x.py"]
    assert patch.hunks[0].removed_text == ["a"] and patch.hunks[0].added_text == ["b"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # A hunk with only context, or with empty ranges, changes nothing: git calls it corrupt.
        (b"--- a/x.java\n+++ b/x.java\n@@ -1,2 +1,2 @@\n a\n b\n", "changes no line"),
        (b"--- a/x.java\n+++ b/x.java\n@@ -1,0 +1,0 @@\n", "changes no line"),
        (b"--- a/x.java\n+++ b/x.java\n@@ -99999999,3 +1,3 @@\n a\n-b\n+c\n d\n", "over"),
        # Arabic-Indic and fullwidth digits are no line numbers.
        ("--- a/x\n+++ b/x\n@@ -\u0661 +\u0661 @@\n-b\n+c\n".encode(), "malformed @@"),
        ("--- a/x\n+++ b/x\n@@ -\uff11 +\uff11 @@\n-b\n+c\n".encode(), "malformed @@"),
        (b"--- a/x\n+++ b/x\n@@ -0,2 +1,2 @@\n-b\n+c\n", "from line 0"),
        (b"@@ -1 +1 @@\n-a\n+b\n", "outside any file section"),
        (b"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n-b\n+c\n", "more lines than"),
        (b"--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n-a\nzzz\n", "must start with"),
        (b"diff --cc x.py\n--- a/x.py\n+++ b/x.py\n@@@ -1 -1 +1 @@@\n", "combined diff"),
        # The offending line holds a CR, a NUL and a vertical tab: still one line out.
        (b"--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n-a\n\x00z\x0bz\r\n", "must start with"),
    ],
)
def test_bad_input_is_one_line_patch_error(data: bytes, message: str) -> None:
    with pytest.raises(PatchError, match=message) as info:
        parse_patch(data, name="bad.diff")
    text = str(info.value)
    assert "\n" not in text and "\r" not in text and text.startswith("bad.diff: ")


def test_error_naming_a_file_with_a_newline_stays_one_line() -> None:
    with pytest.raises(PatchError) as info:
        parse_patch(b"", name="two\nlines.diff")
    assert str(info.value) == "two\\nlines.diff: empty diff"


def test_plain_p1_diff_strips_a_name_facing_dev_null_like_the_others() -> None:
    diff = (
        b"--- proj.orig/src/a.py\n+++ proj/src/a.py\n@@ -1 +1 @@\n-a\n+b\n"
        b"--- proj.orig/src/gone.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
    )
    kept, gone = parse_patch(diff).files
    assert kept.path == "src/a.py"
    assert (gone.old_path, gone.new_path, gone.status) == ("src/gone.py", None, "deleted")
    # /dev/null says so: nothing guessed.
    assert not gone.status_guessed


def test_plain_new_file_without_dev_null_is_marked_guessed() -> None:
    # `@@ -0,0` alone: a new file, or lines added to an empty one; git decides by
    # whether the file exists, so the model says the status was guessed.
    diff = b"--- a/e.txt\n+++ b/e.txt\n@@ -0,0 +1 @@\n+one\n"
    f = _one_file(diff)
    assert (f.status, f.old_path, f.new_path, f.status_guessed) == ("added", None, "e.txt", True)


def test_binary_only_plain_diff_converted_to_crlf() -> None:
    f = _one_file(b"Binary files a/img.png and b/img.png differ\r\n")
    assert (f.path, f.is_binary, f.excluded_reason) == ("img.png", True, "binary")
