"""Gemini CLI and Qwen Code telemetry outfiles (`--telemetry-outfile`): OpenTelemetry records
written one after another as pretty-printed JSON (concatenated, not JSONL).

Only records with `attributes["event.name"]` count. `<prefix>.api_response` events open a step
(model, tokens, response text); the `<prefix>.tool_call` events after it are that step's calls.
`function_args` is present only when the run used `--telemetry-log-prompts`.
`input_token_count` is Gemini's `promptTokenCount`, which includes the cached tokens.
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from hunkmetrics.agents.draft import CallDraft, Draft, StepDraft
from hunkmetrics.agents.jsonio import (
    Record,
    as_dict,
    as_float,
    as_int,
    as_str,
    iter_concatenated,
    json_arguments,
    parse_time,
)
from hunkmetrics.agents.model import Tokens

PREFIXES = {
    "gemini_cli.": ("gemini-cli", "gemini_telemetry"),
    "qwen-code.": ("qwen-code", "qwen_telemetry"),
}
SHELL_TOOLS = {"run_shell_command": "command"}


def event_name(rec: Record) -> str | None:
    return as_str(as_dict(rec.get("attributes")).get("event.name"))


def gemini_tokens(counts: Record, source: str, keys: tuple[str, str, str, str]) -> Tokens:
    """Tokens from Gemini-style counts: (input incl. cached, cached, output, thoughts) keys."""
    raw = {k: as_int(counts.get(k)) for k in keys if k in counts}
    prompt, cached, output, thoughts = (raw.get(k, 0) for k in keys)
    return Tokens(
        input_uncached=max(prompt - cached, 0),
        cache_read=cached,
        output=output,
        reasoning=thoughts,
        raw=MappingProxyType(raw),
        source=source,
    )


_KEYS = (
    "input_token_count",
    "cached_content_token_count",
    "output_token_count",
    "thoughts_token_count",
)


def read(path: Path, fmt: str | None = None) -> list[Draft]:
    draft = Draft(agent="gemini-cli", source_format=fmt or "gemini_telemetry")
    prefix: str | None = None
    step: StepDraft | None = None
    counted: list[Tokens] = []
    no_args = 0
    for _, rec in iter_concatenated(path, draft):
        name = event_name(rec)
        if name is None:
            continue
        if prefix is None:
            prefix = next((p for p in PREFIXES if name.startswith(p)), None)
            if prefix is not None:
                draft.agent, draft.source_format = PREFIXES[prefix]
        attrs = as_dict(rec.get("attributes"))
        draft.session_id = draft.session_id or as_str(attrs.get("session.id"))
        stamp = parse_time(attrs.get("event.timestamp"))
        if stamp is not None:
            first = draft.started_at
            draft.started_at = stamp if first is None else min(first, stamp)
            draft.ended_at = stamp if draft.ended_at is None else max(draft.ended_at, stamp)
        short = name[len(prefix) :] if prefix and name.startswith(prefix) else name
        if short == "api_response":
            tokens = gemini_tokens(attrs, "api_response", _KEYS)
            counted.append(tokens)
            step = StepDraft(
                "agent",
                stamp,
                message=as_str(attrs.get("response_text")) or "",
                model=as_str(attrs.get("model")),
                tokens=tokens,
            )
            draft.steps.append(step)
        elif short == "tool_call":
            if "function_args" not in attrs:
                no_args += 1
            fname = as_str(attrs.get("function_name")) or "?"
            args = json_arguments(attrs.get("function_args"), draft, f"tool_call {fname}")
            key = SHELL_TOOLS.get(fname)
            success = attrs.get("success")
            ms = as_float(attrs.get("duration_ms"))
            call = CallDraft(
                tool_name=fname,
                arguments=args,
                call_id=as_str(attrs.get("call_id")),
                shell=as_str(args.get(key)) if key else None,
                timestamp=stamp,
                is_error=(not success) if isinstance(success, bool) else None,
                duration_ms=ms,
                subagent=False,
            )
            if step is None:
                step = StepDraft("agent", stamp)
                draft.steps.append(step)
            step.calls.append(call)
        elif short == "user_prompt":
            step = None
            draft.steps.append(StepDraft("user", stamp, as_str(attrs.get("prompt")) or ""))
        elif short == "api_error":
            draft.warn(f"API error: {attrs.get('error')!s}")
    if prefix is None:
        draft.warn("no gemini_cli.* or qwen-code.* events in this telemetry file")
    if no_args:
        draft.warn(
            f"{no_args} tool call(s) without function_args (run without --telemetry-log-prompts)"
        )
    if counted:
        draft.tokens = Tokens.sum(counted, "sum of api_response token counts")
    return [draft]
