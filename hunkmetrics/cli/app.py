"""`hunkmetrics` commands."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from .. import __version__
from ..api import Workspace, divergence_document, hunks_document, open_workspace
from ..errors import EXIT_INPUT, EXIT_INTERNAL, HunkmetricsError
from ..metrics.divergence import compute_divergence
from .options import (
    Format,
    FormatOpt,
    Hunking,
    HunksOpt,
    PatchArg,
    Profile,
    ProfileOpt,
    RepoOpt,
    ReverseOpt,
    RevOpt,
)
from .output import write_csv, write_json

EXIT_CODES = """Exit codes: 0 success; 2 bad input or usage (one line on stderr); 1 internal
error (re-run with --debug for the traceback)."""

app = typer.Typer(
    name="hunkmetrics",
    help="Characterize multi-hunk patches: where each hunk sits in the code hierarchy, "
    "how far apart the hunks are, and whether an agent's patch found the right places.\n\n"
    + EXIT_CODES,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hunkmetrics {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks of internal "
                                        "errors.")] = False,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    ctx.obj = {"debug": debug}


def _fail(message: str, code: int) -> None:
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    err.print(f"hunkmetrics: {message}", markup=False)
    raise typer.Exit(code)


def guarded(ctx: typer.Context, action: Callable[[], Any]) -> Any:
    """Run a command body: input errors → one line and exit 2; bugs → exit 1."""
    try:
        return action()
    except typer.Exit:
        raise
    except HunkmetricsError as exc:
        _fail(f"error: {exc}", EXIT_INPUT)
    except BrokenPipeError:
        raise typer.Exit(0) from None
    except Exception as exc:  # an internal error: never a bare traceback by default
        if ctx.obj and ctx.obj.get("debug"):
            raise
        _fail(f"internal error: {type(exc).__name__}: {exc} "
              "(re-run with --debug for the traceback)", EXIT_INTERNAL)


def load(patch: str, repo, rev, reverse: bool, hunks) -> Workspace:
    """The shared inputs of every command, as one Workspace."""
    stdin = sys.stdin.buffer.read() if patch == "-" else None
    return open_workspace(patch, repo=repo, rev=rev, reverse=reverse,
                          hunking=hunks.value, stdin=stdin)


def print_warnings(warnings: list[str]) -> None:
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    for warning in warnings:
        err.print(f"hunkmetrics: warning: {warning}", markup=False)


HUNK_COLUMNS = ["index", "file", "old_start", "old_lines", "new_start", "new_lines", "added",
                "removed", "language", "package", "class", "method", "methods", "located_by",
                "placed", "note"]


@app.command()
def hunks(ctx: typer.Context, patch: PatchArg, repo: RepoOpt = None, rev: RevOpt = None,
          reverse: ReverseOpt = False, hunks: HunksOpt = Hunking.as_given,
          format: FormatOpt = Format.table) -> None:
    """List a patch's hunks and where each sits: package, class, method.

    With --repo (and --rev) the whole file is parsed; without, only the diff's own lines
    are, and the table says which hunks could not be placed in a method.

    Examples:

      hunkmetrics hunks fix.diff

      hunkmetrics hunks fix.diff --repo ~/src/project --rev HEAD~1 --format json

      git diff | hunkmetrics hunks - --repo .
    """

    def run() -> None:
        with load(patch, repo, rev, reverse, hunks) as workspace:
            document = hunks_document(workspace)
        if format is Format.json:
            write_json(document)
        elif format is Format.csv:
            write_csv(document["hunks"], HUNK_COLUMNS)
            print_warnings(document["warnings"])
        else:
            render_hunks(document)
            print_warnings(document["warnings"])

    guarded(ctx, run)


def _short(name: str | None, prefix: str | None) -> str:
    if not name:
        return ""
    if prefix and name.startswith(prefix + "."):
        return name[len(prefix) + 1:]
    return name


def render_hunks(document: dict[str, Any]) -> None:
    console = Console(highlight=False)
    source = document["source"]
    origin = (f"{source['description']} ({source['side']}-image)" if source
              else "the diff alone (no --repo given)")
    table = Table(title=f"{document['patch']}: {len(document['hunks'])} hunks, located from "
                  f"{origin}", title_justify="left", show_lines=False)
    for column in ("#", "file", "lines (old)", "+/-", "package", "class", "method"):
        table.add_column(column, overflow="fold")
    for h in document["hunks"]:
        method = _short(h["method"], h["class"]) or (
            " | ".join(_short(m, h["class"]) for m in h["methods"]) if h["methods"] else "")
        if not h["placed"]:
            method = "[yellow]? not placed[/yellow]"
        elif not method:
            method = "[dim]—[/dim]"
        name = h["file"].rsplit("/", 1)[-1]
        table.add_row(str(h["index"]), name, f"{h['old_start']},{h['old_lines']}",
                      f"+{h['added']} -{h['removed']}", h["package"] or "",
                      _short(h["class"], h["package"]), method)
    console.print(table)
    unplaced = [h for h in document["hunks"] if not h["placed"]]
    if unplaced:
        console.print(f"[yellow]{len(unplaced)} hunk(s) not placed in a method: "
                      f"{unplaced[0]['note']}. Give --repo/--rev for exact locations.[/yellow]")
    for item in document["excluded_files"]:
        console.print(f"[dim]excluded: {item['file']} ({item['reason']})[/dim]")


@app.command()
def divergence(ctx: typer.Context, patch: PatchArg, repo: RepoOpt = None, rev: RevOpt = None,
               reverse: ReverseOpt = False, hunks: HunksOpt = Hunking.as_given,
               profile: ProfileOpt = Profile.default,
               pairs: Annotated[bool, typer.Option(
                   "--pairs", help="Also list every pair's components (table output; JSON "
                   "and CSV always have them).")] = False,
               weight: Annotated[float, typer.Option(
                   "--distributed-weight", min=0.0, help="g for hunks in different files "
                   "(the published value is 2).", rich_help_panel="Metric")] = 2.0,
               format: FormatOpt = Format.table) -> None:
    """Hunk divergence Div(P): how different a patch's hunks are from each other.

    Div(P) = ln(n) · mean over pairs of L·(S + g·F)/(1 + g), with L lexical, S structural
    (AST) and F file-level distance, g = 0 in one file and 2 across files. It lies in
    [0, ln n]. Use --profile birch to compare with the published Hunk4J numbers (on the
    Defects4J patch as shipped, without --reverse, and --repo/--rev at the fixed
    revision for the AST part); the default profile otherwise.

    Examples:

      hunkmetrics divergence fix.diff --pairs

      hunkmetrics divergence Lang_27.diff --profile birch --repo commons-lang --rev c2560c0

      hunkmetrics divergence fix.diff --format csv > pairs.csv
    """

    def run() -> None:
        with load(patch, repo, rev, reverse, hunks) as workspace:
            result = compute_divergence(workspace.patch, workspace.sources, workspace.cache,
                                        profile=profile.value, distributed_weight=weight)
            document = divergence_document(workspace, result)
        if format is Format.json:
            write_json(document)
            return
        if format is Format.csv:
            write_csv(document["divergence"]["pairs"], PAIR_COLUMNS)
        else:
            render_divergence(document, show_pairs=pairs)
        print_warnings(document["warnings"])

    guarded(ctx, run)


PAIR_COLUMNS = ["i", "j", "lexical", "structural", "file", "gamma", "value"]
MAX_TABLE_PAIRS = 500


def _number(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def render_divergence(document: dict[str, Any], show_pairs: bool) -> None:
    console = Console(highlight=False)
    div = document["divergence"]
    n = document["hunk_count"]
    source = document["source"]
    origin = (f"{source['description']} ({source['side']}-image)" if source
              else "the diff alone (no --repo given)")
    console.print(f"[bold]{document['patch']}[/bold]  profile [cyan]{div['profile']}[/cyan], "
                  f"AST from {origin}")
    console.print(f"[bold]Div(P) = {div['value']:.4f}[/bold]   n = {n} hunks, "
                  f"{len(div['pairs'])} pairs, range [0, ln n = {math.log(n) if n else 0:.4f}]")
    means = div["means"]
    console.print(f"mean lexical {_number(means['lexical'])}   mean structural "
                  f"{_number(means['structural'])}   mean file {_number(means['file'])}")
    if div["excluded_hunks"]:
        console.print(f"[dim]not counted: hunks {div['excluded_hunks']}[/dim]")
    if not show_pairs or not div["pairs"]:
        return
    table = Table(title="pairs: d = L·(S + g·F)/(1 + g)", title_justify="left")
    for column in ("i", "j", "L", "S", "F", "g", "d"):
        table.add_column(column, justify="right")
    for pair in div["pairs"][:MAX_TABLE_PAIRS]:
        table.add_row(str(pair["i"]), str(pair["j"]), _number(pair["lexical"]),
                      _number(pair["structural"]), _number(pair["file"]),
                      f"{pair['gamma']:g}", _number(pair["value"]))
    console.print(table)
    if len(div["pairs"]) > MAX_TABLE_PAIRS:
        console.print(f"[yellow]showing {MAX_TABLE_PAIRS} of {len(div['pairs'])} pairs; "
                      "--format json or csv lists them all[/yellow]")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
