"""Sources: reading a working tree or a git revision, detecting which side of the patch it
holds, and deriving the other side byte for byte."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hunkmetrics import SourceError, open_workspace, parse_patch
from hunkmetrics.lang.selection import ALL_FILES
from hunkmetrics.sources import GitRevisionReader, WorktreeReader, blob_hash, resolve_sources

PRE = {
    "src/Calc.java": b"class Calc {\n  int add(int a, int b) {\n    return a - b;\n  }\n"
    b"  int twice(int a) {\n    return a;\n  }\n}\n",
    "crlf.txt": b"one\r\ntwo\r\nthree\r\n",
    "tail.txt": b"alpha\nbeta",  # no newline at end of file
    "latin1.txt": b"caf\xe9\nna\xefve\n",
}
POST = {
    "src/Calc.java": b"class Calc {\n  int add(int a, int b) {\n    return a + b;\n  }\n"
    b"  int twice(int a) {\n    return 2 * a;\n  }\n}\n",
    "crlf.txt": b"one\r\n2\r\nthree\r\n",
    "tail.txt": b"alpha\ngamma",
    "latin1.txt": b"caf\xe9\nna\xefve!\n",
}


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        [
            "git",
            "-C",
            str(repo),
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.org",
            "-c",
            "core.autocrlf=false",
            *args,
        ],
        capture_output=True,
        check=True,
    )
    return done.stdout.decode()


def write(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, bytes]:
    """A repository with commits `pre` and `post`; returns it and `git diff pre post`."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, PRE)
    git(root, "add", ".")
    git(root, "commit", "-qm", "pre")
    git(root, "tag", "pre")
    write(root, POST)
    git(root, "commit", "-qam", "post")
    git(root, "tag", "post")
    diff = subprocess.run(
        ["git", "-C", str(root), "diff", "--binary", "pre", "post"], capture_output=True, check=True
    ).stdout
    return root, diff


def test_git_diff_is_text_for_every_file(repo) -> None:
    _, diff = repo
    patch = parse_patch(diff)
    assert sorted(f.path for f in patch.content_files) == sorted(PRE)


def test_revision_holding_the_pre_image(repo) -> None:
    root, diff = repo
    sources = resolve_sources(parse_patch(diff), GitRevisionReader(root, "pre"))
    assert sources.side == "pre"
    for name in PRE:
        assert sources.files[name].pre == PRE[name]
        assert sources.files[name].post == POST[name], name  # derived, byte for byte


def test_revision_holding_the_post_image(repo) -> None:
    root, diff = repo
    sources = resolve_sources(parse_patch(diff), GitRevisionReader(root, "post"))
    assert sources.side == "post"
    for name in PRE:
        assert sources.files[name].pre == PRE[name], name  # derived backwards
        assert sources.files[name].post == POST[name]


def test_reversed_patch_flips_the_side(repo) -> None:
    root, diff = repo
    sources = resolve_sources(parse_patch(diff, reverse=True), GitRevisionReader(root, "pre"))
    assert sources.side == "post"
    assert sources.files["crlf.txt"].pre == POST["crlf.txt"]


def test_working_tree_without_index_lines_uses_the_text(repo, tmp_path: Path) -> None:
    root, diff = repo
    plain = b"\n".join(line for line in diff.split(b"\n") if not line.startswith(b"index "))
    tree = tmp_path / "tree"
    write(tree, POST)
    patch = parse_patch(plain)
    assert all(f.old_blob is None for f in patch.files)
    sources = resolve_sources(patch, WorktreeReader(tree))
    assert sources.side == "post"
    assert sources.files["src/Calc.java"].pre == PRE["src/Calc.java"]


def test_bare_mirror_is_read_without_a_work_tree(repo, tmp_path: Path) -> None:
    root, diff = repo
    bare = tmp_path / "mirror.git"
    subprocess.run(["git", "clone", "-q", "--mirror", str(root), str(bare)], check=True)
    sources = resolve_sources(parse_patch(diff), GitRevisionReader(bare, "pre"))
    assert sources.files["tail.txt"].post == POST["tail.txt"]


