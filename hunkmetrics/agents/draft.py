"""What a reader hands back: the attempt as the log tells it, before commands are parsed and
classified (`hunkmetrics.agents.build` turns a `Draft` into an `Attempt`).

Drafts are plain mutable records local to one read: a reader fills a call's result in when
the tool's output arrives later in the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from hunkmetrics.agents.model import Outcome, TaskContext, Tokens


@dataclass(slots=True)
class CallDraft:
    """One tool call; `shell` is the shell string it ran, when it ran one; `extra_paths` are
    files the log says the call touched beyond those its arguments name."""

    tool_name: str
    arguments: dict[str, object] = field(default_factory=dict)
    call_id: str | None = None
    shell: str | None = None
    timestamp: datetime | None = None
    is_error: bool | None = None
    duration_ms: float | None = None
    subagent: bool = False
    output: str | None = None
    extra_paths: list[str] = field(default_factory=list)


@dataclass(slots=True)
class StepDraft:
    """One message: `source` is `agent`, `user` or `system`, as in ATIF."""

    source: str
    timestamp: datetime | None = None
    message: str = ""
    reasoning: str | None = None
    model: str | None = None
    tokens: Tokens | None = None
    calls: list[CallDraft] = field(default_factory=list)


@dataclass(slots=True)
class Draft:
    """A whole attempt as read; `runtime_s` None means: derive it from the timestamps."""

    agent: str
    source_format: str
    agent_version: str | None = None
    model: str | None = None
    bug_id: str | None = None
    session_id: str | None = None
    workdir: str | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    runtime_s: float | None = None
    runtime_source: str = "unknown"
    tokens: Tokens = field(default_factory=Tokens)
    patch: str | None = None
    patch_source: str = "none"
    outcome: Outcome | None = None
    task: TaskContext | None = None
    steps: list[StepDraft] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
