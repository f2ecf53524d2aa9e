"""The report's figures, drawn with matplotlib and returned as inline SVG text.

Figures are built on `matplotlib.figure.Figure` with an explicit Agg canvas: no pyplot,
no global figure state, never a display. Every id inside a figure's SVG (and every
reference to one) gets the figure's name as a prefix, so several SVGs inlined in one page
never share an id (matplotlib names glyphs and groups alike in every figure)."""

from __future__ import annotations

import io
import math
import re
import statistics
import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import numpy as np

from ..errors import HunkmetricsError

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

try:
    import matplotlib
    from matplotlib.axes import Axes
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator, NullFormatter
except ImportError:  # the `report` extra is not installed
    HAVE_MATPLOTLIB = False
else:
    HAVE_MATPLOTLIB = True

from .data import NO_CLASS, Record, Trial, class_order
from .stats import PREDICTORS, auc, predictor_scores, roc_points

# Okabe–Ito colours: distinguishable with the common colour-vision deficiencies.
CLASS_COLORS = {
    "Nucleus": "#0072B2",
    "Cluster": "#56B4E9",
    "Orbit": "#009E73",
    "Sprawl": "#E69F00",
    "Fragment": "#D55E00",
    NO_CLASS: "#9A9A9A",
}
OTHER_COLORS = ("#CC79A7", "#F0E442", "#7F5F3F", "#404040")
FIXED_COLOR, UNFIXED_COLOR = "#0072B2", "#D55E00"
AGENT_COLORS = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
)
WIDTH = 8.0  # inches; 576 pt in the SVG
LOG_TICKS = (1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
MAX_DOTS = 500  # dots drawn over one box at most (a random sample beyond)

STYLE: dict[RcKeyType, object] = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#e4e4e4",
    "grid.linewidth": 0.8,
    "axes.axisbelow": True,
    "legend.frameon": False,
    "svg.fonttype": "path",  # glyphs as paths: the page looks the same without the font
}


def require_matplotlib() -> None:
    if not HAVE_MATPLOTLIB:
        raise HunkmetricsError("the report needs matplotlib: pip install 'hunkmetrics[report]'")


def class_color(label: str, order: Sequence[str]) -> str:
    if label in CLASS_COLORS:
        return CLASS_COLORS[label]
    others = [c for c in order if c not in CLASS_COLORS]
    return OTHER_COLORS[others.index(label) % len(OTHER_COLORS)] if label in others else "#777"


def agent_color(index: int) -> str:
    return AGENT_COLORS[index % len(AGENT_COLORS)]


@contextmanager
def new_figure(
    name: str,
    height: float,
    ncols: int = 1,
    nrows: int = 1,
    width_ratios: Sequence[float] | None = None,
    height_ratios: Sequence[float] | None = None,
) -> Iterator[tuple[Figure, list[Axes]]]:
    """A figure of nrows × ncols axes, listed row by row. A `$` in any text is a dollar
    sign, never the start of a formula: labels come from the inputs (agent names, bug
    ids), and matplotlib's math parser fails on some of them."""
    require_matplotlib()
    # A fixed hashsalt keeps the SVG ids, and so the page, the same from run to run.
    settings = {**STYLE, "svg.hashsalt": name, "text.parse_math": False}
    with matplotlib.rc_context(settings):
        fig = Figure(figsize=(WIDTH, height), layout="constrained")
        FigureCanvasAgg(fig)
        fig.set_label(name)
        axes = fig.subplots(
            nrows, ncols, squeeze=False, width_ratios=width_ratios, height_ratios=height_ratios
        )
        yield fig, [ax for row in axes for ax in row]


_XML_PROLOGUE = re.compile(r"\A.*?(?=<svg\b)", re.DOTALL)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.DOTALL)
BUG_ANCHOR = "bug-"  # links to the page's per-bug rows, left as they are
_IDS = re.compile(r'(\bid="|href="#(?!' + BUG_ANCHOR + r')|url\(#)([^"\)]+)')
# matplotlib opens every link in a new window; an in-page link should scroll this one.
_NEW_WINDOW = re.compile(r'(<a xlink:href="#' + BUG_ANCHOR + r'[^"]*") target="_blank"')


