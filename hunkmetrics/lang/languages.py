"""The supported languages: their rules (data in rules/*.toml) and their grammars."""

from __future__ import annotations

import importlib
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import PurePosixPath

import tree_sitter as ts


@dataclass(frozen=True, slots=True)
class LanguageRules:
    """One language's mapping of grammar nodes onto the code hierarchy."""

    name: str
    extensions: tuple[str, ...]
    grammar: str
    types: frozenset[str]
    anonymous: tuple[str, ...]
    callables: frozenset[str]
    namespaces: frozenset[str]
    qualify_by_callables: bool
    parameters: str
    package: str
    package_query: str
    source_roots: tuple[str, ...]
    comments: frozenset[str]
    fragment: str
    tests: tuple[str, ...]


@cache
def all_rules() -> dict[str, LanguageRules]:
    """Every language's rules, by name (read once from the package's rules/*.toml)."""
    rules: dict[str, LanguageRules] = {}
    for entry in sorted(
        resources.files(__package__).joinpath("rules").iterdir(), key=lambda e: e.name
    ):
        if not entry.name.endswith(".toml"):
            continue
        data = tomllib.loads(entry.read_text(encoding="utf-8"))
        rules[data["name"]] = LanguageRules(
            name=data["name"],
            extensions=tuple(data["extensions"]),
            grammar=data["grammar"],
            types=frozenset(data["types"]),
            anonymous=tuple(data["anonymous"]),
            callables=frozenset(data["callables"]),
            namespaces=frozenset(data["namespaces"]),
            qualify_by_callables=bool(data["qualify_by_callables"]),
            parameters=data["parameters"],
            package=data["package"],
            package_query=data["package_query"],
            source_roots=tuple(data["source_roots"]),
            comments=frozenset(data["comments"]),
            fragment=data["fragment"],
            tests=tuple(data.get("tests", ())),
        )
    return rules


def rules_for_path(path: str) -> LanguageRules | None:
    """The language of a file by its extension, or None when no grammar covers it."""
    suffix = PurePosixPath(path).suffix.lower()
    for rules in all_rules().values():
        if suffix in rules.extensions:
            return rules
    return None


@cache
def grammar(name: str) -> ts.Language:
    """The tree-sitter Language for a rules name (from its per-language wheel)."""
    module_name, function = all_rules()[name].grammar.split(":")
    module = importlib.import_module(module_name)
    return ts.Language(getattr(module, function)())


def parser(name: str) -> ts.Parser:
    return ts.Parser(grammar(name))


@cache
def scope_query(name: str) -> ts.Query:
    """One query capturing every node that opens a scope in this language."""
    rules = all_rules()[name]
    patterns = [f"({kind}) @type" for kind in sorted(rules.types)]
    patterns += [f"({kind}) @callable" for kind in sorted(rules.callables)]
    patterns += [f"({kind}) @namespace" for kind in sorted(rules.namespaces)]
    patterns += list(rules.anonymous)
    if rules.package_query:
        patterns.append(rules.package_query)
    return ts.Query(grammar(name), "\n".join(patterns))
