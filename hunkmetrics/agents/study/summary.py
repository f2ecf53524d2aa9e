"""`summarize`: every table of the study from attempt records, in one pass over them.

Attempts are streamed: each one's action sequence is counted into the n-gram counters
and its category counts pooled as it arrives, and only its scalar measures are kept (so
100,000 attempts of 200 actions never hold 20 M actions)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from statistics import mean
from types import MappingProxyType

from hunkmetrics.agents.study.bugs import BugTraits
from hunkmetrics.agents.study.records import EVALUATE, StudyAttempt
from hunkmetrics.agents.study.sequences import NgramCounter
from hunkmetrics.agents.study.stats import Rate, bootstrap_rate, pearson, spread
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
from hunkmetrics.bootstrap import RESAMPLES, SEED
from hunkmetrics.errors import finite_setting

__all__ = ["Settings", "StudySummary", "summarize"]

OUTCOMES = ("passing", "failing")
_NONE: Mapping[str, int] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Settings:
    """How the summary was computed: top-k patterns of each window size, the bootstrap's
    resamples and seed, and the shortest runtime Tables 5 and 6 count."""

    top_k: int = 10
    windows: tuple[int, ...] = (3, 4, 5)
    resamples: int = RESAMPLES
    seed: int = SEED
    # Tables 5 and 6 leave out attempts that ran less than this many seconds (the study's
    # Table 5 left out runs under 30 s as incomplete); None keeps them all.
    min_runtime_s: float | None = None

    def __post_init__(self) -> None:
        if self.min_runtime_s is not None:  # NaN would leave nothing out, silently
            finite_setting("the shortest runtime", self.min_runtime_s)
        finite_setting("the bootstrap's seed", self.seed)  # numpy takes none below 0


@dataclass(frozen=True, slots=True)
class StudySummary:
    """Every table of the study over a set of attempts. Tables that need what the
    attempts do not carry are None: Table 3 without `--bugs`, Table 9 without a
    `condition`, first touch without per-hunk reach. `skipped` counts error lines."""

    settings: Settings
    attempts: int
    skipped: int
    groups: tuple[str, ...]
    table2: Table2
    table3: Table3 | None
    table4: Table4
    table5: Table5
    table6: Table6
    table7: Table7
    table8: Table8
    patterns: SequencePatterns
    rr: RRDistribution
    table9: Table9 | None
    first_touch: FirstTouchTable | None
    per_bug: PerBugTable
    warnings: tuple[str, ...] = ()

    def tables(self, per_bug: bool = False) -> list[TableRows]:
        """Every table present, as rows, in the study's order; with `per_bug`, the
        per-attempt table last."""
        out = [self.table2.table()]
        if self.table3 is not None:
            out.append(self.table3.table())
        out += [
            self.table4.table(),
            self.table5.table(),
            self.table6.table(),
            self.table7.table(),
            self.table8.table(),
            self.patterns.table(),
            self.rr.table(),
        ]
        if self.table9 is not None:
            out.append(self.table9.table())
        if self.first_touch is not None:
            out.append(self.first_touch.table())
        if per_bug:
            out.append(self.per_bug.table())
        return out


@dataclass
class _Group:
    """What is pooled per agent (and condition) while streaming."""

    categories: dict[str, Counter[str]] = field(
        default_factory=lambda: {"passing": Counter(), "failing": Counter(), "all": Counter()}
    )
    actions: Counter[str] = field(default_factory=Counter)
    ngrams: dict[str, NgramCounter] = field(default_factory=dict)
    native: set[str] = field(default_factory=set)
    shell: set[str] | None = None
    from_actions: int = 0  # attempts whose tool names come from their actions
    from_counts: int = 0  # … from the study's count files alone (no shell command names)


def summarize(
    attempts: Iterable[StudyAttempt],
    bugs: Mapping[str, BugTraits] | None = None,
    settings: Settings = Settings(),
) -> StudySummary:
    """Every table over `attempts` (any iterable: a generator is consumed once). `bugs`,
    by `bug_key`, gives the developer patches' hunks, divergence and proximity."""
    groups: dict[str, _Group] = {}
    kept: list[StudyAttempt] = []
    skipped = 0
    for attempt in attempts:
        if attempt.error is not None:
            skipped += 1
            continue
        g = groups.setdefault(attempt.group, _Group())
        _pool(g, attempt, settings)
        if attempt.sequence is not None or attempt.categories:
            attempt = _scalars(attempt)  # its actions are pooled already
        kept.append(attempt)
    names = tuple(groups)
    warnings = []
    if bugs is None:
        bugs = _traits_from_lines(kept)
    if bugs is not None:
        missing = sorted({a.bug for a in kept if a.key not in bugs})
        if missing:
            warnings.append(
                f"{len(missing)} bugs have no developer record in --bugs: "
                + ", ".join(missing[:10])
                + (" …" if len(missing) > 10 else "")
            )
    warnings.extend(_table7_sources(names, groups))
    return StudySummary(
        settings=settings,
        attempts=len(kept),
        skipped=skipped,
        groups=names,
        table2=_table2(names, kept, settings),
        table3=_table3(names, kept, bugs, settings) if bugs is not None else None,
        table4=_table4(kept, bugs),
        table5=_table5(names, _long_enough(kept, settings)),
        table6=_table6(names, _long_enough(kept, settings)),
        table7=Table7(
            tuple(
                Table7Row(
                    n,
                    tuple(sorted(groups[n].native)),
                    _sorted(groups[n].shell),
                    groups[n].from_actions,
                    groups[n].from_counts,
                )
                for n in names
            )
        ),
        table8=_table8(names, groups),
        patterns=_patterns(names, groups, settings),
        rr=_rr(names, kept, settings),
        table9=_table9(kept),
        first_touch=_first_touch(names, kept, bugs, settings),
        per_bug=_per_bug(kept, bugs),
        warnings=tuple(warnings),
    )


