"""The two published artifacts of the BIRCH pipeline, worked out by hand."""

from __future__ import annotations

import numpy as np

from hunkmetrics.metrics.birch_artifacts import (
    hashmap_capacity,
    hashmap_key_order,
    java_string_hash,
    lost_pairs,
    remap,
    study_order,
)


def test_java_string_hash() -> None:
    """h = 31·h + c over the characters: "0" = 48, "10" = 31·49 + 48 = 1567,
    "hello" = 99162322 (the JDK's value); overflow wraps to a signed 32-bit int:
    "polygenelubricants" is Java's famous Integer.MIN_VALUE hash."""
    assert java_string_hash("0") == 48
    assert java_string_hash("10") == 1567
    assert java_string_hash("hello") == 99162322
    assert java_string_hash("polygenelubricants") == -(2**31)


def test_hashmap_capacity() -> None:
    """16 holds 12 keys (0.75 · 16); the 13th doubles it to 32, which holds 24."""
    assert hashmap_capacity(12) == 16
    assert hashmap_capacity(13) == 32
    assert hashmap_capacity(24) == 32
    assert hashmap_capacity(25) == 64


def test_key_order_of_eleven_hunks_is_numeric() -> None:
    """Capacity 16: "0".."9" hash to 48..57, buckets 0..9 (48 & 15 = 0); "10" hashes
    to 1567, bucket 1567 & 15 = 15. Numeric order, nothing lost."""
    assert hashmap_key_order(11) == list(range(11))
    assert lost_pairs(11) == frozenset()


def test_mockito_6_key_order_and_its_99_zeros() -> None:
    """20 keys -> capacity 32. "0".."9": 48..57 -> buckets 16..25. "10".."19":
    1567..1576; 1567 = 48·32 + 31, so "10" -> bucket 31 and "11".."19" -> 0..8
    (h >>> 16 is 0 for these small hashes). Order: 11..19, 0..9, 10. A pair (i, j),
    i < j, is lost when j comes first: i in 0..10 with j in 11..19, 11 · 9 = 99 pairs."""
    assert hashmap_key_order(20) == [*range(11, 20), *range(10), 10]
    lost = lost_pairs(20)
    assert len(lost) == 99
    assert lost == frozenset((i, j) for i in range(11) for j in range(11, 20))


def test_twelve_hunks() -> None:
    """12 keys still fit capacity 16: "10" -> bucket 15, "11" (1568) -> bucket 0, so
    the order is 0, 11, 1, ..., 9, 10 (bucket 0 keeps insertion order: "0" then "11");
    lost: (i, 11) for i = 1..10, 10 pairs."""
    assert hashmap_key_order(12) == [0, 11, *range(1, 11)]
    assert lost_pairs(12) == frozenset((i, 11) for i in range(1, 11))


def test_study_order_follows_the_file_list() -> None:
    """Time_2: the patch has Partial (hunks 0, 1) then UnsupportedDurationField (2);
    Defects4J lists UnsupportedDurationField first: study order 2, 0, 1."""
    files = ["Partial.java", "Partial.java", "UnsupportedDurationField.java"]
    assert study_order(files, ["UnsupportedDurationField.java", "Partial.java"]) == [2, 0, 1]
    assert study_order(files, []) == [0, 1, 2]


def test_remap_reindexes_pairs() -> None:
    """Order (2, 0, 1): result (0, 1) is source (2, 0), (1, 2) is (0, 1)."""
    matrix = np.array([[0.0, 0.1, 0.2], [0.1, 0.0, 0.3], [0.2, 0.3, 0.0]])
    out = remap(matrix, [2, 0, 1])
    assert out[0, 1] == 0.2
    assert out[1, 2] == 0.1
    assert out[0, 2] == 0.3
