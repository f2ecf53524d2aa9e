"""The supported languages: each is its rules file (rules/*.toml) plus an optional
hooks module (hooks/*.py), with its tree-sitter grammar."""

from __future__ import annotations

import importlib
import importlib.util
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import tree_sitter as ts

from .hooks.base import Hooks
from .paths import suffix

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

_DEFAULT_HOOKS = Hooks()
_REQUIRED = (
    "name",
    "extensions",
    "grammar",
    "types",
    "anonymous",
    "callables",
    "namespaces",
    "qualify_by_callables",
    "package",
    "package_query",
    "source_roots",
    "comments",
    "fragment",
)
_OPTIONAL = ("tests", "hooks")


@dataclass(frozen=True, slots=True)
class Language:
    """One language: its mapping of grammar nodes onto the code hierarchy (the rules
    file's keys, see docs/languages.md) and its hooks."""

    name: str
    extensions: tuple[str, ...]
    grammar: str
    types: frozenset[str]
    anonymous: tuple[str, ...]
    callables: frozenset[str]
    namespaces: frozenset[str]
    qualify_by_callables: bool
    package: str
    package_query: str
    source_roots: tuple[str, ...]
    comments: frozenset[str]
    fragment: str
    tests: tuple[str, ...] = ()
    hooks: Hooks = _DEFAULT_HOOKS

    def parser(self) -> ts.Parser:
        """A fresh parser for this language's grammar."""
        return ts.Parser(load_grammar(self.grammar))

    def scope_query(self) -> ts.Query:
        """One query capturing every node that opens a scope in this language."""
        return _scope_query(self)


LanguageRules = Language  # the name before hooks existed; same class


def read_language(file: Traversable) -> Language:
    """A language from its rules file; a `hooks` key names its hooks module: a module
    of this package's hooks/ (`hooks = "java"`), or a `.py` file beside the rules file."""
    data: dict[str, Any] = tomllib.loads(file.read_text(encoding="utf-8"))
    unknown = set(data) - {*_REQUIRED, *_OPTIONAL}
    missing = [key for key in _REQUIRED if key not in data]
    if unknown or missing:
        raise ValueError(f"{file.name}: unknown keys {sorted(unknown)}, missing keys {missing}")
    hooks = _load_hooks(data["hooks"], file) if "hooks" in data else _DEFAULT_HOOKS
    if data["fragment"] not in ("braces", "indent"):
        raise ValueError(f"{file.name}: fragment must be 'braces' or 'indent'")
    return Language(
        name=data["name"],
        extensions=tuple(data["extensions"]),
        grammar=data["grammar"],
        types=frozenset(data["types"]),
        anonymous=tuple(data["anonymous"]),
        callables=frozenset(data["callables"]),
        namespaces=frozenset(data["namespaces"]),
        qualify_by_callables=bool(data["qualify_by_callables"]),
        package=data["package"],
        package_query=data["package_query"],
        source_roots=tuple(data["source_roots"]),
        comments=frozenset(data["comments"]),
        fragment=data["fragment"],
        tests=tuple(data.get("tests", ())),
        hooks=hooks,
    )


def _load_hooks(name: str, rules_file: Traversable) -> Hooks:
    module: ModuleType
    if name.endswith(".py"):
        location = Path(str(rules_file)).parent / name
        spec = importlib.util.spec_from_file_location(
            f"_hunkmetrics_hooks_{location.stem}", location
        )
        if spec is None or spec.loader is None:
            raise ValueError(f"{rules_file.name}: cannot load hooks file {location}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(f"{__package__}.hooks.{name}")
    hooks = getattr(module, "HOOKS", None)
    if not isinstance(hooks, Hooks):
        raise ValueError(f"{rules_file.name}: hooks module {name!r} defines no HOOKS = Hooks()")
    return hooks


class Languages(Mapping[str, Language]):
    """A set of languages by name, each file extension belonging to one of them (the
    last added, when two claim it)."""

    def __init__(self, languages: Iterable[Language] = ()) -> None:
        self._by_name = {language.name: language for language in languages}
        self._by_extension = {
            ext: language for language in self._by_name.values() for ext in language.extensions
        }

    @classmethod
    def from_files(cls, files: Iterable[Traversable]) -> Languages:
        """The languages of these rules files."""
        return cls(read_language(file) for file in files)

    def with_files(self, *files: Traversable) -> Languages:
        """These languages plus (or, by name, replaced by) those of more rules files."""
        return Languages([*self.values(), *(read_language(file) for file in files)])

    def for_path(self, path: str) -> Language | None:
        """The language of a file by its extension, or None when no grammar covers it."""
        return self._by_extension.get(suffix(path).lower())

    def __getitem__(self, name: str) -> Language:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)


@cache
def default_languages() -> Languages:
    """The package's own languages (rules/*.toml), read once."""
    # the folder beside this module: importlib.resources' reader would cost every command
    # 3 ms (zipfile and all) to find it
    rules = Path(__file__).with_name("rules")
    files = sorted((e for e in rules.iterdir() if e.name.endswith(".toml")), key=lambda e: e.name)
    return Languages.from_files(files)


def all_rules() -> dict[str, Language]:
    """Every default language, by name."""
    return dict(default_languages())


def rules_for_path(path: str) -> Language | None:
    """The default language of a file by its extension, or None when no grammar covers it."""
    return default_languages().for_path(path)


@cache
def load_grammar(spec: str) -> ts.Language:
    """The tree-sitter Language of a `module:function` grammar spec (its wheel)."""
    module_name, function = spec.split(":")
    module = importlib.import_module(module_name)
    return ts.Language(getattr(module, function)())


def grammar(name: str) -> ts.Language:
    """The tree-sitter Language of a default language, by name."""
    return load_grammar(default_languages()[name].grammar)


def parser(name: str) -> ts.Parser:
    """A parser for a default language, by name."""
    return default_languages()[name].parser()


def scope_query(name: str) -> ts.Query:
    """The scope query of a default language, by name."""
    return default_languages()[name].scope_query()


@cache
def _scope_query(language: Language) -> ts.Query:
    patterns = [f"({kind}) @type" for kind in sorted(language.types)]
    patterns += [f"({kind}) @callable" for kind in sorted(language.callables)]
    patterns += [f"({kind}) @namespace" for kind in sorted(language.namespaces)]
    patterns += list(language.anonymous)
    if language.package_query:
        patterns.append(language.package_query)
    return ts.Query(load_grammar(language.grammar), "\n".join(patterns))
