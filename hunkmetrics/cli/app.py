"""`hunkmetrics` commands."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from .. import __version__
from ..api import Workspace, hunks_document, open_workspace
from ..errors import EXIT_INPUT, EXIT_INTERNAL, HunkmetricsError
from .options import Format, FormatOpt, HunksOpt, PatchArg, RepoOpt, ReverseOpt, RevOpt
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
          reverse: ReverseOpt = False, hunks: HunksOpt = "as-given",
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


def main() -> None:
    app()


if __name__ == "__main__":
    main()
