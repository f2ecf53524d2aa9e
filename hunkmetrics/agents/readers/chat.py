"""Chat recordings of Gemini CLI and Qwen Code.

Gemini CLI (`~/.gemini/tmp/<hash>/chats/session-*.jsonl`, or the older whole-session `.json`
`{sessionId, projectHash, startTime, lastUpdated, messages[]}`): `MessageRecord{id, timestamp,
type: user|gemini|info|error|warning, content, toolCalls[], tokens, model, thoughts}`, each
tool call `{id, name, args, result, status, timestamp}`. A record whose `id` was seen before
replaces it (the recorder rewrites a message as it grows).

Qwen Code (`~/.qwen/projects/<project>/chats/<session>.jsonl`): `ChatRecord{uuid, parentUuid,
sessionId, timestamp, type: user|assistant|tool_result|system, message{role, parts[]},
usageMetadata, model, toolCallResult, isSidechain, agentId}`; tool calls are `functionCall`
parts, their results `tool_result` records.

Gemini counts (`tokens.input`, `usageMetadata.promptTokenCount`) include the cached tokens.
"""

from __future__ import annotations

from pathlib import Path

from hunkmetrics.agents.draft import CallDraft, Draft, StepDraft
from hunkmetrics.agents.jsonio import (
    Record,
    as_dict,
    as_list,
    as_str,
    content_text,
    iter_jsonl,
    load_json,
    parse_time,
)
from hunkmetrics.agents.model import Tokens
from hunkmetrics.agents.readers.telemetry import SHELL_TOOLS, gemini_tokens

_GEMINI_TOKENS = ("input", "cached", "output", "thoughts")
_GENAI_TOKENS = (
    "promptTokenCount",
    "cachedContentTokenCount",
    "candidatesTokenCount",
    "thoughtsTokenCount",
)
_OK = frozenset({"success", "ok", "completed"})


def _shell(name: str, args: Record) -> str | None:
    key = SHELL_TOOLS.get(name)
    return as_str(args.get(key)) if key else None


def _total(draft: Draft, steps: list[StepDraft], source: str) -> None:
    counted = [s.tokens for s in steps if s.tokens is not None]
    if counted:
        draft.tokens = Tokens.sum(counted, source)


def _gemini_message(draft: Draft, rec: Record) -> StepDraft | None:
    kind = as_str(rec.get("type"))
    stamp = parse_time(rec.get("timestamp"))
    text = content_text(rec.get("content"))
    if kind == "user":
        return StepDraft("user", stamp, text)
    if kind in ("info", "error", "warning"):
        if kind == "error":
            draft.warn(f"gemini error message: {text[:120]}")
        return StepDraft("system", stamp, text)
    if kind != "gemini":
        return None
    tokens = rec.get("tokens")
    thoughts = [
        f"{as_str(as_dict(t).get('subject')) or ''}: {as_str(as_dict(t).get('description')) or ''}"
        for t in as_list(rec.get("thoughts"))
    ]
    step = StepDraft(
        "agent",
        stamp,
        text,
        reasoning="\n".join(thoughts) or None,
        model=as_str(rec.get("model")),
        tokens=gemini_tokens(tokens, "tokens", _GEMINI_TOKENS)
        if isinstance(tokens, dict)
        else None,
    )
    for item in as_list(rec.get("toolCalls")):
        tc = as_dict(item)
        name = as_str(tc.get("name")) or "?"
        args = as_dict(tc.get("args"))
        status = as_str(tc.get("status"))
        result = tc.get("result")
        step.calls.append(
            CallDraft(
                tool_name=name,
                arguments=args,
                call_id=as_str(tc.get("id")),
                shell=_shell(name, args),
                timestamp=parse_time(tc.get("timestamp")) or stamp,
                is_error=(status not in _OK) if status else None,
                output=result if isinstance(result, str) else None,
            )
        )
    return step


