"""The MCP server: MAPLE's nine tools (and two extras) over `Maple`, with the official
`mcp` SDK (the `hunkmetrics[mcp]` extra; imported only here)."""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from typing import Annotated

import anyio.to_thread
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from ..version import __version__
from .budget import fit
from .calllog import CallLog
from .study import Answer, StudyMaple, envelope
from .tools import Maple, MapleError

__all__ = ["EXTRA_TOOLS", "MAPLE_TOOLS", "STUDY_DESCRIPTIONS", "build_server"]

log = logging.getLogger("hunkmetrics.maple")

MAPLE_TOOLS = (
    "maple_find_class",
    "maple_find_class_in_file",
    "maple_find_method",
    "maple_find_method_in_class",
    "maple_find_method_in_file",
    "maple_find_code",
    "maple_find_code_in_file",
    "maple_extract_class_skeleton",
    "maple_repo_structure",
)
EXTRA_TOOLS = ("maple_find_references", "maple_find_enclosing")

# `--style study`: what the study's tool descriptions told the model, in our words.
STUDY_DESCRIPTIONS = {
    "maple_find_class": "Find a class anywhere in the repository; answers with the class's "
    "declaration (its signature).",
    "maple_find_class_in_file": "Find a class inside one file; answers with the class's "
    "declaration (its signature).",
    "maple_find_method": "Find a method anywhere in the repository; answers with the "
    "method's whole code.",
    "maple_find_method_in_class": "Find a method inside one class; answers with the "
    "method's whole code.",
    "maple_find_method_in_file": "Find a method inside one file; answers with the method's "
    "whole code.",
    "maple_find_code": "Search the repository for a piece of code or a keyword; answers "
    "with five lines before and after each place it occurs.",
    "maple_find_code_in_file": "Search one file for a piece of code; answers with the "
    "code around each place it occurs.",
    "maple_extract_class_skeleton": "Outline the classes of a file: their declarations and "
    "the signatures of their methods.",
    "maple_repo_structure": "Show the repository's directories and Java files as a tree.",
}

_READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

ClassName = Annotated[
    str,
    Field(
        description="Class name: simple (Inventory), nested (Inventory.Summary), "
        "anonymous (Inventory$1) or qualified (com.acme.core.Inventory)"
    ),
]
MethodName = Annotated[
    str,
    Field(
        description="Method name (add), optionally qualified (Inventory.add) or with "
        "parameter types to pick one overload (add(String,int))"
    ),
]
FileName = Annotated[
    str,
    Field(
        description="Repository path of the file, or its end (Inventory.java, core/Inventory.java)"
    ),
]
CodeSnippet = Annotated[
    str, Field(description="Code to search for, literally (indentation may differ)")
]


def _guard(
    name: str, call: Callable[[], str], lock: Callable[[], AbstractContextManager[None]]
) -> str:
    """Run a tool reading the index (the SDK runs tools in worker threads, side by side;
    the working tree's watcher updates the index from its own): a miss is a ToolError
    the model reads; a bug is logged and reported as one line, never a crash of the
    server."""
    try:
        with lock():
            return call()
    except MapleError as exc:
        raise ToolError(str(exc)) from None
    except Exception as exc:
        log.exception("%s failed", name)
        raise ToolError(f"internal error in {name}: {type(exc).__name__}: {exc}") from None


