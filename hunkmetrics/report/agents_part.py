"""The report's Agents part: the "Beyond Accuracy" study's tables (from
`hunkmetrics.agents.study.summarize`) and Figures 3-10, drawn from attempt records
(`agents evaluate` or `agents import-study` output), plus a per-bug table whose rows the
figures' dots link to.

Attempts are read once, streamed into `summarize`; beside it only a few numbers per
attempt are kept for the figures (`Point`)."""

from __future__ import annotations

import glob
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from html import escape
from pathlib import Path

from ..agents.study import (
    BugTraits,
    StudyAttempt,
    StudySummary,
    iter_attempts,
    read_bug_traits,
    summarize,
)
from ..agents.study.tables import PatternRow, TableRows
from ..errors import HunkmetricsError
from . import agents_figures as draw
from .agents_stats import NOT_CHARACTERIZED, upset_intersections
from .data import NO_CLASS, class_order
from .downloads import csv_link
from .figures import BUG_ANCHOR, FIXED_COLOR, UNFIXED_COLOR, agent_color, wrap_name

PASSING, FAILING = "passing", "failing"
OUTCOME_COLORS = {PASSING: FIXED_COLOR, FAILING: UNFIXED_COLOR}
MAX_TABLE_ROWS = 500  # rows of one summary table shown in the page (the CSV has all)
MAX_BUG_ROWS = 5000  # rows of the per-bug table shown (the CSV has all)
FOLD_ROWS = 30  # a table longer than this is folded (<details>), open on a click
PATTERNS_SHOWN = 5  # top patterns per outcome drawn in Figures 9-10
_GLOB = re.compile(r"[*?\[]")


@dataclass(frozen=True, slots=True)
class Point:
    """What the figures need of one attempt."""

    group: str
    key: str  # the bug's matching key
    bug: str  # the bug as displayed
    condition: str | None
    repaired: bool | None
    ls: bool | None
    rr: int | None
    input: int | None
    output: int | None
    input_uncached: int | None
    cache_write: int | None
    cache_read: int | None

    @classmethod
    def of(cls, a: StudyAttempt) -> Point:
        """The attempt's numbers; tokens of 0 in and 0 out are taken as unknown (a run
        that called no model, or a record that had no token counts)."""
        if not a.input_tokens and not a.output_tokens:
            a = replace(
                a,
                input_tokens=None,
                output_tokens=None,
                input_uncached=None,
                cache_read=None,
                cache_write=None,
            )
        return cls(
            a.group,
            a.key,
            a.bug,
            a.condition,
            a.repaired,
            a.ls,
            a.regression_reduction,
            a.input_tokens,
            a.output_tokens,
            a.input_uncached,
            a.cache_write,
            a.cache_read,
        )

    @property
    def outcome(self) -> str | None:
        return None if self.repaired is None else PASSING if self.repaired else FAILING


TOKEN_KINDS: tuple[
    tuple[str, Callable[[Point], int | None]], ...
] = (  # Figure 8's panels: the kinds of input tokens
    ("new input", lambda p: p.input_uncached),
    ("cache creation", lambda p: p.cache_write),
    ("cache read", lambda p: p.cache_read),
)


@dataclass(frozen=True)
class AgentsData:
    """The attempts as the Agents part uses them."""

    paths: tuple[str, ...]
    summary: StudySummary
    points: tuple[Point, ...]
    traits: Mapping[str, BugTraits]  # by bug key, from the developer patches' results


def expand_attempt_paths(patterns: Iterable[str | Path]) -> list[Path]:
    """Each path as given, or, for a pattern with `*`, `?` or `[` that names no file,
    the files it matches (sorted). A pattern that matches nothing is an input error."""
    found: list[Path] = []
    for pattern in patterns:
        text = str(pattern)
        if Path(text).exists() or not _GLOB.search(text):
            found.append(Path(text))
            continue
        matches = sorted(glob.glob(text))
        if not matches:
            raise HunkmetricsError(f"{text}: no attempts file matches this pattern")
        found.extend(Path(m) for m in matches)
    return found


def load_agents(attempts: Iterable[str | Path], results: str | Path) -> AgentsData:
    """Read the attempt files (globs expanded) and summarize them against the developer
    patches' results; input problems raise HunkmetricsError."""
    paths = expand_attempt_paths(attempts)
    traits = read_bug_traits(results)
    points: list[Point] = []

    def stream() -> Iterator[StudyAttempt]:
        for path in paths:
            if not path.is_file():
                raise HunkmetricsError(f"{path}: no such attempts file")
            for attempt in iter_attempts(path):
                if attempt.error is None:
                    points.append(Point.of(attempt))
                yield attempt

    summary = summarize(stream(), traits)
    return AgentsData(tuple(str(p) for p in paths), summary, tuple(points), traits)


