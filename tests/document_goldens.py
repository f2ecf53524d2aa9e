"""Byte-for-byte goldens of every document command on the fixtures (issue 13).

The goldens in tests/data/document_goldens.json were produced by the pre-optimization
code at commit b753687: 360856a's feature set plus issue 10's deliberate document
changes (the `evidence` of every location, module-qualified JS/TS names, …), before
any of issue 13's speed-ups was merged (those were checked against 360856a's goldens
on their branch, and against these after the merge). One deliberate change since: the
`export` tables' `evidence` column (the 8 export cases written again after every other
document was checked identical to b753687's). They are the regression guard
issue 13 asks for: every speed-up
(long-lived git readers, fork workers, the tokenizer, tree metrics without materialized
nodes...) must leave each document byte-identical apart from the tool's version.

Each case is one CLI command (recorded with placeholders for the throwaway repositories);
its output is normalized (the tool version, the temporary directory and the checkout's
path replaced by placeholders) and stored as a sha256.

Regenerate only when a change of a document is deliberate (and say so in the commit):

    python tests/document_goldens.py --write
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gitrepo import (
    FIXTURES,
    PATCHES,
    apply_patch,
    build_fixture_repo,
    git,
    patches_for,
    worktree_at,
)

ROOT = Path(__file__).resolve().parents[1]
GOLDENS = Path(__file__).resolve().parent / "data" / "document_goldens.json"
BASELINE_COMMIT = "b753687"

PROJECTS = {"java": "java-project", "python": "python-project"}
PROFILES = ("default", "birch")
# A varied handful for the single-metric commands (characterize and batch cover all patches).
SINGLE = (
    "java_anonymous_classes",
    "java_deleted_file",
    "java_hunk_spans_two_methods",
    "java_lambdas",
    "java_new_file",
    "java_packages_far",
    "java_rename_with_edits",
    "java_several_methods_one_file_u0",
    "python_nested_class",
    "python_two_packages",
)
LOCALIZATION = FIXTURES / "localization"


@dataclass(frozen=True)
class Case:
    """One command whose normalized output is hashed; `argv` may hold {placeholders}."""

    name: str
    argv: tuple[str, ...]
    out: str | None = None  # the command writes this file (placeholder path) instead of stdout


@dataclass(frozen=True)
class Places:
    """The throwaway repositories and directories the placeholders stand for."""

    tmp: Path

    def fill(self, text: str) -> str:
        return text.format(tmp=self.tmp, root=ROOT)


def _language(stem: str) -> str:
    return stem.split("_", 1)[0]


def _sources(stem: str) -> dict[str, tuple[str, ...]]:
    """Source variants: none, git pre-image, git post-image, plain directory."""
    lang = _language(stem)
    repo = f"{{tmp}}/{lang}-repo"
    return {
        "none": (),
        "git-base": ("--repo", repo, "--rev", "base"),
        "git-fix": ("--repo", repo, "--rev", f"fix/{stem}"),
        "dir": ("--repo", f"{{tmp}}/{lang}-tree"),
    }


def _stems() -> list[str]:
    return sorted(p.stem for p in PATCHES.glob("*.diff"))


def cases() -> Iterator[Case]:
    """Every case, in a fixed order."""
    for stem in _stems():
        patch = f"fixtures/patches/{stem}.diff"
        for source_name, source in _sources(stem).items():
            for profile in PROFILES:
                yield Case(
                    f"characterize/{stem}/{source_name}/{profile}",
                    ("characterize", patch, *source, "--profile", profile, "--pairs", "-f", "json"),
                )
            if stem in SINGLE and source_name in ("none", "git-base"):
                yield Case(f"hunks/{stem}/{source_name}", ("hunks", patch, *source, "-f", "json"))
                yield Case(
                    f"hunks-csv/{stem}/{source_name}",
                    ("hunks", patch, *source, "--hunks", "regions", "-f", "csv"),
                )
                for profile in PROFILES:
                    for command in ("divergence", "proximity"):
                        extra = ("--pairs",) if command == "divergence" else ()
                        yield Case(
                            f"{command}/{stem}/{source_name}/{profile}",
                            (command, patch, *source, "--profile", profile, *extra, "-f", "json"),
                        )
    dev = "fixtures/localization/dev_quantity_fix.diff"
    for agent in sorted(LOCALIZATION.glob("agent_*.diff")):
        candidate = f"fixtures/localization/{agent.name}"
        for source_name, source in (
            ("none", ()),
            ("git-base", ("--repo", "{tmp}/java-repo", "--rev", "base")),
        ):
            yield Case(
                f"localization/{agent.stem}/{source_name}",
                (
                    "localization",
                    "--reference",
                    dev,
                    "--candidate",
                    candidate,
                    *source,
                    "-f",
                    "json",
                ),
            )
    for manifest in ("none", "git-base", "git-fix", "dir"):
        for profile in PROFILES:
            out = f"{{tmp}}/batch-{manifest}-{profile}.jsonl"
            yield Case(
                f"batch/{manifest}/{profile}",
                (
                    "batch",
                    f"{{tmp}}/manifest-{manifest}.csv",
                    "--out",
                    out,
                    "--profile",
                    profile,
                    "--pairs",
                    "--ordered",
                    "--jobs",
                    "1",
                ),
                out=out,
            )
            table = f"{{tmp}}/export-{manifest}-{profile}.csv"
            yield Case(f"export/{manifest}/{profile}", ("export", out, "--out", table), out=table)
    for profile in PROFILES:
        out = f"{{tmp}}/batch-jobs2-{profile}.jsonl"
        yield Case(
            f"batch-jobs2/git-base/{profile}",
            (
                "batch",
                "{tmp}/manifest-git-base.csv",
                "--out",
                out,
                "--profile",
                profile,
                "--ordered",
                "--jobs",
                "2",
            ),
            out=out,
        )
    for lang in PROJECTS:
        for profile in PROFILES:
            out = f"{{tmp}}/mine-{lang}-{profile}.jsonl"
            yield Case(
                f"mine/{lang}/{profile}",
                (
                    "mine",
                    f"{{tmp}}/{lang}-history",
                    "--out",
                    out,
                    "--grep",
                    ".",
                    "--profile",
                    profile,
                    "--jobs",
                    "1",
                ),
                out=out,
            )


def _history(tmp: Path, project: str, lang: str) -> None:
    """A linear history for `mine`: base, then each patch applied and reverted in turn."""
    repo = build_fixture_repo(tmp / f"history-{lang}", project).path
    git(repo, "checkout", "--quiet", "-b", "history", "base")
    for stem, patch in sorted(patches_for(project).items()):
        apply_patch(repo, patch)
        git(repo, "commit", "--quiet", "-m", f"apply {stem}")
        git(repo, "revert", "--no-edit", "HEAD")
    git(repo, "branch", "--quiet", "-D", "main")
    git(repo, "branch", "--quiet", "-m", "main")
    (tmp / f"{lang}-history").symlink_to(repo)


def prepare(tmp: Path) -> None:
    """Build the repositories, trees and manifests the placeholders name."""
    for lang, project in PROJECTS.items():
        fixture = build_fixture_repo(tmp / f"build-{lang}", project)
        (tmp / f"{lang}-repo").symlink_to(fixture.path)
        worktree_at(fixture.path, "base", tmp / f"{lang}-tree")
        _history(tmp, project, lang)
    for manifest in ("none", "git-base", "git-fix", "dir"):
        with (tmp / f"manifest-{manifest}.csv").open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(["id", "patch", "repo", "rev"])
            for stem in _stems():
                source = _sources(stem)[manifest]
                repo = source[1].format(tmp=tmp) if source else ""
                rev = source[3] if len(source) == 4 else ""
                writer.writerow([stem, str(PATCHES / f"{stem}.diff"), repo, rev])


def normalize(text: str, tmp: Path) -> str:
    """The output with the tool version and the run's own paths replaced by placeholders."""
    from hunkmetrics.version import __version__

    text = text.replace(str(tmp.resolve()), "<tmp>").replace(str(tmp), "<tmp>")
    text = text.replace(str(ROOT), "<root>")
    return text.replace(__version__, "<version>")


