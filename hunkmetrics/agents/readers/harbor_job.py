"""Harbor job and trial directories (harbor 0.26.0): `jobs/<job>/<trial>/` with
`result.json` (a `TrialResult`: `task_name`, `trial_name`, `trial_uri`, `task_id`,
`config.task`, `config.trials_dir`, `agent_info{name, version, model_info}`,
`agent_result{n_input_tokens (cache included), n_cache_tokens, n_output_tokens}`,
`verifier_result.rewards`, `agent_execution` timing, `exception_info`, `step_results`),
the agent's ATIF trajectory `agent/trajectory.json` (with its continuation files),
`verifier/reward.txt|json`, and `artifacts/`. A multi-step trial keeps each step under
`steps/<name>/` (`agent/`, `verifier/`, `artifacts/`) and its `step_results` carry each
step's tokens, timing and exception.

One attempt per trial: its trajectory (each step's, one after another) as the ATIF
reader reads it, the task as the bug, the rewards as the outcome's status, the agent's
execution time (summed over the steps) as the runtime, the single `.diff`/`.patch` among
the artifacts (a multi-step trial's: the last step's that has one) as the patch, and the
task's gold patch (`harbor_task`) as its context.
"""

from __future__ import annotations

from pathlib import Path

from hunkmetrics.agents.draft import Draft
from hunkmetrics.agents.errors import TrajectoryError
from hunkmetrics.agents.jsonio import (
    Record,
    as_dict,
    as_float,
    as_int,
    as_list,
    as_str,
    load_json,
    parse_time,
)
from hunkmetrics.agents.model import Outcome, Tokens
from hunkmetrics.agents.readers import atif
from hunkmetrics.agents.readers.harbor_task import task_context
from hunkmetrics.errors import HunkmetricsError

_RESULT_NAMES = ("result.json", "results.json")  # the code writes the first, a doc says both


def _result(folder: Path) -> Record | None:
    for name in _RESULT_NAMES:
        path = folder / name
        if path.is_file():
            data = load_json(path)
            if isinstance(data, dict) and "trial_name" in data:
                return data
    return None


def _trials(path: Path) -> list[tuple[Path, Record]]:
    """The trials at `path` with their results: a trial folder itself, or a job's."""
    own = _result(path)
    if own is not None:
        return [(path, own)]
    if not path.is_dir():
        return []
    found = ((p, _result(p)) for p in sorted(path.iterdir()) if p.is_dir())
    return [(p, result) for p, result in found if result is not None]


def trial_dirs(path: Path) -> list[Path]:
    """The trials at `path`: a trial folder itself, or the trial folders of a job."""
    return [folder for folder, _ in _trials(path)]


def _rewards(result: Record, folder: Path) -> dict[str, float]:
    rewards = as_dict(as_dict(result.get("verifier_result")).get("rewards"))
    found = {k: v for k, v in ((k, as_float(v)) for k, v in rewards.items()) if v is not None}
    if found:
        return found
    text = folder / "verifier" / "reward.txt"
    if text.is_file():
        value = as_float(text.read_text(encoding="utf-8", errors="replace").strip())
        if value is not None:
            return {"reward": value}
    data = folder / "verifier" / "reward.json"
    if data.is_file():
        rewards = as_dict(load_json(data))
        return {k: v for k, v in ((k, as_float(v)) for k, v in rewards.items()) if v is not None}
    return {}


def _steps(result: Record) -> list[Record]:
    return [as_dict(s) for s in as_list(result.get("step_results"))]


def _step_names(folder: Path, result: Record) -> list[str]:
    named = [n for n in (as_str(s.get("step_name")) for s in _steps(result)) if n]
    if not named and (folder / "steps").is_dir():
        named = sorted(p.name for p in (folder / "steps").iterdir() if p.is_dir())
    return named


def _trajectories(folder: Path, result: Record) -> list[Path]:
    """The trial's ATIF files in order: its own, or each step's (multi-step trials)."""
    own = folder / "agent" / "trajectory.json"
    if own.is_file():
        return [own]
    named = [
        folder / "steps" / s / "agent" / "trajectory.json" for s in _step_names(folder, result)
    ]
    return [p for p in named if p.is_file()]


def _patch(folder: Path) -> Path | None:
    artifacts = folder / "artifacts"
    found = [p for p in artifacts.rglob("*") if p.is_file() and p.suffix in (".diff", ".patch")]
    return found[0] if len(found) == 1 else None


def _final_patch(folder: Path, result: Record) -> Path | None:
    """The trial's diff artifact, else the last step's (a multi-step trial)."""
    own = _patch(folder)
    if own is not None:
        return own
    for name in reversed(_step_names(folder, result)):
        found = _patch(folder / "steps" / name)
        if found is not None:
            return found
    return None


