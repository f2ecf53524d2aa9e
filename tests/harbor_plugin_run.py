"""Run the hunkmetrics plug-in through Harbor's own plug-in code; runs inside a venv with
harbor and hunkmetrics installed (its `harbor.plugins` entry point).

Usage: `python tests/harbor_plugin_run.py JOB_DIR [key=value ...]`. Harbor's registry
resolves the plug-in by its entry-point name, `attach_job_plugins` builds it with the
kwargs (as `--plugin-kwarg` would) and calls `on_job_start` with the job (a stand-in
that has the job directory: Harbor passes the plug-in nothing else of it), and
`finalize_job_plugins` calls `on_job_end` with a `JobResult` made of the trials'
`result.json` files. Prints one JSON line: where hunkmetrics was imported from, the
registered entry points, the plug-ins attached and the job's trial count. Exit status 2
when harbor or the entry point is missing.
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from uuid import UUID


async def run(job_dir: Path, kwargs: list[str]) -> dict[str, object]:
    from harbor.cli.job_plugins import (
        attach_job_plugins,
        finalize_job_plugins,
        plugin_configs_from_cli,
    )
    from harbor.cli.plugin_registry import list_plugin_entry_points
    from harbor.models.job.result import JobResult, JobStats
    from harbor.models.trial.result import TrialResult

    trials = [
        TrialResult.model_validate_json(p.read_text())
        for p in sorted(job_dir.glob("*/result.json"))
    ]
    job_result = JobResult(
        id=UUID(int=1),
        started_at=datetime(2026, 11, 28, 9, 0, tzinfo=UTC),
        finished_at=datetime(2026, 11, 28, 10, 0, tzinfo=UTC),
        n_total_trials=len(trials),
        stats=JobStats.from_trial_results(trials),
        trial_results=trials,
    )
    job = SimpleNamespace(job_dir=job_dir)
    plugins = await attach_job_plugins(job, plugin_configs_from_cli(["hunkmetrics"], kwargs))  # type: ignore[arg-type]
    await finalize_job_plugins(plugins, job_result)
    import hunkmetrics

    return {
        "hunkmetrics": hunkmetrics.__file__,
        "entry_points": list_plugin_entry_points(),
        "trials": len(trials),
        "plugins": [type(p).__module__ + ":" + type(p).__name__ for p in plugins],
    }


def main(argv: list[str]) -> int:
    try:
        from harbor.cli.plugin_registry import list_plugin_entry_points
    except ImportError as exc:
        print(f"harbor is not importable: {exc}", file=sys.stderr)
        return 2
    if "hunkmetrics" not in list_plugin_entry_points():
        print("no hunkmetrics entry point in harbor.plugins", file=sys.stderr)
        return 2
    print(json.dumps(asyncio.run(run(Path(argv[0]), argv[1:]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
