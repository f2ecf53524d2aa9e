"""`--jobs` has one default, 1, in every command that has it (cli/options.py)."""

from __future__ import annotations

from typing import Any

import typer

from hunkmetrics.cli.app import app


def jobs_option(*path: str) -> Any:
    command: Any = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]  # a group's subcommands by name
    (option,) = (p for p in command.params if p.name == "jobs")
    return option


def test_jobs_defaults_to_one_everywhere() -> None:
    for path in (("batch",), ("mine",), ("agents", "evaluate")):
        option = jobs_option(*path)
        assert option.default == 1, path
        assert option.opts == ["--jobs", "-j"], path
        assert "in the order they finish" in option.help, path
