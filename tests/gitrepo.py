"""Build throwaway git repositories from the fixture projects, for tests that need a history.

`build_fixture_repo` commits `fixtures/<project>` as the tag `base`, puts every matching
fixture patch on its own branch `fix/<patch-stem>` (the post-image), and adds unrelated
commits on `main` so that `base` is not `HEAD`. `worktree_at` exports the tree of any ref
as a plain directory without `.git`.

Git runs hermetically: no global or system configuration is read or changed, and author
and committer are fixed, so the same fixtures always give the same commits.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
PATCHES = FIXTURES / "patches"

BASE_TAG = "base"
BRANCH_PREFIX = "fix/"

# Project directory under fixtures/ → prefix of the patch files that apply to it.
PATCH_PREFIX = {"java-project": "java_", "python-project": "python_"}

_GIT_CONFIG = [
    "-c",
    "user.name=Fixture Builder",
    "-c",
    "user.email=fixtures@hunkmetrics.invalid",
    "-c",
    "init.defaultBranch=main",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "tag.gpgsign=false",
    "-c",
    "core.autocrlf=false",
]
_GIT_DATE = "2024-01-01T12:00:00+00:00"


@dataclass(frozen=True)
class FixtureRepo:
    """A git repository holding one fixture project and its patches as branches."""

    path: Path
    project: str
    patches: dict[str, Path] = field(default_factory=dict)  # patch stem → patch file

    base: str = BASE_TAG

    def branch(self, stem: str) -> str:
        """The branch that holds the post-image of the patch `stem`."""
        if stem not in self.patches:
            raise KeyError(f"no patch {stem!r} for {self.project}")
        return BRANCH_PREFIX + stem


def git(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    """Run git in `repo` with the fixture configuration; return its stdout, raise on failure."""
    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_DATE": _GIT_DATE,
        "GIT_COMMITTER_DATE": _GIT_DATE,
        "LC_ALL": "C",
    }
    result = subprocess.run(
        ["git", *_GIT_CONFIG, *args],
        cwd=repo,
        env=env,
        input=stdin,
        capture_output=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"git {' '.join(args)} failed in {repo}:\n{result.stderr.decode(errors='replace')}"
        )
    return result.stdout


def patches_for(project: str) -> dict[str, Path]:
    """The fixture patches of `project`, by stem, in name order."""
    try:
        prefix = PATCH_PREFIX[project]
    except KeyError:
        raise ValueError(
            f"unknown fixture project {project!r}; known: {', '.join(sorted(PATCH_PREFIX))}"
        ) from None
    return {p.stem: p for p in sorted(PATCHES.glob(f"{prefix}*.diff"))}


def needs_unidiff_zero(patch: Path) -> bool:
    """Whether `patch` was exported without context (`git diff -U0`).

    `git apply` refuses such hunks unless told `--unidiff-zero`. A patch counts as
    zero-context when none of its hunks has a context line.
    """
    in_hunk = False
    for line in patch.read_text(encoding="utf-8").splitlines():
        if line.startswith("@@"):
            in_hunk = True
        elif line.startswith("diff --git"):
            in_hunk = False
        elif in_hunk and line.startswith(" "):
            return False
    return True


def apply_patch(repo: Path, patch: Path) -> None:
    """Apply `patch` to the work tree and index of `repo` (new, deleted and renamed files too)."""
    extra = ["--unidiff-zero"] if needs_unidiff_zero(patch) else []
    git(repo, "apply", "--index", *extra, str(patch))


def build_fixture_repo(tmp_path: Path, project: str) -> FixtureRepo:
    """Make a git repository of `fixtures/<project>` under `tmp_path`.

    - `main`'s first commit holds the project as it is in `fixtures/`, tagged `base`;
    - each patch in `fixtures/patches/` named `<language>_*.diff` for the project's
      language gets a branch `fix/<patch-stem>` from `base` with one commit: the patch
      applied (its post-image);
    - two unrelated commits follow `base` on `main`, so `base` is not `HEAD`.

    Works from any current directory. Returns the repository's path and patches.
    """
    source = FIXTURES / project
    if not source.is_dir():
        raise ValueError(f"no fixture project {source}")
    patches = patches_for(project)
    repo = Path(tmp_path) / f"{project}-repo"
    shutil.copytree(source, repo)

    git(repo, "init", "--quiet")
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", f"{project}: base")
    git(repo, "tag", BASE_TAG)

    for stem, patch in patches.items():
        git(repo, "checkout", "--quiet", "-b", BRANCH_PREFIX + stem, BASE_TAG)
        apply_patch(repo, patch)
        git(repo, "commit", "--quiet", "-m", f"apply {patch.name}")
    git(repo, "checkout", "--quiet", "main")

    notes = repo / "NOTES.md"
    notes.write_text("# Notes\n\nUnrelated to any fixture patch.\n", encoding="utf-8")
    git(repo, "add", "NOTES.md")
    git(repo, "commit", "--quiet", "-m", "notes")
    with notes.open("a", encoding="utf-8") as handle:
        handle.write("\nA second line, so that main is two commits ahead of base.\n")
    git(repo, "commit", "--quiet", "-am", "more notes")

    return FixtureRepo(path=repo, project=project, patches=patches)


def worktree_at(repo: Path, ref: str, dest: Path) -> Path:
    """Export the tree of `ref` in `repo` to the new directory `dest` (no `.git`); return `dest`."""
    archive = git(repo, "archive", "--format=tar", ref)
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=False)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4
            tar.extractall(dest, filter="data")
        else:
            tar.extractall(dest)  # our own archive: nothing to filter
    return dest