def test_blob_hash_is_gits() -> None:
    # `printf 'hello\n' | git hash-object --stdin`
    assert blob_hash(b"hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a"


def test_wrong_revision_names_the_file(repo) -> None:
    root, diff = repo
    git(root, "checkout", "-q", "-b", "other", "pre")
    (root / "src" / "Calc.java").write_bytes(b"class Calc {}\n")
    git(root, "commit", "-qam", "unrelated")
    with pytest.raises(SourceError, match=r"src/Calc\.java: .* matches neither side"):
        resolve_sources(parse_patch(diff), GitRevisionReader(root, "other"))


def test_file_missing_at_revision(repo) -> None:
    root, diff = repo
    git(root, "rm", "-q", "tail.txt")
    git(root, "commit", "-qm", "drop")
    with pytest.raises(SourceError, match=r"tail\.txt: .*file not found"):
        resolve_sources(parse_patch(diff), GitRevisionReader(root, "HEAD"))


def test_revision_that_does_not_exist(repo) -> None:
    root, _ = repo
    with pytest.raises(SourceError, match="revision 'no-such-rev' does not exist"):
        GitRevisionReader(root, "no-such-rev")


def test_not_a_repository(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="not a git repository"):
        GitRevisionReader(tmp_path, "HEAD")


def test_tree_mixing_sides_is_refused(repo, tmp_path: Path) -> None:
    _, diff = repo
    tree = tmp_path / "mixed"
    write(tree, PRE)
    (tree / "crlf.txt").write_bytes(POST["crlf.txt"])
    with pytest.raises(SourceError, match="pre-image but .* post-image"):
        resolve_sources(parse_patch(diff), WorktreeReader(tree))


def test_workspace_locates_from_source(repo) -> None:
    root, diff = repo
    with open_workspace(diff, repo=root, rev="post", selection=ALL_FILES) as workspace:
        located = {item.hunk.path: item.location for item in workspace.located()}
    calc = located["src/Calc.java"]
    assert calc.located_by == "source"
    assert calc.language == "java" and calc.package == ""
    assert calc.class_name == "Calc"
    assert calc.method is None  # one hunk spans `add` (line 3) and `twice` (line 6)
    assert calc.methods == ("Calc.add(int,int)", "Calc.twice(int)")
    assert located["crlf.txt"].language is None


def test_blob_names_of_sha256_repositories_match(tmp_path: Path) -> None:
    from hunkmetrics.sources.resolve import blob_matches

    # printf 'blob 6\0hello\n' | sha256sum  (git's object format: "blob <size>\0" + bytes)
    sha256 = "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4"
    assert blob_hash(b"hello\n", "sha256") == sha256
    assert blob_matches(b"hello\n", sha256[:12])
    assert blob_matches(b"hello\n", "ce01362")  # the SHA-1 name's abbreviation
    assert not blob_matches(b"hello!\n", "ce01362")


# --------------------------------------------------------------------------- sources.git


def test_git_module_resolves_reads_and_streams(repo, tmp_path: Path) -> None:
    from hunkmetrics.sources import git as gitmod

    root, _ = repo
    post = git(root, "rev-parse", "post").strip()
    assert gitmod.resolve_commit(root, "post") == post
    assert gitmod.resolve_commit(root, "no-such-rev") is None
    assert gitmod.is_repository(root) and not gitmod.is_repository(tmp_path)
    with pytest.raises(SourceError, match="not a git repository"):
        gitmod.resolve_commit(tmp_path, "HEAD")
    objects = gitmod.CatFile(root)
    try:
        assert objects.read(f"{post}:src/Calc.java") == (b"blob", POST["src/Calc.java"])
        tree = objects.read(f"{post}:src")
        assert tree is not None and tree[0] == b"tree"
        assert objects.read(f"{post}:no/such/file") is None
    finally:
        objects.close()
    # Two commits, newest first, each one record of a NUL-separated stream.
    subjects = list(gitmod.stream(root, "log", "-z", "--format=%s"))
    assert subjects == [b"post", b"pre"]
    with pytest.raises(SourceError, match="^git log failed in .*: "):
        list(gitmod.stream(root, "log", "no-such-rev", "--"))
    with pytest.raises(SourceError, match="^git rev-parse failed in "):
        gitmod.output(root, "rev-parse", "--verify", "no-such-rev")
