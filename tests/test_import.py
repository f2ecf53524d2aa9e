"""The library imports light, names its optional extras, and defines each profile once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import hunkmetrics
from hunkmetrics.documents import DOCUMENT_NAMES, schema
from hunkmetrics.jsonshape import COUNT, STR, Obj
from hunkmetrics.metrics.profiles import PROFILE_NAMES, profile

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "typer", "rich", "nltk", "rapidfuzz", "click", "inspect_ai")


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)


def test_import_loads_no_heavy_or_optional_module() -> None:
    done = python(
        "import hunkmetrics, sys, json\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout))
    assert "hunkmetrics" in loaded
    assert loaded.isdisjoint(HEAVY), loaded & set(HEAVY)


def test_the_command_line_imports_the_agents_package_only_for_its_commands() -> None:
    """Building the application and running another command's help leaves the agents
    package and the agents commands out; `agents --help` brings the commands in (their
    help needs no more: the package itself comes with a command that runs)."""
    done = python(
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from hunkmetrics.cli.root import app\n"
        "loaded = lambda: ('hunkmetrics.agents' in sys.modules,"
        " 'hunkmetrics.cli.agents_commands' in sys.modules)\n"
        "assert CliRunner().invoke(app, ['batch', '--help']).exit_code == 0\n"
        "print(*loaded())\n"
        "assert CliRunner().invoke(app, ['agents', '--help']).exit_code == 0\n"
        "print(*loaded())"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "False", "True"]


def test_every_public_name_resolves() -> None:
    for name in hunkmetrics.__all__:
        assert getattr(hunkmetrics, name) is not None, name
    assert set(hunkmetrics.__all__) <= set(dir(hunkmetrics))
    with pytest.raises(AttributeError):
        _ = hunkmetrics.no_such_name  # type: ignore[attr-defined]


def test_console_script_names_the_cli_extra() -> None:
    done = python(
        "import sys; sys.modules['typer'] = None\nfrom hunkmetrics.cli.app import main\nmain()"
    )
    assert done.returncode == 2
    assert done.stderr == (
        'hunkmetrics: the command line needs its extra: pip install "hunkmetrics[cli]"\n'
    )


def test_birch_without_nltk_names_the_birch_extra() -> None:
    patch = ROOT / "fixtures" / "patches" / "java_packages_far.diff"
    done = python(
        # The birch extra is the Punkt model package (NLTK is not needed any more).
        "import sys; sys.modules['nltk'] = sys.modules['punkt'] = None\n"
        "import hunkmetrics\n"
        f"print(hunkmetrics.divergence({str(patch)!r}).hunk_count)\n"
        "try:\n"
        f"    hunkmetrics.divergence({str(patch)!r}, profile='birch')\n"
        "except hunkmetrics.MissingExtraError as exc:\n"
        "    print(exc)\n"
    )
    assert done.returncode == 0, done.stderr
    count, message = done.stdout.strip().splitlines()
    assert int(count) >= 2  # the default profile needs no NLTK
    assert 'pip install "hunkmetrics[birch]"' in message


def test_profile_registry() -> None:
    assert PROFILE_NAMES == ("default", "birch")
    birch = profile("birch")
    assert profile(birch) is birch
    # birch's package drops the first and the last segment; default keeps directories.
    assert birch.package_of("src/com/acme/A.java") == ("com", "acme")
    assert profile("default").package_of("src/com/acme/A.java") == ("src", "com", "acme")
    assert birch.cutoff_for([("a",)]) == 3
    # default: floor(median depth / 2); depths 2, 4, 5 -> median 4 -> 2.
    assert profile("default").cutoff_for([("a", "b"), ("a",) * 4, ("a",) * 5]) == 2
    # F: no common first segment, m = 2: capped 1, uncapped 1 - (0 - 1)/2 = 1.5.
    assert profile("default").file_distance("a/x", "b/y") == 1.0
    assert birch.file_distance("a/x", "b/y") == 1.5
    assert birch.distributed_weight == profile("default").distributed_weight == 2.0
    with pytest.raises(ValueError, match="unknown profile"):
        profile("oak")


def test_shape_builds_in_order_and_rejects_strangers() -> None:
    shape = Obj({"a": COUNT, "b": STR}, optional=frozenset({"b"}))
    assert list(shape.build({"b": "x", "a": 1})) == ["a", "b"]
    assert shape.build({"a": 1}) == {"a": 1}
    with pytest.raises(ValueError):
        shape.build({"a": 1, "c": 2})
    with pytest.raises(ValueError):
        shape.build({"b": "x"})


def _objects(node: object) -> list[dict[str, object]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object":
            found.append(node)
        for value in node.values():
            found.extend(_objects(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_objects(value))
    return found


def test_every_schema_object_is_closed() -> None:
    for name in DOCUMENT_NAMES:
        objects = _objects(schema(name))
        assert objects
        for obj in objects:
            assert obj["additionalProperties"] is False, (name, obj)


def test_cli_birch_without_nltk_is_an_input_error() -> None:
    patch = ROOT / "fixtures" / "patches" / "java_packages_far.diff"
    done = python(
        "import sys; sys.modules['nltk'] = sys.modules['punkt'] = None\n"
        f"sys.argv = ['hunkmetrics', 'divergence', {str(patch)!r}, '--profile', 'birch']\n"
        "from hunkmetrics.cli.app import main\n"
        "main()"
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert 'pip install "hunkmetrics[birch]"' in done.stderr


def test_a_patch_command_imports_no_other_command_s_modules() -> None:
    """`hunks`, `divergence` and `characterize` run without the dataset, report, MCP or
    agents code (issue 22: scripts call them once per commit); `batch` brings its own."""
    others = (
        "hunkmetrics.cli.batch_commands",
        "hunkmetrics.cli.mine_commands",
        "hunkmetrics.cli.report_commands",
        "hunkmetrics.cli.maple_commands",
        "hunkmetrics.cli.agents_commands",
        "hunkmetrics.datasets",
        "hunkmetrics.report",
        "hunkmetrics.maple",
        "hunkmetrics.agents",
    )
    patch = Path(__file__).resolve().parents[1] / "fixtures" / "patches" / "java_pure_addition.diff"
    done = python(
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from hunkmetrics.cli.root import app\n"
        f"others = {others!r}\n"
        "for command in ('hunks', 'divergence', 'characterize'):\n"
        f"    result = CliRunner().invoke(app, [command, {str(patch)!r}, '--format', 'json'])\n"
        "    assert result.exit_code == 0, result.output\n"
        "    print(command, *[m for m in others if m in sys.modules])\n"
        "assert CliRunner().invoke(app, ['batch', '--help']).exit_code == 0\n"
        "print('batch', 'hunkmetrics.cli.batch_commands' in sys.modules)"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["hunks", "divergence", "characterize", "batch True"]
