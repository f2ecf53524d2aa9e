"""`hunkmetrics agents rules`: check a category rules file of your own, list a profile's rules.

hunkmetrics agents rules check FILE.toml
hunkmetrics agents rules show [semantic|paper|FILE.toml]
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import EXIT_INPUT, HunkmetricsError
from .common import guarded
from .output import write_text

app = typer.Typer(
    help="Category rules files: check your own, list a profile's rules.",
    no_args_is_help=True,
)


@app.command()
def check(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A category rules file (TOML).", show_default=False)],
) -> None:
    """Every problem of a rules file, one line each with the rule and a fix; exit 0 when
    clean (with a summary), 2 when there are problems."""

    def body() -> None:
        from ..agents.classify import RULES_MAX_BYTES, parse_profile
        from ..agents.rules_check import check_profile
        from ..inputfile import read_input

        try:
            text = read_input(file, "category rules", limit=RULES_MAX_BYTES).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise HunkmetricsError(f"{file}: not UTF-8 ({exc.reason})") from None
        problems = check_profile(text, str(file))
        if problems:
            write_text("".join(f"{file}: {p}\n" for p in problems))
            write_text(f"{len(problems)} problems\n")
            raise typer.Exit(EXIT_INPUT)
        profile = parse_profile(text, str(file))
        rules = len(profile.tool_rules) + len(profile.command_rules)
        write_text(
            f"{file}: ok: profile {profile.name}, {rules} rules "
            f"({len(profile.tool_rules)} tool, {len(profile.command_rules)} command), "
            f"{len(profile.categories)} categories, {len(profile.wrappers)} wrappers\n"
        )

    guarded(ctx, body)


@app.command()
def show(
    ctx: typer.Context,
    profile: Annotated[
        str,
        typer.Argument(help="semantic, paper or a rules file.", show_default=True),
    ] = "semantic",
) -> None:
    """The profile's rules in the order they are tried, each with its conditions."""

    def body() -> None:
        from ..agents.classify import load_profile

        prof = load_profile(profile)
        lines = [f"profile {prof.name}: {prof.description}".rstrip(": ")]
        lines.append("categories: " + ", ".join(prof.categories))
        lines.append(f"defaults: tool {prof.default_tool}, command {prof.default_command}")
        for title, rules in (
            ("tool rules", prof.tool_rules),
            ("command rules", prof.command_rules),
        ):
            lines.append(f"{title}:")
            for rule in rules:
                lines.append(f"  {rule.id} -> {rule.category}: {_conditions(rule)}")
        if prof.wrappers:
            lines.append("wrappers: " + ", ".join(sorted(prof.wrappers)))
        write_text("\n".join(lines) + "\n")

    guarded(ctx, body)


def _conditions(rule: object) -> str:
    from ..agents.classify import Rule

    assert isinstance(rule, Rule)
    parts = []
    if rule.tools:
        parts.append("tool " + "|".join(sorted(rule.tools)))
    if rule.tool_regex is not None:
        parts.append(f"tool ~ /{rule.tool_regex.pattern}/")
    for key, allowed in rule.argument:
        parts.append(f"{key} = " + "|".join(sorted(allowed)))
    if rule.commands or rule.command_globs:
        parts.append("command " + "|".join([*sorted(rule.commands), *rule.command_globs]))
    if rule.subcommands:
        parts.append("subcommand " + "|".join(sorted(rule.subcommands)))
    if rule.any_args:
        parts.append("any_arg " + "|".join(sorted(rule.any_args)))
    if rule.arg_prefixes:
        parts.append("arg_prefix " + "|".join(rule.arg_prefixes))
    if rule.arg_regex is not None:
        parts.append(f"arg ~ /{rule.arg_regex.pattern}/")
    if rule.writes_file is not None:
        parts.append("writes a file" if rule.writes_file else "writes no file")
    return ", ".join(parts)
