"""The study's published per-bug files read into attempt lines (`hunkmetrics/attempt/v1`,
`source: study-import`), so its analysis can be re-run on them (`agents import-study`).

Files are found by name anywhere under the folder given (under its `hunk4j-results/`
when it is a checkout of the study's repository, whose other folders hold other
benchmarks' files of the same names):

* `<agent>_repair_ability[_mcp].csv`: one attempt per row (required per agent);
* `<agent>_localization_ability[_mcp].csv`: LS;
* `token_and_duration_<agent>[_mcp].csv`: tokens and runtime;
* `tools_count_all_abstracted_<agent>[_mcp].csv`: actions per category (`paper`);
* `tools_count_all_<agent>[_mcp].csv`: calls per native tool and per kind of shell
  command (the shell tool's own column counts its calls);
* `tools_count_detailed_<agent>[_mcp].csv`: one row per action, in order (the action
  sequence, native tools and shell commands).

A file under a folder named `mcp-*`, or named `…_mcp.csv`, is the MAPLE experiment:
its attempts have `condition: maple`. Bug ids are normalized (`ids.normalize_bug_id`); a
bug missing from one of an agent's files, or present in it but not in its repair file,
is reported as a warning naming the file and the ids (the attempt keeps the value as
unknown; a bug without a repair row is not imported).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

from hunkmetrics.agents.evaluate import SCHEMA
from hunkmetrics.agents.metrics import VALIDATE
from hunkmetrics.agents.model import TOKEN_CONVENTION
from hunkmetrics.agents.study.ids import bug_key, normalize_bug_id
from hunkmetrics.agents.study.records import NO_TOKENS, STUDY_IMPORT
from hunkmetrics.csvfiles import open_csv
from hunkmetrics.documents.build import TOOL
from hunkmetrics.documents.shapes import ATTEMPT_OK
from hunkmetrics.errors import HunkmetricsError

__all__ = ["AGENT_NAMES", "ImportResult", "import_study"]

# The study's file-name tokens and the agents' names in the attempt lines.
AGENT_NAMES = {
    "claude": "claude-code",
    "codex": "codex",
    "gemini": "gemini-cli",
    "qwen": "qwen-code",
}
MAPLE = "maple"
_KINDS = {
    "repair": re.compile(r"^(?P<agent>[a-z0-9]+)_repair_ability(?P<mcp>_mcp)?\.csv$"),
    "localization": re.compile(r"^(?P<agent>[a-z0-9]+)_localization_ability(?P<mcp>_mcp)?\.csv$"),
    "tokens": re.compile(r"^token_and_duration_(?P<agent>[a-z0-9]+)(?P<mcp>_mcp)?\.csv$"),
    "categories": re.compile(
        r"^tools_count_all_abstracted_(?P<agent>[a-z0-9]+)(?P<mcp>_mcp)?\.csv$"
    ),
    "tools": re.compile(r"^tools_count_all_(?P<agent>[a-z0-9]+)(?P<mcp>_mcp)?\.csv$"),
    "actions": re.compile(r"^tools_count_detailed_(?P<agent>[a-z0-9]+)(?P<mcp>_mcp)?\.csv$"),
}
# A median runtime above this many seconds (about 2.8 hours, against the harness's
# 30-minute timeout) means the column is in milliseconds (Gemini CLI's summed API
# `duration_ms`).
_MILLISECONDS_ABOVE = 10_000.0
_CONFIG = {"profile": "paper", "dedupe_usage": False, "reverse": False, "exclude_tests": True}


@dataclass
class ImportResult:
    """The attempt lines (one per row of every repair file, in file order) and the
    warnings (bugs missing from a file, extra bugs, files the folder lacks)."""

    records: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Table:
    path: Path
    rows: dict[str, dict[str, str]]  # by bug_key, the last row winning
    spelling: dict[str, str]
    columns: tuple[str, ...]


@dataclass
class _ActionRows:
    path: Path
    actions: dict[str, list[tuple[str, str, str]]]  # bug key → (tool, command key, category)


def _read_csv(path: Path, warnings: list[str]) -> _Table:
    with open_csv(path) as handle:
        reader = csv.reader(handle)
        header = [h.strip() for h in next(reader, [])]
        if not header:
            raise HunkmetricsError(f"{path}: empty file")
        rows: dict[str, dict[str, str]] = {}
        spelling: dict[str, str] = {}
        repeated: list[str] = []
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            row = {h: (cells[i].strip() if i < len(cells) else "") for i, h in enumerate(header)}
            raw_id = row[header[0]]
            key = bug_key(raw_id)
            if key in rows:
                repeated.append(raw_id)
            rows[key] = row
            spelling.setdefault(key, raw_id)
    if repeated:
        warnings.append(
            f"{path}: {len(repeated)} bugs appear more than once (the last row kept): "
            + _ids(repeated)
        )
    return _Table(path, rows, spelling, tuple(header))


def _read_actions(path: Path) -> _ActionRows:
    actions: dict[str, list[tuple[str, str, str]]] = {}
    with open_csv(path) as handle:
        reader = csv.DictReader(handle)
        need = {"bug", "tool", "command", "parsed_command", "category"}
        if not need <= {(h or "").strip() for h in reader.fieldnames or []}:
            raise HunkmetricsError(f"{path}: a per-action table needs the columns {sorted(need)}")
        for raw in reader:
            row = {(k or "").strip(): (v or "").strip() for k, v in raw.items()}
            shell = row["parsed_command"] if row["command"] else ""
            actions.setdefault(bug_key(row["bug"]), []).append(
                (row["tool"], shell, row["category"])
            )
    return _ActionRows(path, actions)


def _ids(ids: list[str], most: int = 12) -> str:
    shown = ", ".join(ids[:most])
    return shown + (f" … ({len(ids) - most} more)" if len(ids) > most else "")


def _search_root(root: Path) -> Path:
    nested = root / "hunk4j-results"
    return nested if nested.is_dir() else root


def find_files(root: Path) -> dict[tuple[str, str | None], dict[str, Path]]:
    """The study's files under `root`, by (agent token, condition) and kind. Two files
    of one kind for the same agent and condition are an error naming both."""
    found: dict[tuple[str, str | None], dict[str, Path]] = {}
    for path in sorted(_search_root(root).rglob("*.csv")):
        for kind, pattern in _KINDS.items():
            m = pattern.match(path.name)
            if m is None:
                continue
            rel = path.relative_to(root).parts
            maple = m.group("mcp") is not None or any(p.startswith("mcp") for p in rel[:-1])
            slot = found.setdefault((m.group("agent"), MAPLE if maple else None), {})
            if kind in slot:
                raise HunkmetricsError(
                    f"{root}: two {kind} files for {m.group('agent')}: {slot[kind]} and "
                    f"{path}; give the folder of one benchmark's results"
                )
            slot[kind] = path
            break
    return found


def import_study(root: str | Path) -> ImportResult:
    """Every attempt the study's files under `root` describe (see the module's doc)."""
    base = Path(root)
    if not base.is_dir():
        raise HunkmetricsError(f"{base}: not a folder")
    result = ImportResult()
    found = find_files(base)
    # Plain runs first, then each condition's, each in the order the files were found.
    groups = sorted(
        ((k, v) for k, v in found.items() if "repair" in v), key=lambda kv: kv[0][1] is not None
    )
    for (token, _condition), files in found.items():
        if "repair" not in files:
            result.warnings.append(
                f"{token}: no {token}_repair_ability file beside "
                + ", ".join(str(p) for p in files.values())
                + " (not imported)"
            )
    if not groups:
        raise HunkmetricsError(f"{base}: no *_repair_ability*.csv file found")
    for (token, condition), files in groups:
        result.records.extend(_import_agent(base, token, condition, files, result.warnings))
    return result


def _import_agent(
    base: Path,
    token: str,
    condition: str | None,
    files: Mapping[str, Path],
    warnings: list[str],
) -> Iterator[dict[str, Any]]:
    agent = AGENT_NAMES.get(token, token)
    repair = _read_csv(files["repair"], warnings)
    tables = {k: _read_csv(p, warnings) for k, p in files.items() if k not in ("repair", "actions")}
    actions = _read_actions(files["actions"]) if "actions" in files else None
    keys = list(repair.rows)
    for table in tables.values():
        _report(table, repair, table.rows.keys(), warnings)
    if actions is not None:
        _report(actions, repair, actions.actions.keys(), warnings)
    label = agent if condition is None else f"{agent} [{condition}]"
    for kind in ("localization", "tokens", "categories"):
        if kind not in tables:
            warnings.append(f"{label}: no {kind} file found under {base}")
    unit = _runtime_unit(tables.get("tokens"))
    for key in keys:
        yield _record(base, agent, condition, key, repair, tables, actions, unit)


def _report(
    table: _Table | _ActionRows,
    repair: _Table,
    present: Iterable[str],
    warnings: list[str],
) -> None:
    """Warn about the repair file's bugs a file lacks, and the bugs it has that the repair
    file lacks, each named as its own file spells it (normalized)."""
    have = set(present)
    spelling = table.spelling if isinstance(table, _Table) else {}
    missing = [normalize_bug_id(repair.spelling[k]) for k in repair.rows if k not in have]
    extra = sorted(normalize_bug_id(spelling.get(k, k)) for k in have - repair.rows.keys())
    if missing:
        warnings.append(
            f"{table.path}: no row for {len(missing)} bugs of the repair file: " + _ids(missing)
        )
    if extra:
        warnings.append(
            f"{table.path}: {len(extra)} bugs not in {repair.path.name} (not imported): "
            + _ids(extra)
        )


def _runtime_unit(table: _Table | None) -> float:
    if table is None or "time_duration" not in table.columns:
        return 1.0
    values = [
        v for row in table.rows.values() if (v := _number(row.get("time_duration"))) is not None
    ]
    return 1000.0 if values and median(values) > _MILLISECONDS_ABOVE else 1.0


def _number(text: str | None) -> float | None:
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value == value and value not in (float("inf"), float("-inf")) else None


def _count(text: str | None) -> int | None:
    value = _number(text)
    return int(value) if value is not None and value >= 0 else None


def _first(row: Mapping[str, str], *names: str) -> tuple[str, int] | None:
    for name in names:
        value = _count(row.get(name))
        if value is not None:
            return name, value
    return None


def _shell_column(columns: tuple[str, ...]) -> str | None:
    """The shell tool's column: the one other columns extend (`Bash`, `Bash_git_all`)."""
    for c in columns:
        if any(o.startswith(c + "_") for o in columns if o != c):
            return c
    return None


