"""The Agents section of the page: the study's tables, each followed by the figures that
go with it, then the per-bug table."""

from __future__ import annotations

from html import escape

from .agents_data import AgentsData, table_anchors
from .agents_plots import Figure, figures_of
from .agents_tables import TABLE_CAPTIONS, bug_table, table_html
from .html import Page, note

# After which table each figure is shown (by the figure anchor's prefix).
FIGURES_AFTER = {
    "table2": ("fig-agents-upset",),
    "table3": ("fig-agents-divergence",),
    "rr": ("fig-agents-rr",),
    "table5": ("fig-agents-input-tokens", "fig-agents-output-tokens", "fig-agents-cache-"),
    "patterns": ("fig-agents-patterns-",),
}


def _intro(page: Page, data: AgentsData) -> str:
    summary = data.summary
    bugs = len({p.key for p in data.points})
    sources = ", ".join(f"<code>{escape(p)}</code>" for p in data.paths)
    parts = [
        f'<p class="sub">From {sources}: {summary.attempts:,} attempt(s) by '
        f"{len(summary.groups)} agent(s) over {bugs:,} bug(s)."
        + (f" {summary.skipped:,} error line(s) left out." if summary.skipped else "")
        + "</p>"
    ]
    # summarize() names its own command's option; here the bugs come from RESULTS.
    parts += [page.warn(w.replace(" in --bugs", " in the results file")) for w in summary.warnings]
    return "".join(parts)


def agents_section(page: Page, data: AgentsData) -> None:
    """Add the Agents section (its figures count in `page.figures`)."""
    body = [_intro(page, data)]
    if not data.summary.attempts:
        body.append(note("The attempts files hold no attempt without an error: nothing to show."))
        page.section("agents", "Agents", "".join(body))
        return
    anchors = table_anchors(data)
    figures = figures_of(data, anchors)
    placed: set[str] = set()
    toc: list[tuple[str, str]] = []
    blocks: list[str] = []

    def add_figure(figure: Figure) -> None:
        placed.add(figure.anchor)
        toc.append((figure.anchor, figure.title))
        blocks.append(page.figure(figure.draw, figure.caption, figure.anchor, figure.title))

    for rows in data.summary.tables():
        anchor = f"agents-{rows.name}"
        toc.append((anchor, rows.title))
        blocks.append(
            f'<h3 id="{escape(anchor)}">{escape(rows.title)}</h3>'
            f'<p class="caption">{TABLE_CAPTIONS.get(rows.name, "")}</p>{table_html(rows)}'
        )
        for prefix in FIGURES_AFTER.get(rows.name, ()):
            for figure in figures:
                if figure.anchor.startswith(prefix) and figure.anchor not in placed:
                    add_figure(figure)
    for figure in figures:  # any whose table is absent
        if figure.anchor not in placed:
            add_figure(figure)
    toc.append(("agents-bugs", "Per-bug results"))
    blocks.append('<h3 id="agents-bugs">Per-bug results</h3>' + bug_table(data, anchors))
    links = "".join(f'<li><a href="#{escape(a)}">{escape(t)}</a></li>' for a, t in toc)
    body.append(f'<nav class="toc"><ul>{links}</ul></nav>')
    body += blocks
    page.section("agents", "Agents", "".join(body))
