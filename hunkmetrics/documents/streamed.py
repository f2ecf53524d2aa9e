"""The hunks document of a patch read as a stream (`HunkStream`): the same document as
`hunks_document` of a workspace without sources, its `hunks` a lazy array (`JsonRows`)
that locates the hunks as it is written."""

from __future__ import annotations

from collections.abc import Iterator

from ..hunkstream import HunkStream
from ..jsonrows import JsonRows
from ..jsonshape import JSON
from .build import PatchHead, build_document, hunk_record
from .shapes import EXCLUDED_FILE, KIND_COUNTS


def streamed_hunks_document(stream: HunkStream) -> JSON:
    """The `hunkmetrics/hunks/v1` document of `stream`; its `hunks` are made (and the
    patch read again) each time they are iterated or written, and so are its excluded
    files and warnings when there are too many to keep."""
    patch = stream.patch
    head = PatchHead(patch.name, patch.hunking, patch.reversed, stream.selection)
    excluded = stream.excluded_files
    warnings = stream.warnings

    def records() -> Iterator[JSON]:
        for item, kind in stream.located():
            yield hunk_record(item, kind)

    def excluded_records() -> Iterator[JSON]:
        for path, reason in excluded:
            yield EXCLUDED_FILE.build({"file": path, "reason": reason})

    body = {
        "excluded_files": (
            list(excluded_records())
            if isinstance(excluded, list)
            else JsonRows(len(excluded), excluded_records)
        ),
        "hunk_kinds": KIND_COUNTS.build(stream.hunk_kinds),
        "hunks": JsonRows(len(stream), records),
        "warnings": warnings
        if isinstance(warnings, list)
        else JsonRows(len(warnings), warnings.items),
    }
    return build_document("hunks", head, None, body)