def to_svg(fig: Figure, label: str) -> str:
    """The figure as an <svg> element ready to inline in HTML, its ids made unique."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    text = _METADATA.sub("", _XML_PROLOGUE.sub("", buffer.getvalue(), count=1), count=1)
    text = _IDS.sub(lambda m: f"{m[1]}{fig.get_label()}-{m[2]}", text)
    text = _NEW_WINDOW.sub(r"\1", text)
    aria = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return text.replace("<svg ", f'<svg role="img" aria-label="{aria}" ', 1).strip()


def wrap_name(name: str, width: int = 14) -> str:
    """A long name on several lines, so that tick labels side by side do not overlap."""
    return "\n".join(textwrap.wrap(name, width, break_on_hyphens=True)) or name


def jitter_offsets(count: int, seed: int, spread: float = 0.12) -> list[float]:
    """Deterministic horizontal offsets for strip plots."""
    return list(np.random.default_rng(seed).uniform(-spread, spread, count))


def proximity_distribution(records: Sequence[Record]) -> str:
    """Bar chart: how many patches fall in each proximity class."""
    labels = class_order({r.label for r in records})
    counts = [sum(r.label == label for r in records) for label in labels]
    total = sum(counts)
    with new_figure("proximity", 3.6) as (fig, (ax,)):
        bars = ax.bar(labels, counts, color=[class_color(c, labels) for c in labels], width=0.62)
        for bar, count in zip(bars, counts, strict=True):
            ax.annotate(
                f"{count}  ({100 * count / total:.0f}%)",
                (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                xytext=(0, 3),
                textcoords="offset points",
                ha="center",
                va="bottom",
            )
        ax.set_ylabel("patches")
        ax.set_ylim(0, max(counts) * 1.15 + 0.5)
        ax.grid(axis="x", visible=False)
        return to_svg(fig, "Bar chart of the proximity class distribution")


def _bins(values: Sequence[float], target: int = 24) -> list[float]:
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = max(0.0, low - 0.5), high + 0.5
    step = (high - low) / max(6, min(target, int(math.sqrt(len(values))) * 3))
    count = math.ceil((high - low) / step - 1e-9)
    return [low + k * step for k in range(count + 1)]


def divergence_histogram(records: Sequence[Record]) -> str:
    """Histogram of Div(P), stacked by proximity class, with the median marked."""
    labels = class_order({r.label for r in records})
    groups = [[r.divergence for r in records if r.label == label] for label in labels]
    values = [r.divergence for r in records]
    median = statistics.median(values)
    with new_figure("histogram", 3.6) as (fig, (ax,)):
        ax.hist(
            groups,
            bins=_bins(values),
            stacked=True,
            label=labels,
            color=[class_color(c, labels) for c in labels],
            edgecolor="white",
            linewidth=0.6,
        )
        ax.axvline(
            median, color="#222", linestyle="--", linewidth=1.2, label=f"median {median:.3f}"
        )
        ax.set_xlabel("hunk divergence Div(P)")
        ax.set_ylabel("patches")
        ax.grid(axis="x", visible=False)
        ax.legend(loc="upper right", ncols=2 if len(labels) > 3 else 1, fontsize=9)
        return to_svg(fig, "Histogram of hunk divergence, stacked by proximity class")


def divergence_vs_hunks(records: Sequence[Record]) -> str:
    """Scatter of Div(P) against the number of hunks, coloured by class, under the
    ln n ceiling."""
    labels = class_order({r.label for r in records})
    top = max(r.hunk_count for r in records)
    log_x = top > 40
    size, alpha = (26, 0.8) if len(records) <= 1000 else (9, 0.55)
    with new_figure("scatter", 4.2) as (fig, (ax,)):
        for k, label in enumerate(labels):
            chosen = [r for r in records if r.label == label]
            jitter = jitter_offsets(len(chosen), 100 + k)
            xs = [
                r.hunk_count * math.exp(j / 3) if log_x else r.hunk_count + j
                for r, j in zip(chosen, jitter, strict=True)
            ]
            ax.scatter(
                xs,
                [r.divergence for r in chosen],
                s=size,
                alpha=alpha,
                color=class_color(label, labels),
                edgecolors="white",
                linewidths=0.4,
                label=f"{label} ({len(chosen)})",
            )
        grid = [1 + k * (top - 1) / 200 for k in range(201)] if top > 1 else [1, 2]
        ax.plot(
            grid,
            [math.log(n) for n in grid],
            color="#555",
            linestyle=":",
            linewidth=1.2,
            label="ln n (upper bound)",
        )
        if log_x:
            ax.set_xscale("log")
            ax.set_xticks(
                [t for t in LOG_TICKS if t <= top * 1.2],
                [str(t) for t in LOG_TICKS if t <= top * 1.2],
            )
            ax.xaxis.set_minor_formatter(NullFormatter())
        else:
            locator = ax.xaxis.get_major_locator()
            if isinstance(locator, MaxNLocator):  # the default one (AutoLocator) is
                locator.set_params(integer=True)
        ax.set_xlabel("hunks in the patch (n)" + (", log scale" if log_x else ""))
        ax.set_ylabel("Div(P)")
        ax.set_ylim(bottom=-0.05)
        ax.legend(loc="upper left", fontsize=9)
        return to_svg(fig, "Scatter plot of divergence against hunk count, coloured by class")


def _box(
    ax: Axes,
    groups: Sequence[Sequence[float]],
    positions: Sequence[float],
    colors: Sequence[str],
    width: float,
    seed: int,
) -> None:
    """Box plots with the points drawn over them (small groups stay honest)."""
    drawn = [(g, p, c) for g, p, c in zip(groups, positions, colors, strict=True) if g]
    if not drawn:
        return
    boxes = ax.boxplot(
        [g for g, _, _ in drawn],
        positions=[p for _, p, _ in drawn],
        widths=width,
        patch_artist=True,
        showfliers=False,
        medianprops={"color": "#111", "linewidth": 1.6},
        whiskerprops={"color": "#555"},
        capprops={"color": "#555"},
    )
    for patch, (_, _, color) in zip(boxes["boxes"], drawn, strict=True):
        patch.set(facecolor=color, alpha=0.35, edgecolor="#444")
    for k, (group, position, color) in enumerate(drawn):
        if len(group) > MAX_DOTS:  # the box is of all values; the dots a random sample
            group = list(np.random.default_rng(seed + k).choice(group, MAX_DOTS, replace=False))
        jitter = jitter_offsets(len(group), seed + k, width * 0.3)
        small = len(group) <= 100
        ax.scatter(
            [position + j for j in jitter],
            group,
            s=14 if small else 6,
            color=color,
            alpha=0.85 if small else 0.6,
            edgecolors="none",
            zorder=3,
        )


def divergence_by_class(records: Sequence[Record]) -> str:
    """Box plot (with the points) of Div(P) per proximity class."""
    labels = class_order({r.label for r in records})
    groups = [[r.divergence for r in records if r.label == label] for label in labels]
    with new_figure("byclass", 3.8) as (fig, (ax,)):
        _box(
            ax, groups, range(len(labels)), [class_color(c, labels) for c in labels], 0.55, seed=200
        )
        ax.set_xticks(
            range(len(labels)), [f"{c}\nn={len(g)}" for c, g in zip(labels, groups, strict=True)]
        )
        ax.set_xlim(-0.6, len(labels) - 0.4)
        ax.set_ylabel("Div(P)")
        ax.grid(axis="x", visible=False)
        return to_svg(fig, "Box plots of divergence per proximity class")


def fixed_vs_unfixed(agents: Sequence[str], trials: dict[str, list[Trial]]) -> str:
    """Per agent, the divergence of the bugs it fixed beside those it did not."""
    with new_figure("fixedunfixed", 4.0) as (fig, (ax,)):
        ticks = []
        for k, agent in enumerate(agents):
            fixed = [t.record.divergence for t in trials[agent] if t.outcome.fixed]
            unfixed = [t.record.divergence for t in trials[agent] if not t.outcome.fixed]
            _box(
                ax,
                [fixed, unfixed],
                [k - 0.2, k + 0.2],
                [FIXED_COLOR, UNFIXED_COLOR],
                0.34,
                seed=300 + 10 * k,
            )
            ticks.append(f"{wrap_name(agent)}\n{len(fixed)} fixed\n{len(unfixed)} not")
        ax.set_xticks(range(len(agents)), ticks)
        ax.set_xlim(-0.6, len(agents) - 0.4)
        ax.set_ylabel("Div(P)")
        ax.grid(axis="x", visible=False)
        ax.legend(
            handles=[
                Patch(facecolor=FIXED_COLOR, alpha=0.5, label="fixed"),
                Patch(facecolor=UNFIXED_COLOR, alpha=0.5, label="not fixed"),
            ],
            loc="upper left",
            bbox_to_anchor=(1, 1),
        )
        return to_svg(fig, "Box plots of divergence of fixed versus unfixed bugs per agent")


def fixed_by_class(agents: Sequence[str], trials: dict[str, list[Trial]]) -> str:
    """Grouped bars: % of bugs each agent fixed, per proximity class."""
    labels = class_order({t.record.label for ts in trials.values() for t in ts})
    width = 0.8 / max(1, len(agents))
    annotate = len(agents) * len(labels) <= 30
    with new_figure("fixedbyclass", 3.9) as (fig, (ax,)):
        for k, agent in enumerate(agents):
            xs, heights, notes = [], [], []
            for i, label in enumerate(labels):
                chosen = [t for t in trials[agent] if t.record.label == label]
                if chosen:
                    xs.append(i - 0.4 + width * (k + 0.5))
                    fixed = sum(t.outcome.fixed for t in chosen)
                    heights.append(100 * fixed / len(chosen))
                    notes.append(f"{fixed}/{len(chosen)}")
            bars = ax.bar(xs, heights, width=width * 0.92, color=agent_color(k), label=agent)
            if annotate:
                for bar, note in zip(bars, notes, strict=True):
                    ax.annotate(
                        note,
                        (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                        xytext=(0, 2),
                        textcoords="offset points",
                        ha="center",
                        va="bottom",
                        fontsize=7.5,
                        color="#333",
                    )
        ax.set_xticks(range(len(labels)), labels)
        ax.set_xlim(-0.6, len(labels) - 0.4)
        ax.set_ylim(0, 112)
        ax.set_yticks(range(0, 101, 20))
        ax.set_ylabel("% fixed")
        ax.grid(axis="x", visible=False)
        ax.legend(loc="upper left", bbox_to_anchor=(1, 1), title="agent")
        return to_svg(fig, "Grouped bar chart of the percentage fixed per proximity class")


def roc_curves(agents: Sequence[str], trials: dict[str, list[Trial]]) -> str:
    """ROC curves for "this value is high → the agent fails", one panel per predictor."""
    with new_figure("roc", 3.9, ncols=len(PREDICTORS)) as (fig, axes):
        for ax, predictor in zip(axes, PREDICTORS, strict=True):
            ax.plot([0, 1], [0, 1], color="#999", linestyle=":", linewidth=1, label="chance (0.5)")
            for k, agent in enumerate(agents):
                unfixed, fixed = predictor_scores(trials[agent], predictor)
                points = roc_points(unfixed, fixed)
                if not points:
                    continue
                value = auc(unfixed, fixed)
                ax.plot(
                    [p[0] for p in points],
                    [p[1] for p in points],
                    color=agent_color(k),
                    linewidth=1.8,
                    label=f"{agent}: {value:.3f}",
                )
            ax.set_xlim(-0.02, 1.02)
            ax.set_ylim(-0.02, 1.02)
            ax.set_aspect("equal")
            ax.set_xlabel("fixed bugs flagged (false positive rate)")
            ax.set_ylabel("unfixed bugs flagged (true positive rate)")
            ax.set_title(f"{predictor} → not fixed (AUC)", loc="left")
            ax.legend(loc="lower right", fontsize=8)
        return to_svg(fig, "ROC curves of divergence and hunk count predicting failure")
