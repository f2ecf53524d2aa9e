"""The shapes of every document: keys in the order they are written, and the JSON
Schema derived from them (`schema(name)`). The metric objects' shapes (DIVERGENCE,
PROXIMITY, LOCALIZATION) sit beside their results in hunkmetrics/metrics/ (DIVERGENCE in
divergence_shape.py, apart from its numpy computation)."""

from __future__ import annotations

from ..jsonshape import (
    BOOL,
    COUNT,
    COUNTS,
    JSON,
    NULL,
    SHARE,
    STR,
    STRINGS,
    UNIT,
    Array,
    Leaf,
    Nullable,
    Obj,
    OneOf,
    Shape,
    const,
    enum,
)
from ..lang.evidence import EVIDENCE_PATTERN
from ..lang.hunk_kind import HUNK_KINDS
from ..metrics.birch_artifacts import ARTIFACT_NAMES
from ..metrics.divergence_shape import DIVERGENCE
from ..metrics.localization import LOCALIZATION
from ..metrics.profiles import PROFILE_NAMES
from ..metrics.proximity import PROXIMITY
from ..patch.model import FileStatus

DRAFT = "https://json-schema.org/draft/2020-12/schema"

TOOL_SHAPE = Obj({"name": const("hunkmetrics"), "version": STR})
SOURCE = Nullable(Obj({"description": STR, "side": enum("pre", "post")}))
WARNINGS = STRINGS
PROFILE = enum(*PROFILE_NAMES)
HUNKING = enum("as-given", "regions")
FINGERPRINT = Leaf({"type": "string", "pattern": "^[0-9a-f]{12}$"})
STATUS = enum(*(status.value for status in FileStatus))
# How a hunk's package, class and method are known (lang/evidence.py), as
# `package/class/method`, each seen, inferred (a guess) or unknown (a null value that
# says nothing, unlike a seen null): `inferred/seen/seen`. One short string, as a
# document can hold many thousands of hunks.
EVIDENCE = Leaf({"type": "string", "pattern": EVIDENCE_PATTERN})

HUNK = Obj(
    {
        "index": COUNT,
        "file": STR,
        "old_path": Nullable(STR),
        "status": STATUS,
        "old_start": COUNT,
        "old_lines": COUNT,
        "new_start": COUNT,
        "new_lines": COUNT,
        "added": COUNT,
        "removed": COUNT,
        "changed_lines": COUNTS,
        "language": Nullable(STR),
        "package": Nullable(STR),
        "class": Nullable(STR),
        "method": Nullable(STR),
        "methods": STRINGS,
        "method_span": Nullable(Array(COUNT, min_items=2, max_items=2)),
        "located_by": enum("source", "diff"),
        "placed": BOOL,
        "note": Nullable(STR),
        # code, or a hunk that changes only comments or whitespace (lang/hunk_kind.py)
        "kind": enum(*HUNK_KINDS),
        "evidence": EVIDENCE,
    },
    # Optional: documents written before these fields lack them.
    frozenset({"kind", "evidence"}),
)
# How many hunks of each kind (optional: documents before it lack it).
KIND_COUNTS = Obj({kind: COUNT for kind in HUNK_KINDS})
FILE = Obj(
    {
        "file": STR,
        "old_path": Nullable(STR),
        "status": STATUS,
        "language": Nullable(STR),
        "hunks": COUNT,
        "excluded": Nullable(STR),
    }
)
EXCLUDED_FILE = Obj({"file": STR, "reason": STR})
CHARACTERIZE_LOCALIZATION = LOCALIZATION.with_fields(first={"reference": STR})


# The path selection a document was made with (lang/selection.py); optional: records
# written before it existed lack it.
SELECTION = Obj(
    {
        "all_files": BOOL,
        "include": STRINGS,
        "exclude": STRINGS,
        "exclude_tests": BOOL,
        "languages": Nullable(STRINGS),
        "ignore_comment_only": BOOL,
    },
    frozenset({"ignore_comment_only"}),
)


