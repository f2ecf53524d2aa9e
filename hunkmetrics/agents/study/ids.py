"""Bug ids as the study's files spell them (`Chart_14`, `Chart-14`, `chart_14`,
`Jacksoncore-1`) turned into one spelling, and the key they are matched by.

The spelling of a Defects4J bug is `<Project>_<number>`: `-` becomes `_`, and the
project name is written as Defects4J writes it (`chart` → `Chart`, `jacksoncore` →
`JacksonCore`); any other id (a SWE-bench instance, `django__django-11099`) is kept as
given. Ids match case-blind with `-` and `_` alike
(`bug_key`, the same rule as `agents evaluate`).
"""

from __future__ import annotations

import re

from hunkmetrics.agents.runs import bug_key

__all__ = ["DEFECTS4J_PROJECTS", "bug_key", "normalize_bug_id"]

DEFECTS4J_PROJECTS = (
    "Chart",
    "Cli",
    "Closure",
    "Codec",
    "Collections",
    "Compress",
    "Csv",
    "Gson",
    "JacksonCore",
    "JacksonDatabind",
    "JacksonXml",
    "Jsoup",
    "JxPath",
    "Lang",
    "Math",
    "Mockito",
    "Time",
)
_CANONICAL = {name.lower(): name for name in DEFECTS4J_PROJECTS}
_ID = re.compile(r"^(?P<project>.*?)[-_](?P<number>\d+)$")


def normalize_bug_id(raw: str) -> str:
    """One spelling of a Defects4J bug id: `chart-14` → `Chart_14`, `Jacksoncore-1` →
    `JacksonCore_1`. Any other id is kept as given (a SWE-bench instance id such as
    `django__django-11099` is the key people join on); ids still match by `bug_key`."""
    text = raw.strip()
    m = _ID.match(text)
    if m is None:
        return text
    project = _CANONICAL.get(m.group("project").lower())
    return text if project is None else f"{project}_{m.group('number')}"