def _traits_from_lines(kept: list[StudyAttempt]) -> dict[str, BugTraits] | None:
    """The developer patches' traits the attempt lines carry (`agents evaluate` writes
    them when it measured against a developer patch), or None when no line does."""
    found: dict[str, BugTraits] = {}
    for attempt in kept:
        if attempt.reference is not None:
            found.setdefault(attempt.key, attempt.reference)
    return found or None


def _table7_sources(names: tuple[str, ...], groups: Mapping[str, _Group]) -> list[str]:
    """A warning for each group whose Table 7 row mixes the two sources of tool names."""
    out = []
    for n in names:
        g = groups[n]
        if g.from_actions and g.from_counts:
            out.append(
                f"table 7, {n}: shell commands from the {g.from_actions} attempts with "
                f"per-action data only; {g.from_counts} attempts have only the study's count "
                "files (their native tools are counted, their shell commands are not named)"
            )
    return out


def _scalars(a: StudyAttempt) -> StudyAttempt:
    """The attempt without its sequence and category counts (`dataclasses.replace`,
    without its per-call field introspection)."""
    return StudyAttempt(
        a.id,
        a.agent,
        a.bug,
        a.condition,
        a.source,
        a.error,
        a.ls,
        a.compiled,
        a.repaired,
        a.regression_reduction,
        a.input_tokens,
        a.output_tokens,
        a.input_uncached,
        a.cache_read,
        a.cache_write,
        a.runtime_s,
        a.tool_calls,
        a.actions,
        _NONE,
        None,
        a.native_tools,
        a.shell_commands,
        a.hunks,
        a.reference,
        a.key,
    )


def _sorted(names: set[str] | None) -> tuple[str, ...] | None:
    return None if names is None else tuple(sorted(names))


def _no_trajectory(attempt: StudyAttempt) -> bool:
    """An `agents evaluate` line with no trajectory (a SWE-bench prediction alone): its
    actions, tools and commands are null, not counted as none."""
    return (
        attempt.source == EVALUATE
        and attempt.actions is None
        and attempt.shell_commands is None
        and not attempt.native_tools
    )


def _pool(g: _Group, attempt: StudyAttempt, settings: Settings) -> None:
    outcome = attempt.outcome
    counts: Mapping[str, int] = attempt.categories
    if attempt.sequence is not None:
        if not counts:  # a line with a sequence but no counts: count it (in C)
            seq = attempt.sequence
            counts = {c: seq.count(c) for c in set(seq)}
        slot = outcome or "unknown"  # counted once; "all" adds the outcomes up
        counter = g.ngrams.get(slot)
        if counter is None:
            counter = g.ngrams[slot] = NgramCounter(settings.windows)
        counter.add(attempt.sequence)
    for label in (outcome, "all"):
        if label is not None:
            g.categories[label].update(counts)
    if _no_trajectory(attempt):
        return  # its tools are unknown: it names none and counts for neither source
    g.native.update(attempt.native_tools)
    if attempt.shell_commands is None:  # read from count files: native tool names only
        g.from_counts += 1
    else:
        g.from_actions += 1
        if g.shell is None:
            g.shell = set()
        g.shell.update(attempt.shell_commands)