def _config(**settings: Shape) -> Obj:
    return Obj(
        {**settings, "selection": SELECTION, "fingerprint": FINGERPRINT}, frozenset({"selection"})
    )


# The published study's artifacts, present only when reproduced (birch_artifacts.py).
ARTIFACTS: dict[str, Shape] = {
    "published_artifacts": Array(enum(*ARTIFACT_NAMES)),
    "file_order": STRINGS,
}


def _with_artifacts(config: Obj) -> Obj:
    """`config` with the optional artifact keys before its fingerprint."""
    settings = {k: v for k, v in config.fields.items() if k != "fingerprint"}
    return Obj(
        {**settings, **ARTIFACTS, "fingerprint": FINGERPRINT},
        config.optional | frozenset(ARTIFACTS),
    )


# Present (false) only when the pairs were left out of `divergence.pairs` (on request).
PAIRS_KEY: dict[str, Shape] = {"pairs": BOOL}


def _with_pairs(config: Obj) -> Obj:
    """`config` with the optional `pairs` key before its fingerprint."""
    settings = {k: v for k, v in config.fields.items() if k != "fingerprint"}
    return Obj(
        {**settings, **PAIRS_KEY, "fingerprint": FINGERPRINT},
        config.optional | frozenset(PAIRS_KEY),
    )


CONFIGS = {
    "hunks": _config(hunking=HUNKING, reverse=BOOL),
    "divergence": _with_pairs(
        _with_artifacts(
            _config(profile=PROFILE, distributed_weight=UNIT, hunking=HUNKING, reverse=BOOL)
        )
    ),
    # `cutoff` is the one asked for; null: the profile's, worked out per patch (the value
    # used is in the `proximity` object), so that it does not change the fingerprint.
    "proximity": _config(profile=PROFILE, cutoff=Nullable(COUNT), hunking=HUNKING, reverse=BOOL),
    "localization": _config(
        exclude_tests=BOOL, hunking=HUNKING, reverse_reference=BOOL, reverse_candidate=BOOL
    ),
    "characterize": _with_pairs(
        _with_artifacts(
            _config(
                profile=PROFILE,
                distributed_weight=UNIT,
                cutoff=Nullable(COUNT),
                hunking=HUNKING,
                reverse=BOOL,
            )
        )
    ),
}


def _document(name: str, body: dict[str, Shape], optional: frozenset[str] = frozenset()) -> Obj:
    head: dict[str, Shape] = {
        "schema": const(f"hunkmetrics/{name}/v1"),
        "tool": TOOL_SHAPE,
        "config": CONFIGS[name],
    }
    return Obj({**head, **body}, optional)


