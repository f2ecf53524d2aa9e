"""Per-language hooks: the behaviour a language's rules file cannot say as data.

A rules file names its hooks module (`hooks = "java"` → `hooks/java.py`); the module
defines `HOOKS`, an instance of a `Hooks` subclass that overrides what the language
needs. A language without a hooks module gets the defaults of `Hooks`."""

from .base import DiffPackage, FragmentHeader, Hooks, Placement, TreeReader

__all__ = ["DiffPackage", "FragmentHeader", "Hooks", "Placement", "TreeReader"]
