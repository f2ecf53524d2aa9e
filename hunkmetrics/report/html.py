"""The report as one self-contained HTML page: inline CSS, figures as inline SVG, no
script, nothing fetched when it is opened."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from html import escape

from ..bootstrap import RESAMPLES, SEED
from ..version import __version__
from . import figures
from .data import Joined, Outcomes, Results, Trial, join
from .stats import ALL, MIN_GROUP, AgentRow, agent_rows, auc_rows, class_rows

MAX_ERROR_ROWS = 200
MAX_IDS_SHOWN = 8

CSS = """
:root { --ink: #1d2430; --muted: #5b6472; --line: #d9dee5; --soft: #f4f6f9;
        --warn-bg: #fff4e0; --warn-line: #e69f00; --note-bg: #eef5fb; --note-line: #56b4e9; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff; line-height: 1.45;
       font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans",
             "Liberation Sans", Arial, sans-serif; }
main { max-width: 1000px; margin: 0 auto; padding: 28px 24px 60px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 40px 0 10px; padding-bottom: 6px;
     border-bottom: 2px solid var(--line); }
h3 { font-size: 16px; margin: 26px 0 6px; }
p { margin: 6px 0 10px; }
.sub, .caption, figcaption { color: var(--muted); }
.sub { margin: 0 0 14px; }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
       font-size: 0.92em; background: var(--soft); padding: 1px 4px; border-radius: 3px; }
