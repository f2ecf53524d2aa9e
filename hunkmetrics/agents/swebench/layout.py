"""The runs of SWE-bench or Multi-SWE-bench output, one per instance (and model).

RUNS may be a predictions file (trajectories beside it are read when present:
mini-swe-agent's `<id>/<id>.traj.json`, SWE-agent's `<id>/<id>.traj` or `<id>.traj`,
also under `trajs/`), a SWE-bench evaluation log folder (`logs/run_evaluation/<run_id>`
or its `<model>/` folder: `<instance>/report.json` or `run_instance.log`, and
`patch.diff`), a Multi-SWE-bench workdir (`<org>/<repo>/evals/pr-<N>/report.json` and
`fix.patch`), or a submission folder as the SWE-bench leaderboard publishes them
(SWE-bench/experiments' `evaluation/<split>/<run>/`, also Multi-SWE-bench's and a
mini-swe-agent output folder): `all_preds.jsonl` or `preds.json` (there or in `trajs/`),
`trajs/`, `logs/<instance>/`, `results/results.json` and sb-cli's
`sb-cli-reports/*.json`, each read when present (without predictions, one run per
trajectory, its patch the trajectory's submission). `logs` attaches outcomes to
predictions: log folders, Multi-SWE-bench workdirs and run reports
(`<model>.<run_id>.json`, `final_report.json`, `results.json`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from hunkmetrics.agents.run import NO_TRAJECTORY, Run
from hunkmetrics.agents.swebench.predictions import Prediction, is_predictions, read_predictions
from hunkmetrics.agents.swebench.reports import (
    INSTANCE_LOG,
    is_run_report,
    load,
    read_run_report,
)
from hunkmetrics.errors import HunkmetricsError

REPORT = "report.json"
# What only a SWE-bench instance log folder holds (a RUNS/<agent>/<bug>/ may hold patch.diff)
_SWEBENCH_FILES = (REPORT, INSTANCE_LOG, "test_output.txt")
_TRAJECTORIES = ("{id}/{id}.traj.json", "{id}/{id}.traj", "{id}.traj.json", "{id}.traj")
_TRAJECTORY_SUFFIXES = (".traj.json", ".traj")
# A submission folder: its predictions file, trajectories, instance logs and results.
SUBMISSION_PREDICTIONS = ("all_preds.jsonl", "preds.json")
TRAJS, LOGS, RESULTS = "trajs", "logs", Path("results", "results.json")
SB_CLI_REPORTS = "sb-cli-reports/*.json"  # where sb-cli writes run reports by default


@dataclass(frozen=True)
class Submission:
    """What a submission folder holds (each part None or empty when absent)."""

    folder: Path
    predictions: Path | None
    trajectories: dict[str, Path]  # by instance id, found under trajs/ (without predictions)
    logs: Path | None
    results: tuple[Path, ...]  # run reports: results/results.json, sb-cli's reports

    @classmethod
    def find(cls, folder: Path) -> Submission | None:
        """The submission in `folder`, or None when it holds neither predictions nor a
        `trajs/` folder of trajectories."""
        predictions = next(
            (
                where / name
                for where in (folder, folder / TRAJS)
                for name in SUBMISSION_PREDICTIONS
                if (where / name).is_file() and is_predictions(where / name)
            ),
            None,
        )
        trajectories = _trajectories(folder / TRAJS) if predictions is None else {}
        if predictions is None and not trajectories:
            return None
        logs = folder / LOGS
        homes = dict.fromkeys((folder, folder / TRAJS))
        found = [folder / RESULTS, *(p for h in homes for p in sorted(h.glob(SB_CLI_REPORTS)))]
        return cls(
            folder,
            predictions,
            trajectories,
            logs if logs.is_dir() and _swebench_instances(logs) else None,
            tuple(p for p in found if p.is_file() and is_run_report(load(p))),
        )

    def outcome_sources(self) -> list[Path]:
        return [*([self.logs] if self.logs is not None else []), *self.results]


def _trajectories(trajs: Path) -> dict[str, Path]:
    """Trajectories under `trajs/` by instance id: `<id>/<id>.traj.json`, `<id>.traj`…"""
    if not trajs.is_dir():
        return {}
    found: dict[str, Path] = {}
    for entry in sorted(trajs.iterdir()):
        if entry.is_dir():
            inside = _trajectory(entry.parent, entry.name)
            if inside is not None:
                found[entry.name] = inside
            continue
        for suffix in _TRAJECTORY_SUFFIXES:
            if entry.name.endswith(suffix) and entry.is_file():
                found.setdefault(entry.name.removesuffix(suffix), entry)
                break
    return found


@dataclass(frozen=True)
class Found:
    """What a path is: `predictions`, `submission` (with what the folder holds) or
    `logs` (a SWE-bench log folder or a Multi-SWE-bench workdir)."""

    kind: str
    submission: Submission | None = None


def swebench_found(path: Path) -> Found | None:
    """What `path` is, told by its content (None: no SWE-bench output). Telling reads
    the predictions and lists the folders: `swebench_runs` takes the answer rather than
    doing it again."""
    if path.is_file():
        predictions = path.suffix.lower() != ".csv" and is_predictions(path)
        return Found("predictions") if predictions else None
    if not path.is_dir():
        return None
    submission = Submission.find(path)
    if submission is not None:
        return Found("submission", submission)
    if _swebench_instances(path) or _multi_instances(path):
        return Found("logs")
    return None


def swebench_kind(path: Path) -> str | None:
    """`predictions`, `submission`, `logs` or None: what `path` is (`swebench_found`)."""
    found = swebench_found(path)
    return found.kind if found is not None else None


def swebench_runs(path: Path, logs: Iterable[Path] = (), found: Found | None = None) -> list[Run]:
    """One run per instance (and model) of `path` (a predictions file, a submission
    folder or a log folder), outcomes from `logs` too; `found`: what `path` is, when
    already told."""
    found = found if found is not None else swebench_found(path)
    kind = found.kind if found is not None else None
    submission = found.submission if found is not None else None
    if submission is not None:
        logs = [*submission.outcome_sources(), *logs]
    index = LogIndex.build(logs)
    if submission is not None:
        if submission.predictions is not None:
            predictions = submission.predictions
            # one submission: its run report is its own, whatever names its rows give
            return _prediction_runs(
                predictions, read_predictions(predictions), index, one_submission=True
            )
        return _trajectory_runs(submission, index)
    if kind == "predictions":
        return _prediction_runs(path, read_predictions(path), index)
    if kind == "logs":
        return [
            _log_run(model, instance, folder, index)
            for (model, instance), folder in LogIndex.build([path]).folders.items()
        ]
    raise HunkmetricsError(f"{path}: neither SWE-bench predictions nor evaluation logs")


@dataclass
class LogIndex:
    """Instance report folders by (model folder or None, instance id), and run reports'
    verdicts by instance id (with the file that gave them)."""

    folders: dict[tuple[str | None, str], Path] = field(default_factory=dict)
    verdicts: dict[str, tuple[bool, str]] = field(default_factory=dict)

    @classmethod
    def build(cls, paths: Iterable[Path]) -> LogIndex:
        index = cls()
        for path in paths:
            if path.is_file():
                if not is_run_report(load(path)):
                    raise HunkmetricsError(
                        f"{path}: not a run report (resolved_ids and unresolved_ids, or resolved)"
                    )
                for instance, resolved in read_run_report(path).items():
                    index.verdicts[instance] = (resolved, str(path))
            elif path.is_dir():
                found = {**_swebench_instances(path), **_multi_instances(path)}
                if not found:
                    raise HunkmetricsError(
                        f"{path}: no SWE-bench instance logs (<instance>/report.json) nor "
                        "Multi-SWE-bench evals (<org>/<repo>/evals/pr-N/)"
                    )
                index.folders.update(found)
            else:
                raise HunkmetricsError(f"{path}: no such file or directory")
        return index

    def folder(self, model: str | None, instance: str) -> Path | None:
        """The instance's log folder: under the model's folder, else the only one."""
        if model is not None:
            own = self.folders.get((model.replace("/", "__"), instance))
            if own is not None:
                return own
        return self.folders.get((None, instance))

    def columns(self, instance: str) -> tuple[tuple[str, str], ...]:
        verdict = self.verdicts.get(instance)
        if verdict is None:
            return ()
        resolved, source = verdict
        return (("resolved", str(resolved).lower()), ("outcome_source", f"run report {source}"))


def _is_instance_dir(folder: Path) -> bool:
    return any((folder / name).is_file() for name in _SWEBENCH_FILES)


def _dirs(folder: Path) -> Iterator[Path]:
    return (p for p in sorted(folder.iterdir()) if p.is_dir() and not p.name.startswith("."))


def _swebench_instances(path: Path) -> dict[tuple[str | None, str], Path]:
    """`<run_id>/<model>/<instance>/` (the model folder named) or `<model>/<instance>/`."""
    found: dict[tuple[str | None, str], Path] = {}
    children = list(_dirs(path))
    if any(_is_instance_dir(c) for c in children):
        for child in children:
            if _is_instance_dir(child):
                found[(None, child.name)] = child
        return found
    for model in children:
        for child in _dirs(model):
            if _is_instance_dir(child):
                found[(model.name, child.name)] = child
    return found


def _multi_instances(path: Path) -> dict[tuple[str | None, str], Path]:
    """`<org>/<repo>/evals/pr-<N>/` of a Multi-SWE-bench workdir, as `org__repo-N`."""
    found: dict[tuple[str | None, str], Path] = {}
    for folder in sorted(path.glob("*/*/evals/pr-*")):
        number = folder.name.removeprefix("pr-")
        if folder.is_dir() and number.isdigit():
            repo = folder.parent.parent
            found[(None, f"{repo.parent.name}__{repo.name}-{number}")] = folder
    return found


def _trajectory(folder: Path, instance: str) -> Path | None:
    """The instance's trajectory beside a predictions file, or in its `trajs/` folder."""
    for base in (folder, folder / TRAJS):
        for pattern in _TRAJECTORIES:
            candidate = base / pattern.format(id=instance)
            if candidate.is_file():
                return candidate
    return None