def _record(
    base: Path,
    agent: str,
    condition: str | None,
    key: str,
    repair: _Table,
    tables: Mapping[str, _Table],
    actions: _ActionRows | None,
    unit: float,
) -> dict[str, Any]:
    row = repair.rows[key]
    bug = normalize_bug_id(repair.spelling[key])
    notes: list[str] = []
    compiled = row.get("compile_fail", "") != "1"
    before = _count(row.get("failed_test_prior"))
    after = _count(row.get("failed_test_after")) if compiled else None
    rr_text = row.get("regression_reduction", "")
    rr = int(float(rr_text)) if _number(rr_text) is not None and compiled else None
    loc_row = tables["localization"].rows.get(key) if "localization" in tables else None
    ls = None if loc_row is None else loc_row.get("localization") == "1"

    tokens, runtime = _tokens(tables.get("tokens"), key, unit, notes)
    categories, sequence, native, shell, calls = _actions(tables, actions, key, notes)
    n_actions = sum(categories.values())
    source_file = str(repair.path.relative_to(base))
    record: dict[str, Any] = {
        "id": f"{agent}/{bug}" if condition is None else f"{agent}/{condition}/{bug}",
        "schema": SCHEMA,
        "tool": dict(TOOL),
        "config": dict(_CONFIG),
        "agent": agent,
        "bug": bug,
        "trajectory": source_file,
        "error": None,
        "format": STUDY_IMPORT,
        "agent_version": None,
        "model": None,
        "session_id": None,
        "reference": None,
        "patch": {
            "source": "none: the study's files keep no patch",
            "empty": False,
            "files": [],
            "error": None,
        },
        "outcome": {
            "compiled": compiled,
            "failing_before": before,
            "failing_after": after,
            "failing_tests": [],
            "source": f"study: {source_file}",
        },
        "ls": ls,
        "compiled": compiled,
        "repaired": row.get("repair") == "1",
        "regression_reduction": rr,
        "tokens": tokens,
        "runtime": runtime,
        "tool_calls": calls if calls is not None else n_actions,
        "actions": n_actions,
        "profile": "paper",
        "categories": [
            {"category": k, "actions": v, "share": v / n_actions}
            for k, v in categories.items()
            if v
        ],
        "unique_native_tools": sorted(native),
        "unique_shell_commands": sorted(shell),
        "localization": None,
        "hunks": [],
        "cycles": _cycles(sequence),
        "warnings": notes,
        "source": STUDY_IMPORT,
        "condition": condition,
    }
    if calls is None:
        notes.append("no native-tool counts: tool_calls is the action count")
    if sequence is None:
        notes.append("no per-action table: cycles not measured (zeros)")
    else:
        record["sequence"] = sequence
    return ATTEMPT_OK.build(record)