nav { font-size: 14px; margin: 10px 0 4px; }
nav a { color: #0b63a8; text-decoration: none; margin-right: 14px; white-space: nowrap; }
nav a:hover { text-decoration: underline; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 14px 0; }
.card { flex: 1 1 150px; border: 1px solid var(--line); border-radius: 8px;
        padding: 10px 14px; background: var(--soft); }
.card .value { font-size: 26px; font-weight: 650; font-variant-numeric: tabular-nums; }
.card .label { color: var(--muted); font-size: 13px; }
.card.bad .value { color: #b23b00; }
.warn, .note { border-left: 5px solid; border-radius: 4px; padding: 9px 14px; margin: 10px 0; }
.warn { background: var(--warn-bg); border-color: var(--warn-line); }
.warn strong { color: #8a4b00; }
.note { background: var(--note-bg); border-color: var(--note-line); }
figure { margin: 18px 0 26px; }
figure svg { display: block; max-width: 100%; height: auto; margin: 0 auto; }
figcaption { font-size: 14px; margin-top: 6px; }
table { border-collapse: collapse; margin: 8px 0 14px; font-size: 14px; }
th, td { border-bottom: 1px solid var(--line); padding: 5px 10px; text-align: left;
         vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: 650; border-bottom: 2px solid #aab3bf; }
td.agent { font-weight: 600; background: #fff; }
th, td:first-child { white-space: nowrap; }
td .error { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
           font-size: 13px; word-break: break-word; }
.scroll { overflow-x: auto; }
.ci { color: var(--muted); font-size: 12px; white-space: nowrap; }
.download { margin: 4px 0; font-size: 13px; }
a.csv { color: #0b63a8; }
nav.toc ul { columns: 2; font-size: 14px; padding-left: 18px; margin: 8px 0 4px; }
nav.toc a { color: #0b63a8; text-decoration: none; white-space: normal; margin: 0; }
nav.toc li { break-inside: avoid; }
td.mark { text-align: center; }
td.mark.fixed { color: #0b6a2f; }
td.mark.unfixed { color: #b23b00; }
tr:target td { background: #fff4e0; }
details > summary { cursor: pointer; color: #0b63a8; font-size: 14px; margin: 4px 0; }
footer { margin-top: 48px; color: var(--muted); font-size: 13px; }
"""


def _num(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}%"


def _ids(ids: Sequence[str]) -> str:
    shown = ", ".join(f"<code>{escape(i)}</code>" for i in ids[:MAX_IDS_SHOWN])
    return shown + (f" and {len(ids) - MAX_IDS_SHOWN} more" if len(ids) > MAX_IDS_SHOWN else "")


def _table(
    header: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[bool] | None = None
) -> str:
    """A table from already-escaped cells; `numeric` right-aligns columns."""
    numeric = numeric or [False] * len(header)
    head = "".join(
        f"<th{' class=num' if n else ''}>{h}</th>" for h, n in zip(header, numeric, strict=True)
    )
    body = "".join(
        "<tr>"
        + "".join(
            f"<td{' class=num' if n else ''}>{c}</td>" for c, n in zip(row, numeric, strict=True)
        )
        + "</tr>"
        for row in rows
    )
    return (
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


@dataclass
class Page:
    """The parts of the page, and the warnings the command line repeats on stderr."""

    sections: list[str] = field(default_factory=list)
    nav: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    figures: int = 0

    def section(self, anchor: str, title: str, body: str) -> None:
        self.nav.append((anchor, title))
        self.sections.append(f'<section id="{anchor}"><h2>{escape(title)}</h2>{body}</section>')

    def figure(self, draw: Callable[[], str], caption: str, anchor: str, title: str) -> str:
        self.figures += 1
        return (
            f'<figure id="{anchor}"><h3>{escape(title)}</h3>{draw()}'
            f"<figcaption>{caption}</figcaption></figure>"
        )

    def warn(self, text: str, html: str | None = None) -> str:
        """A visible warning box (and the same text for stderr)."""
        self.warnings.append(text)
        return f'<div class="warn"><strong>Warning:</strong> {html or escape(text)}</div>'


def note(html: str) -> str:
    return f'<div class="note">{html}</div>'


def _card(value: object, label: str, bad: bool = False) -> str:
    return (
        f'<div class="card{" bad" if bad else ""}"><div class="value">{escape(str(value))}'
        f'</div><div class="label">{escape(label)}</div></div>'
    )


def summary_section(page: Page, results: Results, outcomes: Outcomes | None) -> None:
    ok, errors = results.ok, results.errors
    parts = [
        '<div class="cards">',
        _card(len(results.records), "records (distinct ids)"),
        _card(len(ok), "characterized"),
        _card(len(errors), "errors", bad=bool(errors)),
    ]
    if results.unreadable:
        parts.append(_card(len(results.unreadable), "unreadable lines", bad=True))
    if outcomes is not None:
        parts.append(_card(len(outcomes.agents), "agents"))
    parts.append("</div>")
    if not results.records:
        parts.append(
            note(f"<code>{escape(results.path)}</code> holds no records: there is nothing to plot.")
        )
    elif not ok:
        parts.append(
            note(
                "No record was characterized successfully (every line is an "
                "error): there is nothing to plot. The errors are listed below."
            )
        )
    if results.unreadable:
        lines = ", ".join(str(n) for n in results.unreadable[:MAX_IDS_SHOWN])
        more = len(results.unreadable) - MAX_IDS_SHOWN
        text = (
            f"{len(results.unreadable)} line(s) of {results.path} are not JSON records "
            f"with an id (a torn tail of a killed run?): line {lines}"
            + (f" and {more} more" if more > 0 else "")
            + "; they are left out."
        )
        parts.append(page.warn(text))
    if results.duplicates:
        parts.append(
            note(
                f"{results.duplicates} line(s) repeat an earlier id; the last line "
                "of each id is used."
            )
        )
    fingerprints = results.fingerprints()
    if fingerprints:
        configs = results.configs()
        keys = sorted({k for c in configs.values() for k in c})
        rows = [
            [
                f"<code>{escape(fp)}</code>",
                str(count),
                *(escape(str(configs[fp].get(k, "—"))) for k in keys),
            ]
            for fp, count in fingerprints.most_common()
        ]
        if len(fingerprints) > 1:
            text = (
                f"these results mix {len(fingerprints)} different configurations "
                f"(fingerprints {', '.join(fingerprints)}): numbers computed under "
                "different settings are not comparable, yet they are pooled below."
            )
            parts.append(page.warn(text))
        parts.append("<h3>Configuration</h3>")
        parts.append(
            _table(
                ["fingerprint", "records", *map(escape, keys)],
                rows,
                [False, True, *[False] * len(keys)],
            )
        )
        versions = results.versions()
        parts.append(
            f'<p class="caption">Profile: '
            f"{', '.join(f'{escape(p)} ({n})' for p, n in results.profiles().items())}"
            f". hunkmetrics version of the run: "
            f"{', '.join(f'{escape(v)} ({n})' for v, n in versions.items())}.</p>"
        )
    page.section("summary", "Summary", "".join(parts))


def patches_section(page: Page, results: Results) -> None:
    ok = results.ok
    if not ok:
        return
    labels = {r.label for r in ok}
    single = (
        note(
            f"Every characterized patch is in one class ({escape(next(iter(labels)))})"
            ": the class comparisons below have nothing to compare."
        )
        if len(labels) == 1
        else ""
    )
    body = [
        single,
        page.figure(
            lambda: figures.proximity_distribution(ok),
            f"The {len(ok)} characterized patches, from the most compact class "
            "to the most dispersed: Nucleus (one method), "
            "Cluster (one file), Orbit (one package), Sprawl (packages sharing "
            "a long prefix), Fragment (far-apart packages). Patches of fewer "
            "than two hunks have no class.",
            "fig-proximity",
            "Proximity classes",
        ),
        page.figure(
            lambda: figures.divergence_histogram(ok),
            "Hunk divergence Div(P) ∈ [0, ln n]: how different a patch's hunks "
            "are from one another (0 = alike). Bars are stacked by proximity "
            "class.",
            "fig-histogram",
            "Divergence",
        ),
        page.figure(
            lambda: figures.divergence_vs_hunks(ok),
            "Each dot is a patch (hunk counts jittered sideways so that dots do "
            "not hide each other). The dotted curve ln n is the highest "
            "divergence n hunks can reach.",
            "fig-scatter",
            "Divergence against hunk count",
        ),
        page.figure(
            lambda: figures.divergence_by_class(ok),
            "Boxes span the middle half of each class, the line is the median, "
            "whiskers reach 1.5 box-lengths; every patch is drawn as a dot (a random "
            f"{figures.MAX_DOTS} of a class that has more).",
            "fig-byclass",
            "Divergence by proximity class",
        ),
    ]
    page.section("patches", "Patches", "".join(body))


def _class_table(joined: Joined) -> str:
    rows = class_rows(joined)
    head = (
        "<thead><tr><th rowspan=2>agent</th><th rowspan=2>proximity</th>"
        "<th class=num rowspan=2>bugs</th>"
        "<th colspan=4>fixed: Div(P)</th><th colspan=4>not fixed: Div(P)</th>"
        "<th class=num rowspan=2>% fixed</th></tr><tr>"
        + "<th class=num>n</th><th class=num>median</th><th class=num>mean</th>"
        "<th class=num>max</th>" * 2 + "</tr></thead>"
    )
    body = []
    spans = {agent: sum(r.agent == agent for r in rows) for agent in joined.agents}
    for k, row in enumerate(rows):
        first = k == 0 or rows[k - 1].agent != row.agent
        cells = (
            f"<td class=agent rowspan={spans[row.agent]}>{escape(row.agent)}</td>" if first else ""
        )
        cells += f"<td>{escape(row.label)}</td><td class=num>{row.n}</td>"
        for s in (row.fixed, row.unfixed):
            cells += (
                f"<td class=num>{s.n}</td><td class=num>{_num(s.median)}</td>"
                f"<td class=num>{_num(s.mean)}</td><td class=num>{_num(s.max)}</td>"
            )
        cells += f"<td class=num>{_pct(row.pct_fixed)}</td>"
        body.append(f"<tr{' class=total' if row.label == ALL else ''}>{cells}</tr>")
    return f'<div class="scroll"><table>{head}<tbody>{"".join(body)}</tbody></table></div>'


def _agent_table(rows: Sequence[AgentRow]) -> str:
    return _table(
        ["agent", "bugs", "fixed", "% fixed"],
        [[escape(r.agent), str(r.n), str(r.fixed), _pct(r.pct_fixed)] for r in rows],
        [False, True, True, True],
    )


def _share(part: int, whole: int) -> str:
    return _pct(100 * part / whole if whole else None)


def _localization_table(rows: Sequence[AgentRow]) -> str:
    header = [
        "agent",
        "bugs with a value",
        "localized",
        "% localized",
        "% fixed when localized",
        "% fixed when not",
    ]
    body = [
        [
            escape(r.agent),
            str(r.known_localized),
            str(r.localized),
            _pct(r.pct_localized),
            _share(r.fixed_when_localized, r.localized),
            _share(r.fixed_when_not_localized, r.known_localized - r.localized),
        ]
        for r in rows
    ]
    return _table(header, body, [False] + [True] * (len(header) - 1))


def outcomes_section(page: Page, results: Results, outcomes: Outcomes) -> None:
    joined = join(results, outcomes)
    parts = [
        f'<p class="sub">From <code>{escape(outcomes.path)}</code>: '
        f"{len(outcomes.rows)} outcome(s) of {len(outcomes.agents)} agent(s).</p>"
    ]
    if joined.missing_ids:
        parts.append(
            page.warn(
                f"{len(joined.missing_ids)} outcome id(s) are not in the results and are left "
                f"out: {', '.join(joined.missing_ids[:MAX_IDS_SHOWN])}"
                + (" …" if len(joined.missing_ids) > MAX_IDS_SHOWN else ""),
                f"{len(joined.missing_ids)} outcome id(s) are not in the results and are left "
                f"out: {_ids(joined.missing_ids)}.",
            )
        )
    if joined.errored_ids:
        parts.append(
            note(
                f"{len(joined.errored_ids)} outcome id(s) errored in the results "
                f"and are left out: {_ids(joined.errored_ids)}."
            )
        )
    if outcomes.duplicates:
        parts.append(
            note(
                f"{outcomes.duplicates} outcome line(s) repeat an earlier "
                "(id, agent); the last one is used."
            )
        )
    active = [a for a in joined.agents if joined.trials[a]]
    idle = [a for a in joined.agents if not joined.trials[a]]
    if not outcomes.rows:
        parts.append(note("The outcomes file has a header but no rows."))
    elif not active:
        parts.append(
            note("No outcome matches a characterized record: there is nothing to compare.")
        )
    if idle and active:
        parts.append(note(f"No matched bugs for agent(s) {_ids(idle)}: left out of the figures."))
    if not active:
        page.section("outcomes", "Agent outcomes", "".join(parts))
        return
    trials = {a: joined.trials[a] for a in active}
    parts.append("<h3>Per agent</h3>")
    parts.append(_agent_table(agent_rows(joined)))
    parts.append(
        page.figure(
            lambda: figures.fixed_vs_unfixed(active, trials),
            "Each dot is a bug (a random "
            f"{figures.MAX_DOTS} of a box that has more). If divergence "
            "makes bugs harder, the unfixed box sits higher than the fixed "
            "one.",
            "fig-fixed-unfixed",
            "Fixed and unfixed bugs",
        )
    )
    parts.append(
        page.figure(
            lambda: figures.fixed_by_class(active, trials),
            "Each bar is one agent's share of fixed bugs in one class; the "
            "label gives fixed/total, so small classes are visible as such.",
            "fig-fixed-by-class",
            "Fixed per proximity class",
        )
    )
    parts.append('<h3 id="table-classes">Divergence of fixed and unfixed bugs per class</h3>')
    parts.append(
        '<p class="caption">As in Table 3 of the BIRCH study: per agent and '
        "proximity class, the median, mean and maximum divergence of the bugs it "
        "fixed and of those it did not, and the share fixed.</p>"
    )
    parts.append(_class_table(joined))
    page.section("outcomes", "Agent outcomes", "".join(parts))
    if outcomes.has_localized:
        rows = agent_rows(joined)
        body = [
            '<p class="caption">Localized: the agent\'s patch touched every file the '
            "developer's did (the <code>localized</code> column). The rate counts only "
            "rows where the column is filled in.</p>"
        ]
        if not any(r.known_localized for r in rows):
            body.append(note("The <code>localized</code> column is empty for every matched bug."))
        body.append(_localization_table(rows))
        page.section("localization", "Localization", "".join(body))
    page.section("prediction", "Predicting failure", _prediction(page, joined, active, trials))


def _prediction(
    page: Page, joined: Joined, active: list[str], trials: dict[str, list[Trial]]
) -> str:
    rows = auc_rows(joined)
    body = [
        '<p class="caption">ROC AUC of each value as a predictor that the agent does '
        "<em>not</em> fix the bug (higher value → not fixed): the probability that a "
        "random unfixed bug has a higher value than a random fixed one, ties counting "
        "half (the Mann–Whitney U statistic over n<sub>fixed</sub>·n<sub>not fixed</sub>"
        "). 0.5 is chance, 1.0 perfect separation, below 0.5 the value is higher for "
        f"fixed bugs. With fewer than {MIN_GROUP} bugs on either side it is flagged as "
        "unreliable. The interval is a 95 % percentile bootstrap: fixed and unfixed bugs "
        f"each resampled with replacement, {RESAMPLES:,} times (seed {SEED}).</p>",
        _table(
            ["agent", "predictor", "fixed (n)", "not fixed (n)", "AUC", "95 % interval", "note"],
            [
                [
                    escape(r.agent),
                    escape(r.predictor),
                    str(r.n_fixed),
                    str(r.n_unfixed),
                    _num(r.auc),
                    f"[{_num(r.interval[0])}, {_num(r.interval[1])}]" if r.interval else "",
                    escape(r.note),
                ]
                for r in rows
            ],
            [False, False, True, True, True, True, False],
        ),
    ]
    if any(r.auc is not None for r in rows):
        body.append(
            page.figure(
                lambda: figures.roc_curves(active, trials),
                "Each curve sweeps a threshold from the highest value down; "
                "the further above the diagonal, the better the value "
                "flags failures.",
                "fig-roc",
                "ROC curves",
            )
        )
    return "".join(body)


def errors_section(page: Page, results: Results) -> None:
    errors = results.errors
    if not errors:
        return
    rows = [
        [f"<code>{escape(r.id)}</code>", f'<span class="error">{escape(r.error or "")}</span>']
        for r in errors[:MAX_ERROR_ROWS]
    ]
    more = (
        note(f"Showing {MAX_ERROR_ROWS} of {len(errors)} errors.")
        if len(errors) > MAX_ERROR_ROWS
        else ""
    )
    page.section(
        "errors",
        "Errors",
        f"<p>{len(errors)} record(s) could not be "
        "characterized and are left out of every figure and table.</p>"
        + _table(["id", "error"], rows)
        + more,
    )


def render(
    results: Results,
    outcomes: Outcomes | None = None,
    extra: Callable[[Page], None] | None = None,
) -> Page:
    """Build the page's sections (`document` makes the HTML); `extra` adds sections
    before the errors (the Agents part)."""
    page = Page()
    summary_section(page, results, outcomes)
    patches_section(page, results)
    if outcomes is not None:
        outcomes_section(page, results, outcomes)
    if extra is not None:
        extra(page)
    errors_section(page, results)
    return page


def document(
    page: Page, results: Results, outcomes: Outcomes | None, attempts: Sequence[str] = ()
) -> str:
    sources = (
        f"<code>{escape(results.path)}</code>"
        + (f" with outcomes <code>{escape(outcomes.path)}</code>" if outcomes else "")
        + (
            " and attempts " + ", ".join(f"<code>{escape(a)}</code>" for a in attempts)
            if attempts
            else ""
        )
    )
    nav = "".join(f'<a href="#{a}">{escape(t)}</a>' for a, t in page.nav)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>hunkmetrics report: {escape(results.path)}</title>"
        f"<style>{CSS}</style></head><body><main>"
        f'<header><h1>hunkmetrics report</h1><p class="sub">{sources}</p>'
        f"<nav>{nav}</nav></header>"
        + "".join(page.sections)
        + f"<footer>Made by hunkmetrics {escape(__version__)} "
        "(<code>hunkmetrics report</code>). Definitions of the metrics: docs/metrics.md; "
        "of this page: docs/report.md.</footer></main></body></html>\n"
    )
