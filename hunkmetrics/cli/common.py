"""Pieces every command module shares: error handling, warnings, command groups.

Command modules import from here; cli/root.py imports the command modules and adds
their commands to the application, so imports flow one way."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from typer.core import TyperGroup

from ..errors import EXIT_INPUT, EXIT_INTERNAL, HunkmetricsError, command_out_of_memory_line

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


class BareFlagsGroup(TyperGroup):
    """A command group whose flags (`--resume`, `--help`, …) show no value in help: typer
    prints `<bool>` for a flag without a metavar, as if it took one. (Typed loosely:
    typer's click classes are its own vendored copy in some versions, click's in others.)"""

    def get_params(self, ctx: Any) -> list[Any]:
        return bare_flags(super().get_params(ctx))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _bare_flags_below(command, ctx)
        return command


def bare_flags(params: list[Any]) -> list[Any]:
    """`params` with every flag's metavar set to nothing (unless it has its own)."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


def _bare_flags_below(command: Any, ctx: Any) -> None:
    """Bare flags on `command` and, for a nested group (`agents`), on its commands."""
    bare_flags(command.get_params(ctx))
    for sub in getattr(command, "commands", {}).values():
        _bare_flags_below(sub, ctx)


def command_group() -> typer.Typer:
    """A module's own set of commands (`@group.command()`); root.py adds them to the
    application (LAZY_COMMANDS), or another group with `include`."""
    return typer.Typer()


def include(app: typer.Typer, group: typer.Typer) -> None:
    """Add `group`'s commands to `app` as its own commands."""
    app.registered_commands.extend(group.registered_commands)


def rich_console(stderr: bool = False, soft_wrap: bool = False) -> Console:
    """The one way the command line makes a Rich console. Its output carries input text
    (file names, commands, messages), so nothing in a string is read as markup
    (`[bold]`), an emoji code (`:100:`) or highlighted; styles come only from `styled`
    (Text objects). `rich.markup.escape` would not do: it leaves emoji codes alone.
    Rich is imported here, when something is printed for people (a table, a warning,
    an error): JSON output never loads it."""
    from rich.console import Console

    return Console(stderr=stderr, markup=False, emoji=False, highlight=False, soft_wrap=soft_wrap)


def styled(*parts: str | tuple[str, str]) -> Text:
    """One line from pieces, each plain text or (text, style): `styled("Div ", ("0.5",
    "bold"))`. Every piece prints as itself, whatever brackets or colons it holds."""
    from rich.text import Text

    return Text.assemble(
        *(plain(part) if isinstance(part, str) else (plain(part[0]), part[1]) for part in parts)
    )


def fail(message: str, code: int) -> NoReturn:
    """Print `hunkmetrics: <message>` on stderr and exit with `code`."""
    rich_console(stderr=True, soft_wrap=True).print(plain(f"hunkmetrics: {message}"))
    raise typer.Exit(code)


def guarded(ctx: typer.Context, action: Callable[[], Any]) -> Any:
    """Run a command body: input errors → one line and exit 2; running out of memory
    (a resource limit, not a bug) → one line saying what to do and exit 2; bugs → exit 1."""
    try:
        return action()
    except typer.Exit:
        raise
    except HunkmetricsError as exc:
        fail(f"error: {exc}", EXIT_INPUT)
    except MemoryError:
        fail(f"error: {command_out_of_memory_line()}", EXIT_INPUT)
    except BrokenPipeError:
        raise typer.Exit(0) from None
    except Exception as exc:  # an internal error: never a bare traceback by default
        if ctx.obj and ctx.obj.get("debug"):
            raise
        fail(
            f"internal error: {type(exc).__name__}: {exc} (re-run with --debug for the traceback)",
            EXIT_INTERNAL,
        )


def _visible(code: int) -> str:
    named = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}
    return named.get(code, f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


# Characters a terminal acts on instead of showing: C0 and C1 controls, DEL (ESC starts
# colour, cursor and title sequences, OSC 8 hyperlinks), line and paragraph separators
# and the bidirectional overrides that reorder what is shown.
_CONTROLS = {
    code: _visible(code)
    for code in (
        *range(0x00, 0x20),
        0x7F,
        *range(0x80, 0xA0),
        0x2028,
        0x2029,
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
    )
}


def plain(value: object) -> str:
    """Text from the input (a path, an id, a name, a message) made safe to print: control
    characters shown as escapes (`\\x1b`, `\\n`, as git quotes such names), bytes that
    were not UTF-8 (surrogates, which no terminal can encode) as `\\udcXX`, as in JSON
    output. (Markup and emoji codes are off in every `rich_console()`.)"""
    text = str(value).translate(_CONTROLS)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def print_warnings(warnings: list[str]) -> None:
    """Each warning as one `hunkmetrics: warning: ...` line on stderr."""
    if not warnings:
        return
    err = rich_console(stderr=True, soft_wrap=True)
    for warning in warnings:
        err.print(plain(f"hunkmetrics: warning: {warning}"))
