"""One attempt to evaluate, as `agents evaluate` lists them (`hunkmetrics.agents.runs`
reads them from manifests, directories and harness output)."""

from __future__ import annotations

from dataclasses import dataclass

# The `format` of a run with no trajectory (a SWE-bench prediction without one): its
# `trajectory` names where the attempt was read from; calls, actions, tokens and runtime
# are unknown, never 0.
NO_TRAJECTORY = "none"


@dataclass(frozen=True, slots=True)
class Run:
    """One attempt to evaluate (picklable: sent to a worker)."""

    agent: str
    bug: str
    trajectory: str
    format: str | None = None
    patch: str | None = None
    outcome: str | None = None
    outcome_before: str | None = None
    columns: tuple[tuple[str, str], ...] = ()
    condition: str | None = None  # e.g. `maple`: the agent run with a tool (Table 9)
    row: int | None = None  # the attempt's place in a file that holds several
    trial: str | None = None  # which of several attempts at the bug (a Harbor trial)
    # The agent's patch itself, when the harness keeps it in a file of many (a SWE-bench
    # prediction's `model_patch`); `patch` names a file that holds it alone.
    patch_data: str | None = None
    # Why this run cannot be evaluated (no trajectory, a missing file): its line then
    # says so, and the other runs go on.
    problem: str | None = None

    @property
    def id(self) -> str:
        head = f"{self.agent}/{self.condition}" if self.condition else self.agent
        return f"{head}/{self.bug}" + (f"/{self.trial}" if self.trial else "")