def _runtime(result: Record) -> float | None:
    """The agent's execution time: the trial's, else the sum of its steps'."""
    timings = [as_dict(result.get("agent_execution"))]
    if not timings[0] and _steps(result):
        timings = [as_dict(s.get("agent_execution")) for s in _steps(result)]
    total = 0.0
    for timing in timings:
        started, finished = (
            parse_time(timing.get("started_at")),
            parse_time(timing.get("finished_at")),
        )
        if started is None or finished is None or finished < started:
            return None
        total += (finished - started).total_seconds()
    return total


def _tokens(result: Record) -> Tokens | None:
    """The harness's token totals: the trial's `agent_result`, else its steps' summed."""
    contexts = [as_dict(result.get("agent_result"))]
    if contexts[0].get("n_input_tokens") is None and _steps(result):
        contexts = [as_dict(s.get("agent_result")) for s in _steps(result)]
    contexts = [c for c in contexts if c.get("n_input_tokens") is not None]
    if not contexts:
        return None
    cached = sum(as_int(c.get("n_cache_tokens")) for c in contexts)
    return Tokens(
        input_uncached=max(sum(as_int(c.get("n_input_tokens")) for c in contexts) - cached, 0),
        cache_read=cached,
        output=sum(as_int(c.get("n_output_tokens")) for c in contexts),
        source="harbor result.json agent_result"
        + (" of each step" if len(contexts) > 1 else "")
        + " (n_input_tokens include the cache)",
    )


def _warn_exception(draft: Draft, info: Record, where: str) -> None:
    kind = as_str(info.get("exception_type")) or "an exception"
    message = " ".join((as_str(info.get("exception_message")) or "").split())[:160]
    draft.warn(f"harbor {where} ended with {kind}: {message}")


def read_trial(folder: Path, result: Record) -> Draft:
    """One trial (its folder and its `result.json`) as one attempt."""
    paths = _trajectories(folder, result)
    if not paths:
        raise TrajectoryError(folder, "a Harbor trial without agent/trajectory.json (ATIF)")
    drafts = [atif.read(p)[0] for p in paths]
    draft = drafts[0]
    for later in drafts[1:]:  # the steps of a multi-step trial, one after another
        draft.steps.extend(later.steps)
        draft.warnings.extend(w for w in later.warnings if w not in draft.warnings)
        draft.tokens = draft.tokens + later.tokens
    draft.source_format = "harbor_job"
    info = as_dict(result.get("agent_info"))
    draft.agent = as_str(info.get("name")) or draft.agent
    draft.agent_version = as_str(info.get("version")) or draft.agent_version
    draft.model = as_str(as_dict(info.get("model_info")).get("name")) or draft.model
    draft.bug_id = as_str(result.get("task_name")) or draft.bug_id
    draft.session_id = as_str(result.get("trial_name")) or draft.session_id
    rewards = _rewards(result, folder)
    if rewards:
        status = ", ".join(f"{k}={v:g}" for k, v in sorted(rewards.items()))
        # The reward: the one given, or the one named "reward" among several.
        reward = next(iter(rewards.values())) if len(rewards) == 1 else rewards.get("reward")
        draft.outcome = Outcome(exit_status=status, source="harbor verifier rewards", reward=reward)
    runtime = _runtime(result)
    if runtime is not None:
        draft.runtime_s = runtime
        draft.runtime_source = "harbor result.json agent_execution (wall clock" + (
            ", summed over the steps)" if not result.get("agent_execution") else ")"
        )
    tokens = _tokens(result) if not draft.tokens.total else None
    if tokens is not None:
        draft.tokens = tokens
    patch = _final_patch(folder, result)
    if patch is not None:
        draft.patch = patch.read_text(encoding="utf-8", errors="surrogateescape")
        draft.patch_source = f"harbor artifact {patch.relative_to(folder).as_posix()}"
    exception = as_dict(result.get("exception_info"))
    if exception:
        _warn_exception(draft, exception, "trial")
    for step in _steps(result):
        if as_dict(step.get("exception_info")):
            name = as_str(step.get("step_name")) or "?"
            _warn_exception(draft, as_dict(step.get("exception_info")), f"step {name}")
    task_warnings: list[str] = []
    try:
        draft.task = task_context(folder, result, task_warnings)
    except (OSError, HunkmetricsError) as exc:  # an unreadable task: the trial still counts
        task_warnings.append(f"harbor task of {folder.name} not read: {' '.join(str(exc).split())}")
    for warning in task_warnings:
        draft.warn(warning)
    return draft


def read(path: Path) -> list[Draft]:
    """One attempt per trial of a Harbor job (or the one trial given)."""
    trials = _trials(path)
    if not trials:
        raise TrajectoryError(path, "no Harbor trial here (no result.json with trial_name)")
    return [read_trial(folder, result) for folder, result in trials]
