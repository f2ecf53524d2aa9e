"""Attempt outcomes from the harness (never from the agent's own log).

Three sources, each giving an `Outcome` (compiled, failing test count and names):

* `defects4j test` output: `Failing tests: N` and the `  - Class::method` lines; a
  `Running ant (compile…) … FAIL` line means the program did not compile;
* JUnit XML reports (Maven Surefire and Gradle `TEST-*.xml`, pytest `--junitxml`): one
  file or a directory of them; a test fails when its `<testcase>` holds `<failure>` or
  `<error>`. Documents with a DTD or entity declarations are refused;
* manifest columns `compiled, failing_before, failing_after` (the study's `compile_fail`
  is accepted too).

`merge` puts a before-run and an after-run together (failing_before from the first).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from xml.parsers import expat

from hunkmetrics.agents.model import Outcome
from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.inputfile import read_input


class OutcomeError(HunkmetricsError):
    """An outcome file or column that cannot be read."""


_FAILING = re.compile(r"^\s*Failing tests:\s*(\d+)\s*$")
_TEST_LINE = re.compile(r"^\s*-\s+(\S.*?)\s*$")
_COMPILE_FAIL = re.compile(r"^\s*Running ant \((compile[\w.-]*)\)[. ]*FAIL\b")
_DTD = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_ROOT_START = re.compile(rb"<[A-Za-z_]")
_TRUE = frozenset({"1", "true", "yes", "y", "t"})
_FALSE = frozenset({"0", "false", "no", "n", "f"})


def parse_defects4j(text: str, source: str = "defects4j test output") -> Outcome:
    """The outcome `defects4j test` printed. A compile failure gives compiled False and no
    counts; otherwise `Failing tests: N` gives the count and the `- ` lines the names."""
    names: list[str] = []
    count: int | None = None
    for line in text.splitlines():
        if _COMPILE_FAIL.match(line):
            return Outcome(compiled=False, source=f"{source}: compilation failed")
        m = _FAILING.match(line)
        if m:
            count = int(m.group(1))
            continue
        if count is not None:
            t = _TEST_LINE.match(line)
            if t:
                names.append(t.group(1))
    if count is None:
        raise OutcomeError(f"{source}: no `Failing tests: N` line (is it defects4j test output?)")
    if len(names) not in (0, count):
        raise OutcomeError(f"{source}: says {count} failing tests but lists {len(names)}")
    return Outcome(compiled=True, failing_after=count, source=source, failing_tests=tuple(names))


def _reject(*_: object) -> None:
    raise OutcomeError("XML with a DTD or entity declarations is not read")


def _reject_external(*_: object) -> int:
    raise OutcomeError("XML with external entities is not read")


def _parse_xml(data: bytes, source: str) -> ET.Element:
    """Parse with expat into an ElementTree, refusing DTDs and entity declarations (no
    entity expansion, no external fetches)."""
    root = _ROOT_START.search(data)
    if _DTD.search(data, 0, root.start() if root else len(data)):  # the prolog only
        raise OutcomeError(f"{source}: XML with a DTD or entity declarations is not read")
    builder = ET.TreeBuilder()
    parser = expat.ParserCreate()
    parser.StartDoctypeDeclHandler = _reject
    parser.EntityDeclHandler = _reject
    parser.ExternalEntityRefHandler = _reject_external
    parser.StartElementHandler = builder.start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    try:
        parser.Parse(data, True)
        return builder.close()
    except (expat.ExpatError, AssertionError, IndexError) as exc:
        raise OutcomeError(f"{source}: not well-formed XML: {exc}") from exc


def junit_failures(data: bytes, source: str = "JUnit XML") -> tuple[int, list[str]]:
    """(test cases, `class::name` of each failing one) in one JUnit XML document."""
    root = _parse_xml(data, source)
    if root.tag not in ("testsuite", "testsuites"):
        raise OutcomeError(f"{source}: root element <{root.tag}> is not a JUnit test report")
    cases = 0
    failing: list[str] = []
    for case in root.iter("testcase"):
        cases += 1
        if case.find("failure") is not None or case.find("error") is not None:
            failing.append(f"{case.get('classname', '')}::{case.get('name', '')}")
    return cases, failing


def parse_junit(path: str | Path) -> Outcome:
    """The outcome in a JUnit XML report file, or in every `*.xml` report of a directory
    (Surefire's `target/surefire-reports`, Gradle's `build/test-results/test`). Reports
    mean the tests ran, so the program compiled."""
    root = Path(path)
    files = sorted(root.glob("*.xml")) if root.is_dir() else [root]
    if not files:
        raise OutcomeError(f"{root}: no *.xml test reports in the directory")
    failing: list[str] = []
    for file in files:
        try:
            data = read_input(file, "test report")
        except HunkmetricsError as exc:
            raise OutcomeError(str(exc)) from None
        failing.extend(junit_failures(data, str(file))[1])
    return Outcome(
        compiled=True,
        failing_after=len(failing),
        source=f"JUnit XML: {root}",
        failing_tests=tuple(failing),
    )


def read_outcome(path: str | Path) -> Outcome:
    """The outcome in a file: a SWE-bench or Multi-SWE-bench `report.json` (any `.json`),
    a SWE-bench `run_instance.log`'s report line, JUnit XML (a `.xml` file or a directory
    of reports) or `defects4j test` output (anything else)."""
    p = Path(path)
    if p.suffix.lower() == ".json":
        from hunkmetrics.agents.swebench.reports import read_instance_report

        return read_instance_report(p)
    if p.name == "run_instance.log":
        from hunkmetrics.agents.swebench.reports import read_instance_log

        return read_instance_log(p)
    if p.is_dir() or p.suffix.lower() == ".xml":
        return parse_junit(p)
    try:
        text = read_input(p, "test output").decode("utf-8", errors="replace")
    except HunkmetricsError as exc:
        raise OutcomeError(str(exc)) from None
    return parse_defects4j(text, f"defects4j test output: {p}")


def _flag(value: str, column: str) -> bool:
    v = value.strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise OutcomeError(f"column {column}: {value!r} is not true/false or 1/0")


def _count(value: str, column: str) -> int:
    v = value.strip()
    if not v.isdigit():
        raise OutcomeError(f"column {column}: {value!r} is not a test count")
    return int(v)


def outcome_from_columns(row: Mapping[str, str | None]) -> Outcome | None:
    """The outcome in manifest columns (`compiled` or the study's `compile_fail`,
    `failing_before`, `failing_after`) and a harness's `resolved` verdict (with
    `outcome_source` saying whose); None when every one is missing or empty."""
    cells = {k: (v or "").strip() for k, v in row.items() if k}
    resolved = _flag(cells["resolved"], "resolved") if cells.get("resolved") else None
    source = cells.get("outcome_source") or "manifest columns"
    compiled: bool | None = None
    if cells.get("compiled"):
        compiled = _flag(cells["compiled"], "compiled")
    elif cells.get("compile_fail"):
        compiled = not _flag(cells["compile_fail"], "compile_fail")
    before = (
        _count(cells["failing_before"], "failing_before") if cells.get("failing_before") else None
    )
    after = _count(cells["failing_after"], "failing_after") if cells.get("failing_after") else None
    if compiled is None and before is None and after is None and resolved is None:
        return None
    return Outcome(compiled, before, after, source=source, resolved=resolved)


def merge(
    after: Outcome | None, before: Outcome | None = None, columns: Outcome | None = None
) -> Outcome | None:
    """One outcome: the after-run's, with `failing_before` from the before-run's failing
    count; manifest columns fill in what the files leave unknown."""
    out = after
    if before is not None:
        count = before.failing_after if before.failing_after is not None else before.failing_before
        base = out if out is not None else Outcome(source="")
        src = (
            f"{base.source}; before: {before.source}" if base.source else f"before: {before.source}"
        )
        out = replace(base, failing_before=count, source=src)
    if columns is not None:
        if out is None:
            return columns
        out = replace(
            out,
            compiled=out.compiled if out.compiled is not None else columns.compiled,
            failing_before=(
                out.failing_before if out.failing_before is not None else columns.failing_before
            ),
            failing_after=(
                out.failing_after if out.failing_after is not None else columns.failing_after
            ),
            resolved=out.resolved if out.resolved is not None else columns.resolved,
            source=f"{out.source}; {columns.source}",
        )
    return out
