"""The MCP server: MAPLE's nine tools (and two extras) over `Maple`, with the official
`mcp` SDK (the `hunkmetrics[mcp]` extra; imported only here)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from ..version import __version__
from .tools import Maple, MapleError

__all__ = ["MAPLE_TOOLS", "EXTRA_TOOLS", "build_server"]

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


def build_server(maple: Maple, *, extra_tools: bool = False, name: str = "maple") -> MCPServer:
    """An MCP server whose tools answer from `maple` (MAPLE's nine; the two extra tools
    when `extra_tools`)."""
    server = MCPServer(
        name,
        version=__version__,
        instructions=(
            f"Repository context for {maple.index.description}: find classes, methods and "
            "code with exact file paths and line ranges. All tools are read-only."
        ),
    )
    tool = server.tool
    lock = maple.index.reading

    @tool(annotations=_READ_ONLY)
    def maple_find_class(class_name: ClassName) -> str:
        """Find a class (or interface, enum, record; nested and anonymous ones too) in the
        codebase: its declaration with javadoc, its file and line range, its members."""
        return _guard("maple_find_class", lambda: maple.find_class(class_name), lock)

    @tool(annotations=_READ_ONLY)
    def maple_find_class_in_file(class_name: ClassName, file_name: FileName) -> str:
        """Find a class in a given file."""
        return _guard(
            "maple_find_class_in_file",
            lambda: maple.find_class_in_file(class_name, file_name),
            lock,
        )

    @tool(annotations=_READ_ONLY)
    def maple_find_method(method_name: MethodName) -> str:
        """Find a method in the codebase: the whole code of every match (each overload),
        with its file, line range and class."""
        return _guard("maple_find_method", lambda: maple.find_method(method_name), lock)

    @tool(annotations=_READ_ONLY)
    def maple_find_method_in_class(method_name: MethodName, class_name: ClassName) -> str:
        """Locate a method within a given class: its whole code, file and line range."""
        return _guard(
            "maple_find_method_in_class",
            lambda: maple.find_method_in_class(method_name, class_name),
            lock,
        )

    @tool(annotations=_READ_ONLY)
    def maple_find_method_in_file(method_name: MethodName, file_name: FileName) -> str:
        """Locate a method within a given file: its whole code and line range."""
        return _guard(
            "maple_find_method_in_file",
            lambda: maple.find_method_in_file(method_name, file_name),
            lock,
        )

    @tool(annotations=_READ_ONLY)
    def maple_find_code(code_snippet: CodeSnippet) -> str:
        """Find where a code snippet occurs in the codebase, with five lines of context
        and the class and method around it."""
        return _guard("maple_find_code", lambda: maple.find_code(code_snippet), lock)

    @tool(annotations=_READ_ONLY)
    def maple_find_code_in_file(code_snippet: CodeSnippet, file_name: FileName) -> str:
        """Find a code snippet in a given file."""
        return _guard(
            "maple_find_code_in_file",
            lambda: maple.find_code_in_file(code_snippet, file_name),
            lock,
        )

    @tool(annotations=_READ_ONLY)
    def maple_extract_class_skeleton(file_name: FileName) -> str:
        """The skeleton of a file: package, imports, classes with their fields and the
        signatures of their constructors and methods, each with its line number."""
        return _guard(
            "maple_extract_class_skeleton", lambda: maple.extract_class_skeleton(file_name), lock
        )

    @tool(annotations=_READ_ONLY)
    def maple_repo_structure(
        max_depth: Annotated[int, Field(description="How many directory levels to show")] = 100,
    ) -> str:
        """The repository's directories and source files as a tree."""
        return _guard("maple_repo_structure", lambda: maple.repo_structure(max_depth), lock)

    if extra_tools:

        @tool(annotations=_READ_ONLY)
        def maple_find_references(
            name: Annotated[str, Field(description="An identifier: a method, class or field name")],
        ) -> str:
            """Call sites and other uses of a name (declarations, comments and strings
            excluded), each with its file, line, class and method."""
            return _guard("maple_find_references", lambda: maple.find_references(name), lock)

        @tool(annotations=_READ_ONLY)
        def maple_find_enclosing(
            file_name: FileName,
            line: Annotated[int, Field(description="A 1-based line number of the file")],
        ) -> str:
            """The package, class and method around a line of a file."""
            return _guard(
                "maple_find_enclosing", lambda: maple.find_enclosing(file_name, line), lock
            )

    return server
