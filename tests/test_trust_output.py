"""Text from the input is printed as itself (issue 15): file names, ids, paths, class
names and messages holding Rich markup such as `[/red]`, `[slug]` or `[bold]x[/bold]`
neither crash the terminal output nor lose their brackets."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from hunkmetrics.cli.app import app

runner = CliRunner()
WIDE = {"COLUMNS": "400"}

MIDDLE = "".join(f"        b{k} = {k}\n" for k in range(8))
OLD = f"class A:\n    def m(self):\n        a = 1\n{MIDDLE}        d = 4\n"
NEW = f"class A:\n    def m(self):\n        a = 10\n{MIDDLE}        d = 40\n"


def _diff(path: str) -> str:
    """Two one-line hunks (lines 3 and 12) of OLD → NEW in `path`, no context."""
    return (
        f"diff --git a/{path} b/{path}\n"
        f"--- a/{path}\n"
        f"+++ b/{path}\n"
        "@@ -3 +3 @@\n"
        "-        a = 1\n"
        "+        a = 10\n"
        "@@ -12 +12 @@\n"
        "-        d = 4\n"
        "+        d = 40\n"
    )


NAMES = ["app/[slug]/page[/red].py", "[bold]x[/bold]/m.py"]


def _patch(tmp_path: Path, stem: str, path: str) -> Path:
    patch = tmp_path / f"{stem}.diff"
    patch.parent.mkdir(parents=True, exist_ok=True)
    patch.write_text(_diff(path))
    return patch


def _invoke(*args: str) -> str:
    result = runner.invoke(app, list(args), env=WIDE)
    assert result.exit_code == 0, result.output
    return result.output


def test_hunks_table_prints_bracketed_names(tmp_path: Path) -> None:
    for name in NAMES:
        patch = _patch(tmp_path, "fix[/red]", name)
        out = _invoke("hunks", str(patch))
        # The title names the patch file; the table the file's base name.
        # A long title wraps at the table's width (at a space, or inside a word).
        title = "fix[/red].diff: 2 hunks, located from the diff alone"
        assert title in " ".join(out.split()) or title in out.replace("\n", "")
        assert name.rsplit("/", 1)[-1] in out


def test_hunks_with_sources_print_package_and_class(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    name = "app/[slug]/page[/red].py"
    (repo / name).parent.mkdir(parents=True)
    (repo / name).write_text(OLD)
    patch = _patch(tmp_path, "p", name)
    out = _invoke("hunks", str(patch), "--repo", str(repo))
    # The path is the directories app/, [slug]/, page[/ and the file red].py.
    assert "│ red].py │" in out
    assert "│ app.[slug].page[ │ red].A │ m(self) │" in out
    assert str(repo) in out


def test_divergence_with_pairs_and_characterize(tmp_path: Path) -> None:
    patch = _patch(tmp_path, "[bold]x[/bold]", "app/[slug]/page.tsx")
    out = _invoke("divergence", str(patch), "--pairs")
    assert "[bold]x[/bold].diff" in out
    out = _invoke("characterize", str(patch))
    assert "[bold]x[/bold].diff" in out
    assert "page.tsx" in out
    out = _invoke("proximity", str(patch))
    assert "[bold]x[/bold].diff" in out


def test_localization_lists_missed_and_extra_files(tmp_path: Path) -> None:
    reference = _patch(tmp_path, "ref", "app/[slug]/page.tsx")
    candidate = _patch(tmp_path, "cand", "app/[/red]/[bold]x[/bold].tsx")
    out = _invoke("localization", "--reference", str(reference), "--candidate", str(candidate))
    assert "missed app/[slug]/page.tsx" in out
    assert "extra  app/[/red]/[bold]x[/bold].tsx" in out
    garbage = tmp_path / "garbage.diff"
    garbage.write_text("@@ -[/red] +1 @@\n")
    out = _invoke("localization", "--reference", str(reference), "--candidate", str(garbage))
    assert "missed app/[slug]/page.tsx" in out


def test_errors_and_warnings_keep_brackets(tmp_path: Path) -> None:
    missing = tmp_path / "[/red]gone.diff"
    result = runner.invoke(app, ["hunks", str(missing)], env=WIDE)
    assert result.exit_code == 2
    assert "[/red]gone.diff" in result.output
    assert "internal error" not in result.output


def test_batch_and_export_lines_keep_brackets(tmp_path: Path) -> None:
    data = tmp_path / "in[/red]"
    data.mkdir(parents=True)
    (data / "[slug].diff").write_text(_diff("[bold]x[/bold].py"))
    (data / "[x]bad.diff").write_text("not a diff\n")
    out = tmp_path / "out[bold].jsonl"
    result = runner.invoke(app, ["batch", str(data), "-o", str(out), "--jobs", "1"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert f"→ {out}" in result.output
    records = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert sorted(records) == ["[slug]", "[x]bad"]
    assert records["[slug]"]["error"] is None
    assert records["[x]bad"]["error"] is not None
    table = tmp_path / "t[/red].csv"
    table.parent.mkdir()
    result = runner.invoke(app, ["export", str(out), "-o", str(table)], env=WIDE)
    assert result.exit_code == 0, result.output
    assert f"2 rows (1 with an error) → {table}" in result.output


def _git(repo: Path, *args: str) -> None:
    config = ["-c", "user.name=T", "-c", "user.email=t@example.invalid"]
    config += ["-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"]
    subprocess.run(["git", *config, *args], cwd=repo, check=True, capture_output=True)


def test_mine_summary_keeps_brackets(tmp_path: Path) -> None:
    repo = tmp_path / "r[/red]"
    repo.mkdir(parents=True)
    _git(repo, "init", "-q")
    name = "[slug]/m.py"
    (repo / "[slug]").mkdir()
    (repo / name).write_text(OLD)
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "start")
    (repo / name).write_text(NEW)
    _git(repo, "commit", "-q", "-am", "fix [/red] bug")
    out = tmp_path / "m[bold].jsonl"
    result = runner.invoke(app, ["mine", str(repo), "--out", str(out)], env=WIDE)
    assert result.exit_code == 0, result.output
    assert f"wrote 1 lines to {out}" in result.output
    (record,) = map(json.loads, out.read_text().splitlines())
    assert [h["file"] for h in record["hunks"]] == [name, name]


def test_names_that_are_not_utf8_print_escaped(tmp_path: Path) -> None:
    # Byte 0xba is not UTF-8: it is read as the surrogate \udcba, which a terminal
    # cannot encode. Tables show it escaped, as JSON does (found by the command fuzzer).
    patch = tmp_path / "p.diff"
    patch.write_bytes(_diff("src/c\xba5.py").encode("latin-1"))
    out = _invoke("hunks", str(patch))
    assert "c\\udcba5.py" in out
    reference = tmp_path / "ref.diff"
    reference.write_text(_diff("app/[slug]/page.tsx"))
    out = _invoke("localization", "--reference", str(reference), "--candidate", str(patch))
    assert "extra  src/c\\udcba5.py" in out
