"""Inspect AI eval logs (`.eval`: a zip of zstd-compressed JSON members, which Python 3.11's
`zipfile` cannot open; `.json`), read with `inspect_ai.log.read_eval_log` (the `inspect`
extra). One attempt per sample and epoch.

Each `ModelEvent` is an agent step (its output text, its usage), each `ToolEvent` a tool
call (`id`, `function`, `arguments`, `result`, `error`, `working_time`); `bash` runs its
`command` (older versions `cmd`) as a shell line. Tokens are the sample's `model_usage`:
Inspect's `input_tokens` exclude the cache reads and writes (`input_tokens_cache_read`,
`input_tokens_cache_write`), and `output_tokens` include `reasoning_tokens`. The runtime is
`total_time` (wall clock); the scores become the outcome's status (the first score that is
one number its reward).

The task (inspect_evals' SWE-bench task, or any task shaped like it): the sample's
`metadata["patch"]` is the gold patch, `metadata["repo"]` the repository and
`metadata["base_commit"]` the commit the agent started from; the first score (in the log's
order of scorers) whose `metadata["model_patch"]` is text gives the agent's patch.
"""

from __future__ import annotations

import math
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hunkmetrics.agents.draft import CallDraft, Draft, StepDraft
from hunkmetrics.agents.errors import TrajectoryError
from hunkmetrics.agents.model import Outcome, TaskContext, Tokens
from hunkmetrics.errors import MissingExtraError

SHELL_TOOLS = {"bash": ("command", "cmd"), "bash_session": ("input", "command")}
_USAGE = (
    "input_tokens",
    "output_tokens",
    "input_tokens_cache_read",
    "input_tokens_cache_write",
    "reasoning_tokens",
)


def _read_log(path: Path) -> Any:
    try:
        from inspect_ai.log import read_eval_log
    except ImportError as exc:
        raise MissingExtraError(
            "reading Inspect AI logs needs inspect-ai: pip install 'hunkmetrics[inspect]'"
        ) from exc
    try:
        return read_eval_log(str(path))
    except Exception as exc:  # inspect's own reader: a broken zip, bad JSON, a new schema
        reason = f"{type(exc).__name__}: {exc}"
        raise TrajectoryError(path, f"not a readable Inspect log ({reason})") from None


def usage_tokens(model_usage: dict[str, Any], source: str) -> Tokens:
    """A sample's `model_usage` (per model) in the one convention."""
    raw = dict.fromkeys(_USAGE, 0)
    for usage in model_usage.values():
        for key in _USAGE:
            raw[key] += int(getattr(usage, key, None) or 0)
    reasoning = raw["reasoning_tokens"]
    return Tokens(
        input_uncached=raw["input_tokens"],
        cache_read=raw["input_tokens_cache_read"],
        cache_write=raw["input_tokens_cache_write"],
        output=max(raw["output_tokens"] - reasoning, 0),
        reasoning=reasoning,
        raw=MappingProxyType(raw),
        source=source,
    )


# Inspect's own reading of letter grades (inspect_ai.scorer.value_to_float).
_GRADES = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}