def outcome_file(folder: Path) -> Path:
    """An instance log folder's report: `report.json`, else the report line of
    `run_instance.log` (a folder that kept only the log)."""
    report = folder / REPORT
    log = folder / INSTANCE_LOG
    return log if not report.is_file() and log.is_file() else report


def _trajectory_runs(submission: Submission, index: LogIndex) -> list[Run]:
    """A submission without predictions: one run per trajectory, the agent's patch the
    trajectory's own submission, the agent named after the folder."""
    runs = []
    for instance, trajectory in submission.trajectories.items():
        folder = index.folder(None, instance)
        runs.append(
            Run(
                agent=submission.folder.name,
                bug=instance,
                trajectory=str(trajectory),
                outcome=str(outcome_file(folder)) if folder is not None else None,
                columns=index.columns(instance),
            )
        )
    return runs


def _prediction_runs(
    path: Path, predictions: list[Prediction], index: LogIndex, *, one_submission: bool = False
) -> list[Run]:
    models = {p.model for p in predictions}
    if index.verdicts and len(models) > 1 and not one_submission:
        raise HunkmetricsError(
            f"{path}: predictions of {len(models)} models, but a run report is one model's"
        )
    runs = []
    for pred in predictions:
        trajectory = _trajectory(path.parent, pred.instance_id)
        folder = index.folder(pred.model, pred.instance_id)
        outcome = None
        if folder is not None:
            outcome = str(outcome_file(folder))
        elif (
            index.folders and (pred.patch or "").strip() and pred.instance_id not in index.verdicts
        ):
            # Evaluated instances have a log folder or a run report's verdict; a non-empty
            # patch with neither was not evaluated (or its logs were not given): this
            # run's error, not a stop.
            outcome = str(_expected(index, pred))
        runs.append(
            Run(
                agent=pred.model or path.stem,
                bug=pred.instance_id,
                trajectory=str(trajectory or path),
                format=None if trajectory is not None else NO_TRAJECTORY,
                outcome=outcome,
                columns=_empty_patch(pred) or index.columns(pred.instance_id),
                patch_data=pred.patch or "",
            )
        )
    return runs


