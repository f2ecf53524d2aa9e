"""The `hunkmetrics` application: the root options and every command module's commands.

Each command is made only when asked for (running it, or the root's help), so that
`hunkmetrics hunks` imports no other command's modules and typer reads no other
command's signature."""

from __future__ import annotations

from types import MappingProxyType
from typing import Annotated, Any

import typer

from ..version import __version__
from .common import BareFlagsGroup
from .lazy import LazyCommands

# Commands made on first use (cli/lazy.py), in the order help lists them: name -> module
# (its `app` is the group) or module:command.
LAZY_COMMANDS = MappingProxyType(
    {
        **{
            name: f"{__package__}.commands:{name}"
            for name in ("hunks", "divergence", "proximity", "localization", "characterize")
        },
        "batch": f"{__package__}.batch_commands:batch",
        "export": f"{__package__}.batch_commands:export",
        "mine": f"{__package__}.mine_commands:mine",
        "report": f"{__package__}.report_commands:report",
        "maple": f"{__package__}.maple_commands:maple",
        "agents": f"{__package__}.agents_commands",
    }
)


class RootGroup(BareFlagsGroup):
    """The root command group: BareFlagsGroup, whose commands (LAZY_COMMANDS) are each
    made when first needed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(self.commands, LAZY_COMMANDS)


EXIT_CODES = """Exit codes: 0 success; 2 bad input or usage (one line on stderr); 1 internal
error (re-run with --debug for the traceback)."""

app = typer.Typer(
    name="hunkmetrics",
    cls=RootGroup,
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
