"""Text from a diff: bytes ↔ str that round-trip, and messages that stay one line."""

from __future__ import annotations

from ..errors import PatchError

ENCODING = "utf-8"
ERRORS = "surrogateescape"  # keeps bytes that are not UTF-8, round-trips them exactly


def decode(data: bytes) -> str:
    """Bytes → str, keeping undecodable bytes as surrogates so they round-trip."""
    return data.decode(ENCODING, ERRORS)


def encode(text: str) -> bytes:
    return text.encode(ENCODING, ERRORS)


def show(text: str, limit: int | None = None) -> str:
    """Text from the input, fit for a one-line message: control characters escaped,
    cut to `limit` characters when one is given."""
    cut = text if limit is None else text[: limit + 1]
    shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in cut)
    return shown[:limit] + "…" if limit is not None and len(shown) > limit else shown


def patch_error(message: str) -> PatchError:
    """A PatchError whose message is one line, whatever the input held (every line
    break, Unicode ones included, becomes a space)."""
    return PatchError(" ".join(message.splitlines()))