DOCUMENTS: dict[str, Obj] = {
    "hunks": _document(
        "hunks",
        {
            "patch": STR,
            "source": SOURCE,
            "excluded_files": Array(EXCLUDED_FILE),
            "hunk_kinds": KIND_COUNTS,
            "hunks": Array(HUNK),
            "warnings": WARNINGS,
        },
        optional=frozenset({"hunk_kinds"}),
    ),
    "divergence": _document(
        "divergence",
        {
            "patch": STR,
            "source": SOURCE,
            "hunk_count": COUNT,
            "excluded_files": Array(EXCLUDED_FILE),
            "hunk_kinds": KIND_COUNTS,
            "divergence": DIVERGENCE,
            "warnings": WARNINGS,
        },
        optional=frozenset({"excluded_files", "hunk_kinds"}),
    ),
    "proximity": _document(
        "proximity",
        {
            "patch": STR,
            "source": SOURCE,
            "hunk_count": COUNT,
            "excluded_files": Array(EXCLUDED_FILE),
            "hunk_kinds": KIND_COUNTS,
            "proximity": PROXIMITY,
            "hunks": Array(HUNK),
            "warnings": WARNINGS,
        },
        optional=frozenset({"excluded_files", "hunk_kinds"}),
    ),
    "localization": _document(
        "localization",
        {
            "reference": STR,
            "candidate": STR,
            "source": SOURCE,
            "localization": LOCALIZATION,
            "warnings": WARNINGS,
        },
    ),
    "characterize": _document(
        "characterize",
        {
            "patch": STR,
            "profile": PROFILE,
            "source": SOURCE,
            "hunk_count": COUNT,
            "hunk_kinds": KIND_COUNTS,
            "files": Array(FILE),
            "hunks": Array(HUNK),
            "divergence": DIVERGENCE,
            "proximity": PROXIMITY,
            "warnings": WARNINGS,
            "localization": CHARACTERIZE_LOCALIZATION,
        },
        optional=frozenset({"localization", "hunk_kinds"}),
    ),
}
# A line of a dataset results file (`batch`, `mine`): the characterize document with the
# item's `id` and `"error": null`, or, for an item that could not be characterized, its
# `id`, a one-line `error` and what is known of it. `mine` adds the commit's fields.
COMMIT_FIELDS: dict[str, Shape] = {
    "repository": STR,  # the repository's name in the run (docs/mine.md)
    "commit": STR,
    "parent": STR,
    "summary": STR,
    "date": STR,
    "author": STR,
}
_CHARACTERIZE = DOCUMENTS["characterize"]
RECORD = OneOf(
    (
        Obj(
            {"id": STR, "error": NULL, **COMMIT_FIELDS, **_CHARACTERIZE.fields},
            _CHARACTERIZE.optional | frozenset(COMMIT_FIELDS),
        ),
        Obj(
            {
                "id": STR,
                "error": STR,
                **COMMIT_FIELDS,
                "schema": _CHARACTERIZE.fields["schema"],
                "tool": _CHARACTERIZE.fields["tool"],
                "config": CONFIGS["characterize"],
                "patch": STR,
                "profile": PROFILE,
                "hunk_count": Nullable(COUNT),
            },
            frozenset(COMMIT_FIELDS)
            | {"schema", "tool", "config", "patch", "profile", "hunk_count"},
        ),
    )
)