def read_gemini(path: Path) -> list[Draft]:
    draft = Draft(agent="gemini-cli", source_format="gemini_chat")
    by_id: dict[str, StepDraft] = {}
    order: list[StepDraft] = []
    if path.suffix == ".json":
        doc = as_dict(load_json(path))
        records = [as_dict(m) for m in as_list(doc.get("messages"))]
        draft.session_id = as_str(doc.get("sessionId"))
    else:
        records = []
        for _, rec in iter_jsonl(path, draft):
            if "messages" in rec:
                records.extend(as_dict(m) for m in as_list(rec.get("messages")))
            records.append(rec)
    for rec in records:
        draft.session_id = draft.session_id or as_str(rec.get("sessionId"))
        step = _gemini_message(draft, rec)
        if step is None:
            continue
        key = as_str(rec.get("id"))
        if key is not None and key in by_id:
            order[order.index(by_id[key])] = step
        else:
            order.append(step)
        if key is not None:
            by_id[key] = step
    draft.steps = order
    unanswered = sum(1 for s in order for c in s.calls if c.is_error is None)
    if unanswered:
        draft.warn(f"{unanswered} tool call(s) have no status (run interrupted?)")
    _total(draft, order, "sum of gemini message tokens")
    return [draft]


def read_qwen(path: Path) -> list[Draft]:
    draft = Draft(agent="qwen-code", source_format="qwen_chat")
    by_call: dict[str, CallDraft] = {}
    for _, rec in iter_jsonl(path, draft):
        draft.session_id = draft.session_id or as_str(rec.get("sessionId"))
        draft.agent_version = draft.agent_version or as_str(rec.get("version"))
        draft.workdir = draft.workdir or as_str(rec.get("cwd"))
        kind = as_str(rec.get("type"))
        stamp = parse_time(rec.get("timestamp"))
        sub = rec.get("isSidechain") is True or rec.get("agentId") is not None
        parts = [as_dict(p) for p in as_list(as_dict(rec.get("message")).get("parts"))]
        if kind == "assistant":
            usage = rec.get("usageMetadata")
            step = StepDraft(
                "agent",
                stamp,
                model=as_str(rec.get("model")),
                tokens=(
                    gemini_tokens(usage, "usageMetadata", _GENAI_TOKENS)
                    if isinstance(usage, dict)
                    else None
                ),
            )
            texts: list[str] = []
            thoughts: list[str] = []
            for part in parts:
                fc = part.get("functionCall")
                if isinstance(fc, dict):
                    name = as_str(fc.get("name")) or "?"
                    args = as_dict(fc.get("args"))
                    call = CallDraft(
                        name, args, as_str(fc.get("id")), _shell(name, args), stamp, subagent=sub
                    )
                    step.calls.append(call)
                    if call.call_id:
                        by_call[call.call_id] = call
                elif isinstance(part.get("text"), str):
                    (thoughts if part.get("thought") is True else texts).append(str(part["text"]))
            step.message = "\n".join(texts)
            step.reasoning = "\n".join(thoughts) or None
            draft.steps.append(step)
        elif kind == "tool_result":
            result = as_dict(rec.get("toolCallResult"))
            call_id = as_str(result.get("callId"))
            for part in parts:
                response = as_dict(part.get("functionResponse"))
                call_id = call_id or as_str(response.get("id"))
            answered = by_call.get(call_id or "")
            if answered is None:
                draft.warn("a tool_result answers no functionCall in this file")
                continue
            call = answered
            status = as_str(result.get("status"))
            error = result.get("error")
            call.is_error = bool(error) or (status is not None and status not in _OK)
            display = result.get("resultDisplay")
            call.output = display if isinstance(display, str) else None
        elif kind == "user" and not sub:
            text = "\n".join(str(p["text"]) for p in parts if isinstance(p.get("text"), str))
            if text:
                draft.steps.append(StepDraft("user", stamp, text))
    unanswered = sum(1 for c in by_call.values() if c.is_error is None)
    if unanswered:
        draft.warn(f"{unanswered} tool call(s) have no result (run interrupted?)")
    _total(draft, draft.steps, "sum of qwen usageMetadata")
    return [draft]
