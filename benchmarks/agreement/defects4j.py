"""Where a Hunk4J bug's inputs come from, for the agreement and speed scripts: the
upstream git mirror, Defects4J's fixed commit, its `modified_classes` (the study's file
order) and patch, read from git mirrors (`<owner>+<name>/repo` bare directories, what
the `fetch` tool makes). Not a test module."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

# Defects4J project -> upstream repository. Chart was developed in SVN: Defects4J's ids
# are SVN revisions, and the public git history does not hold the patches' blobs.
UPSTREAM: dict[str, str | None] = {
    "Chart": None,
    "Cli": "apache/commons-cli",
    "Closure": "google/closure-compiler",
    "Codec": "apache/commons-codec",
    "Collections": "apache/commons-collections",
    "Compress": "apache/commons-compress",
    "Csv": "apache/commons-csv",
    "Gson": "google/gson",
    "JacksonCore": "FasterXML/jackson-core",
    "JacksonDatabind": "FasterXML/jackson-databind",
    "JacksonXml": "FasterXML/jackson-dataformat-xml",
    "Jsoup": "jhy/jsoup",
    "JxPath": "apache/commons-jxpath",
    "Lang": "apache/commons-lang",
    "Math": "apache/commons-math",
    "Mockito": "mockito/mockito",
    "Time": "JodaOrg/joda-time",
}

# Directories that older revisions kept the sources under, while Defects4J's patches name
# the paths from the later layout (Joda-Time before its move: `JodaTime/src/...`).
LEGACY_PREFIXES = ("JodaTime",)


def git_dir(mirrors: Path, name: str) -> Path | None:
    base = mirrors / name.replace("/", "+")
    for candidate in (base / "repo", base):
        if (candidate / "HEAD").is_file():
            return candidate
    return None


def git(repo: Path, *args: str) -> str | None:
    done = subprocess.run(
        ["git", "--git-dir", str(repo), *args], capture_output=True, text=True, check=False
    )
    return done.stdout if done.returncode == 0 else None


def has_object(repo: Path, name: str) -> bool:
    done = subprocess.run(
        ["git", "--git-dir", str(repo), "cat-file", "-e", name], capture_output=True, check=False
    )
    return done.returncode == 0


@dataclass(frozen=True)
class Defects4J:
    """A rjust/defects4j mirror, read at its HEAD."""

    repo: Path

    @classmethod
    def find(cls, mirrors: Path) -> Defects4J | None:
        repo = git_dir(mirrors, "rjust/defects4j")
        return cls(repo) if repo is not None else None

    def file(self, path: str) -> str | None:
        return git(self.repo, "show", f"HEAD:framework/projects/{path}")

    def fixed_commit(self, bug: str) -> str | None:
        """`revision.id.fixed` from the current active-bugs.csv (Defects4J moved its
        Math and Lang ids to the rewritten apache histories in 2022), else from
        deprecated-bugs.csv (bugs Defects4J has since retired, e.g. JacksonDatabind_65)."""
        project, number = bug.rsplit("_", 1)
        for table in ("active-bugs.csv", "deprecated-bugs.csv"):
            for line in (self.file(f"{project}/{table}") or "").splitlines()[1:]:
                cells = line.split(",")
                if len(cells) > 2 and cells[0] == number:
                    return cells[2]
        return None

    def modified_classes(self, bug: str) -> list[str]:
        project, number = bug.rsplit("_", 1)
        return (self.file(f"{project}/modified_classes/{number}.src") or "").split()

    def patch(self, bug: str) -> bytes | None:
        project, number = bug.rsplit("_", 1)
        done = subprocess.run(
            ["git", "--git-dir", str(self.repo), "show",
             f"HEAD:framework/projects/{project}/patches/{number}.src.patch"],
            capture_output=True, check=False,
        )  # fmt: skip
        return done.stdout if done.returncode == 0 else None


def file_order(paths: Sequence[str], classes: Sequence[str]) -> tuple[str, ...]:
    """The patch's files in modified_classes order (class a.b.C is the path ending in
    a/b/C.java); files matching no class follow in patch order."""
    names = [c.replace(".", "/") + ".java" for c in classes]

    def rank(path: str) -> int:
        return next((k for k, name in enumerate(names) if path.endswith(name)), len(names))

    return tuple(sorted(dict.fromkeys(paths), key=rank))  # stable: patch order within a rank


def path_prefix(repo: Path, commit: str, paths: Sequence[str]) -> str | None:
    """A legacy source directory the commit keeps the patch's files under, if the files
    are not where the patch says (Time_23, Time_26: `JodaTime/`)."""
    if not paths or any(has_object(repo, f"{commit}:{p}") for p in paths):
        return None
    for prefix in LEGACY_PREFIXES:
        if any(has_object(repo, f"{commit}:{prefix}/{p}") for p in paths):
            return prefix
    return None
