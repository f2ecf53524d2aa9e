"""The Agents part's figures (the "Beyond Accuracy" study's Figures 3-10), drawn with
matplotlib like the rest of the report and returned as inline SVG.

The functions take plain values, already grouped: which attempts go in which violin,
and in which panel, is decided by agents_plots."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .agents_stats import Intersection, Spread
from .figures import class_color, jitter_offsets, new_figure, to_svg, wrap_name

try:
    from matplotlib.axes import Axes
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, MaxNLocator, NullFormatter
except ImportError:  # the `report` extra is not installed; figures.require_matplotlib says so
    pass

MAX_DOTS = 400  # dots drawn over one violin at most (a random sample beyond)
PANEL_COLUMNS = 4  # panels side by side before a new row starts
MAX_INTERSECTIONS = 30  # UpSet bars drawn at most (the largest)
BODY_POINTS = 80  # where each violin's density is evaluated


@dataclass(frozen=True)
class Group:
    """One violin: its values, where it stands, and per value the page anchor its dot
    links to (None: no link)."""

    x: float
    values: Sequence[float]
    color: str
    links: Sequence[str | None] | None = None


@dataclass(frozen=True)
class Panel:
    """One set of axes of violins: its own y scale, title and tick labels."""

    title: str
    groups: Sequence[Group]
    ticks: Sequence[tuple[float, str]]
    ylabel: str = ""
    symlog: bool = False  # a y scale linear within ±1 and logarithmic beyond


@dataclass(frozen=True)
class Series:
    """One outcome's bars in a patterns panel: a share (0-1) per pattern."""

    label: str
    color: str
    shares: Sequence[float | None]  # None: not among the outcome's top patterns


@dataclass(frozen=True)
class PatternPanel:
    title: str
    patterns: Sequence[str]
    series: Sequence[Series] = field(default_factory=tuple)


def compact(value: float) -> str:
    """A tick label: 0, 950, 12.5K, 3M, 1.2G (no needless zeros)."""
    size = abs(value)
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "K")):
        if size >= limit:
            return f"{value / limit:.3g}{suffix}"
    return f"{value:.3g}"


def heavy_tailed(values: Sequence[float]) -> bool:
    """Whether a few extreme values would squash the rest into a line: the whole range
    is over ten times that of the middle 90 % (plus one)."""
    if len(values) < 2:
        return False
    low, high = np.quantile(np.asarray(values, dtype=float), [0.05, 0.95])
    return bool(max(values) - min(values) > 10 * (high - low + 1))


