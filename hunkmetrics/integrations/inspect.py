"""An Inspect AI scorer (extra `inspect`): the sample's diff in its sandbox measured against
its gold patch with hunkmetrics (`diff_score`). Add it to a task beside the scorer that runs
the tests:

    from hunkmetrics.integrations.inspect import hunk_localization
    Task(dataset=..., solver=..., scorer=[swe_bench_scorer(), hunk_localization()])

The gold patch is `state.metadata["patch"]` and the base commit `state.metadata
["base_commit"]` (inspect_evals' SWE-bench names; both configurable). The diff is `git diff`
of the sandbox's working tree (untracked files included, through a throw-away index, so the
sandbox's own index is left alone) against the base, or the text a task put under `patch` in
the store or metadata. The touched files are read from the sandbox at the base commit, so
hunks are placed in methods; when they cannot be, the score says it measured the diffs alone.
A sample is never failed by this scorer: what it cannot measure is a score of NaN values
(Inspect's "not scored") with the reason as explanation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import anyio
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import SandboxEnvironment, sandbox

from hunkmetrics.integrations.diff_score import (
    VALUES,
    BaseTree,
    DiffScore,
    base_paths,
    score_diff,
    unscored,
)

__all__ = ["DIFF_SCRIPT", "hunk_localization"]

DIFF_SCRIPT = """set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$(git rev-parse --git-path index)" "$tmp/index" 2>/dev/null || true
export GIT_INDEX_FILE="$tmp/index"
git add -A
git -c core.quotepath=off diff --cached --no-color --no-ext-diff "$1"
"""
"""The default diff: the working tree, untracked files included, against the base (`$1`),
staged in a copy of the index so that the agent's own index is not touched."""


@dataclass(frozen=True, slots=True)
class _Options:
    gold: str
    base_commit: str
    patch: str | None
    diff_command: tuple[str, ...] | None
    cwd: str | None
    sandbox_name: str | None
    sources: bool
    exclude_tests: bool
    profile: str
    timeout: int


@scorer(metrics={key: [mean()] for key in VALUES})
def hunk_localization(
    gold: str = "patch",
    base_commit: str = "base_commit",
    patch: str | None = None,
    diff_command: Sequence[str] | None = None,
    cwd: str | None = None,
    sandbox_name: str | None = None,
    sources: bool = True,
    exclude_tests: bool = True,
    profile: str = "default",
    timeout: int = 300,
) -> Scorer:
    """Localization of the sample's diff against its gold patch: file, hunk and method
    recall, file and hunk precision, whether every gold file is touched, how many test
    files the diff edits, the gold patch's hunks and divergence (docs/agents.md).

    Args:
        gold: metadata key of the gold patch.
        base_commit: metadata key of the commit the agent started from (HEAD without it).
        patch: store or metadata key holding the agent's diff; None runs `diff_command`.
        diff_command: argv run in the sandbox for the diff; `{base}` is replaced by the
            base commit. Default: `DIFF_SCRIPT` with bash.
        cwd: the repository's directory in the sandbox (default: the sandbox's own).
        sandbox_name: which sandbox of the sample (default: the default one).
        sources: read the touched files from the sandbox at the base (methods need them).
        exclude_tests: leave test files out of localization, as `agents evaluate` does.
        profile: the hunk profile of the gold patch's divergence and proximity.
        timeout: seconds for each command run in the sandbox.
    """
    options = _Options(
        gold,
        base_commit,
        patch,
        tuple(diff_command) if diff_command is not None else None,
        cwd,
        sandbox_name,
        sources,
        exclude_tests,
        profile,
        timeout,
    )

    async def score(state: TaskState, target: Target) -> Score:
        try:
            result = await _measure(state, options)
        except Exception as exc:  # a sample's scorer must not fail the sample
            result = unscored(
                f"hunk_localization could not measure this sample ({type(exc).__name__}: "
                f"{' '.join(str(exc).split())[:300]})."
            )
        return Score(value=result.values, explanation=result.explanation, metadata=result.metadata)

    return score


def _text(metadata: dict[str, Any], key: str) -> str | None:
    value = metadata.get(key)
    return value if isinstance(value, str) and value.strip() else None


async def _measure(state: TaskState, options: _Options) -> DiffScore:
    gold = _text(state.metadata, options.gold)
    if gold is None:
        return unscored(
            f"The sample has no gold patch (metadata[{options.gold!r}] is missing or empty), "
            "so there is nothing to localize its diff against."
        )
    notes: list[str] = []
    base = _text(state.metadata, options.base_commit)
    box = sandbox(options.sandbox_name) if options.patch is None or options.sources else None
    if base is None:
        base = "HEAD"
        if box is not None:
            notes.append(f"no metadata[{options.base_commit!r}]: the base is HEAD")
    if options.patch is not None:
        found = state.store.get(options.patch, None)
        if found is None:
            found = state.metadata.get(options.patch)
        if not isinstance(found, str):
            return unscored(
                f"No diff under {options.patch!r} in the sample's store or metadata.",
                base_commit=base,
            )
        diff = found
    else:
        assert box is not None
        diff, failure = await _diff(box, base, options)
        if failure is not None:
            return unscored(failure, base_commit=base)
    tree: BaseTree | None = None
    no_sources = "sources=False"
    if options.sources and box is not None:
        tree, no_sources = await _base_tree(box, base, base_paths(gold, diff), options)
    result = await anyio.to_thread.run_sync(
        partial(
            score_diff,
            gold,
            diff,
            tree,
            exclude_tests=options.exclude_tests,
            profile=options.profile,
            notes=notes,
            no_sources=no_sources,
        )
    )
    metadata = {**result.metadata, "base_commit": base, "model_patch": diff}
    return DiffScore(result.values, result.explanation, metadata)


async def _diff(box: SandboxEnvironment, base: str, options: _Options) -> tuple[str, str | None]:
    """The agent's diff against `base`, or an explanation of why there is none."""
    if options.diff_command is not None:
        command = [part.replace("{base}", base) for part in options.diff_command]
    else:
        command = ["bash", "-c", DIFF_SCRIPT, "hunk_localization", base]
    done = await box.exec(command, cwd=options.cwd, timeout=options.timeout)
    if not done.success:
        said = " ".join(done.stderr.split())[:300] or f"exit status {done.returncode}"
        return "", f"The sandbox's diff against {base} failed: {said}."
    return done.stdout, None


async def _base_tree(
    box: SandboxEnvironment, base: str, paths: list[str], options: _Options
) -> tuple[BaseTree | None, str]:
    """The base commit's text of every path (None where the base has no such file), or
    None and why the hunks are placed from the diffs alone."""
    check = await box.exec(
        ["git", "rev-parse", "--verify", "--quiet", f"{base}^{{commit}}"],
        cwd=options.cwd,
        timeout=options.timeout,
    )
    if not check.success:
        return None, f"{base} is not a commit of the sandbox's repository: no sources"
    files: dict[str, bytes | None] = {}
    for path in paths:
        try:
            shown = await box.exec(
                ["git", "cat-file", "blob", f"{base}:{path}"],
                cwd=options.cwd,
                timeout=options.timeout,
            )
        except UnicodeDecodeError:
            return None, f"{path} at {base} is not UTF-8 text: no sources"
        files[path] = shown.stdout.encode("utf-8", "surrogateescape") if shown.success else None
    return BaseTree(files, f"sandbox's repository at {base}"), ""