def _expected(index: LogIndex, pred: Prediction) -> Path:
    """Where the instance's report would be, for the error that says it is missing."""
    roots = {folder.parent for folder in index.folders.values()}
    root = sorted(roots)[0] if len(roots) == 1 else Path("<logs>")
    return root / pred.instance_id / REPORT


def _empty_patch(pred: Prediction) -> tuple[tuple[str, str], ...]:
    """An empty prediction: SWE-bench does not evaluate it and counts it unresolved."""
    if (pred.patch or "").strip():
        return ()
    return (("resolved", "false"), ("outcome_source", "SWE-bench: an empty patch, not evaluated"))


def _log_run(model: str | None, instance: str, folder: Path, index: LogIndex) -> Run:
    patch = next((folder / n for n in ("patch.diff", "fix.patch") if (folder / n).is_file()), None)
    return Run(
        agent=model or (folder.parents[3] if _is_multi(folder) else folder.parent).name,
        bug=instance,
        trajectory=str(folder),
        format=NO_TRAJECTORY,
        patch=str(patch) if patch is not None else None,
        outcome=str(outcome_file(folder)),
        columns=index.columns(instance),
    )


def _is_multi(folder: Path) -> bool:
    return folder.parent.name == "evals" and folder.name.startswith("pr-")
