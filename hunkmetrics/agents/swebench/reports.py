"""The harnesses' verdicts as outcomes: a SWE-bench instance `report.json`, a
Multi-SWE-bench instance `report.json`, and either harness's run report.

SWE-bench (`swebench.harness.grading.get_eval_report`, swebench 5.0.2): `{<instance_id>:
{patch_is_None, patch_exists, patch_successfully_applied, resolved, tests_status:
{FAIL_TO_PASS: {success, failure}, PASS_TO_PASS: {…}, FAIL_TO_FAIL: {…}, PASS_TO_FAIL:
{…}}}}`, or the inner report alone (sb-cli's per-instance reports). The patch applied
and its tests ran: compiled; failing before = the FAIL_TO_PASS tests (they fail without
the fix, by the dataset's definition), failing after = the FAIL_TO_PASS and PASS_TO_PASS
failures (FAIL_TO_FAIL and PASS_TO_FAIL decide nothing in SWE-bench and are not
counted); `resolved` is SWE-bench's verdict. A patch that did not apply (or whose tests
did not run) has compiled unknown and is not resolved.

Multi-SWE-bench (`multi_swe_bench.harness.report.Report`, 1.1.0): `{org, repo, number,
valid, error_msg, run_result, test_patch_result, fix_patch_result, …}`, each result
`{passed_count, failed_count, skipped_count, passed_tests, failed_tests,
skipped_tests}`: failing before = the test patch's failures, failing after = the fix
patch's; compiled when any test ran after the fix patch. Whether it is resolved is in
the run report (`final_report.json`), not here.

An instance folder that kept only `run_instance.log` (as some published submissions do)
holds the same report on its `report: {…}` line, written as a Python literal.

Run reports (SWE-bench's `<model>.<run_id>.json`, Multi-SWE-bench's
`final_report.json`): `resolved_ids`, `unresolved_ids`, `empty_patch_ids`, `error_ids`;
Multi-SWE-bench names instances `org/repo:pr-N`. A leaderboard submission's
`results/results.json` (the SWE-bench/experiments layout) lists the `resolved` ids
beside what else happened to each instance (`no_generation`, `generated`, `no_apply`,
`applied`, `with_logs`, `test_errored`, …)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from hunkmetrics.agents.model import Outcome
from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.inputfile import read_input

F2P, P2P = "FAIL_TO_PASS", "PASS_TO_PASS"
_MULTI_ID = re.compile(r"^(?P<org>[^/]+)/(?P<repo>[^:]+):pr-(?P<number>\d+)$")


def load(path: Path) -> object:
    """A report file's JSON (a regular file under the input cap, `inputfile.read_input`)."""
    data = read_input(path, "SWE-bench report")
    try:
        return json.loads(data.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise HunkmetricsError(f"{path}: not a JSON document ({exc})") from None
    except RecursionError:
        raise HunkmetricsError(f"{path}: JSON nested too deeply to be a report") from None


def is_instance_report(data: object) -> bool:
    """A SWE-bench or Multi-SWE-bench instance report."""
    if not isinstance(data, dict):
        return False
    if "fix_patch_result" in data or _is_bare(data):
        return True
    return len(data) == 1 and "resolved" in _dict(next(iter(data.values())))


def _is_bare(data: dict[str, Any]) -> bool:
    """A SWE-bench instance report without its `{instance_id: …}` wrapper, as sb-cli's
    per-instance reports are written."""
    return isinstance(data.get("resolved"), bool) and (
        "tests_status" in data or "patch_successfully_applied" in data
    )


def _instance(data: dict[str, Any]) -> dict[str, Any]:
    """The report itself, wrapped in its instance id or not."""
    return data if _is_bare(data) else _dict(next(iter(data.values())))


def read_instance_report(path: Path) -> Outcome:
    """The outcome one instance report gives (either harness)."""
    data = load(path)
    if isinstance(data, dict) and "fix_patch_result" in data:
        return _multi(path, data)
    if not is_instance_report(data):
        raise HunkmetricsError(
            f"{path}: not a SWE-bench report.json ({{instance_id: {{resolved, …}}}}) nor a "
            "Multi-SWE-bench one"
        )
    assert isinstance(data, dict)
    return _swebench(path, _instance(data))


INSTANCE_LOG = "run_instance.log"
# `<time> - INFO - report: {'<instance_id>': {...}}`, as the harness logs it
_REPORT_LINE = re.compile(r"^(?:.* - )?report: (?P<report>\{.*\})\s*$")
_LONGEST_REPORT_LINE = 16 << 20  # a report names tests; more than this is not one


def read_instance_log(path: Path) -> Outcome:
    """The outcome in a SWE-bench `run_instance.log`: its last `report: {…}` line, read as
    the Python literal the harness wrote (never evaluated as code). A log without one
    (the evaluation stopped before grading) gives an outcome that knows nothing."""
    text = read_input(path, "SWE-bench instance log").decode("utf-8", errors="replace")
    found = None
    for line in text.splitlines():
        if "report: {" in line and len(line) <= _LONGEST_REPORT_LINE:
            match = _REPORT_LINE.match(line)
            if match is not None:
                found = match["report"]
    if found is None:
        return Outcome(
            exit_status="not graded",
            source=f"SWE-bench log {path} (no report line: the evaluation stopped before grading)",
        )
    try:
        data = ast.literal_eval(found)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        raise HunkmetricsError(f"{path}: its report line is not a report literal") from None
    if not is_instance_report(data):
        raise HunkmetricsError(f"{path}: its report line is not {{instance_id: {{resolved, …}}}}")
    assert isinstance(data, dict)
    return _swebench(path, _instance(data))


def _swebench(path: Path, report: dict[str, Any]) -> Outcome:
    resolved = report.get("resolved")
    if not isinstance(resolved, bool):
        raise HunkmetricsError(f"{path}: `resolved` is not true or false")
    source = f"SWE-bench report {path}"
    if not report.get("patch_exists", True) or report.get("patch_is_None"):
        return Outcome(resolved=resolved, source=f"{source} (no patch)")
    if report.get("patch_successfully_applied") is False:
        return Outcome(
            resolved=resolved,
            exit_status="patch not applied",
            source=f"{source} (patch_successfully_applied false: the patch did not apply, "
            "or its tests did not run)",
        )
    status = report.get("tests_status")
    if not isinstance(status, dict):
        return Outcome(compiled=True, resolved=resolved, source=f"{source} (no tests_status)")
    f2p, p2p = _dict(status.get(F2P)), _dict(status.get(P2P))
    failing = [*_names(path, f2p, "failure"), *_names(path, p2p, "failure")]
    before = len(_names(path, f2p, "success")) + len(_names(path, f2p, "failure"))
    if resolved != (not failing):
        raise HunkmetricsError(
            f"{path}: resolved is {str(resolved).lower()} but {len(failing)} FAIL_TO_PASS or "
            "PASS_TO_PASS tests fail"
        )
    return Outcome(
        compiled=True,
        failing_before=before,
        failing_after=len(failing),
        source=source,
        failing_tests=tuple(failing),
        resolved=resolved,
    )


def _multi(path: Path, report: dict[str, Any]) -> Outcome:
    before = _dict(report.get("test_patch_result"))
    after = _dict(report.get("fix_patch_result"))
    counts = [after.get(k) for k in ("passed_count", "failed_count", "skipped_count")]
    if not all(isinstance(c, int) for c in counts) or not isinstance(
        before.get("failed_count"), int
    ):
        raise HunkmetricsError(
            f"{path}: test_patch_result or fix_patch_result lacks its test counts"
        )
    ran = sum(c for c in counts if isinstance(c, int)) > 0
    failed = after.get("failed_tests")
    names = sorted(str(t) for t in failed) if isinstance(failed, list) else []
    return Outcome(
        compiled=True if ran else None,
        failing_before=before["failed_count"] if ran else None,
        failing_after=after["failed_count"] if ran else None,
        exit_status=None if ran else "no test ran after the fix patch",
        source=f"Multi-SWE-bench report {path}"
        + ("" if ran else " (no test result after the fix patch: a build failure?)"),
        failing_tests=tuple(names),
    )


# Lists of instances that were evaluated, or given no patch, and so are unresolved unless
# listed as resolved: the run reports' and the SWE-bench/experiments `results.json`'s.
_EVALUATED = (
    "unresolved_ids",
    "empty_patch_ids",
    "completed_ids",
    "no_generation",
    "generated",
    "with_logs",
    "no_apply",
    "applied",
)
# Lists of instances the harness failed on: their verdict is unknown, not false.
_ERRED = ("error_ids", "install_fail", "reset_failed", "test_errored", "test_timeout")


def is_run_report(data: object) -> bool:
    """A run report (`resolved_ids` and `unresolved_ids` lists) or a submission's
    `results.json` (a `resolved` list)."""
    if not isinstance(data, dict):
        return False
    if all(isinstance(data.get(k), list) for k in ("resolved_ids", "unresolved_ids")):
        return True
    return isinstance(data.get("resolved"), list)


def read_run_report(path: Path) -> dict[str, bool]:
    """Resolved or not, by instance id (`org__repo-N` for Multi-SWE-bench's
    `org/repo:pr-N`): resolved ids true; ids the report lists as evaluated or without a
    patch false; instances the harness erred on left out (unknown)."""
    data = load(path)
    if not is_run_report(data):
        raise HunkmetricsError(
            f"{path}: not a run report (no resolved_ids and unresolved_ids, nor resolved)"
        )
    assert isinstance(data, dict)
    verdicts: dict[str, bool] = {}
    for key in _EVALUATED:
        verdicts.update((instance_key(i), False) for i in _ids(data, key))
    for key in _ERRED:
        for instance in _ids(data, key):
            verdicts.pop(instance_key(instance), None)
    for key in ("resolved_ids", "resolved"):
        verdicts.update((instance_key(i), True) for i in _ids(data, key))
    return verdicts


def _ids(data: dict[str, Any], key: str) -> list[object]:
    value = data.get(key)
    return value if isinstance(value, list) else []


def instance_key(name: object) -> str:
    """A run report's instance id as the predictions name it."""
    text = str(name)
    match = _MULTI_ID.match(text)
    if match is None:
        return text
    return f"{match['org']}__{match['repo']}-{match['number']}"


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _names(path: Path, group: dict[str, Any], key: str) -> list[str]:
    value = group.get(key, [])
    if not isinstance(value, list):
        raise HunkmetricsError(f"{path}: tests_status {key} is not a list")
    return [str(v) for v in value]
