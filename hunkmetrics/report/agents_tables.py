"""The Agents part's tables as HTML: the study's tables (from `summarize`), each with
its CSV download and its rates' intervals, and the per-bug table the figures link to."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from ..agents.study.tables import TableRows
from .agents_data import AgentsData, Point, bug_names, class_label
from .downloads import csv_link

MAX_TABLE_ROWS = 500  # rows of one summary table shown in the page (the CSV has all)
FOLD_ROWS = 30  # a table longer than this is folded (<details>), open on a click


def cell_text(value: object, percent: bool = False) -> str:
    """A table cell as the page shows it (the CSV keeps the exact value)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if percent:
            return f"{100 * value:.1f}%"
        if value != 0 and abs(value) < 0.01:
            return f"{value:.2g}"
        return f"{value:,.0f}" if abs(value) >= 10_000 else f"{value:,.2f}"
    return escape(str(value))


def _interval(low: object, high: object) -> str:
    if not isinstance(low, float) or not isinstance(high, float):
        return ""
    return f' <span class="ci">[{100 * low:.1f}, {100 * high:.1f}]</span>'


EMPTY_TABLES = {
    "patterns": "No attempt carries its action sequence, so there are no patterns to count: "
    "<code>agents evaluate</code> writes the sequence of every attempt it reads from a "
    "trajectory; the study's published per-bug files have none.",
}


