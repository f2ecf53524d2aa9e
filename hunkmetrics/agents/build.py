"""Turn a reader's `Draft` into an immutable `Attempt`: parse each shell call into commands,
classify every action under a profile, and settle the runtime."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from hunkmetrics.agents.classify import Profile
from hunkmetrics.agents.draft import CallDraft, Draft
from hunkmetrics.agents.model import Action, Attempt, Command, Step, ToolCall, freeze_mapping
from hunkmetrics.agents.paths import command_paths, tool_paths, unique
from hunkmetrics.agents.shell import ShellParse, ShellSplitter, split_cached


def build_attempt(
    draft: Draft, path: str, profile: Profile, splitter: ShellSplitter | None = None
) -> Attempt:
    """The attempt a draft describes, its actions classified under `profile`. Shell lines
    are split by `splitter` when given, else through the shared cache (`split_cached`);
    tree-sitter-bash is loaded only when a shell call needs it."""
    calls: list[ToolCall] = []
    steps: list[Step] = []
    warnings = list(draft.warnings)
    for step_no, sd in enumerate(draft.steps, start=1):
        first = len(calls)
        for cd in sd.calls:
            shell: ShellParse | None = None
            if cd.shell is not None:
                shell = splitter.split(cd.shell) if splitter else split_cached(cd.shell)
            call = _call(cd, len(calls), step_no, sd.timestamp, shell)
            if not call.parse_ok:
                warnings.append(
                    f"call {call.index}: shell syntax error; commands read as far as possible"
                )
            calls.append(call)
        steps.append(
            Step(
                index=step_no,
                source=sd.source,
                timestamp=sd.timestamp,
                message=sd.message,
                reasoning=sd.reasoning,
                model=sd.model,
                tokens=sd.tokens,
                calls=tuple(range(first, len(calls))),
            )
        )
    stamps = [s.timestamp for s in steps if s.timestamp is not None]
    stamps += [c.timestamp for c in calls if c.timestamp is not None]
    started = draft.started_at or (min(stamps) if stamps else None)
    ended = draft.ended_at or (max(stamps) if stamps else None)
    runtime, runtime_source = draft.runtime_s, draft.runtime_source
    if runtime is None and started is not None and ended is not None and ended > started:
        runtime = (ended - started).total_seconds()
        runtime_source = "timestamps: last event - first event"
    return Attempt(
        agent=draft.agent,
        source_format=draft.source_format,
        source_path=path,
        agent_version=draft.agent_version,
        model=draft.model or next((s.model for s in steps if s.model), None),
        bug_id=draft.bug_id,
        session_id=draft.session_id,
        workdir=draft.workdir,
        started_at=started,
        ended_at=ended,
        runtime_s=runtime,
        runtime_source=runtime_source if runtime is not None else "unknown",
        tokens=draft.tokens,
        patch=draft.patch,
        patch_source=draft.patch_source,
        outcome=draft.outcome,
        task=draft.task,
        steps=tuple(steps),
        calls=tuple(calls),
        actions=classify_calls(calls, profile),
        profile=profile.name,
        warnings=tuple(warnings),
    )


def _call(
    cd: CallDraft,
    index: int,
    step: int,
    step_time: datetime | None,
    shell: ShellParse | None,
) -> ToolCall:
    arguments = freeze_mapping(cd.arguments)
    commands: tuple[Command, ...] = ()
    parse_ok = True
    if shell is not None:
        commands, parse_ok = shell.commands, shell.ok
    paths = tool_paths(arguments) + cd.extra_paths
    if shell is not None:
        paths.extend(shell.paths)
    return ToolCall(
        index=index,
        step=step,
        tool_name=cd.tool_name,
        call_id=cd.call_id,
        arguments=arguments,
        shell=cd.shell,
        commands=commands,
        timestamp=cd.timestamp if cd.timestamp is not None else step_time,
        is_error=cd.is_error,
        duration_ms=cd.duration_ms,
        subagent=cd.subagent,
        output=cd.output,
        paths=tuple(unique(paths)),
        parse_ok=parse_ok,
    )


def classify_calls(calls: Iterable[ToolCall], profile: Profile) -> tuple[Action, ...]:
    """One action per command of a shell call (one for a shell call with no command), one per
    other call, each with its category and the rule that gave it."""
    actions: list[Action] = []
    seen: dict[Command, tuple[str, str, tuple[str, ...]]] = {}  # runs repeat their commands
    # A tool call's category depends on its name and on the arguments some rule looks at.
    keys = sorted({key for rule in profile.tool_rules for key, _ in rule.argument})
    tools: dict[tuple[str, tuple[str | None, ...]], tuple[str, str]] = {}
    for call in calls:
        if call.commands:
            for cmd in call.commands:
                known = seen.get(cmd)
                if known is None:
                    category, rule = profile.classify_command(cmd)
                    known = seen[cmd] = (category, rule, tuple(command_paths(cmd)))
                actions.append(Action(len(actions), call, cmd, *known))
        else:
            args = call.arguments
            # Rules compare string values only: anything else (maybe unhashable) keys as None.
            tool_key = (call.tool_name, tuple(_str_or_none(args.get(k)) for k in keys))
            decided = tools.get(tool_key)
            if decided is None:
                decided = tools[tool_key] = profile.classify_tool(call.tool_name, args)
            actions.append(Action(len(actions), call, None, *decided, call.paths))
    return tuple(actions)


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None
