"""mini-swe-agent trajectories (`<instance>.traj.json`).

v1 (text): `{info, messages, trajectory_format: "mini-swe-agent-1.x"}`, or a bare list of
messages in old files; the command is the one fenced block (```bash or ```mswea_bash_command)
of an assistant message, its result the next user message `<returncode>N</returncode>…`.
v2 (tool calling): assistant messages carry `tool_calls` and `extra{actions, response, cost,
timestamp}`; results are `role: "tool"` messages whose content is JSON with `returncode`; the
run ends with a `role: "exit"` message `extra{exit_status, submission}`.

The patch is `info.submission` (or the exit message's); tokens are the LiteLLM
`extra.response.usage` of each assistant message, `prompt_tokens` including cached ones.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from types import MappingProxyType

from hunkmetrics.agents.draft import CallDraft, Draft, StepDraft
from hunkmetrics.agents.errors import TrajectoryError
from hunkmetrics.agents.jsonio import (
    Record,
    as_dict,
    as_int,
    as_list,
    as_str,
    content_text,
    json_arguments,
    load_json,
    parse_time,
)
from hunkmetrics.agents.model import Outcome, Tokens

_FENCE = re.compile(r"```(?:bash|mswea_bash_command|sh)\s*\n(.*?)\n```", re.DOTALL)
_RETURNCODE = re.compile(r"<returncode>\s*(-?\d+)\s*</returncode>")


def openai_usage(usage: Record, input_key: str, output_key: str, source: str) -> Tokens:
    """OpenAI-style usage, in both of OpenAI's spellings: the input count includes
    `<input>_details.cached_tokens` (and a provider's `cache_creation_input_tokens`), the
    output count includes `<output>_details.reasoning_tokens`."""
    prompt = as_int(usage.get(input_key))
    completion = as_int(usage.get(output_key))
    cached = as_int(as_dict(usage.get(f"{input_key}_details")).get("cached_tokens"))
    cache_write = as_int(usage.get("cache_creation_input_tokens"))
    reasoning = as_int(as_dict(usage.get(f"{output_key}_details")).get("reasoning_tokens"))
    raw = {
        input_key: prompt,
        output_key: completion,
        "cached_tokens": cached,
        "reasoning_tokens": reasoning,
    }
    if cache_write:
        raw["cache_creation_input_tokens"] = cache_write
    return Tokens(
        input_uncached=max(prompt - cached - cache_write, 0),
        cache_read=cached,
        cache_write=cache_write,
        output=max(completion - reasoning, 0),
        reasoning=reasoning,
        raw=MappingProxyType(raw),
        source=source,
    )


def litellm_tokens(usage: Record, source: str) -> Tokens:
    """Chat-completions usage (LiteLLM): `prompt_tokens`, `completion_tokens`."""
    return openai_usage(usage, "prompt_tokens", "completion_tokens", source)


def responses_tokens(usage: Record, source: str) -> Tokens:
    """Responses-API usage: `input_tokens`, `output_tokens`."""
    return openai_usage(usage, "input_tokens", "output_tokens", source)


def _response_step(
    item: Record, stamp: datetime | None, draft: Draft, by_call: dict[str, CallDraft], i: int
) -> StepDraft:
    """One saved Responses-API response: its `output` items are the message, the reasoning
    summary and the function calls (`{type: function_call, call_id, name, arguments}`)."""
    usage = item.get("usage")
    tokens = responses_tokens(usage, "response.usage") if isinstance(usage, dict) else None
    step = StepDraft("agent", stamp, model=as_str(item.get("model")), tokens=tokens)
    texts: list[str] = []
    thoughts: list[str] = []
    for raw in as_list(item.get("output")):
        out = as_dict(raw)
        kind = as_str(out.get("type"))
        if kind == "message":
            texts.append(content_text(out.get("content")))
        elif kind == "reasoning":
            thoughts.extend(content_text([s]) for s in as_list(out.get("summary")))
        elif kind == "function_call":
            name = as_str(out.get("name")) or "?"
            args = json_arguments(out.get("arguments"), draft, f"message {i}")
            call = CallDraft(
                name,
                args,
                as_str(out.get("call_id")) or as_str(out.get("id")),
                as_str(args.get("command")) if name == "bash" else None,
                stamp,
            )
            step.calls.append(call)
            if call.call_id:
                by_call[call.call_id] = call
        elif kind:
            draft.warn(f"message {i}: response output item {kind!r} skipped")
    step.message = "\n".join(t for t in texts if t)
    step.reasoning = "\n".join(t for t in thoughts if t) or None
    return step


def _answer(call: CallDraft, item: Record, extra: Record) -> None:
    """A `function_call_output`: its text, and the return code mini-swe-agent kept."""
    output = item.get("output")
    call.output = output if isinstance(output, str) else content_text(output)
    code = extra.get("returncode")
    if code is None:
        match = _RETURNCODE.search(call.output or "")
        code = int(match.group(1)) if match else None
    call.is_error = as_int(code) != 0 if code is not None else None


def _whole_number(value: object) -> object:
    """`created` as Unix seconds: a number, or digits in a string (as some providers give)."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return value


def read(path: Path) -> list[Draft]:
    data = load_json(path)
    if isinstance(data, list):
        messages, info, fmt = data, {}, None
    elif isinstance(data, dict) and isinstance(data.get("messages"), list):
        messages, info = data["messages"], as_dict(data.get("info"))
        fmt = as_str(data.get("trajectory_format"))
    else:
        raise TrajectoryError(path, "not a mini-swe-agent trajectory (no `messages` list)")
    draft = Draft(
        agent="mini-swe-agent",
        source_format="mini_swe_agent",
        agent_version=as_str(info.get("mini_version")) or fmt,
        bug_id=path.name.removesuffix(".traj.json").removesuffix(".json") or None,
    )
    model = as_dict(as_dict(info.get("config")).get("model"))
    draft.model = as_str(model.get("model_name"))
    by_call: dict[str, CallDraft] = {}
    pending: CallDraft | None = None
    usages: list[Tokens] = []  # summed once at the end (Tokens.sum), not pairwise
    created: list[datetime] = []  # the model responses' own `created` times (v1 has no others)
    for i, item in enumerate(messages):
        if not isinstance(item, dict):
            raise TrajectoryError(path, f"message {i} is not an object")
        role = as_str(item.get("role"))
        extra = as_dict(item.get("extra"))
        stamp = parse_time(extra.get("timestamp"))
        text = content_text(item.get("content"))
        if item.get("object") == "response":  # mini-swe-agent 2 with a Responses-API model
            step = _response_step(item, stamp, draft, by_call, i)
            if step.tokens is not None:
                usages.append(step.tokens)
            draft.steps.append(step)
        elif item.get("type") == "function_call_output":
            answered = by_call.get(as_str(item.get("call_id")) or "")
            if answered is None:
                draft.warn(f"message {i}: a function_call_output answers no call in this file")
            else:
                _answer(answered, item, extra)
        elif role == "assistant":
            response = as_dict(extra.get("response"))
            made = parse_time(_whole_number(response.get("created")))
            if made is not None:
                created.append(made)
            usage = as_dict(response.get("usage"))
            tokens = litellm_tokens(usage, "extra.response.usage") if usage else None
            if tokens is not None:
                usages.append(tokens)
            step = StepDraft("agent", stamp, text, tokens=tokens)
            tool_calls = as_list(item.get("tool_calls"))
            if tool_calls:
                for tc in tool_calls:
                    fn = as_dict(as_dict(tc).get("function"))
                    name = as_str(fn.get("name")) or "bash"
                    args = json_arguments(fn.get("arguments"), draft, f"message {i}")
                    call = CallDraft(
                        name,
                        args,
                        as_str(as_dict(tc).get("id")),
                        as_str(args.get("command")),
                        stamp,
                    )
                    step.calls.append(call)
                    if call.call_id:
                        by_call[call.call_id] = call
            else:
                blocks = _FENCE.findall(text)
                if len(blocks) == 1:
                    pending = CallDraft(
                        "bash", {"command": blocks[0]}, shell=blocks[0], timestamp=stamp
                    )
                    step.calls.append(pending)
                else:
                    draft.warn(f"message {i}: {len(blocks)} command blocks, no action taken")
            draft.steps.append(step)
        elif role == "tool":
            answered = by_call.get(as_str(item.get("tool_call_id")) or "")
            if answered is not None:
                call = answered
                call.output = text
                try:
                    result = json.loads(text)
                except json.JSONDecodeError:
                    result = None
                code = as_dict(result).get("returncode")
                call.is_error = as_int(code) != 0 if code is not None else None
        elif role == "user" and pending is not None and _RETURNCODE.search(text):
            match = _RETURNCODE.search(text)
            pending.is_error = match is not None and int(match.group(1)) != 0
            pending.output = text
            pending = None
        elif role == "exit":
            info = {**extra, **info}
        elif role in ("user", "system"):
            pending = None
            draft.steps.append(StepDraft(str(role), stamp, text))
    if usages:
        draft.tokens = Tokens.sum(usages, "sum of the responses' usage")
    if len(created) > 1 and not any(step.timestamp for step in draft.steps):
        # mini-swe-agent 1 stamps nothing itself; the responses' creation times (whole
        # seconds) span the run from the first answer to the last
        draft.runtime_s = (max(created) - min(created)).total_seconds()
        draft.runtime_source = "timestamps: the model responses' `created`, last - first"
    submission = info.get("submission")
    if isinstance(submission, str):
        draft.patch, draft.patch_source = submission, "trajectory: info.submission"
    status = as_str(info.get("exit_status"))
    if status is not None:
        draft.outcome = Outcome(exit_status=status, source="trajectory: info.exit_status")
    return [draft]