# A line of `agents evaluate` output: one agent's attempt at one bug (docs/agents.md).
INT = Leaf({"type": "integer"})
NUMBER = Leaf({"type": "number"})
RAW_TOKENS = Array(Obj({"field": STR, "value": COUNT}))
CATEGORY_SHARES = Array(Obj({"category": STR, "actions": COUNT, "share": SHARE}))
REACH = Nullable(Obj({"action": COUNT, "at_s": Nullable(UNIT)}))
ATTEMPT_HEAD: dict[str, Shape] = {
    "id": STR,
    "schema": const("hunkmetrics/attempt/v1"),
    "tool": TOOL_SHAPE,
    "config": Obj(
        {
            "profile": STR,
            "dedupe_usage": BOOL,
            "reverse": BOOL,
            "exclude_tests": BOOL,
            "reward_threshold": NUMBER,
            "repos": Nullable(STR),
        },
        optional=frozenset({"reward_threshold", "repos"}),  # lines written before they existed
    ),
    "agent": STR,
    "bug": STR,
    "trajectory": STR,
}
ATTEMPT_OK = Obj(
    {
        **ATTEMPT_HEAD,
        "error": NULL,
        "format": STR,
        "agent_version": Nullable(STR),
        "model": Nullable(STR),
        "session_id": Nullable(STR),
        "reference": Nullable(STR),
        "reference_traits": Nullable(
            Obj(
                {
                    "profile": STR,
                    "hunk_count": COUNT,
                    "divergence": UNIT,
                    "proximity": Nullable(STR),
                }
            )
        ),
        "patch": Obj(
            {
                "source": STR,
                "empty": BOOL,
                "files": STRINGS,
                "error": Nullable(STR),
                "touches": Nullable(Obj({"source": STRINGS, "tests": STRINGS, "other": STRINGS})),
            },
            optional=frozenset({"touches"}),  # lines written before it existed
        ),
        "outcome": Nullable(
            Obj(
                {
                    "compiled": Nullable(BOOL),
                    "failing_before": Nullable(COUNT),
                    "failing_after": Nullable(COUNT),
                    "failing_tests": STRINGS,
                    "reward": Nullable(NUMBER),
                    "resolved": Nullable(BOOL),
                    "source": STR,
                },
                optional=frozenset({"reward", "resolved"}),
            )
        ),
        "ls": Nullable(BOOL),
        "compiled": Nullable(BOOL),
        "repaired": Nullable(BOOL),
        "regression_reduction": Nullable(INT),
        "tokens": Obj(
            {
                "input": COUNT,
                "output": COUNT,
                "total": COUNT,
                "input_uncached": COUNT,
                "cache_read": COUNT,
                "cache_write": COUNT,
                "output_visible": COUNT,
                "reasoning": COUNT,
                "convention": STR,
                "source": STR,
                "raw": RAW_TOKENS,
            }
        ),
        "runtime": Obj(
            {
                "seconds": Nullable(UNIT),
                "source": STR,
                "started_at": Nullable(STR),
                "ended_at": Nullable(STR),
            }
        ),
        # null: no trajectory (a SWE-bench prediction alone), so unknown, never 0
        "tool_calls": Nullable(COUNT),
        "actions": Nullable(COUNT),
        "profile": STR,
        "categories": CATEGORY_SHARES,
        "unique_native_tools": Nullable(STRINGS),
        "unique_shell_commands": Nullable(STRINGS),
        "localization": Nullable(LOCALIZATION),
        "hunks": Array(
            Obj(
                {
                    "hunk": COUNT,
                    "file": STR,
                    "method": Nullable(STR),
                    "read_file": REACH,
                    "read_method": REACH,
                    "edited": REACH,
                    "edit_match": Nullable(enum("text", "range", "file")),
                }
            )
        ),
        "cycles": Nullable(
            Obj(
                {
                    "count": COUNT,
                    "edits": COUNT,
                    "validations": COUNT,
                    "last_edit_validated": Nullable(BOOL),
                }
            )
        ),
        "warnings": WARNINGS,
        # Optional (lines written before them lack them): where the line came from
        # (`evaluate`, or `study-import` for the study's published per-bug files), the
        # run's condition (None: plain; `maple` for the study's MAPLE runs), and the
        # category of every action in order, under `profile`. `reference_traits`: the
        # developer patch's hunk count, divergence and proximity (absent from imports).
        "source": enum("evaluate", "study-import"),
        "condition": Nullable(STR),
        "sequence": Nullable(STRINGS),
    },
    frozenset({"source", "condition", "sequence", "reference_traits"}),
)
ATTEMPT = OneOf((ATTEMPT_OK, Obj({**ATTEMPT_HEAD, "error": STR})))
SHAPES: dict[str, Shape] = {**DOCUMENTS, "record": RECORD, "attempt": ATTEMPT}
TITLES = {name: f"hunkmetrics {name} document, version 1" for name in DOCUMENTS} | {
    "record": "hunkmetrics results record (one line of batch or mine output), version 1",
    "attempt": "hunkmetrics agent attempt (one line of agents evaluate output), version 1",
}
DOCUMENT_NAMES = tuple(SHAPES)


def schema(name: str) -> JSON:
    """The JSON Schema of one document (hunks, divergence, proximity, localization,
    characterize) or of a dataset results line (record)."""
    if name not in SHAPES:
        raise KeyError(f"no schema named {name!r} (one of {', '.join(DOCUMENT_NAMES)})")
    return {
        "$schema": DRAFT,
        "$id": f"https://hunkmetrics.dev/schemas/{name}.v1.json",
        "title": TITLES[name],
        **SHAPES[name].schema(),
    }