def _rate(count: int, n: int, settings: Settings) -> Rate:
    return bootstrap_rate(count, n, resamples=settings.resamples, seed=settings.seed)


def _known_rate(values: list[bool | None], settings: Settings) -> Rate | None:
    """The share of True among the values that are known; None when none is."""
    known = [v for v in values if v is not None]
    return _rate(sum(known), len(known), settings) if known else None


def _by_group(names: tuple[str, ...], kept: list[StudyAttempt]) -> dict[str, list[StudyAttempt]]:
    out: dict[str, list[StudyAttempt]] = {n: [] for n in names}
    for a in kept:
        out[a.group].append(a)
    return out


def _table2(names: tuple[str, ...], kept: list[StudyAttempt], settings: Settings) -> Table2:
    rows = []
    for name, items in _by_group(names, kept).items():
        n = len(items)
        rrs = [a.regression_reduction for a in items if a.regression_reduction is not None]
        rows.append(
            Table2Row(
                name,
                n,
                _known_rate([a.ls for a in items], settings),
                _known_rate([a.compiled for a in items], settings),
                float(mean(rrs)) if rrs else None,
                len(rrs),
                _known_rate([a.repaired for a in items], settings),
            )
        )
    return Table2(tuple(rows))


def _table3(
    names: tuple[str, ...],
    kept: list[StudyAttempt],
    bugs: Mapping[str, BugTraits],
    settings: Settings,
) -> Table3:
    classes: list[str] = []
    for traits in bugs.values():
        if traits.proximity is not None and traits.proximity not in classes:
            classes.append(traits.proximity)
    rows = []
    for name, items in _by_group(names, kept).items():
        fixed: list[float] = []
        unfixed: list[float] = []
        per_class: dict[str, list[bool]] = {c: [] for c in classes}
        for a in items:
            t = bugs.get(a.key)
            if t is None or a.repaired is None:
                continue
            if t.divergence is not None:
                (fixed if a.repaired else unfixed).append(t.divergence)
            if t.proximity is not None:
                per_class[t.proximity].append(a.repaired)
        rows.append(
            Table3Row(
                name,
                spread(fixed),
                spread(unfixed),
                {c: _rate(sum(v), len(v), settings) for c, v in per_class.items()},
            )
        )
    return Table3(tuple(classes), tuple(rows))


def _long_enough(kept: list[StudyAttempt], settings: Settings) -> list[StudyAttempt]:
    """The attempts Tables 5 and 6 count: all, or those not known to be shorter than
    `min_runtime_s`."""
    least = settings.min_runtime_s
    if least is None:
        return kept
    return [a for a in kept if a.runtime_s is None or a.runtime_s >= least]


def _plain(kept: list[StudyAttempt]) -> list[StudyAttempt]:
    return [a for a in kept if a.condition is None]


def _table4(kept: list[StudyAttempt], bugs: Mapping[str, BugTraits] | None) -> Table4:
    plain = _plain(kept)
    groups = tuple(dict.fromkeys(a.group for a in plain))
    by_bug: dict[str, list[StudyAttempt]] = {}
    spelling: dict[str, str] = {}
    for a in plain:
        by_bug.setdefault(a.key, []).append(a)
        spelling.setdefault(a.key, a.bug)
    unfixed = [k for k, items in by_bug.items() if not any(a.repaired is True for a in items)]
    traits = bugs or {}

    def ls_of(key: str) -> dict[str, bool | None]:
        return {a.group: a.ls for a in by_bug[key]}

    def ls_rate(keys: list[str], group: str) -> float | None:
        values = [v for k in keys if (v := ls_of(k).get(group)) is not None]
        return sum(values) / len(values) if values else None

    def trait_mean(keys: list[str], attr: str) -> float | None:
        values = [
            float(v)
            for k in keys
            if (t := traits.get(k)) is not None and (v := getattr(t, attr)) is not None
        ]
        return mean(values) if values else None

    rows = tuple(
        Table4Bug(
            spelling[k],
            ls_of(k),
            traits[k].hunk_count if k in traits else None,
            traits[k].divergence if k in traits else None,
            traits[k].proximity if k in traits else None,
        )
        for k in sorted(unfixed, key=lambda key: spelling[key])
    )
    everything = list(by_bug)
    return Table4(
        groups,
        rows,
        {g: ls_rate(unfixed, g) for g in groups},
        {g: ls_rate(everything, g) for g in groups},
        trait_mean(unfixed, "hunk_count"),
        trait_mean(everything, "hunk_count"),
        trait_mean(unfixed, "divergence"),
        trait_mean(everything, "divergence"),
    )


