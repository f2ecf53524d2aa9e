"""The hook interface: every per-language behaviour that needs code, with defaults.

Shared code (index, fragment, locate) calls `language.hooks.<hook>(...)` and never asks
which language it holds. A hooks module subclasses `Hooks`, overrides what differs and
exports the instance as `HOOKS`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

import tree_sitter as ts

from ..evidence import Basis
from ..names import SPACE_RE, text
from ..paths import directory_package

if TYPE_CHECKING:
    from ..javaparser_diameter import BirchTree


class TreeReader(Protocol):
    """The source tree, asked whether a repository path exists in it."""

    def exists(self, path: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a callable sits: the qualifier its name joins, its bare name, its class."""

    prefix: str
    name: str
    owner: str | None


@dataclass(frozen=True, slots=True)
class FragmentHeader:
    """A declaration line put before a hunk's own lines so that they parse alone.

    In a brace language the line opens exactly one `{`; `opens_type` says whether it
    declares a type (then a hunk's last unmatched `}` may be the one closing it)."""

    line: str
    opens_type: bool
    # False when the line is made up (a Java class named after the file), not the `@@`
    # heading's own: a type it opens is then a guess.
    seen: bool = True


class DiffPackage(NamedTuple):
    """The package seen from the diff alone (None: no guess) and how it is known."""

    name: str | None
    basis: Basis


class Hooks:
    """Default behaviour: callables named by their `name` field, parameters printed as
    written, packages from directories, fragments parsed without a header."""

    # A callable found outside every type in a diff fragment is error recovery's
    # invention (true for languages whose methods can only live in types).
    callables_need_type: bool = False
    # Whether `birch_tree` gives a tree (the BIRCH study measured Java only).
    has_birch_tree: bool = False
    # Whether `place_callable` can give a callable a class it does not sit in (a Go
    # receiver, a C++ `Foo::bar`): then a hunk adding such callables takes their class.
    callables_outside_types: bool = False

    def callable_name(self, node: ts.Node) -> str | None:
        """The bare name of a callable node, or None when it is not a named callable."""
        name = node.child_by_field_name("name")
        return text(name) if name is not None else None

    def callable_name_in(self, node: ts.Node, parent: ts.Node | None) -> str | None:
        """`callable_name`, told the node's syntactic parent (the indexer knows it
        cheaply; `node.parent` searches from the root). Default: `callable_name(node)`."""
        return self.callable_name(node)

    def parameters(self, node: ts.Node) -> list[str]:
        """The parameter list printed in the callable's qualified name."""
        params = node.child_by_field_name("parameters")
        if params is None:
            return []
        return [SPACE_RE.sub("", text(c)) for c in params.named_children if c.type != "comment"]

    def place_callable(self, node: ts.Node, place: Placement, package: str | None) -> Placement:
        """Where a callable belongs when not simply inside its enclosing scopes (a Go
        method's receiver, a C++ `A::b` definition). Default: `place` unchanged."""
        return place

    def anywhere_at_margin(self, line: str) -> bool:
        """Whether the line may stand at the left margin inside a body (a C preprocessor
        directive, a label), so that its place there says nothing. Default: False."""
        return False

    def defines(self, node: ts.Node) -> bool:
        """Whether a type or namespace node defines one (not a forward declaration)."""
        return True

    def undeclared_package(self, path: str) -> str:
        """The package of a file that declares none (rules `package = "declaration"`)."""
        return directory_package(path)

    def source_package(
        self, path: str, tree: TreeReader, source_roots: tuple[str, ...]
    ) -> str | None:
        """The package when the whole source tree can be asked, or None to take it from
        the file itself (its declaration, else its directory)."""
        return None

    def diff_package(
        self, lines: Sequence[str], path: str, source_roots: tuple[str, ...]
    ) -> DiffPackage:
        """The package from the diff alone (the hunk's lines and the file's path), and
        its basis. Default: the directory, which is the package by definition: seen."""
        return DiffPackage(directory_package(path), "seen")

    def module_root(self, package: str, path: str, from_diff: bool) -> str | None:
        """The qualifier that top-level names start with, or None for the default: the
        package where packages are declared, else nothing."""
        return None

    def fragment_header(self, section: str, path: str) -> FragmentHeader | None:
        """A line to wrap around a hunk's lines (from the hunk's section heading or the
        path) so that they parse, or None to parse them without one."""
        return None

    def birch_tree(
        self,
        data: bytes,
        parse: Callable[[bytes], ts.Tree],
        near: Sequence[tuple[int, int]] | None = None,
    ) -> BirchTree | None:
        """The tree the birch profile's structural term is measured on (the study's
        parser's node shape), from the file's bytes and a parse function; with `near`
        (line ranges), only its nodes near those lines, with the whole tree's diameter.
        None where the study defined none (every language but Java)."""
        return None
