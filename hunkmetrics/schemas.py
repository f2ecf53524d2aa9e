"""JSON Schemas (draft 2020-12) of every document hunkmetrics writes.

The published copies in docs/schemas/ are written by `python -m hunkmetrics.schemas
docs/schemas`; a test keeps them equal to these."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

DRAFT = "https://json-schema.org/draft/2020-12/schema"
NAMES = ("hunks", "divergence", "proximity", "localization", "characterize")

_num = {"type": "number"}
_int = {"type": "integer", "minimum": 0}
_str = {"type": "string"}
_bool = {"type": "boolean"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _obj(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
    }


TOOL = _obj({"name": {"const": "hunkmetrics"}, "version": _str})
CONFIG = {
    **_obj({"fingerprint": {"type": "string", "pattern": "^[0-9a-f]{12}$"}}),
    "additionalProperties": {"type": ["string", "number", "boolean", "null"]},
}
SOURCE = _nullable(_obj({"description": _str, "side": {"enum": ["pre", "post"]}}))
WARNINGS = {"type": "array", "items": _str}
HUNK = _obj(
    {
        "index": _int,
        "file": _str,
        "old_path": _nullable(_str),
        "status": {"enum": ["modified", "added", "deleted", "renamed", "copied"]},
        "old_start": _int,
        "old_lines": _int,
        "new_start": _int,
        "new_lines": _int,
        "added": _int,
        "removed": _int,
        "changed_lines": {"type": "array", "items": _int},
        "language": _nullable(_str),
        "package": _nullable(_str),
        "class": _nullable(_str),
        "method": _nullable(_str),
        "methods": {"type": "array", "items": _str},
        "method_span": _nullable({"type": "array", "items": _int, "minItems": 2, "maxItems": 2}),
        "located_by": {"enum": ["source", "diff"]},
        "placed": _bool,
        "note": _nullable(_str),
    }
)
UNIT = {"type": "number", "minimum": 0}
PAIR = _obj(
    {
        "i": _int,
        "j": _int,
        "lexical": UNIT,
        "structural": UNIT,
        "file": UNIT,
        "gamma": UNIT,
        "value": UNIT,
    }
)
DIVERGENCE = _obj(
    {
        "profile": {"enum": ["default", "birch"]},
        "value": UNIT,
        "means": _obj(
            {"lexical": _nullable(UNIT), "structural": _nullable(UNIT), "file": _nullable(UNIT)}
        ),
        "distributed_weight": UNIT,
        "excluded_hunks": {"type": "array", "items": _int},
        "pairs": {"type": "array", "items": PAIR},
    }
)
PROXIMITY = _obj(
    {
        "class": _nullable({"enum": ["Nucleus", "Cluster", "Orbit", "Sprawl", "Fragment"]}),
        "profile": {"enum": ["default", "birch"]},
        "cutoff": _int,
        "hunk_count": _int,
        "files": _int,
        "packages": _int,
        "classes": _int,
        "methods": _int,
        "shared_package_prefix": _str,
        "shared_package_depth": _int,
        "located_by": {"enum": ["source", "diff", "mixed", "none"]},
        "reason": _str,
        "unplaced_hunks": {"type": "array", "items": _int},
    }
)
_strings = {"type": "array", "items": _str}
LOCALIZATION = _obj(
    {
        "file_superset": _bool,
        "reference_files": _strings,
        "candidate_files": _strings,
        "missed_files": _strings,
        "extra_files": _strings,
        "hunk_recall": _nullable({"type": "number", "minimum": 0, "maximum": 1}),
        "reference_hunks": _int,
        "hunks_found": _int,
        "method_recall": _nullable({"type": "number", "minimum": 0, "maximum": 1}),
        "method_recall_reason": _nullable(_str),
        "reference_methods": _strings,
        "methods_found": _strings,
        "exclude_tests": _bool,
        "candidate_error": _nullable(_str),
    }
)
FILE = _obj(
    {
        "file": _str,
        "old_path": _nullable(_str),
        "status": HUNK["properties"]["status"],
        "language": _nullable(_str),
        "hunks": _int,
        "excluded": _nullable(_str),
    }
)


def _document(
    name: str, properties: dict[str, Any], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    body = {
        "schema": {"const": f"hunkmetrics/{name}/v1"},
        "tool": TOOL,
        "config": CONFIG,
        **properties,
    }
    return {
        "$schema": DRAFT,
        "$id": f"https://hunkmetrics.dev/schemas/{name}.v1.json",
        "title": f"hunkmetrics {name} document, version 1",
        **_obj(body, [k for k in body if k not in optional]),
    }


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one document: hunks, divergence, proximity, localization or
    characterize."""
    hunks = {"type": "array", "items": HUNK}
    if name == "hunks":
        excluded = {"type": "array", "items": _obj({"file": _str, "reason": _str})}
        return _document(
            name,
            {
                "patch": _str,
                "source": SOURCE,
                "excluded_files": excluded,
                "hunks": hunks,
                "warnings": WARNINGS,
            },
        )
    if name == "divergence":
        return _document(
            name,
            {
                "patch": _str,
                "source": SOURCE,
                "hunk_count": _int,
                "divergence": DIVERGENCE,
                "warnings": WARNINGS,
            },
        )
    if name == "proximity":
        return _document(
            name,
            {
                "patch": _str,
                "source": SOURCE,
                "hunk_count": _int,
                "proximity": PROXIMITY,
                "hunks": hunks,
                "warnings": WARNINGS,
            },
        )
    if name == "localization":
        return _document(
            name,
            {
                "reference": _str,
                "candidate": _str,
                "source": SOURCE,
                "localization": LOCALIZATION,
                "warnings": WARNINGS,
            },
        )
    if name == "characterize":
        localization = {
            **LOCALIZATION,
            "properties": {"reference": _str, **LOCALIZATION["properties"]},
        }
        return _document(
            name,
            {
                "patch": _str,
                "profile": {"enum": ["default", "birch"]},
                "source": SOURCE,
                "hunk_count": _int,
                "files": {"type": "array", "items": FILE},
                "hunks": hunks,
                "divergence": DIVERGENCE,
                "proximity": PROXIMITY,
                "localization": localization,
                "warnings": WARNINGS,
            },
            optional=("localization",),
        )
    raise KeyError(f"no schema named {name!r} (one of {', '.join(NAMES)})")


def write_all(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        (folder / f"{name}.v1.json").write_text(json.dumps(schema(name), indent=2) + "\n")


if __name__ == "__main__":
    write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas"))
