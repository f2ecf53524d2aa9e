"""One attempt, measured: read its trajectory, take its patch and outcome, compare the patch
with the developer's, and build its `hunkmetrics/attempt/v1` record (docs/agents.md).

`evaluate_run` never raises for a bad run: the run's record then carries a one-line
`error`, so a long evaluation is never stopped by one broken trajectory.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from hunkmetrics.agents import classify, pick_row, read_trajectories
from hunkmetrics.agents.metrics import (
    HunkReach,
    HunkSite,
    Reach,
    compilation,
    edit_cycles,
    hunk_reach,
    localization_success,
    regression_reduction,
    repaired,
    unique_native_tools,
    unique_shell_commands,
)
from hunkmetrics.agents.model import Attempt, Outcome, TaskContext, Tokens
from hunkmetrics.agents.outcomes import merge, outcome_from_columns, read_outcome
from hunkmetrics.agents.runs import NO_TRAJECTORY, Run
from hunkmetrics.agents.study.records import NO_TOKENS
from hunkmetrics.documents.build import TOOL
from hunkmetrics.documents.shapes import ATTEMPT_OK
from hunkmetrics.errors import HunkmetricsError, finite_setting, out_of_memory_line
from hunkmetrics.lang.locate import LocatedHunk
from hunkmetrics.lang.selection import PathSelection, path_selection
from hunkmetrics.metrics.localization import LocalizationResult, file_key
from hunkmetrics.patch.model import FileDiff, LineKind
from hunkmetrics.patch.parse import read_patch_bytes
from hunkmetrics.shortlist import few
from hunkmetrics.workspace import Workspace, open_candidate, open_workspace, patch_path

SCHEMA = "hunkmetrics/attempt/v1"


@dataclass(frozen=True, slots=True)
class Settings:
    """How every run is evaluated (picklable)."""

    profile: str = "semantic"
    dedupe_usage: bool = True
    reverse: bool = False
    exclude_tests: bool = True  # the same default as every other command
    # A harness that scores instead of counting tests (Harbor's reward, an Inspect score):
    # repaired when the score reaches this.
    reward_threshold: float = 1.0
    # One git repository per `org/repo` (as `org/repo`, `org__repo` or `repo`): the
    # sources of a harness's gold patch, at the task's base commit.
    repos: str | None = None
    # The hunk profile of the developer patch's traits (divergence, proximity).
    hunk_profile: str = "default"

    def __post_init__(self) -> None:
        # NaN would compare false with every score: no scored run repaired, silently
        finite_setting("the reward threshold", self.reward_threshold, least=None)


@dataclass(frozen=True, slots=True)
class Reference:
    """The developer patch for a bug and where its sources are (picklable). `patch`
    names it (a file's path); `data` holds its text when it came from no file (a
    harness's gold patch)."""

    name: str
    patch: str
    repo: str | None = None
    rev: str | None = None
    reverse: bool = False
    data: bytes | None = None
    warnings: tuple[str, ...] = ()  # said on every attempt measured against it


def _config(settings: Settings) -> dict[str, Any]:
    return {
        "profile": settings.profile,
        "dedupe_usage": settings.dedupe_usage,
        "reverse": settings.reverse,
        "exclude_tests": settings.exclude_tests,
        "reward_threshold": settings.reward_threshold,
        "repos": settings.repos,
    }


def _head(run: Run, settings: Settings) -> dict[str, Any]:
    return {
        "id": run.id,
        "schema": SCHEMA,
        "tool": dict(TOOL),
        "config": _config(settings),
        "agent": run.agent,
        "bug": run.bug,
        "trajectory": run.trajectory,
    }


def error_record(run: Run, settings: Settings, message: str) -> dict[str, Any]:
    """The record of a run that could not be evaluated: its head and a one-line error."""
    return {**_head(run, settings), "error": " ".join(message.split())}


#: Every attempt of a trajectory file (path, format), read under the settings.
AttemptsReader = Callable[[str, "str | None", "Settings"], list[Attempt]]


def read_attempts(path: str, fmt: str | None, settings: Settings) -> list[Attempt]:
    """Every attempt of a trajectory file, read as the settings say."""
    return read_trajectories(path, fmt, settings.profile, dedupe_usage=settings.dedupe_usage)


def evaluate_run(
    run: Run,
    reference: Reference | None,
    settings: Settings,
    read: AttemptsReader = read_attempts,
) -> dict[str, Any]:
    """The run's attempt record; an error record (one line) when it cannot be read.
    `read` reads a trajectory file's attempts (a worker keeps those of a file that holds
    many runs, an Inspect log, so that it is read once and not once a run)."""
    try:
        return _evaluate(run, reference, settings, read)
    except (HunkmetricsError, OSError, ValueError) as exc:
        return error_record(run, settings, str(exc))
    except MemoryError:  # under --max-memory (or the machine's): this run's row says so
        return error_record(run, settings, out_of_memory_line())


def run_outcome(run: Run) -> Outcome | None:
    """The harness outcome of a run: its outcome files and manifest columns merged."""
    after = read_outcome(run.outcome) if run.outcome else None
    before = read_outcome(run.outcome_before) if run.outcome_before else None
    columns = outcome_from_columns(dict(run.columns)) if run.columns else None
    return merge(after, before, columns)


def hunk_sites(located: list[LocatedHunk]) -> list[HunkSite]:
    """The developer hunks as fault sites: file, method, span, and the pre-image lines
    that identify an edit of them (removed lines, or the context of a pure insertion)."""
    sites = []
    for item in located:
        kinds = (LineKind.REMOVED,) if item.hunk.removed else (LineKind.CONTEXT,)
        lines = tuple(
            text
            for ln in item.hunk.lines
            if ln.kind in kinds
            and len(text := ln.text.strip()) >= 3
            and any(ch.isalnum() for ch in text)
        )
        sites.append(
            HunkSite(
                index=item.hunk.index,
                file=file_key(item.file),
                method=item.location.method,
                method_span=item.location.method_span,
                lines=lines,
                span=(item.hunk.old_start, item.hunk.old_start + max(item.hunk.old_lines, 1) - 1),
            )
        )
    return sites


def _reach(reach: Reach | None) -> dict[str, Any] | None:
    return None if reach is None else {"action": reach.action, "at_s": reach.at_s}


def _hunk(h: HunkReach) -> dict[str, Any]:
    return {
        "hunk": h.hunk,
        "file": h.file,
        "method": h.method,
        "read_file": _reach(h.read_file),
        "read_method": _reach(h.read_method),
        "edited": _reach(h.edited),
        "edit_match": h.edit_match,
    }


def _time(stamp: datetime | None) -> str | None:
    return stamp.isoformat() if stamp is not None else None


def _patch_text(run: Run, attempt: Attempt) -> tuple[bytes | None, str]:
    if run.patch:
        return read_patch_bytes(run.patch), f"file: {run.patch}"
    if run.patch_data is not None:
        return run.patch_data.encode("utf-8", "surrogateescape"), "prediction"
    if attempt.patch is not None:
        return attempt.patch.encode("utf-8", "surrogateescape"), attempt.patch_source
    return None, "none"


def _read_attempt(run: Run, settings: Settings, read: AttemptsReader) -> Attempt:
    """The run's attempt, read from its trajectory; a run with none (`NO_TRAJECTORY`) is
    an attempt without steps, its calls, tokens and runtime unknown."""
    if run.format == NO_TRAJECTORY:
        return Attempt(
            agent=run.agent,
            source_format=NO_TRAJECTORY,
            source_path=run.trajectory,
            bug_id=run.bug,
            tokens=Tokens(source=f"{NO_TOKENS} no trajectory"),
            profile=settings.profile,
            warnings=("no trajectory: tool calls, actions, tokens and runtime unknown",),
        )
    return pick_row(run.trajectory, read(run.trajectory, run.format, settings), run.row)


def _evaluate(
    run: Run, reference: Reference | None, settings: Settings, read: AttemptsReader
) -> dict[str, Any]:
    if run.problem is not None:
        raise HunkmetricsError(run.problem)
    attempt = _read_attempt(run, settings, read)
    known = run.format != NO_TRAJECTORY  # the agent's steps are known
    semantic = attempt if attempt.profile == "semantic" else classify(attempt, "semantic")
    outcome = run_outcome(run) or attempt.outcome
    warnings = list(attempt.warnings)
    data, patch_source = _patch_text(run, attempt)
    if reference is None and attempt.task is not None and attempt.task.gold_patch:
        reference = task_reference(attempt.task, settings.repos, warnings)
    if reference is not None:
        warnings.extend(reference.warnings)

    localization: LocalizationResult | None = None
    sites: list[HunkSite] = []
    patch_files: tuple[str, ...] = ()
    patch_error: str | None = None
    traits: dict[str, Any] | None = None
    nonempty = bool(data and data.strip())
    touches: dict[str, list[str]] | None = None
    if reference is None:
        warnings.append(f"no developer patch for bug {run.bug}: localization not measured")
    else:
        selection = path_selection(exclude_tests=settings.exclude_tests)
        with _open_reference(reference, selection) as dev:
            sites = hunk_sites(dev.located())
            warnings.extend(dev.warnings)
            traits = reference_traits(dev, settings.hunk_profile)
            candidate: Workspace | None = None
            if data is not None and data.strip():
                try:
                    candidate, patch_error = open_candidate(
                        data,
                        repo=reference.repo,
                        rev=reference.rev,
                        cache=dev.cache,
                        selection=selection,
                    )
                except HunkmetricsError as exc:  # e.g. it does not match the sources
                    warnings.append(f"agent patch read without sources: {exc}")
                    candidate, patch_error = open_candidate(data, selection=selection)
            try:
                localization = dev.localization(
                    candidate,
                    exclude_tests=settings.exclude_tests,
                    candidate_error=patch_error,
                )
            finally:
                if candidate is not None:
                    touches = files_by_kind(candidate.patch.files)  # parsed once, here
                    candidate.close()
        patch_files = localization.candidate_files
        nonempty = bool(patch_files)
    if touches is None and data is not None and data.strip():  # no candidate was opened
        touches = patch_touches(data)
    if touches is not None and touches["tests"]:
        warnings.append(f"the agent's patch edits test files: {few(touches['tests'], sep=', ')}")

    compiled = compilation(outcome)
    after = outcome.failing_after if outcome is not None else None
    before = outcome.failing_before if outcome is not None else None
    counted = compiled is False or (compiled is True and after is not None)
    reward = outcome.reward if outcome is not None else None
    scored = reward is not None and compiled is None and after is None
    resolved = outcome.resolved if outcome is not None else None
    if outcome is not None and resolved is not None and compiled is None and nonempty:
        warnings.append(f"compiled unknown: {outcome.source}")
    if resolved is not None:  # the harness's own verdict (SWE-bench)
        fixed: bool | None = resolved
    elif scored:
        fixed = reward is not None and reward >= settings.reward_threshold
    else:
        fixed = repaired(nonempty, compiled, after) if counted else None
    ls = None
    if compiled is not None and localization is not None:
        ls = localization_success(
            nonempty, compiled, localization.candidate_files, localization.reference_files
        )
    runtime, runtime_source = attempt.runtime_s, attempt.runtime_source
    harness = dict(run.columns).get("runtime_s")
    if harness:
        try:
            runtime = float(harness)
        except ValueError:
            raise HunkmetricsError(f"column runtime_s: {harness!r} is not a number") from None
        if not math.isfinite(runtime) or runtime < 0:
            raise HunkmetricsError(f"column runtime_s: {harness!r} is not a duration")
        runtime_source = "harness: manifest column runtime_s"
    cycles = edit_cycles(semantic.actions)
    tokens = attempt.tokens
    record = {
        **_head(run, settings),
        "error": None,
        "format": attempt.source_format,
        "agent_version": attempt.agent_version,
        "model": attempt.model,
        "session_id": attempt.session_id,
        "reference": reference.name if reference is not None else None,
        "reference_traits": traits,
        "patch": {
            "source": patch_source,
            "empty": not nonempty,
            "files": list(patch_files),
            "error": patch_error,
            "touches": touches,
        },
        "outcome": None
        if outcome is None
        else {
            "compiled": outcome.compiled,
            "failing_before": outcome.failing_before,
            "failing_after": outcome.failing_after,
            "failing_tests": list(outcome.failing_tests),
            "reward": outcome.reward,
            "resolved": outcome.resolved,
            "source": outcome.source,
        },
        "ls": ls,
        "compiled": compiled,
        "repaired": fixed,
        "regression_reduction": regression_reduction(compiled, before, after),
        "tokens": {
            "input": tokens.input_total,
            "output": tokens.output_total,
            "total": tokens.total,
            "input_uncached": tokens.input_uncached,
            "cache_read": tokens.cache_read,
            "cache_write": tokens.cache_write,
            "output_visible": tokens.output,
            "reasoning": tokens.reasoning,
            "convention": "input = input_uncached + cache_read + cache_write (every prompt "
            "token, cached or not); output = output_visible + reasoning; total = input + "
            "output",
            # a log without any usage record: its zeros are unknown, not measured
            "source": tokens.source
            or (f"{NO_TOKENS} the trajectory records no token usage" if not tokens.total else ""),
            "raw": [{"field": k, "value": v} for k, v in tokens.raw.items()],
        },
        "runtime": {
            "seconds": runtime,
            "source": runtime_source,
            "started_at": _time(attempt.started_at),
            "ended_at": _time(attempt.ended_at),
        },
        # Without a trajectory these are unknown (null), never 0 or empty.
        "tool_calls": attempt.tool_call_count if known else None,
        "actions": attempt.action_count if known else None,
        "profile": attempt.profile,
        "categories": [
            {"category": k, "actions": n, "share": n / attempt.action_count}
            for k, n in attempt.category_counts().items()
        ],
        "unique_native_tools": list(unique_native_tools(attempt)) if known else None,
        "unique_shell_commands": list(unique_shell_commands(attempt)) if known else None,
        "localization": localization.to_dict() if localization is not None else None,
        "hunks": [_hunk(h) for h in hunk_reach(semantic, sites)] if known else [],
        "cycles": {
            "count": cycles.count,
            "edits": cycles.edits,
            "validations": cycles.validations,
            "last_edit_validated": cycles.last_edit_validated,
        }
        if known
        else None,
        "warnings": list(dict.fromkeys(warnings)),
        "source": "evaluate",
        "condition": run.condition,
        "sequence": [a.category for a in attempt.actions] if known else None,
    }
    return ATTEMPT_OK.build(record)


def reference_traits(dev: Workspace, profile: str) -> dict[str, Any]:
    """The developer patch's hunk count, divergence and proximity class (as `batch` writes
    them for `agents summary --bugs`), so a harness run needs no separate bug table."""
    divergence = dev.divergence(profile=profile)
    return {
        "profile": divergence.profile,
        "hunk_count": divergence.hunk_count,
        "divergence": divergence.value,
        "proximity": dev.proximity(profile=profile).label,
    }


def task_reference(task: TaskContext, repos: str | None, warnings: list[str]) -> Reference:
    """The harness's gold patch as the developer patch, read against the task's repository
    at its base commit when `repos` holds it (diff-only otherwise, with a warning)."""
    assert task.gold_patch is not None
    repo = find_repository(repos, task.repository) if repos and task.repository else None
    if repos and task.repository and repo is None:
        warnings.append(
            f"no repository {task.repository} under {repos}: the gold patch is placed from "
            "the diff alone"
        )
    if repo is not None and not task.base_commit:
        warnings.append(
            f"no base commit for {task.repository}: the gold patch is placed from the diff alone"
        )
        repo = None
    return Reference(
        name=task.gold_source,
        patch=task.gold_source,
        repo=repo,
        rev=task.base_commit if repo is not None else None,
        reverse=task.reverse,
        data=task.gold_patch.encode("utf-8", "surrogateescape"),
    )


def find_repository(repos: str, name: str) -> str | None:
    """The git repository for `org/repo` under `repos`: `org/repo`, `org__repo` or `repo`."""
    org, _, short = name.strip("/").rpartition("/")
    candidates = [Path(repos) / org / short, Path(repos) / f"{org}__{short}", Path(repos) / short]
    for folder in candidates if org else [Path(repos) / short]:
        if (folder / ".git").exists() or (folder / "HEAD").is_file():
            return str(folder)
    return None


def patch_touches(data: bytes) -> dict[str, list[str]] | None:
    """The files an agent's patch changes, by kind (`files_by_kind`); None when it is no
    diff."""
    from hunkmetrics.patch.parse import parse_patch

    try:
        return files_by_kind(parse_patch(data).files)
    except HunkmetricsError:
        return None


def files_by_kind(files: Iterable[FileDiff]) -> dict[str, list[str]]:
    """Files by kind: `source` (what localization counts), `tests` (test files and
    fixtures such as conftest.py: editing them is a known way to game a benchmark) and
    `other` (docs, build files, data)."""
    selection = path_selection(exclude_tests=True)
    touches: dict[str, list[str]] = {"source": [], "tests": [], "other": []}
    for file_diff in files:
        reason = selection.file_reason(file_diff)
        kind = "source" if reason is None else "tests" if reason == "test file" else "other"
        touches[kind].append(file_diff.path)
    return touches


def _open_reference(reference: Reference, selection: PathSelection) -> Workspace:
    try:
        return open_workspace(
            reference.data if reference.data is not None else patch_path(reference.patch),
            repo=reference.repo,
            rev=reference.rev,
            reverse=reference.reverse,
            selection=selection,
        )
    except HunkmetricsError as exc:
        raise HunkmetricsError(f"developer patch {reference.patch}: {exc}") from exc
