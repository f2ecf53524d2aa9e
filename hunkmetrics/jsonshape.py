"""JSON shapes: one definition gives an object's keys, in order, and its JSON Schema.

The documents (documents.py) and the metric results' `to_dict()` build their objects
through `Obj.build`, and `hunkmetrics.schemas` generates the published schemas from the
same shapes, so the two cannot drift apart."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

JSON = dict[str, Any]


class Shape(Protocol):
    def schema(self) -> JSON: ...


@dataclass(frozen=True)
class Leaf:
    """A value described by a JSON Schema fragment (a number, an enum, ...)."""

    spec: Mapping[str, Any]

    def schema(self) -> JSON:
        return copy.deepcopy(dict(self.spec))


@dataclass(frozen=True)
class Nullable:
    inner: Shape

    def schema(self) -> JSON:
        return {"anyOf": [self.inner.schema(), {"type": "null"}]}


@dataclass(frozen=True)
class Array:
    items: Shape
    min_items: int | None = None
    max_items: int | None = None

    def schema(self) -> JSON:
        out: JSON = {"type": "array", "items": self.items.schema()}
        if self.min_items is not None:
            out["minItems"] = self.min_items
        if self.max_items is not None:
            out["maxItems"] = self.max_items
        return out


@dataclass(frozen=True)
class Obj:
    """An object with fixed keys, in the order documents write them. Keys in `optional`
    may be left out; no other key is allowed (`additionalProperties: false`)."""

    fields: Mapping[str, Shape]
    optional: frozenset[str] = field(default_factory=frozenset)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self.fields)

    def build(self, values: Mapping[str, Any]) -> JSON:
        """`values` as a JSON object in this shape's key order; ValueError if a required
        key is missing or an unknown key is given."""
        missing = [k for k in self.fields if k not in values and k not in self.optional]
        unknown = [k for k in values if k not in self.fields]
        if missing or unknown:
            raise ValueError(f"object does not fit its shape: missing {missing}, unknown {unknown}")
        return {k: values[k] for k in self.fields if k in values}

    def with_fields(
        self, first: Mapping[str, Shape] | None = None, last: Mapping[str, Shape] | None = None
    ) -> Obj:
        """This shape with more keys before and after its own."""
        return Obj({**(first or {}), **self.fields, **(last or {})}, self.optional)

    def schema(self) -> JSON:
        return {
            "type": "object",
            "properties": {key: shape.schema() for key, shape in self.fields.items()},
            "required": [k for k in self.fields if k not in self.optional],
            "additionalProperties": False,
        }


@dataclass(frozen=True)
class OneOf:
    """A value that fits exactly one of several shapes."""

    choices: tuple[Shape, ...]

    def schema(self) -> JSON:
        return {"oneOf": [choice.schema() for choice in self.choices]}


def enum(*values: object) -> Leaf:
    return Leaf({"enum": list(values)})


def const(value: object) -> Leaf:
    return Leaf({"const": value})


STR = Leaf({"type": "string"})
NULL = Leaf({"type": "null"})
BOOL = Leaf({"type": "boolean"})
COUNT = Leaf({"type": "integer", "minimum": 0})
UNIT = Leaf({"type": "number", "minimum": 0})  # a distance: ≥ 0 (birch F may exceed 1)
SHARE = Leaf({"type": "number", "minimum": 0, "maximum": 1})
STRINGS = Array(STR)
COUNTS = Array(COUNT)