# ---------------------------------------------------------------- cells and tables


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
    "those it did not, and the share fixed per proximity class.",
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


# ---------------------------------------------------------------- bugs and anchors


def bug_anchors(keys: Iterable[str]) -> dict[str, str]:
    """An element id per bug key: `bug-` and the key with any character but letters,
    digits, `.`, `_` and `-` made `_` (a number added where two keys collide)."""
    anchors: dict[str, str] = {}
    used: set[str] = set()
    for key in sorted(set(keys)):
        base = BUG_ANCHOR + (re.sub(r"[^A-Za-z0-9._-]", "_", key) or "_")
        anchor, k = base, 1
        while anchor in used:
            k += 1
            anchor = f"{base}~{k}"
        used.add(anchor)
        anchors[key] = anchor
    return anchors


def _label(traits: BugTraits | None) -> str:
    if traits is None or traits.hunk_count is None:
        return NOT_CHARACTERIZED
    return traits.proximity or NO_CLASS


def _order(labels: Iterable[str]) -> list[str]:
    present = set(labels)
    known = class_order(present - {NOT_CHARACTERIZED})
    return known + ([NOT_CHARACTERIZED] if NOT_CHARACTERIZED in present else [])


# ---------------------------------------------------------------- the figures


@dataclass(frozen=True)
class Figure:
    anchor: str
    title: str
    caption: str
    draw: Callable[[], str]


def _links(points: Sequence[Point], anchors: Mapping[str, str]) -> list[str | None]:
    return [f"#{anchors[p.key]}" if p.key in anchors else None for p in points]


def _outcome_panel(
    title: str,
    points: Sequence[Point],
    value: Callable[[Point], float | int | None],
    anchors: Mapping[str, str],
    ylabel: str,
) -> draw.Panel:
    groups, ticks = [], []
    for x, outcome in enumerate((PASSING, FAILING)):
        chosen = [p for p in points if p.outcome == outcome and value(p) is not None]
        values = [float(v) for p in chosen if (v := value(p)) is not None]
        groups.append(draw.Group(x, values, OUTCOME_COLORS[outcome], _links(chosen, anchors)))
        ticks.append((x, f"{outcome}\nn={len(values)}"))
    return draw.Panel(title, groups, ticks, ylabel)


def _by_group(points: Sequence[Point], names: Sequence[str]) -> dict[str, list[Point]]:
    out: dict[str, list[Point]] = {n: [] for n in names}
    for p in points:
        out.setdefault(p.group, []).append(p)
    return out


OUTCOME_LEGEND = ((PASSING, FIXED_COLOR), (FAILING, UNFIXED_COLOR))
VIOLIN_READING = (
    "Each violin is the density of the values (wider where more attempts lie); the thin "
    "line runs from the minimum to the maximum, the thick one from the first to the third "
    "quartile, the white dot is the median, and every attempt is a dot (a random "
    f"{draw.MAX_DOTS} of a violin that has more) linking to its bug in the per-bug table."
)


def upset_figure(data: AgentsData, anchors: Mapping[str, str]) -> Figure | None:
    """Figure 3, over the agents run without a condition (all agents if none was)."""
    plain = [p for p in data.points if p.condition is None] or list(data.points)
    names = [n for n in data.summary.groups if any(p.group == n for p in plain)]
    fixed: dict[str, set[str]] = {n: set() for n in names}
    attempted: set[str] = set()
    for p in plain:
        attempted.add(p.key)
        if p.repaired:
            fixed[p.group].add(p.key)
    if not any(fixed.values()):
        return None
    labels = {key: _label(data.traits.get(key)) for key in attempted}
    order = _order(labels.values())
    intersections = upset_intersections(names, fixed, labels, order)
    nobody = len(attempted - set().union(*fixed.values()))
    shown = min(len(intersections), draw.MAX_INTERSECTIONS)
    return Figure(
        "fig-agents-upset",
        "Bugs fixed by each combination of agents (Fig. 3)",
        "Each bar counts the bugs fixed by exactly the agents marked by the dark dots under "
        "it (and by no other agent), stacked by the proximity class of the developer's "
        "patch; the bars at the left give each agent's bugs fixed in all. Read a tall bar "
        "over one dot as bugs only that agent fixed, and the bar over every dot as the bugs "
        f"all agents fixed. {nobody} of the {len(attempted)} bugs attempted were fixed by no "
        f"agent (see Table 4). {shown} of {len(intersections)} combinations are drawn, "
        "the largest first.",
        lambda: draw.upset(
            "agents-upset",
            names,
            intersections,
            [len(fixed[n]) for n in names],
            order,
        ),
    )


