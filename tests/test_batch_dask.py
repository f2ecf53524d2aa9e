"""`hunkmetrics batch --executor dask`: the same lines as the local executor, with the
same guarantees (resume, order), on a real (local, one-worker) Dask cluster."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_batch import Generated, make_dataset
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.errors import HunkmetricsError

distributed = pytest.importorskip("distributed")

cli = CliRunner()


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=":0"
    ) as local:
        yield local


@pytest.fixture(scope="module")
def gen(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    data = make_dataset(tmp_path_factory.mktemp("dask"), 24, seed=11)
    (data.patches / "zz-empty.diff").write_bytes(b"")
    (data.patches / "zz-garbage.diff").write_bytes(b"no diff here\n")
    return data


def batch(*args: str):
    return cli.invoke(app, ["batch", *args])


def ids_of(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_bytes().splitlines()]


@pytest.fixture(scope="module")
def local_lines(gen, tmp_path_factory) -> set[bytes]:
    out = tmp_path_factory.mktemp("local") / "local.jsonl"
    result = batch(
        str(gen.patches), "-o", str(out), "--repo", str(gen.repo), "--rev", "base", "--jobs", "2"
    )
    assert result.exit_code == 0, result.output
    return set(out.read_bytes().splitlines())


def test_dask_gives_the_same_lines_as_local(cluster, gen, local_lines, tmp_path) -> None:
    out = tmp_path / "dask.jsonl"
    result = batch(
        str(gen.patches),
        "-o",
        str(out),
        "--repo",
        str(gen.repo),
        "--rev",
        "base",
        "--executor",
        "dask",
        "--scheduler",
        cluster.scheduler_address,
    )
    assert result.exit_code == 0, result.output
    lines = out.read_bytes().splitlines()
    assert len(lines) == len(set(lines)) == 26
    assert set(lines) == local_lines
    assert "26 written (2 errors)" in result.stderr


def test_dask_ordered_and_resumed(cluster, gen, local_lines, tmp_path) -> None:
    out = tmp_path / "dask.jsonl"
    common = [
        str(gen.patches),
        "-o",
        str(out),
        "--repo",
        str(gen.repo),
        "--rev",
        "base",
        "--executor",
        "dask",
        "--scheduler",
        cluster.scheduler_address,
        "--ordered",
        "--chunk-size",
        "1",
    ]
    assert batch(*common).exit_code == 0
    expected_order = sorted(path.stem for path in gen.patches.iterdir())
    assert ids_of(out) == expected_order
    whole = out.read_bytes()
    lines = whole.splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:7]) + lines[7][:25])  # killed while writing line 8

    result = batch(*common, "--resume")

    assert result.exit_code == 0, result.output
    assert "19 written (2 errors), 7 skipped as already done, 1 torn line repaired" in result.stderr
    assert out.read_bytes() == whole
    assert set(whole.splitlines()) == local_lines


def test_dask_worker_process_and_driver_process(gen, local_lines, tmp_path) -> None:
    """As on several machines: the worker is its own process (items and results are
    pickled), the driver is `python -m hunkmetrics` in another."""
    out = tmp_path / "dask.jsonl"
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as remote:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "hunkmetrics",
                "batch",
                str(gen.patches),
                "-o",
                str(out),
                "--repo",
                str(gen.repo),
                "--rev",
                "base",
                "--executor",
                "dask",
                "--scheduler",
                remote.scheduler_address,
            ],
            capture_output=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr.decode()
    assert set(out.read_bytes().splitlines()) == local_lines
    assert len(out.read_bytes().splitlines()) == 26


def test_unreachable_or_bad_scheduler_is_a_one_line_error(gen, tmp_path) -> None:
    from hunkmetrics.datasets.executors import DaskExecutor

    with pytest.raises(
        HunkmetricsError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"
    ):
        DaskExecutor("tcp://127.0.0.1:9", connect_timeout=0.5)
    out = tmp_path / "out.jsonl"
    for address, message in [
        ("nonsense:://x", "is not a Dask address"),
        ("tcp://", "is not a Dask address"),
    ]:
        result = batch(
            str(gen.patches), "-o", str(out), "--executor", "dask", "--scheduler", address
        )
        assert result.exit_code == 2, result.output
        assert message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    missing = batch(str(gen.patches), "-o", str(out), "--executor", "dask")
    assert missing.exit_code == 2 and "needs --scheduler ADDRESS" in missing.stderr
    assert not out.exists()  # nothing was written, so nothing is left behind


def test_without_dask_installed(gen, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    out = tmp_path / "out.jsonl"
    result = batch(
        str(gen.patches),
        "-o",
        str(out),
        "--executor",
        "dask",
        "--scheduler",
        "tcp://127.0.0.1:8786",
    )
    assert result.exit_code == 2
    assert "pip install 'hunkmetrics[dask]'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
