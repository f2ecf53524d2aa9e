"""Languages: tree-sitter front-ends that turn source into the code-hierarchy model."""

from .hooks import Hooks
from .index import FileIndex, ParseCache, Scope, build_index
from .languages import (
    Language,
    LanguageRules,
    Languages,
    all_rules,
    default_languages,
    read_language,
    rules_for_path,
)
from .locate import LocatedHunk, Location, SourceFiles, locate_patch

__all__ = [
    "FileIndex",
    "Hooks",
    "Language",
    "LanguageRules",
    "Languages",
    "LocatedHunk",
    "Location",
    "ParseCache",
    "Scope",
    "SourceFiles",
    "all_rules",
    "build_index",
    "default_languages",
    "locate_patch",
    "read_language",
    "rules_for_path",
]
