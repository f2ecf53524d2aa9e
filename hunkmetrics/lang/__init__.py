"""Languages: tree-sitter front-ends that turn source into the code-hierarchy model."""

from .index import FileIndex, ParseCache, Scope, build_index
from .languages import LanguageRules, all_rules, rules_for_path
from .locate import LocatedHunk, Location, locate_patch

__all__ = [
    "FileIndex",
    "ParseCache",
    "LanguageRules",
    "LocatedHunk",
    "Location",
    "Scope",
    "all_rules",
    "build_index",
    "locate_patch",
    "rules_for_path",
]
