"""The "Beyond Accuracy" study's analysis over attempt records (docs/agents.md,
"The study's tables").

    from hunkmetrics.agents.study import iter_attempts, read_bug_traits, summarize
    summary = summarize(iter_attempts("attempts.jsonl"), read_bug_traits("results.jsonl"))
    summary.table2.rows[0].repaired.value        # typed tables
    for t in summary.tables():                   # or every table as rows
        print(t.name, t.header, t.rows)

The API:

* records (`records.py`): `StudyAttempt` (one attempt line typed: agent, bug, condition,
  source, ls, compiled, repaired, regression_reduction, tokens, runtime_s, categories,
  sequence, native_tools, shell_commands, hunks as `HunkTouch`), `iter_attempts(path)`
  (streamed), `read_attempts(path)`, `parse_attempt(dict)`;
* bug ids (`ids.py`): `normalize_bug_id("chart-14") == "Chart_14"`, `bug_key`;
* the developer patches (`bugs.py`): `BugTraits` (hunk_count, divergence, proximity),
  `read_bug_traits(batch_results_jsonl) -> {bug_key: BugTraits}`;
* statistics (`stats.py`): `Rate` (count, n, value, bootstrap low/high),
  `bootstrap_rate`, `Spread`/`spread`, `Correlation`/`pearson` (r and p-value);
* n-grams (`sequences.py`): `NgramCounter` (streamed, numpy);
* the tables (`tables.py`): `Table2` … `Table9`, `SequencePatterns`, `RRDistribution`,
  `FirstTouchTable`, `PerBugTable` (every attempt with its bug's traits), each with
  typed `rows` and `.table() -> TableRows` (name, title, header, rows of plain cells);
* `summarize(attempts, bugs=None, Settings(top_k, windows, resamples, seed,
  min_runtime_s)) -> StudySummary` (`summary.py`), with `.tables(per_bug=False)` for
  every table present;
* text (`render.py`): `format_cell`, `compact` (count, rate and interval in one cell),
  `transpose`, `readable`, `table_csv`, `table_markdown`, `summary_json`;
* the study's published files as attempt lines (`importer.py`): `import_study(dir) ->
  ImportResult(records, warnings)`.
"""

from __future__ import annotations

from hunkmetrics.agents.study.bugs import BugTraits, read_bug_traits
from hunkmetrics.agents.study.ids import bug_key, normalize_bug_id
from hunkmetrics.agents.study.records import (
    HunkTouch,
    StudyAttempt,
    iter_attempts,
    parse_attempt,
    read_attempts,
)
from hunkmetrics.agents.study.stats import Correlation, Rate, Spread, bootstrap_rate, pearson
from hunkmetrics.agents.study.summary import Settings, StudySummary, summarize
from hunkmetrics.agents.study.tables import (
    FirstTouchRow,
    FirstTouchTable,
    PatternRow,
    PerBugRow,
    PerBugTable,
    RRDistribution,
    RRRow,
    SequencePatterns,
    Table2,
    Table2Row,
    Table3,
    Table3Row,
    Table4,
    Table4Bug,
    Table5,
    Table5Row,
    Table6,
    Table6Row,
    Table7,
    Table7Row,
    Table8,
    Table8Row,
    Table9,
    Table9Row,
    TableRows,
)

__all__ = [
    "BugTraits",
    "Correlation",
    "FirstTouchRow",
    "FirstTouchTable",
    "HunkTouch",
    "PatternRow",
    "PerBugRow",
    "PerBugTable",
    "RRDistribution",
    "RRRow",
    "Rate",
    "SequencePatterns",
    "Settings",
    "Spread",
    "StudyAttempt",
    "StudySummary",
    "Table2",
    "Table2Row",
    "Table3",
    "Table3Row",
    "Table4",
    "Table4Bug",
    "Table5",
    "Table5Row",
    "Table6",
    "Table6Row",
    "Table7",
    "Table7Row",
    "Table8",
    "Table8Row",
    "Table9",
    "Table9Row",
    "TableRows",
    "bootstrap_rate",
    "bug_key",
    "iter_attempts",
    "normalize_bug_id",
    "parse_attempt",
    "pearson",
    "read_attempts",
    "read_bug_traits",
    "summarize",
]
