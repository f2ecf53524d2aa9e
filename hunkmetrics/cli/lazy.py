"""Commands and command groups made on first use, so that a command starts without
importing the modules of the others (`hunks` never loads the batch, mining, report, MCP or
agents code, nor what they import), and typer builds only that command from its signature.

`LazyCommands` is a group's `commands` mapping: a lazy entry is made when it is looked up
by name, or when the mapping is listed (help, a "did you mean" list); until then running
another command never touches it. An entry is `module` (that module's typer `app` is the
group) or `module:command` (one command of that module's `app`)."""

from __future__ import annotations

import copy
import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

import typer


class LazyCommands(MutableMapping[str, Any]):
    """A group's commands by name; `lazy` maps more names to the module (importable
    path) whose typer `app` makes each, added after the others when first needed."""

    def __init__(self, commands: Mapping[str, Any], lazy: Mapping[str, str]) -> None:
        self._made = dict(commands)
        self._lazy = {name: module for name, module in lazy.items() if name not in commands}

    def _make(self, name: str) -> None:
        module, _, command = self._lazy.pop(name).partition(":")
        app = importlib.import_module(module).app
        if command:
            made = typer.main.get_group(only(app, command)).commands[command]
        else:
            made = typer.main.get_group(app)
        made.name = name
        self._made[name] = made

    def __getitem__(self, name: str) -> Any:
        if name in self._lazy:
            self._make(name)
        return self._made[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._lazy.pop(name, None)
        self._made[name] = command

    def __delitem__(self, name: str) -> None:
        if self._lazy.pop(name, None) is None:
            del self._made[name]

    def __contains__(self, name: object) -> bool:
        return name in self._made or name in self._lazy

    def __iter__(self) -> Iterator[str]:
        for name in list(self._lazy):  # listed: every command made, in order
            self._make(name)
        return iter(self._made)

    def __len__(self) -> int:
        return len(self._made) + len(self._lazy)


def only(app: typer.Typer, command: str) -> typer.Typer:
    """`app` with its command `command` alone: typer makes every command of a group it is
    given, each from its function's signature."""
    one = copy.copy(app)
    one.registered_commands = [
        info
        for info in app.registered_commands
        if info.callback is not None
        and (info.name or typer.main.get_command_name(info.callback.__name__)) == command
    ]
    return one