def divergence_figure(data: AgentsData, anchors: Mapping[str, str]) -> Figure | None:
    """Figure 4: the developer patches' divergence of the bugs each agent fixed and did
    not fix."""
    names = list(data.summary.groups)
    by_group = _by_group(data.points, names)
    groups, ticks = [], []

    def div(p: Point) -> float | None:
        traits = data.traits.get(p.key)
        return traits.divergence if traits is not None else None

    for k, name in enumerate(names):
        for offset, outcome in ((-0.2, PASSING), (0.2, FAILING)):
            chosen = [p for p in by_group[name] if p.outcome == outcome and div(p) is not None]
            values = [float(v) for p in chosen if (v := div(p)) is not None]
            groups.append(
                draw.Group(k + offset, values, OUTCOME_COLORS[outcome], _links(chosen, anchors))
            )
        fixed = sum(1 for p in by_group[name] if p.repaired and div(p) is not None)
        unfixed = sum(1 for p in by_group[name] if p.repaired is False and div(p) is not None)
        ticks.append((float(k), f"{wrap_name(name)}\n{fixed} fixed\n{unfixed} not"))
    if not any(g.values for g in groups):
        return None
    panel = draw.Panel("", groups, ticks, "Div(P) of the developer patch")
    return Figure(
        "fig-agents-divergence",
        "Divergence of fixed and unfixed bugs (Fig. 4)",
        "Per agent, the divergence of the developer's patch of the bugs the agent fixed "
        "(blue) beside those it did not (orange). If divergent bugs are harder for an "
        f"agent, its orange violin sits higher. {VIOLIN_READING} Bugs with a single hunk "
        "(no divergence) or missing from the results are left out.",
        lambda: draw.violin_figure(
            "agents-divergence",
            "Violins of divergence of fixed and unfixed bugs per agent",
            [panel],
            OUTCOME_LEGEND,
            row_height=4.0,
        ),
    )


def rr_figure(data: AgentsData, anchors: Mapping[str, str]) -> Figure | None:
    """Figure 5: regression reduction per agent."""
    names = list(data.summary.groups)
    by_group = _by_group(data.points, names)
    groups, ticks = [], []
    for k, name in enumerate(names):
        chosen = [p for p in by_group[name] if p.rr is not None]
        groups.append(
            draw.Group(
                float(k),
                [float(p.rr or 0) for p in chosen],
                agent_color(k),
                _links(chosen, anchors),
            )
        )
        ticks.append((float(k), f"{wrap_name(name)}\nn={len(chosen)}"))
    if not any(g.values for g in groups):
        return None
    symlog = draw.heavy_tailed([v for g in groups for v in g.values])
    scale = (
        " The vertical scale is linear from −1 to 1 and logarithmic beyond (a few attempts "
        "broke hundreds of tests, which would flatten the rest)."
        if symlog
        else ""
    )
    return Figure(
        "fig-agents-rr",
        "Regression reduction (Fig. 5)",
        "Per agent, the regression reduction of its attempts: failing tests before the patch "
        "minus failing tests after it (above the dashed zero line the patch made tests pass, "
        "below it broke tests). Attempts that did not compile have no RR and are left out."
        f"{scale} " + VIOLIN_READING,
        lambda: draw.violin_figure(
            "agents-rr",
            "Violins of regression reduction per agent",
            [draw.Panel("", groups, ticks, "regression reduction (tests)", symlog)],
            zero_line=True,
            row_height=4.0,
        ),
    )


def token_figure(data: AgentsData, anchors: Mapping[str, str], output: bool) -> Figure | None:
    """Figure 6 (input) or 7 (output): tokens of passing and failing attempts, one panel
    per agent on its own scale."""
    what = "output" if output else "input"
    names = list(data.summary.groups)
    by_group = _by_group(data.points, names)

    def value(p: Point) -> float | None:
        v = p.output if output else p.input
        return None if v is None else float(v)

    panels = [
        _outcome_panel(name, by_group[name], value, anchors, f"{what} tokens")
        for name in names
        if any(value(p) is not None and p.outcome for p in by_group[name])
    ]
    if not panels:
        return None
    meaning = (
        "every token the model wrote, reasoning included"
        if output
        else "every prompt token, cached or not (Fig. 8 splits them where the agent's "
        "tokens have a cache breakdown)"
    )
    number = 7 if output else 6
    return Figure(
        f"fig-agents-{what}-tokens",
        f"{what.capitalize()} tokens by outcome (Fig. {number})",
        f"Per agent, the {what} tokens ({meaning}) of its passing attempts (blue) and failing "
        "ones (orange). Each agent has its own vertical scale, so compare the two violins "
        "of one agent, not the heights across agents. " + VIOLIN_READING,
        lambda: draw.violin_figure(
            f"agents-{what}-tokens",
            f"Violins of {what} tokens by outcome per agent",
            panels,
            OUTCOME_LEGEND,
        ),
    )


