"""SWE-agent `.traj` files: one JSON object `{environment, trajectory[], history[], info}`.

Each `trajectory` step ran one `action` string: either a tool-bundle command (`open`, `edit`,
`find_file`, `str_replace_editor`, `submit`, …), read as a native tool call, or a plain shell
command. With function calling, the assistant `history` items carry the calls' names, JSON
arguments and ids, one per step. Steps have no timestamps; the runtime is the sum of the
steps' `execution_time` when every step has one (tool time only). The patch is
`info.submission`; `info.model_stats` gives tokens sent and received (no cache split).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from types import MappingProxyType

from hunkmetrics.agents.draft import CallDraft, Draft, StepDraft
from hunkmetrics.agents.errors import TrajectoryError
from hunkmetrics.agents.jsonio import (
    as_dict,
    as_float,
    as_int,
    as_list,
    as_str,
    json_arguments,
    load_json,
)
from hunkmetrics.agents.model import Outcome, Tokens

# Commands that act on the file open in the editor window, which the step's state names.
_ON_OPEN_FILE = frozenset({"edit", "insert", "goto", "scroll_up", "scroll_down"})

# Tool-bundle commands (SWE-agent tools/*/config.yaml) and the names of their arguments; every
# call also keeps its words as `argv` and the lines after the first as `text`.
BUNDLE: dict[str, tuple[str, ...]] = {
    "open": ("path", "line_number"),
    "goto": ("line_number",),
    "scroll_up": (),
    "scroll_down": (),
    "create": ("filename",),
    "edit": (),
    "insert": (),
    "find_file": ("file_name", "dir"),
    "search_dir": ("search_term", "dir"),
    "search_file": ("search_term", "file"),
    "str_replace_editor": ("command", "path"),
    "filemap": ("file_path",),
    "submit": (),
    "exit_forfeit": (),
    "view_image": ("image_file",),
    "undo_edit": ("path",),
}


# shlex reads a long line in quadratic time (a 1 MB action took 8 s): longer bundle
# command lines are split on white space instead.
SHLEX_MAX_CHARS = 65_536


def _words(line: str) -> list[str]:
    if len(line) > SHLEX_MAX_CHARS:
        return line.split()
    try:
        return shlex.split(line)
    except ValueError:
        return line.split()


def _call_from_action(action: str) -> CallDraft:
    """A call from the action text: a bundle command, else a shell command."""
    first, _, rest = action.strip().partition("\n")
    head = first.split(None, 1)
    # Only a bundle command's line is split into words here; a shell command goes to
    # the shell parser whole.
    words = _words(first) if head and head[0] in BUNDLE else []
    if words and words[0] in BUNDLE:
        names = BUNDLE[words[0]]
        args: dict[str, object] = dict(zip(names, words[1:], strict=False))
        args["argv"] = words[1:]
        if rest:
            args["text"] = rest
        return CallDraft(tool_name=words[0], arguments=args)
    return CallDraft(tool_name="bash", arguments={"command": action}, shell=action)


def _state(value: object) -> object:
    """A step's `state`: an object, or in older files the same object as a JSON string."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return None
    return value


def _history_calls(history: list[object], draft: Draft) -> list[CallDraft]:
    calls: list[CallDraft] = []
    for item in history:
        msg = as_dict(item)
        if msg.get("role") != "assistant":
            continue
        for tc in as_list(msg.get("tool_calls")):
            fn = as_dict(as_dict(tc).get("function"))
            name = as_str(fn.get("name")) or "?"
            args = json_arguments(fn.get("arguments"), draft, f"tool call {name}")
            shell = as_str(args.get("command")) if name == "bash" else None
            calls.append(CallDraft(name, args, as_str(as_dict(tc).get("id")), shell))
    return calls


def read(path: Path) -> list[Draft]:
    data = load_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("trajectory"), list):
        raise TrajectoryError(path, "not a SWE-agent trajectory (no `trajectory` list)")
    info = as_dict(data.get("info"))
    draft = Draft(
        agent="swe-agent",
        source_format="swe_agent",
        agent_version=as_str(info.get("swe_agent_version")),
        bug_id=path.name.removesuffix(".traj").split(".")[0] or None,
    )
    steps = [as_dict(s) for s in as_list(data.get("trajectory"))]
    from_history = _history_calls(as_list(data.get("history")), draft)
    use_history = len(from_history) == len(steps) and bool(steps)
    times = [as_float(s.get("execution_time")) for s in steps]
    for i, step in enumerate(steps):
        action = as_str(step.get("action")) or ""
        if draft.workdir is None:
            draft.workdir = as_str(as_dict(_state(step.get("state"))).get("working_dir"))
        call = from_history[i] if use_history else _call_from_action(action)
        seconds = times[i]
        call.duration_ms = seconds * 1000 if seconds is not None else None
        open_file = as_str(as_dict(_state(step.get("state"))).get("open_file"))
        if call.tool_name in _ON_OPEN_FILE and open_file and open_file != "n/a":
            call.extra_paths.append(open_file)
        observation = step.get("observation")
        call.output = observation if isinstance(observation, str) else None
        sd = StepDraft("agent", message=as_str(step.get("thought")) or "")
        if action.strip() or use_history:
            sd.calls.append(call)
        draft.steps.append(sd)
    if steps and all(t is not None for t in times):
        draft.runtime_s = sum(t for t in times if t is not None)
        draft.runtime_source = "sum of trajectory[].execution_time (tool time only)"
    stats = as_dict(info.get("model_stats"))
    if stats:
        raw: dict[str, int] = {
            k: as_int(stats.get(k))
            for k in ("tokens_sent", "tokens_received", "api_calls")
            if k in stats
        }
        draft.tokens = Tokens(
            input_uncached=raw.get("tokens_sent", 0),
            output=raw.get("tokens_received", 0),
            raw=MappingProxyType(raw),
            source="swe-agent info.model_stats (no cache split reported)",
        )
    submission = info.get("submission")
    if isinstance(submission, str):
        draft.patch, draft.patch_source = submission, "trajectory: info.submission"
    status = as_str(info.get("exit_status"))
    if status is not None:
        draft.outcome = Outcome(exit_status=status, source="trajectory: info.exit_status")
    config = info.get("config") or data.get("replay_config")
    if isinstance(config, str):
        try:
            config = json.loads(config)
        except json.JSONDecodeError:
            config = None
    model = as_dict(as_dict(as_dict(config).get("agent")).get("model"))
    draft.model = as_str(model.get("name")) or as_str(model.get("model_name"))
    return [draft]