def _density(values: np.ndarray, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
    """A Gaussian kernel density (Scott's bandwidth) at BODY_POINTS points, binned first
    so that 100,000 values cost no more than a few thousand."""
    grid = np.linspace(low, high, BODY_POINTS)
    counts, edges = np.histogram(values, bins=512, range=(low, high))
    centres = (edges[:-1] + edges[1:]) / 2
    keep = counts > 0
    centres, weights = centres[keep], counts[keep].astype(float)
    spread = float(np.std(values))
    bandwidth = max(spread * len(values) ** -0.2, (high - low) / 200)
    diffs = (grid[:, None] - centres[None, :]) / bandwidth
    density = (np.exp(-0.5 * diffs**2) * weights[None, :]).sum(axis=1)
    return grid, density / density.max()


def _violin(ax: Axes, group: Group, width: float, seed: int) -> None:
    values = np.asarray(group.values, dtype=float)
    spread = Spread.of(values.tolist())
    if spread is None:
        return
    x = group.x
    if spread.maximum > spread.minimum:
        # The density is of the values as the axis places them (a symlog axis too).
        scale = ax.yaxis.get_transform()
        placed = np.asarray(scale.transform(values), dtype=float)
        grid, density = _density(placed, float(placed.min()), float(placed.max()))
        grid = np.asarray(scale.inverted().transform(grid), dtype=float)
        half = density * width / 2
        ax.fill_betweenx(
            grid, x - half, x + half, color=group.color, alpha=0.28, linewidth=0.8, zorder=1
        )
    ax.vlines(x, spread.minimum, spread.maximum, color="#333", linewidth=0.9, zorder=5)
    ax.vlines(x, spread.q1, spread.q3, color="#333", linewidth=5, zorder=5)
    ax.scatter(
        [x], [spread.median], s=16, color="white", edgecolors="#111", linewidths=0.8, zorder=6
    )
    chosen = np.arange(len(values))
    if len(values) > MAX_DOTS:  # the violin is of all values; the dots a random sample
        chosen = np.sort(np.random.default_rng(seed).choice(len(values), MAX_DOTS, replace=False))
    jitter = jitter_offsets(len(chosen), seed, width * 0.22)
    dots = ax.scatter(
        [x + j for j in jitter],
        values[chosen],
        s=9 if len(chosen) <= 100 else 5,
        color=group.color,
        alpha=0.6,
        edgecolors="none",
        zorder=4,
    )
    if group.links is not None:
        dots.set_urls([group.links[int(k)] for k in chosen])


def _grid_shape(count: int) -> tuple[int, int]:
    columns = max(1, min(PANEL_COLUMNS, count))
    return math.ceil(count / columns), columns


def violin_figure(
    name: str,
    aria: str,
    panels: Sequence[Panel],
    legend: Sequence[tuple[str, str]] = (),
    zero_line: bool = False,
    row_height: float = 3.2,
) -> str:
    """Panels of violins, each on its own y scale. A violin is the values' density
    (mirrored), a thin line from the minimum to the maximum, a thick one from the first
    to the third quartile, a white dot at the median, and the values themselves as dots."""
    rows, columns = _grid_shape(len(panels))
    with new_figure(name, row_height * rows + (0.3 if legend else 0), columns, rows) as (fig, axes):
        for k, (ax, panel) in enumerate(zip(axes, panels, strict=False)):
            if panel.symlog:
                ax.set_yscale("symlog", linthresh=1, linscale=0.6)
            xs = [g.x for g in panel.groups] or [0.0]
            width = 0.7 * min((b - a for a, b in zip(xs, xs[1:], strict=False)), default=1.0)
            for i, group in enumerate(panel.groups):
                _violin(ax, group, width, seed=1000 * k + i)
            if zero_line:
                ax.axhline(0, color="#777", linestyle="--", linewidth=0.9, zorder=0)
            ax.set_xticks([t[0] for t in panel.ticks], [t[1] for t in panel.ticks])
            ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)
            ax.set_title(panel.title, loc="left")
            ax.set_ylabel(panel.ylabel)
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: compact(v)))
            if panel.symlog:
                ax.yaxis.set_minor_formatter(NullFormatter())
            ax.grid(axis="x", visible=False)
        for ax in axes[len(panels) :]:
            ax.set_visible(False)
        if legend:
            fig.legend(
                handles=[Patch(facecolor=c, alpha=0.5, label=t) for t, c in legend],
                loc="outside lower center",
                ncols=len(legend),
            )
        return to_svg(fig, aria)


