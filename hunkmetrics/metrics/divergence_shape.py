"""The shape of the `divergence` object (divergence/v1 and characterize/v1 documents) and
of its pairs. Apart from divergence.py, which computes it with numpy, so that documents,
schemas and the command line's CSV columns need no numpy."""

from __future__ import annotations

from ..jsonshape import COUNT, COUNTS, UNIT, Array, Nullable, Obj, enum
from .profiles import PROFILE_NAMES

PAIR = Obj(
    {
        "i": COUNT,
        "j": COUNT,
        "lexical": UNIT,
        "structural": UNIT,
        "file": UNIT,
        "gamma": UNIT,
        "value": UNIT,
    }
)
PAIR_KEYS = PAIR.keys
MEANS = Obj({"lexical": Nullable(UNIT), "structural": Nullable(UNIT), "file": Nullable(UNIT)})
DIVERGENCE = Obj(
    {
        "profile": enum(*PROFILE_NAMES),
        "value": UNIT,
        "means": MEANS,
        "distributed_weight": UNIT,
        "excluded_hunks": COUNTS,
        "pairs": Array(PAIR),
    }
)
"""The `divergence` object of the divergence/v1 and characterize/v1 documents."""