def cache_figures(data: AgentsData, anchors: Mapping[str, str]) -> list[Figure]:
    """Figure 8: for each agent whose tokens have a cache breakdown, its input by kind
    and outcome."""
    names = list(data.summary.groups)
    by_group = _by_group(data.points, names)
    found = []
    for k, name in enumerate(names):
        points = by_group[name]
        if not any((p.cache_read or 0) + (p.cache_write or 0) > 0 for p in points):
            continue

        panels = [
            _outcome_panel(label, points, kind, anchors, "tokens") for label, kind in TOKEN_KINDS
        ]
        found.append(
            Figure(
                f"fig-agents-cache-{k}",
                f"{name}: input tokens by kind and outcome (Fig. 8)",
                f"{escape(name)}'s input tokens split by kind: new (uncached) input, tokens "
                "written to the prompt cache, and tokens read from it, for passing (blue) "
                "and failing (orange) attempts. Each kind has its own vertical scale: cache "
                "reads are usually orders of magnitude above new input. " + VIOLIN_READING,
                partial(
                    draw.violin_figure,
                    f"agents-cache-{k}",
                    f"Violins of {name}'s input tokens by kind and outcome",
                    panels,
                    OUTCOME_LEGEND,
                ),
            )
        )
    return found


def pattern_figures(data: AgentsData) -> list[Figure]:
    """Figures 9-10: per agent, its most frequent tool-sequence patterns in passing and
    in failing attempts, one panel per window size."""
    patterns = data.summary.patterns
    rows: dict[tuple[str, int, str], list[PatternRow]] = {}
    for row in patterns.rows:
        rows.setdefault((row.group, row.window, row.outcome), []).append(row)
    found = []
    for k, name in enumerate(data.summary.groups):
        panels = []
        for window in patterns.windows:
            ranked = {
                o: sorted(rows.get((name, window, o), []), key=lambda r: r.rank)
                for o in (PASSING, FAILING)
            }
            chosen: list[tuple[str, ...]] = []
            for outcome in (PASSING, FAILING):
                for r in ranked[outcome][:PATTERNS_SHOWN]:
                    if r.pattern not in chosen:
                        chosen.append(r.pattern)
            if not chosen:
                continue
            series = []
            for outcome in (PASSING, FAILING):
                share = {r.pattern: r.share for r in ranked[outcome]}
                if ranked[outcome]:
                    series.append(
                        draw.Series(
                            outcome, OUTCOME_COLORS[outcome], [share.get(p) for p in chosen]
                        )
                    )
            panels.append(
                draw.PatternPanel(f"windows of {window}", [" → ".join(p) for p in chosen], series)
            )
        if not panels:
            continue
        found.append(
            Figure(
                f"fig-agents-patterns-{k}",
                f"{name}: top tool-sequence patterns by outcome (Figs. 9-10)",
                f"{escape(name)}'s most frequent runs of consecutive action categories "
                f"(the top {PATTERNS_SHOWN} of its passing attempts and of its failing ones, "
                "for each window size): each bar is the share of all the windows of that "
                "size, in passing (blue) or failing (orange) attempts, that are this pattern. "
                "A pattern much more common in failing attempts (say, a search repeated) "
                "marks a way of working that goes with failure. “not in top "
                f"{patterns.top_k}” means the pattern is rarer there than the "
                f"{patterns.top_k} counted.",
                partial(
                    draw.pattern_figure,
                    f"agents-patterns-{k}",
                    f"Bar charts of {name}'s top tool-sequence patterns by outcome",
                    panels,
                    patterns.top_k,
                ),
            )
        )
    return found


# ---------------------------------------------------------------- the per-bug table


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


def bug_names(data: AgentsData) -> dict[str, str]:
    """Every bug attempted, by key, with the name it is shown under, in table order."""
    shown_as: dict[str, str] = {}
    for p in data.points:
        shown_as.setdefault(p.key, p.bug)
    return dict(sorted(shown_as.items(), key=lambda item: (item[1], item[0])))


def table_anchors(data: AgentsData) -> dict[str, str]:
    """The anchors of the bugs the page's per-bug table shows (the first MAX_BUG_ROWS)."""
    return bug_anchors(list(bug_names(data))[:MAX_BUG_ROWS])


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
        label = _label(traits)
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


# ---------------------------------------------------------------- the part


def figures_of(data: AgentsData, anchors: Mapping[str, str]) -> list[Figure]:
    """Every figure the data allows, in the study's order (3 to 10)."""
    found: list[Figure | None] = [
        upset_figure(data, anchors),
        divergence_figure(data, anchors),
        rr_figure(data, anchors),
        token_figure(data, anchors, output=False),
        token_figure(data, anchors, output=True),
    ]
    return (
        [f for f in found if f is not None] + cache_figures(data, anchors) + pattern_figures(data)
    )
