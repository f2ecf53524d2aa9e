"""The `hunkmetrics` application: the root options and every command module's commands."""

from __future__ import annotations

from typing import Annotated

import typer

from ..version import __version__
from . import (
    agents_commands,
    batch_commands,
    commands,
    maple_commands,
    mine_commands,
    report_commands,
)
from .common import BareFlagsGroup, include

EXIT_CODES = """Exit codes: 0 success; 2 bad input or usage (one line on stderr); 1 internal
error (re-run with --debug for the traceback)."""

app = typer.Typer(
    name="hunkmetrics",
    cls=BareFlagsGroup,
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
    debug: Annotated[
        bool, typer.Option("--debug", help="Show tracebacks of internal errors.")
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    ctx.obj = {"debug": debug}


include(app, commands.app)
include(app, batch_commands.app)
include(app, mine_commands.app)
include(app, report_commands.app)
include(app, maple_commands.app)
app.add_typer(agents_commands.app, name="agents")
