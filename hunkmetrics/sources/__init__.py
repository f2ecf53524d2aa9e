"""Sources: where file text comes from, and which side of the patch it is."""

from .readers import FileReader, GitRevisionReader, WorktreeReader, open_reader
from .resolve import FileTexts, Sources, blob_hash, resolve_sources

__all__ = [
    "FileReader",
    "FileTexts",
    "GitRevisionReader",
    "Sources",
    "WorktreeReader",
    "blob_hash",
    "open_reader",
    "resolve_sources",
]
