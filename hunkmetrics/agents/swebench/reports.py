"""The harnesses' verdicts as outcomes: a SWE-bench instance `report.json`, a
Multi-SWE-bench instance `report.json`, and either harness's run report.

SWE-bench (`swebench.harness.grading.get_eval_report`, swebench 5.0.2): `{<instance_id>:
{patch_is_None, patch_exists, patch_successfully_applied, resolved, tests_status:
{FAIL_TO_PASS: {success, failure}, PASS_TO_PASS: {…}, FAIL_TO_FAIL: {…}, PASS_TO_FAIL:
{…}}}}`. The patch applied and its tests ran: compiled; failing before = the FAIL_TO_PASS
tests (they fail without the fix, by the dataset's definition), failing after = the
FAIL_TO_PASS and PASS_TO_PASS failures (FAIL_TO_FAIL and PASS_TO_FAIL decide nothing
in SWE-bench and are not counted); `resolved` is SWE-bench's verdict. A patch that did
not apply (or whose tests did not run) has compiled unknown and is not resolved.

Multi-SWE-bench (`multi_swe_bench.harness.report.Report`, 1.1.0): `{org, repo, number,
valid, error_msg, run_result, test_patch_result, fix_patch_result, …}`, each result
`{passed_count, failed_count, skipped_count, passed_tests, failed_tests,
skipped_tests}`: failing before = the test patch's failures, failing after = the fix
patch's; compiled when any test ran after the fix patch. Whether it is resolved is in
the run report (`final_report.json`), not here.

Run reports (SWE-bench's `<model>.<run_id>.json`, Multi-SWE-bench's
`final_report.json`): `resolved_ids`, `unresolved_ids`, `empty_patch_ids`,
`error_ids`; Multi-SWE-bench names instances `org/repo:pr-N`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hunkmetrics.agents.model import Outcome
from hunkmetrics.errors import HunkmetricsError

F2P, P2P = "FAIL_TO_PASS", "PASS_TO_PASS"
_MULTI_ID = re.compile(r"^(?P<org>[^/]+)/(?P<repo>[^:]+):pr-(?P<number>\d+)$")


def load(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HunkmetricsError(f"{path}: no such file") from None
    except OSError as exc:
        raise HunkmetricsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise HunkmetricsError(f"{path}: not a JSON document ({exc})") from None


def is_instance_report(data: object) -> bool:
    """A SWE-bench or Multi-SWE-bench instance report."""
    if not isinstance(data, dict):
        return False
    if "fix_patch_result" in data:
        return True
    return len(data) == 1 and "resolved" in _dict(next(iter(data.values())))


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
    return _swebench(path, _dict(next(iter(data.values()))))


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


def is_run_report(data: object) -> bool:
    return isinstance(data, dict) and all(
        isinstance(data.get(k), list) for k in ("resolved_ids", "unresolved_ids")
    )


def read_run_report(path: Path) -> dict[str, bool]:
    """Resolved or not, by instance id (`org__repo-N` for Multi-SWE-bench's
    `org/repo:pr-N`): resolved ids true; unresolved and empty-patch ids false; instances
    that erred are left out (unknown)."""
    data = load(path)
    if not is_run_report(data):
        raise HunkmetricsError(f"{path}: not a run report (no resolved_ids, unresolved_ids)")
    assert isinstance(data, dict)
    verdicts: dict[str, bool] = {}
    for key, value in (("unresolved_ids", False), ("empty_patch_ids", False)):
        verdicts.update((instance_key(i), value) for i in data.get(key) or [])
    for instance in data["resolved_ids"]:
        verdicts[instance_key(instance)] = True
    return verdicts


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
