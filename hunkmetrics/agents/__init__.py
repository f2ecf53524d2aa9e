"""Coding-agent trajectories as one action model, classified into categories.

    from hunkmetrics.agents import read_trajectory
    attempt = read_trajectory("rollout.jsonl")            # format detected, semantic profile
    attempt.tool_call_count, attempt.action_count, attempt.category_shares()
    for action in attempt.actions:
        print(action.index, action.name, action.category, action.rule)

`classify(attempt, "paper")` re-derives the actions under another profile. Reading shell calls
needs tree-sitter-bash; the model itself (`hunkmetrics.agents.model`) does not.

The study's per-attempt metrics are in `hunkmetrics.agents.metrics`, harness outcomes in
`hunkmetrics.agents.outcomes`, and `agents evaluate` as a library call in
`hunkmetrics.agents.batch` (`read_references`, `evaluate_runs`); docs/agents.md.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hunkmetrics.agents.build import build_attempt, classify_calls
from hunkmetrics.agents.classify import PROFILES, Profile, ProfileError, load_profile
from hunkmetrics.agents.errors import TrajectoryError
from hunkmetrics.agents.model import (
    TOKEN_CONVENTION,
    Action,
    Attempt,
    Command,
    Outcome,
    Step,
    Tokens,
    ToolCall,
)
from hunkmetrics.agents.readers import FORMATS, ReadOptions, detect_format, read_drafts

__all__ = [
    "FORMATS",
    "PROFILES",
    "TOKEN_CONVENTION",
    "Action",
    "Attempt",
    "Command",
    "Outcome",
    "Profile",
    "ProfileError",
    "Step",
    "Tokens",
    "ToolCall",
    "TrajectoryError",
    "classify",
    "detect_format",
    "load_profile",
    "read_trajectories",
    "read_trajectory",
]


def _profile(profile: str | Path | Profile) -> Profile:
    return profile if isinstance(profile, Profile) else load_profile(profile)


def read_trajectories(
    path: str | Path,
    format: str | None = None,
    profile: str | Path | Profile = "semantic",
    *,
    dedupe_usage: bool = True,
) -> list[Attempt]:
    """Every attempt in a trajectory file (several only for an OpenHands output.jsonl)."""
    prof = _profile(profile)
    try:
        drafts = read_drafts(path, format, ReadOptions(dedupe_usage=dedupe_usage))
        return [build_attempt(d, str(path), prof) for d in drafts]
    except RecursionError:  # JSON nested hundreds of levels deep: bad input, not a crash
        raise TrajectoryError(
            path, "a JSON value is nested too deeply to read (hundreds of levels)"
        ) from None


def read_trajectory(
    path: str | Path,
    format: str | None = None,
    profile: str | Path | Profile = "semantic",
    *,
    dedupe_usage: bool = True,
    row: int | None = None,
) -> Attempt:
    """The attempt a trajectory file (or OpenHands events directory) records.

    `format` overrides detection (one of `FORMATS`); `profile` is `semantic` (default),
    `paper`, a rules file path, or a loaded `Profile`. `dedupe_usage=False` counts Claude
    usage on every transcript line, as the study did, instead of once per `message.id`.
    `row` picks one attempt of a file that holds several (an OpenHands `output.jsonl`):
    0-based, in file order, the same index as in `read_trajectories(path)`; without it
    such a file is an error that says how many there are.
    """
    return pick_row(path, read_trajectories(path, format, profile, dedupe_usage=dedupe_usage), row)


def pick_row(path: str | Path, attempts: list[Attempt], row: int | None) -> Attempt:
    """The attempt `row` of a file's attempts (`read_trajectory`'s rule: without a row,
    the file must hold exactly one)."""
    count = len(attempts)
    if row is not None:
        if not 0 <= row < count:
            raise TrajectoryError(
                path, f"row {row} out of range: holds {count} attempt(s), rows 0 to {count - 1}"
            )
        return attempts[row]
    if count != 1:
        raise TrajectoryError(
            path,
            f"holds {count} attempts (rows 0 to {count - 1}); pick one with row=N (0-based) "
            "or read all with read_trajectories",
        )
    return attempts[0]


def classify(attempt: Attempt, profile: str | Path | Profile = "semantic") -> Attempt:
    """The same attempt with its actions classified under another profile."""
    prof = _profile(profile)
    return replace(attempt, actions=classify_calls(attempt.calls, prof), profile=prof.name)
