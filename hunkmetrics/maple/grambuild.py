"""Building the n-gram index (`grams.GramIndex`) with numpy: imported only when the index
is built, never by a server that reads it from its cache."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .grams import GRAM, GramIndex
from .keytable import number_type
from .sections import MemorySections

__all__ = ["build_grams", "file_grams", "gram_sections"]

Codes = npt.NDArray[np.uint32]
_TYPES: dict[str, type[np.unsignedinteger[Any]]] = {"H": np.uint16, "I": np.uint32, "Q": np.uint64}


def _codes(text: bytes) -> Codes:
    """The distinct 4-grams of `text` as big-endian integers, sorted."""
    if len(text) < GRAM:
        return np.zeros(0, np.uint32)
    chars = np.frombuffer(text, np.uint8).astype(np.uint32)
    count = len(chars) - GRAM + 1
    codes = chars[:count] << 24
    codes |= chars[1 : count + 1] << 16
    codes |= chars[2 : count + 2] << 8
    codes |= chars[3 : count + 3]
    return np.unique(codes)


def file_grams(data: bytes) -> Codes:
    """A file's 4-grams, each run of whitespace made one space."""
    return _codes(b" ".join(data.split()))


def gram_sections(grams: Sequence[Codes]) -> tuple[dict[str, object], dict[str, bytes]]:
    """The metadata and sections of the n-gram index of these files (each one's
    `file_grams`, in file-number order): a gram in more than one file in 16 gets a bitmap
    of all files, the others the sorted list of their files' numbers."""
    count = len(grams)
    kind: type[np.unsignedinteger[Any]] = _TYPES[number_type(max(count - 1, 0))]
    total = sum(len(g) for g in grams)
    pairs = np.empty(total, np.uint64)  # gram << 32 | file number
    at = 0
    for number, codes in enumerate(grams):
        part = pairs[at : at + len(codes)]
        part[:] = codes
        part <<= np.uint64(32)
        part |= np.uint64(number)
        at += len(codes)
    pairs.sort()
    codes_all = (pairs >> np.uint64(32)).astype(np.uint32)
    numbers_all = (pairs & np.uint64(0xFFFFFFFF)).astype(kind)
    del pairs
    first = np.ones(total, bool)
    first[1:] = codes_all[1:] != codes_all[:-1]
    begins = np.flatnonzero(first)
    keys = codes_all[begins]
    del codes_all, first
    counts = np.diff(np.append(begins, total))
    width = (count + 7) // 8
    dense = counts * numbers_all.itemsize > width
    bitmaps = np.zeros((int(dense.sum()), width), np.uint8)
    mask = np.zeros(count, bool)
    for row, k in enumerate(np.flatnonzero(dense)):
        held = numbers_all[begins[k] : begins[k] + counts[k]]
        mask[held] = True
        bitmaps[row] = np.packbits(mask, bitorder="little")
        mask[held] = False
    numbers = numbers_all[~np.repeat(dense, counts)]
    starts = np.zeros(len(keys) + 1, np.uint64)
    np.cumsum(np.where(dense, 0, counts), out=starts[1:])
    starts_type = number_type(int(starts[-1]))
    dense_keys = np.flatnonzero(dense)
    meta = {
        "count": count,
        "keys": "I",
        "starts": starts_type,
        "dense": number_type(len(keys)),
        "numbers": number_type(max(count - 1, 0)),
    }
    sections = {
        "grams.keys": keys.astype(np.uint32).tobytes(),
        "grams.starts": starts.astype(_TYPES[starts_type]).tobytes(),
        "grams.dense": dense_keys.astype(_TYPES[number_type(len(keys))]).tobytes(),
        "grams.numbers": numbers.tobytes(),
        "grams.bitmaps": bitmaps.tobytes(),
    }
    return {"grams": meta}, sections


def build_grams(grams: Sequence[Codes]) -> GramIndex:
    """The n-gram index of these files, held in memory."""
    meta, sections = gram_sections(grams)
    return GramIndex(MemorySections(meta, sections))
