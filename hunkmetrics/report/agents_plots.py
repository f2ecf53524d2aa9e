"""Which attempts go in which of the Agents part's figures (the study's Figures 3-10),
and each figure's caption: how to read it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from html import escape

from ..agents.study.tables import PatternRow
from . import agents_figures as draw
from .agents_data import (
    FAILING,
    PASSING,
    TOKEN_KINDS,
    AgentsData,
    Point,
    class_label,
    labels_in_order,
)
from .agents_stats import upset_intersections
from .figures import FIXED_COLOR, UNFIXED_COLOR, agent_color, wrap_name

OUTCOME_COLORS = {PASSING: FIXED_COLOR, FAILING: UNFIXED_COLOR}
PATTERNS_SHOWN = 5  # top patterns per outcome drawn in Figures 9-10


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
    labels = {key: class_label(data.traits.get(key)) for key in attempted}
    order = labels_in_order(labels.values())
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