def run_case(case: Case, places: Places) -> str:
    """Run one case in this process; return the sha256 of its normalized output."""
    from typer.testing import CliRunner

    from hunkmetrics.cli.app import app

    argv = [places.fill(arg) for arg in case.argv]
    result = CliRunner().invoke(app, argv)
    if result.exit_code != 0:
        raise AssertionError(f"{case.name}: exit {result.exit_code}: {result.output}")
    if case.out is not None:
        text = Path(places.fill(case.out)).read_text(encoding="utf-8")
    else:
        text = result.stdout
    return hashlib.sha256(normalize(text, places.tmp).encode("utf-8")).hexdigest()


def compute(tmp: Path) -> dict[str, str]:
    """sha256 of every case's normalized output, run from the checkout's root."""
    prepare(tmp)
    places = Places(tmp)
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        return {case.name: run_case(case, places) for case in cases()}
    finally:
        os.chdir(here)


def load() -> dict[str, str]:
    """The stored goldens: case name -> sha256."""
    data = json.loads(GOLDENS.read_text(encoding="utf-8"))
    return {case["name"]: case["sha256"] for case in data["cases"]}


def write(hashes: dict[str, str]) -> None:
    commands = {case.name: case for case in cases()}
    document = {
        "about": (
            f"sha256 of each command's normalized output, produced by the pre-optimization "
            f"code at {BASELINE_COMMIT} (issue 13 regression guard; the export cases since "
            "carry export's evidence column; since issue 24 every CSV has RFC 4180 line ends and "
            "neutral cells, and mine's records and export's table name the repository; since the "
            "diff-only nested-code change, hunks in nested callables are placed or say why not); "
            "regenerate deliberately "
            "with: python tests/document_goldens.py --write"
        ),
        "baseline_commit": BASELINE_COMMIT,
        "normalized": ["tool version -> <version>", "temporary dir -> <tmp>", "checkout -> <root>"],
        "cases": [
            {
                "name": name,
                "command": ["hunkmetrics", *commands[name].argv],
                **({"output": commands[name].out} if commands[name].out else {}),
                "sha256": digest,
            }
            for name, digest in hashes.items()
        ],
    }
    GOLDENS.parent.mkdir(parents=True, exist_ok=True)
    GOLDENS.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="overwrite the stored goldens")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        hashes = compute(Path(tmp))
    if args.write:
        write(hashes)
        print(f"wrote {len(hashes)} goldens to {GOLDENS}")
        return
    stored = load()
    changed = sorted(
        name for name in hashes.keys() | stored.keys() if hashes.get(name) != stored.get(name)
    )
    print("\n".join(changed) or f"all {len(hashes)} documents identical")
    sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
