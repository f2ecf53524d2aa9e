"""Every JSON document hunkmetrics writes, and its JSON Schema, from one set of shapes.

Builders (build.py): `hunks_document`, `divergence_document`, `proximity_document`,
`localization_document`, `characterize_document`, `characterize_head`, plus
`hunk_record`, `config_block` and `omit_pairs`. Shapes (shapes.py): `DOCUMENTS`, and `schema(name)`
derives each document's schema (draft 2020-12) from them; docs/schemas/ holds the
published copies."""

from .build import (
    TOOL,
    DocumentSource,
    characterize_document,
    characterize_head,
    config_block,
    divergence_document,
    file_records,
    hunk_record,
    hunks_document,
    localization_document,
    omit_pairs,
    proximity_document,
    source_block,
)
from .shapes import DOCUMENT_NAMES, DOCUMENTS, DRAFT, schema

__all__ = [
    "DOCUMENTS",
    "DOCUMENT_NAMES",
    "DRAFT",
    "TOOL",
    "DocumentSource",
    "characterize_document",
    "characterize_head",
    "config_block",
    "divergence_document",
    "file_records",
    "hunk_record",
    "hunks_document",
    "localization_document",
    "omit_pairs",
    "proximity_document",
    "schema",
    "source_block",
]
