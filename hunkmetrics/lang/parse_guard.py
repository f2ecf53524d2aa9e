"""What tree-sitter is given: a bound on one fragment, and room checked before a parse.

tree-sitter's C code does not survive a failed allocation: past the process's memory
limit it crashes (SIGSEGV) with no message. So before each parse the room its tree will
take (`TREE_BYTES_PER_BYTE` per byte of source; a Java tree takes about 65) is reserved
once and given back: when it cannot be, a Python MemoryError is raised instead, which
the command line reports as the resource limit it is (exit 2). And a hunk's own lines
are parsed only up to `MAX_FRAGMENT_BYTES` and `MAX_NESTING` open brackets (beyond
those a parse, or the queries over its tree, cost too much for what a fragment tells)."""

from __future__ import annotations

import mmap

import tree_sitter as ts

MAX_FRAGMENT_BYTES = 1 << 20  # of a hunk side's lines: more is not parsed (1 MiB)
MAX_NESTING = 512  # brackets open at once in a hunk side: deeper is not parsed
TREE_BYTES_PER_BYTE = 100  # memory a tree takes per source byte, with a margin
MIN_ROOM = 16 << 20  # reserved before any parse, however small


def ensure_room(size: int) -> None:
    """Raise MemoryError unless the process can still map the memory a tree of `size`
    source bytes takes (the address space is reserved, not touched, then given back)."""
    length = MIN_ROOM + size * TREE_BYTES_PER_BYTE
    try:
        if hasattr(mmap, "MAP_PRIVATE"):  # Unix: private, so nothing is shared or charged
            room = mmap.mmap(-1, length, flags=mmap.MAP_PRIVATE)
        else:  # pragma: no cover - Windows
            room = mmap.mmap(-1, length)
        room.close()
    except OSError:
        raise MemoryError(
            f"no room left to parse {size:,} bytes of source (tree-sitter cannot fail safely)"
        ) from None


def parse(parser: ts.Parser, data: bytes, old_tree: ts.Tree | None = None) -> ts.Tree:
    """`parser.parse(data)` (re-using `old_tree` when given), once there is room for it."""
    ensure_room(len(data))
    return parser.parse(data) if old_tree is None else parser.parse(data, old_tree)


def too_large(lines: list[str]) -> str | None:
    """Why a hunk side's lines are not given to the parser, or None."""
    size = sum(len(line) for line in lines) + len(lines)
    if size > MAX_FRAGMENT_BYTES:
        return (
            f"its lines ({size:,} characters) are more than the {MAX_FRAGMENT_BYTES:,} "
            "bytes one parse is given"
        )
    if sum(line.count("(") + line.count("[") + line.count("{") for line in lines) > MAX_NESTING:
        depth = nesting(lines)
        if depth > MAX_NESTING:
            return f"its lines nest {depth:,} brackets deep, more than the {MAX_NESTING} parsed"
    return None


def nesting(lines: list[str]) -> int:
    """How many brackets ( [ { are open at most at once (strings and comments not told
    apart: a bound, not a parse)."""
    depth = deepest = 0
    for line in lines:
        for ch in line:
            if ch in "([{":
                depth += 1
                deepest = max(deepest, depth)
            elif ch in ")]}":
                depth = max(0, depth - 1)
    return deepest