def table_html(rows: TableRows, limit: int = MAX_TABLE_ROWS) -> str:
    """A summary table: the CSV link, then the table, a rate's bootstrap 95% interval
    shown beside it (its `_ci_low`/`_ci_high` columns are folded into the rate's cell).
    A table without rows is a note saying why."""
    if not rows.rows:
        why = EMPTY_TABLES.get(rows.name, "The attempts give this table no rows.")
        return f'<div class="note">{why}</div>'
    header = list(rows.header)
    folded = {
        c
        for c in header
        if c.endswith(("_ci_low", "_ci_high")) and c.rsplit("_ci_", 1)[0] + "_rate" in header
    }
    shown = [k for k, c in enumerate(header) if c not in folded]
    percent = [c in rows.percent for c in header]
    body = []
    for row in rows.rows[:limit]:
        cells = []
        for k in shown:
            text = cell_text(row[k], percent[k] and not isinstance(row[k], bool))
            name = header[k]
            if name.endswith("_rate") and f"{name[:-5]}_ci_low" in folded:
                at = header.index(f"{name[:-5]}_ci_low")
                text += _interval(row[at], row[header.index(f"{name[:-5]}_ci_high")])
            numeric = isinstance(row[k], int | float) and not isinstance(row[k], bool)
            cells.append(f"<td{' class=num' if numeric else ''}>{text}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    head = "".join(f"<th>{escape(header[k].replace('_', ' '))}</th>" for k in shown)
    more = (
        f'<p class="caption">The page shows {limit:,} of {len(rows.rows):,} rows; the CSV '
        "has them all.</p>"
        if len(rows.rows) > limit
        else ""
    )
    table = (
        f'<div class="scroll"><table id="table-{escape(rows.name)}"><thead><tr>{head}</tr>'
        f"</thead><tbody>{''.join(body)}</tbody></table></div>{more}"
    )
    return f'<p class="download">{csv_link(rows.name, rows.header, rows.rows)}</p>' + fold(
        table, len(rows.rows)
    )


def fold(table: str, rows: int) -> str:
    """A long table behind a "show" toggle (HTML <details>: no script needed)."""
    if rows <= FOLD_ROWS:
        return table
    return f"<details><summary>Show the table ({rows:,} rows)</summary>{table}</details>"


TABLE_CAPTIONS = {
    "table2": "Per agent: attempts, localization success (the patch touches every file the "
    "developer's did), compilation, mean regression reduction (failing tests before minus "
    "after, over the attempts where it is defined) and repair accuracy. Each rate has its "
    "bootstrap 95% confidence interval in brackets.",
    "table3": "Divergence of the developer patches of the bugs each agent fixed and of "
    "those it did not, and the share fixed per proximity class (with its bootstrap 95% "
    "interval).",
    "table4": "The bugs no agent fixed, with each agent's localization success and the "
    "developer patch's hunks, divergence and class; the last rows compare these bugs with "
    "all bugs.",
    "table5": "Mean tokens of passing and failing attempts. Input is every prompt token, "
    "cached or not; where the tokens have a cache breakdown it is split into new input, "
    "cache creation and cache reads.",
    "table6": "Mean runtime in seconds of passing and failing attempts; the last row "
    "averages the agents' means.",
    "table7": "Distinct native (non-shell) tools and distinct shell commands per agent.",
    "table8": "Each category's share of the actions of passing, failing and all attempts "
    "(every action weighs the same).",
    "patterns": "The most frequent windows of consecutive action categories, with their "
    "frequency and share of all windows of that size.",
    "rr": "Regression reduction per agent: shares positive, zero and negative, spread, "
    "and the correlation across agents of repair rate with mean RR (Pearson r, p-value).",
    "table9": "Agents run with and without a condition (such as MAPLE), over the bugs run in both.",
    "first_touch": "Per agent and proximity class: the share of developer hunks whose file "
    "the agent read, and edited, and how many actions it took to get there.",
}


def _mark(points: Sequence[Point]) -> tuple[str, str]:
    """(page cell, CSV cell) for one agent's attempts at one bug."""
    if not points:
        return "", ""
    known = [p for p in points if p.repaired is not None]
    fixed = sum(1 for p in known if p.repaired)
    details = "; ".join(
        f"{p.outcome or 'outcome unknown'}, RR "
        f"{'—' if p.rr is None else p.rr}, LS {'—' if p.ls is None else 'yes' if p.ls else 'no'}"
        for p in points
    )
    if len(points) == 1:
        text = "✓" if fixed else "✗" if known else "?"
        csv_cell = "true" if fixed else "false" if known else ""
    else:
        text = csv_cell = f"{fixed}/{len(points)}"
    css = "fixed" if fixed else "unfixed" if known else ""
    return f'<td class="mark {css}" title="{escape(details)}">{text}</td>', csv_cell


def bug_table(data: AgentsData, anchors: Mapping[str, str]) -> str:
    """One row per bug attempted: the developer patch's hunks, divergence and class, how
    many agents fixed it, and each agent's result (✓ fixed, ✗ not, k/n over n
    attempts). The rows shown are those with an anchor, which the figures' dots link to."""
    names = list(data.summary.groups)
    by_bug: dict[str, dict[str, list[Point]]] = {}
    for p in data.points:
        by_bug.setdefault(p.key, {}).setdefault(p.group, []).append(p)
    shown_as = bug_names(data)
    header = ["bug", "hunks", "divergence", "proximity", "fixed_by", *names]
    csv_rows: list[list[object]] = []
    html_rows = []
    for key, bug in shown_as.items():
        traits = data.traits.get(key)
        fixed_by = sum(any(p.repaired for p in ps) for ps in by_bug[key].values())
        marks = [_mark(by_bug[key].get(name, [])) for name in names]
        hunks = traits.hunk_count if traits else None
        div = traits.divergence if traits else None
        label = class_label(traits)
        csv_rows.append([bug, hunks, div, label, fixed_by, *(m[1] for m in marks)])
        anchor = anchors.get(key)
        if anchor is not None:
            html_rows.append(
                f'<tr id="{anchor}"><td><a href="#{anchor}">{escape(bug)}</a></td>'
                f"<td class=num>{cell_text(hunks)}</td><td class=num>{cell_text(div)}</td>"
                f"<td>{escape(label)}</td><td class=num>{fixed_by}</td>"
                f"{''.join(m[0] for m in marks)}</tr>"
            )
    head = "".join(f"<th>{escape(h.replace('_', ' '))}</th>" for h in header)
    more = (
        f'<p class="caption">The page shows the first {len(html_rows):,} of '
        f"{len(shown_as):,} bugs (dots of the others link nowhere); the CSV has them all.</p>"
        if len(html_rows) < len(shown_as)
        else ""
    )
    return (
        '<p class="caption">One row per bug attempted. ✓: the agent fixed it, ✗: it did not, '
        "k/n: fixed in k of n attempts, ?: outcome unknown, empty: not attempted. Hover a "
        "mark for its outcome, regression reduction and localization success. Every dot "
        "of the violins above links to its bug's row here.</p>"
        f'<p class="download">{csv_link("bugs", header, csv_rows)}</p>'
        f'<div class="scroll"><table id="table-bugs"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(html_rows)}</tbody></table></div>{more}"
    )  # never folded: the figures' dots link into it