def _mean_of(values: list[int | None]) -> float | None:
    known = [v for v in values if v is not None]
    return float(mean(known)) if known else None


def _table5(names: tuple[str, ...], kept: list[StudyAttempt]) -> Table5:
    rows = []
    for name, items in _by_group(names, kept).items():
        cached = any((a.cache_read or 0) + (a.cache_write or 0) > 0 for a in items)
        for outcome in OUTCOMES:
            sel = [a for a in items if a.outcome == outcome]
            inputs = [float(a.input_tokens) for a in sel if a.input_tokens is not None]
            rows.append(
                Table5Row(
                    name,
                    outcome,
                    len(sel),
                    spread(inputs).mean,
                    _mean_of([a.output_tokens for a in sel]),
                    spread(inputs).std,
                    _mean_of([a.input_uncached for a in sel]) if cached else None,
                    _mean_of([a.cache_write for a in sel]) if cached else None,
                    _mean_of([a.cache_read for a in sel]) if cached else None,
                )
            )
    return Table5(tuple(rows))


def _table6(names: tuple[str, ...], kept: list[StudyAttempt]) -> Table6:
    rows = []
    plain = []
    for name, items in _by_group(names, kept).items():
        times = {
            o: [a.runtime_s for a in items if a.outcome == o and a.runtime_s is not None]
            for o in OUTCOMES
        }
        row = Table6Row(
            name,
            mean(times["passing"]) if times["passing"] else None,
            len(times["passing"]),
            mean(times["failing"]) if times["failing"] else None,
            len(times["failing"]),
        )
        rows.append(row)
        if items and items[0].condition is None:
            plain.append(row)
    passing = [r.passing_mean for r in plain if r.passing_mean is not None]
    failing = [r.failing_mean for r in plain if r.failing_mean is not None]
    average = Table6Row(
        f"average of {len(plain)} agents",
        mean(passing) if passing else None,
        sum(r.passing_n for r in plain),
        mean(failing) if failing else None,
        sum(r.failing_n for r in plain),
    )
    return Table6(tuple(rows), average)


def _table8(names: tuple[str, ...], groups: dict[str, _Group]) -> Table8:
    categories: Counter[str] = Counter()
    rows = []
    for name in names:
        if not groups[name].categories["all"]:
            continue  # no category counts for this agent
        for outcome in (*OUTCOMES, "all"):
            counts = groups[name].categories[outcome]
            categories.update(counts)
            total = sum(counts.values())
            shares = {k: v / total for k, v in counts.items()} if total else {}
            rows.append(Table8Row(name, outcome, total, shares))
    order = tuple(sorted(categories))
    return Table8(order, tuple(rows))


def _patterns(
    names: tuple[str, ...], groups: dict[str, _Group], settings: Settings
) -> SequencePatterns:
    rows = []
    for name in names:
        ngrams = groups[name].ngrams
        for outcome in (*OUTCOMES, "all"):
            parts = list(ngrams.values()) if outcome == "all" else [ngrams.get(outcome)]
            counters = [c for c in parts if c is not None]
            if not counters:
                continue
            for w in settings.windows:
                counts: Counter[tuple[str, ...]] = Counter()
                for c in counters:
                    counts.update(c.counts(w))
                total = sum(counts.values())
                ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
                for rank, (pattern, freq) in enumerate(ranked[: settings.top_k], start=1):
                    rows.append(PatternRow(name, outcome, w, rank, pattern, freq, freq / total))
    return SequencePatterns(settings.top_k, settings.windows, tuple(rows))


def _known_share(verdicts: list[bool | None]) -> float | None:
    """The share of True among the known verdicts, as Table 2 counts a repair rate (an
    attempt the harness could not judge is in neither count)."""
    known = [v for v in verdicts if v is not None]
    return sum(known) / len(known) if known else None


