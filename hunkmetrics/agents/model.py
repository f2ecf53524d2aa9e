"""The action model: one repair attempt, its steps, tool calls and classified actions.

It maps one-to-one onto ATIF (Harbor's Agent Trajectory Interchange Format): an `Attempt` is a
trajectory, a `Step` an ATIF step, a `ToolCall` an ATIF tool call. An `Action` is the unit the
"Beyond Accuracy" study counts: one per command of a shell invocation (`ls | tail` is two actions
of one tool call), one per any other tool call.

Everything here is immutable: tuples, frozen dataclasses, and JSON arguments frozen into
read-only mappings and tuples (`freeze`, `thaw`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import TypeAlias

JSONValue: TypeAlias = (
    "None | bool | int | float | str | tuple[JSONValue, ...] | Mapping[str, JSONValue]"
)


def _no_args() -> Mapping[str, JSONValue]:
    return MappingProxyType({})


def _no_counts() -> Mapping[str, int]:
    return MappingProxyType({})


TOKEN_CONVENTION = (
    "input_uncached + cache_read + cache_write = every input token of every model call; "
    "output excludes the tokens reported separately as reasoning; raw keeps the provider's fields"
)


def freeze(value: object) -> JSONValue:
    """A read-only copy of a JSON value: dicts become mappings, lists tuples."""
    # Concrete classes first (what json.loads gives): the Mapping ABC check is slow.
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return freeze_mapping(value)
    if isinstance(value, list):
        return tuple([freeze(v) for v in value])
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, Mapping):
        return freeze_mapping(value)
    if isinstance(value, tuple):
        return tuple([freeze(v) for v in value])
    return str(value)


def freeze_mapping(value: Mapping[str, object]) -> Mapping[str, JSONValue]:
    """A read-only copy of a JSON object."""
    return MappingProxyType({str(k): freeze(v) for k, v in value.items()})


def thaw(value: JSONValue) -> object:
    """Plain dicts and lists again, for `json.dumps`."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Tokens:
    """Token usage normalized to one convention (`TOKEN_CONVENTION`), raw fields kept.

    `source` says how the figures were gathered (which events, which dedupe rule).
    """

    input_uncached: int = 0
    cache_read: int = 0
    cache_write: int = 0
    output: int = 0
    reasoning: int = 0
    raw: Mapping[str, int] = field(default_factory=_no_counts)
    source: str = ""
    convention: str = TOKEN_CONVENTION

    @property
    def input_total(self) -> int:
        """Every input token, cached or not (ATIF's `prompt_tokens`)."""
        return self.input_uncached + self.cache_read + self.cache_write

    @property
    def output_total(self) -> int:
        return self.output + self.reasoning

    @property
    def total(self) -> int:
        return self.input_total + self.output_total

    @staticmethod
    def sum(items: Iterable[Tokens], source: str = "") -> Tokens:
        """All of `items` added up in one pass (`a + b + …` without the intermediates)."""
        uncached = read = write = output = reasoning = 0
        raw: Counter[str] = Counter()
        for t in items:
            uncached += t.input_uncached
            read += t.cache_read
            write += t.cache_write
            output += t.output
            reasoning += t.reasoning
            raw.update(t.raw)
        return Tokens(uncached, read, write, output, reasoning, MappingProxyType(dict(raw)), source)

    def __add__(self, other: Tokens) -> Tokens:
        raw = Counter(self.raw)
        raw.update(other.raw)
        return Tokens(
            self.input_uncached + other.input_uncached,
            self.cache_read + other.cache_read,
            self.cache_write + other.cache_write,
            self.output + other.output,
            self.reasoning + other.reasoning,
            MappingProxyType(dict(raw)),
            self.source or other.source,
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the harness says about the attempt (never read from the agent's own log).

    `failing_tests` names the tests failing after the patch (`Class::method`) when known;
    `reward` is a verifier's score (Harbor's reward, an Inspect score as a number) when
    the harness gives one instead of test counts; `resolved` is the harness's own verdict
    (SWE-bench's and Multi-SWE-bench's `resolved`), which then decides `repaired`."""

    compiled: bool | None = None
    failing_before: int | None = None
    failing_after: int | None = None
    exit_status: str | None = None
    source: str = ""
    failing_tests: tuple[str, ...] = ()
    reward: float | None = None
    resolved: bool | None = None


@dataclass(frozen=True, slots=True)
class TaskContext:
    """What the harness says about the task itself: its gold (developer) patch, the
    repository (`org/repo`) and the commit the agent started from. Readers fill what their
    harness records (a SWE-bench instance, an Inspect sample's metadata, a Harbor task's
    `solution/`); `agents evaluate` measures against `gold_patch` when no `--reference`
    names one for the bug."""

    gold_patch: str | None = None
    gold_source: str = "none"
    repository: str | None = None
    base_commit: str | None = None
    # The task applies `gold_patch` in reverse (SWE-smith writes the bug's patch and
    # `git apply -R`s it): the fix is its reverse, read as `--reverse` reads a patch.
    reverse: bool = False


@dataclass(frozen=True, slots=True)
class Redirect:
    """One shell redirection: operator (`>`, `>>`, `<`, `<<`, `2>&1`, …) and its target;
    for a heredoc (`<<`) the target is the delimiter and `body` the text fed to the command."""

    op: str
    target: str
    body: str = ""


@dataclass(frozen=True, slots=True)
class Command:
    """One simple command parsed out of a shell string.

    `name` is argv[0] without its directory (`./run.sh` -> `run.sh`); `argv` has the words
    unquoted, `VAR=` prefixes and redirections removed; `text` is the command's source text.
    """

    name: str
    argv: tuple[str, ...]
    text: str
    start: int = 0
    redirects: tuple[Redirect, ...] = ()

    @property
    def args(self) -> tuple[str, ...]:
        return self.argv[1:]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool invocation by the model: an ATIF tool call.

    `shell` is the shell string the call ran (None for non-shell tools) and `commands` the
    commands parsed out of it. `is_error` and `duration_ms` are None when the log does not say.
    """

    index: int
    step: int
    tool_name: str
    call_id: str | None = None
    arguments: Mapping[str, JSONValue] = field(default_factory=_no_args)
    shell: str | None = None
    commands: tuple[Command, ...] = ()
    timestamp: datetime | None = None
    is_error: bool | None = None
    duration_ms: float | None = None
    subagent: bool = False
    output: str | None = None
    paths: tuple[str, ...] = ()
    parse_ok: bool = True


@dataclass(frozen=True, slots=True)
class Action:
    """One counted action: a command of a shell call, or a whole non-shell call.

    `category` comes from the profile's rules; `rule` names the rule that decided it.
    """

    index: int
    call: ToolCall
    command: Command | None
    category: str
    rule: str
    paths: tuple[str, ...] = ()

    @property
    def call_index(self) -> int:
        return self.call.index

    @property
    def timestamp(self) -> datetime | None:
        return self.call.timestamp

    @property
    def tool_name(self) -> str:
        return self.call.tool_name

    @property
    def call_id(self) -> str | None:
        return self.call.call_id

    @property
    def arguments(self) -> Mapping[str, JSONValue]:
        return self.call.arguments

    @property
    def shell_command(self) -> str | None:
        return self.call.shell

    @property
    def commands(self) -> tuple[Command, ...]:
        """Every command parsed out of this action's shell call (this one is `command`)."""
        return self.call.commands

    @property
    def is_error(self) -> bool | None:
        return self.call.is_error

    @property
    def duration_ms(self) -> float | None:
        return self.call.duration_ms

    @property
    def subagent(self) -> bool:
        return self.call.subagent

    @property
    def name(self) -> str:
        """The command name for a shell action, else the raw tool name."""
        return self.command.name if self.command is not None else self.call.tool_name


@dataclass(frozen=True, slots=True)
class Step:
    """One ATIF step: a message from the system, the user, or the agent (with its tool calls)."""

    index: int
    source: str
    timestamp: datetime | None = None
    message: str = ""
    reasoning: str | None = None
    model: str | None = None
    tokens: Tokens | None = None
    calls: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Attempt:
    """One agent run on one bug, read from its trajectory and classified under `profile`.

    `workdir` is the directory the agent worked in, when the log says (relative paths in
    actions are relative to it)."""

    agent: str
    source_format: str
    source_path: str
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
    steps: tuple[Step, ...] = ()
    calls: tuple[ToolCall, ...] = ()
    actions: tuple[Action, ...] = ()
    profile: str = "semantic"
    warnings: tuple[str, ...] = ()

    @property
    def tool_call_count(self) -> int:
        return len(self.calls)

    @property
    def action_count(self) -> int:
        return len(self.actions)

    def category_counts(self) -> dict[str, int]:
        """Actions per category, in first-seen order."""
        return dict(Counter(a.category for a in self.actions))

    def category_shares(self) -> dict[str, float]:
        """U_a: each category's share of the actions (empty when there are none)."""
        n = len(self.actions)
        return {k: v / n for k, v in self.category_counts().items()} if n else {}