def _tokens(
    table: _Table | None, key: str, unit: float, notes: list[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    row = table.rows.get(key) if table is not None else None
    if row is None or table is None:
        notes.append("no token and duration row: tokens unknown (zeros)")
        return _token_dict(0, 0, 0, 0, f"{NO_TOKENS} not in the study's files", []), {
            "seconds": None,
            "source": "none: not in the study's files",
            "started_at": None,
            "ended_at": None,
        }
    name = table.path.name
    inp = _first(row, "total_input_token", "input_token")
    out = _first(row, "total_output_token", "output_token")
    write = _first(row, "cache_creation_tokens")
    read = _first(row, "cache_read_tokens")
    raw = [{"field": p[0], "value": p[1]} for p in (inp, out, write, read) if p]
    if row.get("unread_instruction", "0") not in ("", "0"):
        notes.append("the study marks this run unread_instruction")
    cached = "" if write or read else " (the file does not split cached input out)"
    tokens = _token_dict(
        inp[1] if inp else 0,
        write[1] if write else 0,
        read[1] if read else 0,
        out[1] if out else 0,
        f"study: {name}{cached}",
        raw,
    )
    seconds = _number(row.get("time_duration"))
    where = f"study: {name} time_duration" + (" (milliseconds)" if unit != 1.0 else "")
    runtime = {
        "seconds": None if seconds is None or seconds < 0 else seconds / unit,
        "source": where,
        "started_at": None,
        "ended_at": None,
    }
    return tokens, runtime


def _token_dict(
    uncached: int, write: int, read: int, output: int, source: str, raw: list[dict[str, Any]]
) -> dict[str, Any]:
    total_in = uncached + write + read
    return {
        "input": total_in,
        "output": output,
        "total": total_in + output,
        "input_uncached": uncached,
        "cache_read": read,
        "cache_write": write,
        "output_visible": output,
        "reasoning": 0,
        "convention": TOKEN_CONVENTION,
        "source": source,
        "raw": raw,
    }


def _actions(
    tables: Mapping[str, _Table], actions: _ActionRows | None, key: str, notes: list[str]
) -> tuple[dict[str, int], list[str] | None, set[str], set[str], int | None]:
    categories: dict[str, int] = {}
    sequence: list[str] | None = None
    native: set[str] = set()
    shell: set[str] = set()
    calls: int | None = None
    rows = actions.actions.get(key) if actions is not None else None
    if rows is not None:
        sequence = [category for _, _, category in rows]
        for tool, command, category in rows:
            categories[category] = categories.get(category, 0) + 1
            if command:
                shell.add(command)
            else:
                native.add(tool)
    counted = tables["categories"].rows.get(key) if "categories" in tables else None
    if counted is not None:
        from_file = {
            c: n for c, text in counted.items() if c != "bug" and (n := _count(text)) is not None
        }
        if rows is not None and {k: v for k, v in from_file.items() if v} != categories:
            notes.append("the per-action table and the category counts differ: counts used")
        categories = from_file
    tools = tables.get("tools")
    tool_row = tools.rows.get(key) if tools is not None else None
    if tools is not None and tool_row is not None:
        shell_col = _shell_column(tools.columns[1:])
        calls = 0
        for column in tools.columns[1:]:
            value = _count(tool_row.get(column)) or 0
            if shell_col and column.startswith(shell_col + "_"):
                continue  # the kinds of shell command the shell column's calls ran
            calls += value
            if column != shell_col and value and rows is None:
                native.add(column)
    return categories, sequence, native, shell, calls


def _cycles(sequence: list[str] | None) -> dict[str, Any]:
    """Edit → build/test cycles over the category sequence (as `metrics.edit_cycles`)."""
    if sequence is None:
        return {"count": 0, "edits": 0, "validations": 0, "last_edit_validated": None}
    count = edits = validations = 0
    pending = False
    last_edit = last_validation = -1
    for i, category in enumerate(sequence):
        if category == "WRITE":
            edits, pending, last_edit = edits + 1, True, i
        elif category in VALIDATE:
            validations, last_validation = validations + 1, i
            if pending:
                count, pending = count + 1, False
    validated = None if last_edit < 0 else last_validation > last_edit
    return {
        "count": count,
        "edits": edits,
        "validations": validations,
        "last_edit_validated": validated,
    }