def build_server(
    maple: Maple,
    *,
    extra_tools: bool = False,
    name: str = "maple",
    style: str = "hunkmetrics",
    log: CallLog | None = None,
) -> MCPServer:
    """An MCP server whose tools answer from `maple` (MAPLE's nine; the two extra tools
    when `extra_tools`). `style="study"` answers as the study's server did
    (`study.StudyMaple`); `log` records every call."""
    if style not in ("hunkmetrics", "study"):
        raise ValueError(f"unknown style {style!r}")
    server = MCPServer(
        name,
        version=__version__,
        instructions=(
            f"Repository context for {maple.index.description}: find classes, methods and "
            "code with exact file paths and line ranges. All tools are read-only."
        ),
    )
    study = StudyMaple(maple) if style == "study" else None
    lock = maple.index.reading

    def tool(
        **_: object,
    ) -> Callable[[Callable[..., Awaitable[str]]], Callable[..., Awaitable[str]]]:
        def register(function: Callable[..., Awaitable[str]]) -> Callable[..., Awaitable[str]]:
            described = STUDY_DESCRIPTIONS.get(function.__name__) if study else None
            return server.tool(description=described, annotations=_READ_ONLY)(function)

        return register

    async def run(
        tool_name: str,
        arguments: dict[str, object],
        plain: Callable[[], str],
        studied: Callable[[StudyMaple], Answer] | None = None,
    ) -> str:
        """Answer in a worker thread. When the client cancels the call
        (`notifications/cancelled`) the SDK cancels this task: the thread is left to
        finish, and the cancel flag stops a code search at its next file."""
        cancel = threading.Event()
        work = functools.partial(answer, tool_name, arguments, plain, studied, cancel)
        try:
            return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        finally:
            cancel.set()  # no effect once the answer is done

    def answer(
        tool_name: str,
        arguments: dict[str, object],
        plain: Callable[[], str],
        studied: Callable[[StudyMaple], Answer] | None,
        cancel: threading.Event,
    ) -> str:
        with maple.cancellable(cancel):
            return timed(tool_name, arguments, plain, studied)

    def timed(
        tool_name: str,
        arguments: dict[str, object],
        plain: Callable[[], str],
        studied: Callable[[StudyMaple], Answer] | None = None,
    ) -> str:
        started = time.perf_counter()
        text, error = "", None
        try:
            if study is not None and studied is not None:
                text = _study_guard(tool_name, lambda: studied(study), lock, maple.budget)
                if "\nStatus: FAILED\n" in text[:200]:
                    error = text.rsplit("Error: ", 1)[-1]
            else:
                text = _guard(tool_name, plain, lock)
            return text
        except ToolError as exc:
            error = str(exc)
            raise
        finally:
            if log is not None:
                log.write(tool_name, arguments, time.perf_counter() - started, len(text), error)

    @tool()
    async def maple_find_class(class_name: ClassName) -> str:
        """Find a class (or interface, enum, record; nested and anonymous ones too) in the
        codebase: its declaration with javadoc, its file and line range, its members."""
        return await run(
            "maple_find_class",
            {"class_name": class_name},
            lambda: maple.find_class(class_name),
            lambda s: s.find_class(class_name),
        )

    @tool()
    async def maple_find_class_in_file(class_name: ClassName, file_name: FileName) -> str:
        """Find a class in a given file."""
        return await run(
            "maple_find_class_in_file",
            {"class_name": class_name, "file_name": file_name},
            lambda: maple.find_class_in_file(class_name, file_name),
            lambda s: s.find_class_in_file(class_name, file_name),
        )

    @tool()
    async def maple_find_method(method_name: MethodName) -> str:
        """Find a method in the codebase: the whole code of every match (each overload),
        with its file, line range and class."""
        return await run(
            "maple_find_method",
            {"method_name": method_name},
            lambda: maple.find_method(method_name),
            lambda s: s.find_method(method_name),
        )

    @tool()
    async def maple_find_method_in_class(method_name: MethodName, class_name: ClassName) -> str:
        """Locate a method within a given class: its whole code, file and line range."""
        return await run(
            "maple_find_method_in_class",
            {"method_name": method_name, "class_name": class_name},
            lambda: maple.find_method_in_class(method_name, class_name),
            lambda s: s.find_method_in_class(method_name, class_name),
        )

    @tool()
    async def maple_find_method_in_file(method_name: MethodName, file_name: FileName) -> str:
        """Locate a method within a given file: its whole code and line range."""
        return await run(
            "maple_find_method_in_file",
            {"method_name": method_name, "file_name": file_name},
            lambda: maple.find_method_in_file(method_name, file_name),
            lambda s: s.find_method_in_file(method_name, file_name),
        )

    @tool()
    async def maple_find_code(code_snippet: CodeSnippet) -> str:
        """Find where a code snippet occurs in the codebase, with five lines of context
        and the class and method around it."""
        return await run(
            "maple_find_code",
            {"code_snippet": code_snippet},
            lambda: maple.find_code(code_snippet),
            lambda s: s.find_code(code_snippet),
        )

    @tool()
    async def maple_find_code_in_file(code_snippet: CodeSnippet, file_name: FileName) -> str:
        """Find a code snippet in a given file."""
        return await run(
            "maple_find_code_in_file",
            {"code_snippet": code_snippet, "file_name": file_name},
            lambda: maple.find_code_in_file(code_snippet, file_name),
            lambda s: s.find_code_in_file(code_snippet, file_name),
        )

    @tool()
    async def maple_extract_class_skeleton(file_name: FileName) -> str:
        """The skeleton of a file: package, imports, classes with their fields and the
        signatures of their constructors and methods, each with its line number."""
        return await run(
            "maple_extract_class_skeleton",
            {"file_name": file_name},
            lambda: maple.extract_class_skeleton(file_name),
            lambda s: s.extract_class_skeleton(file_name),
        )

    @tool()
    async def maple_repo_structure(
        max_depth: Annotated[int, Field(description="How many directory levels to show")] = 100,
    ) -> str:
        """The repository's directories and source files as a tree."""
        return await run(
            "maple_repo_structure",
            {"max_depth": max_depth},
            lambda: maple.repo_structure(max_depth),
            lambda s: s.repo_structure(max_depth),
        )

    if extra_tools:

        @tool()
        async def maple_find_references(
            name: Annotated[str, Field(description="An identifier: a method, class or field name")],
        ) -> str:
            """Call sites and other uses of a name (declarations, comments and strings
            excluded), each with its file, line, class and method."""
            return await run(
                "maple_find_references", {"name": name}, lambda: maple.find_references(name)
            )

        @tool()
        async def maple_find_enclosing(
            file_name: FileName,
            line: Annotated[int, Field(description="A 1-based line number of the file")],
        ) -> str:
            """The package, class and method around a line of a file."""
            return await run(
                "maple_find_enclosing",
                {"file_name": file_name, "line": line},
                lambda: maple.find_enclosing(file_name, line),
            )

    return server


def _study_guard(
    name: str,
    call: Callable[[], Answer],
    lock: Callable[[], AbstractContextManager[None]],
    budget: int,
) -> str:
    """A study-style tool: every outcome, a failure too, is an answer, as the original's."""
    try:
        with lock():
            answer = call()
    except Exception as exc:
        if not isinstance(exc, MapleError):
            log.exception("%s failed", name)
        return f"❌ Tool: {name}\nStatus: FAILED\nError: Error executing {name}: {exc}"
    return fit(envelope(name, answer), budget, "Ask for less: a longer name or snippet, a file.")
