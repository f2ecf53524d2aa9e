"""Values read from parsed JSON, typed: each is the value when it has the type asked
for, else None (or an empty dict). A bool is never taken for a number."""

from __future__ import annotations


def as_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def as_float(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def as_str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def as_bool(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def as_dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}
