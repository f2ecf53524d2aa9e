"""A Harbor job plug-in: when a job ends, every trial is measured (`agents evaluate`) and
the study's tables are written next to it (docs/agents.md, "Harbor").

Enabled with `harbor run … --plugin hunkmetrics` (the `harbor.plugins` entry point) or
`--plugin hunkmetrics.integrations.harbor:HunkmetricsPlugin`; its options as
`--plugin-kwarg reward_threshold=0.5` (also `repos`, `references`, `profile`,
`min_runtime_s`, `out_dir`). It writes `<job>/hunkmetrics/attempts.jsonl`,
`summary.json` and `summary.md`. A failure is logged as a warning, never raised into
Harbor. Harbor is needed only to call it: this module imports without it (and imports
the rest of hunkmetrics only when a job ends).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from hunkmetrics.errors import finite_setting

if TYPE_CHECKING:  # Harbor needs Python >= 3.12: absent where the library is type-checked
    from harbor.job import Job  # type: ignore[import-not-found, unused-ignore]
    from harbor.models.job.result import (  # type: ignore[import-not-found, unused-ignore]
        JobResult,
    )

logger = logging.getLogger(__name__)

ATTEMPTS = "attempts.jsonl"
SUMMARY_JSON = "summary.json"
SUMMARY_MARKDOWN = "summary.md"


@dataclass(frozen=True, slots=True)
class Options:
    """How the plug-in measures a job: `agents evaluate`'s reward threshold, profile,
    repositories (`--repos`) and developer patches (`--reference`), the summary's
    shortest runtime, and the folder in the job directory it writes to."""

    reward_threshold: float = 1.0
    profile: str = "semantic"
    repos: str | None = None
    references: str | None = None
    min_runtime_s: float | None = None
    out_dir: str = "hunkmetrics"


def _number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number, not {value!r}")
    return finite_setting(name, float(value), least=None)  # not NaN: a silent wrong verdict


def _text(name: str, value: object) -> str:
    if not isinstance(value, str | Path) or not str(value).strip():
        raise TypeError(f"{name} must be a path or name, not {value!r}")
    return str(value)


def write_job_report(job_dir: Path, options: Options = Options()) -> Path:
    """Measure every trial of the Harbor job at `job_dir` and write the attempt lines and
    the summary tables into `job_dir/<out_dir>/` (replacing an earlier report)."""
    import json

    from hunkmetrics.agents.batch import evaluate_runs, read_references
    from hunkmetrics.agents.evaluate import Settings
    from hunkmetrics.agents.study import Settings as StudySettings
    from hunkmetrics.agents.study import iter_attempts, summarize
    from hunkmetrics.agents.study.render import summary_json, table_markdown

    out = job_dir / options.out_dir
    out.mkdir(exist_ok=True)
    attempts = out / ATTEMPTS
    attempts.unlink(missing_ok=True)  # a resumed job: every trial is measured again
    references = read_references(options.references) if options.references else {}
    settings = Settings(
        profile=options.profile, reward_threshold=options.reward_threshold, repos=options.repos
    )
    done = evaluate_runs(job_dir, references, settings, out=attempts, jobs=1, max_memory=None)
    summary = summarize(
        iter_attempts(attempts), None, StudySettings(min_runtime_s=options.min_runtime_s)
    )
    document = summary_json(summary)
    (out / SUMMARY_JSON).write_text(
        json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    head = [
        f"# hunkmetrics: Harbor job {job_dir.name}",
        "",
        f"{summary.attempts} attempts of {len(summary.groups)} agents"
        + (f", {done.errors} trials not measured (see {ATTEMPTS})" if done.errors else "")
        + f"; reward threshold {options.reward_threshold:g}.",
        "",
        *(f"- {w}" for w in summary.warnings),
    ]
    tables = [table_markdown(t) for t in summary.tables()]
    (out / SUMMARY_MARKDOWN).write_text("\n".join([*head, "", *tables]), encoding="utf-8")
    return out


def job_dir_of(job_result: JobResult) -> Path | None:
    """The job's directory from its trials' `trial_uri` (when `on_job_start` was not
    called): the folder that holds them."""
    for trial in job_result.trial_results:
        uri = urlparse(trial.trial_uri)
        if uri.scheme == "file":
            return Path(unquote(uri.path)).parent
    return None


class HunkmetricsPlugin:
    """Harbor's `JobPlugin`: `on_job_start` notes the job's directory, `on_job_end`
    writes the report (`write_job_report`) there."""

    def __init__(
        self,
        *,
        reward_threshold: float = 1.0,
        profile: str = "semantic",
        repos: str | None = None,
        references: str | None = None,
        min_runtime_s: float | None = None,
        out_dir: str = "hunkmetrics",
    ) -> None:
        name = _text("out_dir", out_dir)
        if Path(name).is_absolute() or ".." in Path(name).parts:
            raise TypeError(f"out_dir must be a folder name inside the job, not {out_dir!r}")
        self.options = Options(
            reward_threshold=_number("reward_threshold", reward_threshold),
            profile=_text("profile", profile),
            repos=_text("repos", repos) if repos is not None else None,
            references=_text("references", references) if references is not None else None,
            min_runtime_s=_number("min_runtime_s", min_runtime_s)
            if min_runtime_s is not None
            else None,
            out_dir=name,
        )
        self._job_dir: Path | None = None

    async def on_job_start(self, job: Job) -> None:
        self._job_dir = Path(job.job_dir)

    async def on_job_end(self, job_result: JobResult) -> None:
        import asyncio

        try:
            job_dir = self._job_dir or job_dir_of(job_result)
            if job_dir is None or not job_dir.is_dir():
                logger.warning("hunkmetrics: the job's directory is unknown; nothing written")
                return
            out = await asyncio.to_thread(write_job_report, job_dir, self.options)
            logger.info("hunkmetrics: attempts and summary tables written to %s", out)
        except Exception as exc:  # never into Harbor: the job itself is done
            logger.warning("hunkmetrics: no report for this job: %s", " ".join(str(exc).split()))