def score_value(value: object) -> float | None:
    """A score as a number: a number itself, True/False, or a letter grade (C, I, P, N);
    None for a score that is not one value (a dict or list of values)."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        if value.upper() in _GRADES:
            return _GRADES[value.upper()]
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _text(value: object) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def _shell(function: str, arguments: dict[str, object]) -> str | None:
    for key in SHELL_TOOLS.get(function, ()):
        value = arguments.get(key)
        if isinstance(value, str):
            return value
    return None


def _sample(log: Any, sample: Any, solver: str) -> Draft:
    epochs = getattr(log.eval.config, "epochs", None) or 1
    bug = str(sample.id) if epochs == 1 else f"{sample.id}#{sample.epoch}"
    draft = Draft(
        agent=solver,
        source_format="inspect_log",
        model=log.eval.model,
        bug_id=bug,
        session_id=getattr(sample, "uuid", None),
    )
    step: StepDraft | None = None
    by_call: dict[str, CallDraft] = {}
    for event in sample.events:
        kind = event.event
        if kind == "model":
            message = event.output.message if event.output is not None else None
            usage = event.output.usage if event.output is not None else None
            step = StepDraft(
                "agent",
                event.timestamp,
                _text(getattr(message, "text", "")),
                model=event.model,
                tokens=usage_tokens({"step": usage}, "model event usage") if usage else None,
            )
            draft.steps.append(step)
        elif kind == "tool":
            arguments = dict(event.arguments or {})
            call = CallDraft(
                tool_name=event.function,
                arguments=arguments,
                call_id=event.id,
                shell=_shell(event.function, arguments),
                timestamp=event.timestamp,
                is_error=event.error is not None,
                duration_ms=event.working_time * 1000 if event.working_time else None,
                output=_text(event.result) if event.error is None else _text(event.error.message),
                subagent=bool(getattr(event, "agent", None)),
            )
            if step is None:
                step = StepDraft("agent", event.timestamp)
                draft.steps.append(step)
            step.calls.append(call)
            by_call[event.id] = call
    if sample.model_usage:
        draft.tokens = usage_tokens(sample.model_usage, "inspect sample.model_usage")
    if sample.total_time is not None:
        draft.runtime_s = float(sample.total_time)
        draft.runtime_source = "inspect sample.total_time (wall clock)"
    scores = sample.scores or {}
    if scores:
        draft.outcome = scores_outcome(scores)
    _model_patch(draft, scores)
    draft.task = task_context(sample.metadata or {})
    if sample.error is not None:
        draft.warn(f"inspect sample error: {' '.join(str(sample.error.message).split())[:160]}")
    if not draft.steps and sample.events:
        draft.warn("no model or tool events in this sample")
    return draft


def scores_outcome(scores: dict[str, Any]) -> Outcome:
    """The scores as the status; the first score that is one number as the reward (a
    scorer of several values, such as `hunk_localization`, is listed by name; NaN is
    Inspect's "not scored", no reward)."""
    status = ", ".join(
        name if isinstance(score.value, dict | list) else f"{name}={score.value}"
        for name, score in scores.items()
    )
    rewards = (score_value(score.value) for score in scores.values())
    reward = next((r for r in rewards if r is not None and math.isfinite(r)), None)
    return Outcome(exit_status=status, source="inspect sample.scores", reward=reward)


def _model_patch(draft: Draft, scores: dict[str, Any]) -> None:
    """The agent's patch: the first score's `metadata["model_patch"]`; a different one in
    a later score is a warning."""
    for name, score in scores.items():
        patch = (score.metadata or {}).get("model_patch")
        if not isinstance(patch, str):
            continue
        if draft.patch is None:
            draft.patch = patch
            draft.patch_source = f"inspect sample.scores[{name}].metadata.model_patch"
        elif patch != draft.patch:
            draft.warn(
                f"score {name} holds another model_patch than {draft.patch_source}: "
                "the first is the attempt's patch"
            )


def _field(metadata: dict[str, Any], key: str) -> str | None:
    value = metadata.get(key)
    return value if isinstance(value, str) and value.strip() else None


def task_context(metadata: dict[str, Any]) -> TaskContext | None:
    """A sample's task as inspect_evals' SWE-bench task records it in `metadata`: `patch`
    (the gold patch), `repo` (`org/repo`), `base_commit`. None without a gold patch."""
    gold = _field(metadata, "patch")
    if gold is None:
        return None
    return TaskContext(
        gold_patch=gold,
        gold_source="inspect sample.metadata.patch",
        repository=_field(metadata, "repo"),
        base_commit=_field(metadata, "base_commit"),
    )


def read(path: Path) -> list[Draft]:
    """One draft per sample (and epoch) of an Inspect log."""
    log = _read_log(path)
    if not log.samples:
        raise TrajectoryError(path, f"an Inspect log with no samples (status {log.status})")
    steps = log.plan.steps if log.plan is not None else []
    solver = log.eval.solver or (steps[-1].solver if steps else None)  # the agent's loop
    agent = f"inspect:{solver}" if solver else "inspect"
    return [_sample(log, sample, agent) for sample in log.samples]
