"""What `agents evaluate` reads: agent runs (a manifest CSV or a `RUNS/<agent>/<bug>/`
directory) and the developer patches they are measured against.

Manifest: a CSV with the columns `agent,bug,trajectory` and optionally `format`, `patch`,
`outcome`, `outcome_before`, `compiled`, `failing_before`, `failing_after` (the study's
`compile_fail` too), `runtime_s` (the harness's wall clock, which then replaces the
runtime read from the trajectory) and `condition` (e.g. `maple`: the same agent run with a
tool, compared with its plain runs in the study's Table 9); paths relative to the
manifest's folder.

Harness output (a Harbor job or trial directory, an Inspect log, OpenHands V1
conversations): one run per attempt, the agent and model as the agent, the task or sample
as the bug, the harness's reward or score as the outcome. SWE-bench and Multi-SWE-bench
output (predictions, evaluation logs): one run per instance and model
(`hunkmetrics.agents.swebench.layout`).

Directory: `RUNS/<agent>/<bug>/` holds one trajectory (a file or an OpenHands events
folder; when several entries could be it, the one named `trajectory*`), and optionally
`patch.diff` (or `.patch`: the agent's final patch), `outcome.txt|.xml|/` (the harness's
test run after the patch: defects4j output or JUnit XML) and `before.txt|.xml|/` (the
run before it). The input as a whole is checked before anything runs (a manifest's
columns, ids given twice); a run that cannot be evaluated (no trajectory, two candidate
files, a file the manifest names that is missing) becomes that run's error line, and the
other runs go on.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from hunkmetrics.agents.run import NO_TRAJECTORY, Run
from hunkmetrics.csvfiles import open_csv
from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.inputfile import open_input

__all__ = [  # Run and NO_TRAJECTORY live in hunkmetrics.agents.run (no import cycle)
    "HARNESS_FORMATS",
    "NO_TRAJECTORY",
    "Run",
    "bug_key",
    "harness_format",
    "harness_runs",
    "read_runs",
]

REQUIRED = ("agent", "bug", "trajectory")
OPTIONAL = (
    "format",
    "patch",
    "outcome",
    "outcome_before",
    "compiled",
    "compile_fail",
    "failing_before",
    "failing_after",
    "runtime_s",
    "condition",
)
_PATCHES = ("patch.diff", "patch.patch")
_OUTCOME_STEMS = ("outcome", "before")


def read_runs(path: str | Path, logs: Sequence[str | Path] = ()) -> list[Run]:
    """Every run in a manifest CSV, a runs directory, a harness's output or SWE-bench
    output, checked (HunkmetricsError names the row or folder at fault). `logs` are
    SWE-bench evaluation logs and run reports for SWE-bench predictions."""
    from hunkmetrics.agents.swebench.layout import swebench_found, swebench_runs

    root = Path(path)
    if not root.exists():
        raise HunkmetricsError(f"{root}: no such file or directory")
    if not root.is_dir():  # a device or FIFO would never end
        open_input(root, "runs: a manifest, a folder or a harness's output").close()
    harness = harness_format(root)
    swebench = swebench_found(root) if harness is None else None
    if logs and swebench is None:
        raise HunkmetricsError(
            f"{root}: SWE-bench logs go with SWE-bench predictions or logs, and this is neither"
        )
    if swebench is not None:
        runs = swebench_runs(root, [Path(p) for p in logs], swebench)
    elif harness is not None:
        runs = harness_runs(root, harness)
    elif not root.is_dir() and _looks_like_json(root):
        raise HunkmetricsError(
            f"{root}: JSON, but not runs hunkmetrics reads: give a runs manifest (a CSV with "
            "agent,bug,trajectory), a RUNS/<agent>/<bug>/ folder, a harness's output or "
            "SWE-bench predictions (one trajectory alone: `agents actions`)"
        )
    else:
        runs = list(_directory(root) if root.is_dir() else _manifest(root))
    if not runs:
        raise HunkmetricsError(f"{root}: no runs found")
    seen: set[str] = set()
    for run in runs:
        if run.id in seen:
            raise HunkmetricsError(f"{root}: run {run.id} appears twice")
        seen.add(run.id)
    return runs


def _looks_like_json(path: Path) -> bool:
    """Whether the file starts like JSON (`{` or `[` after any BOM and blanks), which a
    CSV manifest, whose header names columns, never does."""
    with open_input(path, "runs") as handle:
        head = handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] in (b"{", b"[")


def holds_runs(path: Path) -> bool:
    """Whether `path` is something `read_runs` reads (a folder, a runs manifest CSV, a
    harness's output, SWE-bench output) rather than attempt lines already measured."""
    from hunkmetrics.agents.swebench.layout import swebench_kind

    if path.is_dir() or path.suffix.lower() == ".csv":
        return True
    return path.is_file() and (harness_format(path) is not None or swebench_kind(path) is not None)


# What a harness writes, read whole: one run per attempt in it.
HARNESS_FORMATS = ("harbor_job", "inspect_log", "openhands_v1")


def harness_format(path: Path) -> str | None:
    """The harness format of `path` (a Harbor job or trial, an Inspect log, OpenHands V1
    conversations), or None for a manifest or a RUNS/<agent>/<bug>/ folder."""
    from hunkmetrics.agents.errors import TrajectoryError
    from hunkmetrics.agents.readers import detect_format

    if path.is_file() and path.suffix.lower() == ".csv":
        return None
    try:
        fmt = detect_format(path)
    except TrajectoryError:
        return None
    return fmt if fmt in HARNESS_FORMATS else None


def harness_runs(path: Path, fmt: str) -> list[Run]:
    """One run per attempt of a harness's output: the agent (and model) as the agent, the
    task or sample as the bug. A Harbor trial or an OpenHands V1 conversation is a folder
    of its own and is its run's trajectory; the samples of an Inspect log are rows of the
    one file."""
    from hunkmetrics.agents import Attempt, read_trajectories
    from hunkmetrics.agents.readers import harbor_job, openhands_v1

    units: dict[str, Callable[[Path], list[Path]]] = {
        "harbor_job": harbor_job.trial_dirs,
        "openhands_v1": openhands_v1.conversation_dirs,
    }
    folders = units[fmt](path) if fmt in units else [path]
    found: list[tuple[Path, int | None, Attempt]] = []
    for folder in folders:
        attempts = read_trajectories(folder, fmt)
        many = len(attempts) > 1
        found.extend((folder, row if many else None, a) for row, a in enumerate(attempts))
    bugs = [a.bug_id or a.session_id or f"attempt-{n}" for n, (_, _, a) in enumerate(found)]
    tries = Counter(bugs)
    runs = []
    for n, ((folder, row, attempt), bug) in enumerate(zip(found, bugs, strict=True)):
        agent = attempt.agent + (f" ({attempt.model})" if attempt.model else "")
        repeated = tries[bug] > 1  # several trials of one task: each its own run
        trial = (attempt.session_id or str(n)) if repeated else None
        runs.append(
            Run(agent=agent, bug=bug, trajectory=str(folder), format=fmt, row=row, trial=trial)
        )
    return runs


def _cell(row: dict[str, str | None], key: str) -> str:
    return (row.get(key) or "").strip()


def _manifest(path: Path) -> Iterator[Run]:
    base = path.parent
    with open_csv(path) as handle:
        reader = csv.DictReader(handle)
        header = [h.strip() for h in reader.fieldnames or []]
        missing = [c for c in REQUIRED if c not in header]
        if missing:
            raise HunkmetricsError(
                f"{path}: a runs manifest needs the columns {','.join(REQUIRED)} "
                f"(missing {', '.join(missing)})"
            )
        unknown = [c for c in header if c not in REQUIRED + OPTIONAL]
        if unknown:
            raise HunkmetricsError(f"{path}: unknown columns {', '.join(unknown)}")
        for line, raw in enumerate(reader, start=2):
            row = {k.strip(): v for k, v in raw.items() if k is not None}
            agent, bug, traj = (_cell(row, c) for c in REQUIRED)
            if not agent or not bug:
                raise HunkmetricsError(f"{path}:{line}: agent and bug are required")
            paths = {}
            problems = [] if traj else [f"{path}:{line}: no trajectory given"]
            for key in ("trajectory", "patch", "outcome", "outcome_before"):
                value = _cell(row, key)
                if value:
                    full = base / value
                    if not full.exists():
                        problems.append(f"{path}:{line}: {key} {value}: no such file")
                    paths[key] = str(full)
            yield Run(
                agent=agent,
                bug=bug,
                trajectory=paths.get("trajectory", ""),
                format=_cell(row, "format") or None,
                patch=paths.get("patch"),
                outcome=paths.get("outcome"),
                outcome_before=paths.get("outcome_before"),
                columns=tuple(
                    (k, _cell(row, k))
                    for k in (
                        "compiled",
                        "compile_fail",
                        "failing_before",
                        "failing_after",
                        "runtime_s",
                    )
                    if _cell(row, k)
                ),
                condition=_cell(row, "condition") or None,
                problem="; ".join(problems) or None,
            )


def _named(folder: Path, stem: str) -> str | None:
    for entry in sorted(folder.iterdir()):
        if entry.name == stem or entry.name.startswith(stem + "."):
            return str(entry)
    return None


def _directory(root: Path) -> Iterator[Run]:
    for agent_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        for bug_dir in sorted(p for p in agent_dir.iterdir() if p.is_dir()):
            entries = [
                e
                for e in sorted(bug_dir.iterdir())
                if e.name not in _PATCHES
                and not any(e.name == s or e.name.startswith(s + ".") for s in _OUTCOME_STEMS)
                and not e.name.startswith(".")
            ]
            named = [e for e in entries if e.name.startswith("trajectory")]
            candidates = named or entries
            problem = None
            if len(candidates) != 1:
                found = ", ".join(e.name for e in candidates) or "nothing"
                problem = (
                    f"{bug_dir}: expected one trajectory (or one named trajectory*), found {found}"
                )
            patch = next((str(bug_dir / n) for n in _PATCHES if (bug_dir / n).exists()), None)
            yield Run(
                agent=agent_dir.name,
                bug=bug_dir.name,
                trajectory=str(candidates[0]) if len(candidates) == 1 else str(bug_dir),
                problem=problem,
                patch=patch,
                outcome=_named(bug_dir, "outcome"),
                outcome_before=_named(bug_dir, "before"),
            )


def bug_key(bug: str) -> str:
    """Bug ids compare case-blind with `-` and `_` alike (`Chart-14` = `chart_14`)."""
    return bug.strip().lower().replace("-", "_")