def _rr(names: tuple[str, ...], kept: list[StudyAttempt], settings: Settings) -> RRDistribution:
    rows = []
    plain = set()
    for name, items in _by_group(names, kept).items():
        if items and items[0].condition is None:
            plain.add(name)
        rrs = [a.regression_reduction for a in items if a.regression_reduction is not None]
        n = len(rrs)
        rows.append(
            RRRow(
                name,
                _rate(sum(v > 0 for v in rrs), n, settings),
                _rate(sum(v == 0 for v in rrs), n, settings),
                _rate(sum(v < 0 for v in rrs), n, settings),
                spread([float(v) for v in rrs]),
                _known_share([a.repaired for a in items]),
            )
        )
    pairs = [
        (r.repair_rate, r.spread.mean)
        for r in rows
        if r.group in plain and r.repair_rate is not None and r.spread.mean is not None
    ]
    correlation = pearson([p[0] for p in pairs], [p[1] for p in pairs])
    return RRDistribution(tuple(rows), correlation)


_MEASURES = ("repaired", "ls", "compiled", "mean_rr", "mean_input_tokens", "mean_runtime_s")


def _measure(items: list[StudyAttempt], measure: str) -> float | None:
    if not items:
        return None
    if measure in ("repaired", "ls", "compiled"):
        return sum(getattr(a, measure) is True for a in items) / len(items)
    if measure == "mean_rr":
        return _mean_of([a.regression_reduction for a in items])
    if measure == "mean_input_tokens":
        return _mean_of([a.input_tokens for a in items])
    known = [a.runtime_s for a in items if a.runtime_s is not None]
    return mean(known) if known else None


def _table9(kept: list[StudyAttempt]) -> Table9 | None:
    conditions = list(dict.fromkeys((a.agent, a.condition) for a in kept if a.condition))
    if not conditions:
        return None
    rows = []
    for agent, condition in conditions:
        after = {a.key: a for a in kept if a.agent == agent and a.condition == condition}
        before = {
            a.key: a for a in kept if a.agent == agent and a.condition is None and a.key in after
        }
        common = [k for k in after if k in before]
        for measure in _MEASURES:
            rows.append(
                Table9Row(
                    agent,
                    str(condition),
                    len(common),
                    measure,
                    _measure([before[k] for k in common], measure),
                    _measure([after[k] for k in common], measure),
                )
            )
    return Table9(tuple(rows))


def _first_touch(
    names: tuple[str, ...],
    kept: list[StudyAttempt],
    bugs: Mapping[str, BugTraits] | None,
    settings: Settings,
) -> FirstTouchTable | None:
    if not any(a.hunks for a in kept):
        return None
    rows = []
    for name, items in _by_group(names, kept).items():
        classes: dict[str, list[StudyAttempt]] = {}
        for a in items:
            if not a.hunks:
                continue
            label = "all"
            if bugs is not None:
                t = bugs.get(a.key)
                label = (t.proximity if t is not None else None) or "unknown"
            classes.setdefault(label, []).append(a)
        for label, group in sorted(classes.items()):
            hunks = [h for a in group for h in a.hunks]
            # Action indexes start at 0: the first action is 1 action in.
            reads = [h.read_file + 1.0 for h in hunks if h.read_file is not None]
            edits = [h.edited + 1.0 for h in hunks if h.edited is not None]
            rows.append(
                FirstTouchRow(
                    name,
                    label,
                    len(hunks),
                    _rate(len(reads), len(hunks), settings),
                    _rate(len(edits), len(hunks), settings),
                    spread(reads),
                    spread(edits),
                )
            )
    return FirstTouchTable(tuple(rows))


def _per_bug(kept: list[StudyAttempt], bugs: Mapping[str, BugTraits] | None) -> PerBugTable:
    rows = []
    for a in sorted(kept, key=lambda a: (a.key, a.group)):
        t = bugs.get(a.key) if bugs is not None else None
        rows.append(
            PerBugRow(
                a.bug,
                a.group,
                a.outcome,
                a.ls,
                a.compiled,
                a.regression_reduction,
                a.input_tokens,
                a.output_tokens,
                a.runtime_s,
                a.actions,
                t.hunk_count if t is not None else None,
                t.divergence if t is not None else None,
                t.proximity if t is not None else None,
            )
        )
    return PerBugTable(tuple(rows))
