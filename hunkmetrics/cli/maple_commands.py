"""The `maple` command: MAPLE's repository-context MCP server."""

from __future__ import annotations

import logging
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ..errors import EXIT_INPUT
from .common import command_group, fail, guarded

app = command_group()  # cli/root.py adds these commands to the application


class Style(StrEnum):
    hunkmetrics = "hunkmetrics"
    study = "study"


class Transport(StrEnum):
    stdio = "stdio"
    streamable_http = "streamable-http"


@app.command()
def maple(
    ctx: typer.Context,
    repo: Annotated[
        Path, typer.Option("--repo", help="The repository to serve.", show_default=False)
    ] = Path("."),
    rev: Annotated[
        str | None,
        typer.Option(
            "--rev", help="Serve this git revision (read without a checkout).", show_default=False
        ),
    ] = None,
    transport: Annotated[
        Transport, typer.Option("--transport", help="stdio, or streamable-http.")
    ] = Transport.stdio,
    host: Annotated[str, typer.Option("--host", help="Address for streamable-http.")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option("--port", help="Port for streamable-http.")] = 8000,
    max_results: Annotated[
        int,
        typer.Option(
            "--max-results", min=1, help="Hits shown in full; more are listed one per line."
        ),
    ] = 10,
    extra_tools: Annotated[
        bool,
        typer.Option("--extra-tools", help="Add maple_find_references and maple_find_enclosing."),
    ] = False,
    cache: Annotated[
        Path | None,
        typer.Option(
            "--cache",
            help="Index cache base directory (default: $XDG_CACHE_HOME/hunkmetrics/maple); "
            "one entry per tree served.",
            show_default=False,
        ),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Parsing processes.")] = 2,
    style: Annotated[
        Style,
        typer.Option("--style", help="hunkmetrics, or study: the study's server's answers."),
    ] = Style.hunkmetrics,
    log: Annotated[
        Path | None,
        typer.Option(
            "--log", help="Append every tool call to this file as a JSON line.", show_default=False
        ),
    ] = None,
    max_chars: Annotated[
        int, typer.Option("--max-chars", min=2000, help="Character budget of every answer.")
    ] = 40_000,
) -> None:
    """Serve MAPLE's nine repository-context tools over MCP (stdio by default).

    The index of every source file is built at start-up (in parallel, cached on disk
    by blob hash) and kept current while the working tree changes. See docs/maple.md.

    Examples:

      hunkmetrics maple --repo .

      hunkmetrics maple --repo ../project --rev HEAD~3 --extra-tools

      hunkmetrics maple --repo . --style study --log maple-calls.jsonl
    """
    try:
        from ..maple.server import build_server
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] != "mcp":
            raise
        fail('the maple server needs the mcp package: pip install "hunkmetrics[mcp]"', EXIT_INPUT)

    def run() -> None:
        from ..maple import Maple, open_index
        from ..maple.calllog import CallLog

        logging.basicConfig(level=logging.WARNING, format="hunkmetrics maple: %(message)s")
        index = open_index(repo, rev, cache_dir=cache, jobs=jobs)
        index.watch()  # rescans the working tree in the background (not a revision)
        logging.getLogger("hunkmetrics.maple").warning("%s", index.status())
        server = build_server(
            Maple(index, max_results, budget=max_chars),
            extra_tools=extra_tools,
            style=style.value,
            log=CallLog(log) if log is not None else None,
        )
        try:
            if transport is Transport.stdio:
                server.run("stdio")
            else:
                server.run("streamable-http", host=host, port=port)
        finally:
            index.close()

    guarded(ctx, run)