def upset(
    name: str,
    agents: Sequence[str],
    intersections: Sequence[Intersection],
    set_sizes: Sequence[int],
    order: Sequence[str],
) -> str:
    """The UpSet plot: a bar per combination of agents (the bugs fixed by exactly those
    agents, stacked by proximity class) over a matrix of dots saying which agents the
    combination holds; beside the matrix, each agent's bugs fixed in all."""
    shown = list(intersections[:MAX_INTERSECTIONS])
    rows = len(agents)
    with new_figure(
        name,
        3.4 + 0.32 * rows,
        ncols=2,
        nrows=2,
        width_ratios=[1, 4],
        height_ratios=[3.0, 0.32 * rows + 0.3],
    ) as (fig, (corner, bars, sizes, matrix)):
        corner.set_visible(False)
        xs = list(range(len(shown)))
        bottoms = [0] * len(shown)
        for label in order:
            heights = [dict(i.by_class).get(label, 0) for i in shown]
            if any(heights):
                bars.bar(
                    xs,
                    heights,
                    bottom=bottoms,
                    width=0.7,
                    color=class_color(label, order),
                    label=label,
                )
                bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
        for x, total in zip(xs, bottoms, strict=True):
            bars.annotate(
                str(total), (x, total), xytext=(0, 2), textcoords="offset points", ha="center",
                va="bottom", fontsize=8,
            )  # fmt: skip
        bars.set_xlim(-0.6, max(len(shown), 1) - 0.4)
        bars.set_xticks([])
        bars.set_ylim(0, max(bottoms, default=1) * 1.15 + 0.5)
        bars.yaxis.set_major_locator(MaxNLocator(integer=True))
        bars.set_ylabel("bugs fixed by exactly\nthese agents")
        bars.grid(axis="x", visible=False)
        bars.legend(loc="upper right", title="proximity class", fontsize=8)
        ys = list(range(rows))
        for x, inter in zip(xs, shown, strict=True):
            member = [a in inter.agents for a in agents]
            matrix.scatter(
                [x] * rows,
                ys,
                s=36,
                color=["#222" if m else "#d6d6d6" for m in member],
                zorder=3,
            )
            inside = [y for y, m in zip(ys, member, strict=True) if m]
            if len(inside) > 1:
                matrix.vlines(x, min(inside), max(inside), color="#222", linewidth=2, zorder=2)
        matrix.set_xlim(bars.get_xlim())
        matrix.set_ylim(rows - 0.5, -0.5)
        matrix.set_yticks(ys, [wrap_name(a, 22) for a in agents])
        matrix.set_xticks([])
        matrix.grid(visible=False)
        for side in ("left", "bottom"):
            matrix.spines[side].set_visible(False)
        matrix.tick_params(axis="y", length=0)
        sizes.barh(ys, set_sizes, color="#555", height=0.55)
        for y, size in zip(ys, set_sizes, strict=True):
            sizes.annotate(
                str(size), (size, y), xytext=(-3, 0), textcoords="offset points", ha="right",
                va="center", fontsize=8,
            )  # fmt: skip
        sizes.set_ylim(matrix.get_ylim())
        sizes.set_xlim(max(set_sizes, default=1) * 1.35 + 0.5, 0)
        sizes.set_yticks([])
        sizes.set_xlabel("fixed in all")
        sizes.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=3))
        sizes.spines["left"].set_visible(False)
        sizes.spines["right"].set_visible(True)
        sizes.grid(axis="y", visible=False)
        return to_svg(fig, "UpSet plot of the bugs fixed by each combination of agents")


def pattern_figure(name: str, aria: str, panels: Sequence[PatternPanel], top_k: int) -> str:
    """Grouped horizontal bars: per window size, the top patterns and each outcome's
    share of windows that are that pattern (or "not in top k" where it is not known)."""
    heights = [0.8 + 0.22 * len(p.patterns) * max(1, len(p.series)) for p in panels]
    with new_figure(name, sum(heights) + 0.4, nrows=len(panels), height_ratios=heights) as (
        fig,
        axes,
    ):
        for ax, panel in zip(axes, panels, strict=True):
            count = max(1, len(panel.series))
            step = 0.8 / count
            ys = np.arange(len(panel.patterns))
            for k, series in enumerate(panel.series):
                at = ys - 0.4 + step * (k + 0.5)
                bars = ax.barh(
                    at,
                    [100 * (s or 0.0) for s in series.shares],
                    height=step * 0.9,
                    color=series.color,
                    label=series.label,
                )
                for bar, share in zip(bars, series.shares, strict=True):
                    ax.annotate(
                        f"not in top {top_k}" if share is None else f"{100 * share:.1f}%",
                        (bar.get_width(), bar.get_y() + bar.get_height() / 2),
                        xytext=(2, 0), textcoords="offset points", va="center", fontsize=7,
                        color="#777" if share is None else "#222",
                    )  # fmt: skip
            ax.set_yticks(ys, list(panel.patterns), fontsize=8)
            ax.set_ylim(len(panel.patterns) - 0.5, -0.5)
            top = max(
                (s for series in panel.series for s in series.shares if s is not None),
                default=0.01,
            )
            ax.set_xlim(0, 100 * top * 1.18)
            ax.set_title(panel.title, loc="left")
            ax.grid(axis="y", visible=False)
        axes[-1].set_xlabel("% of the outcome's windows that are this pattern")
        if panels and panels[0].series:
            axes[0].legend(loc="lower right", fontsize=8)
        return to_svg(fig, aria)
