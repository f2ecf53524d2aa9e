"""A file's lines read from its bytes one by one: the same lines as decoding the whole
text and splitting it."""

from __future__ import annotations

import random

import pytest

from hunkmetrics.maple.lines import Lines


def _split(data: bytes) -> list[str]:
    lines = [line.removesuffix("\r") for line in data.decode("utf-8", "replace").split("\n")]
    if lines and not lines[-1]:
        lines.pop()
    return lines


@pytest.mark.parametrize(
    "data",
    [b"", b"\n", b"a", b"a\n", b"a\r\nb\r\n", b"a\n\r", b"a\n\n", b"\xe2\x82\n\xac", b"\xff\r"],
)
def test_lines_of_edge_cases(data: bytes) -> None:
    lines = Lines(data)
    assert list(lines) == _split(data) and len(lines) == len(_split(data))


def test_lines_of_random_texts() -> None:
    rng = random.Random(5)
    pieces = [b"a", b"\n", b"\r", b"\r\n", b" ", b"\xe2\x82\xac", b"\xe2", b"\x82", b"\xff"]
    for _ in range(3000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        expected = _split(data)
        lines = Lines(data)
        assert list(lines) == expected, data
        assert lines[1:3] == expected[1:3] and lines[-1:] == expected[-1:]
        if expected:
            assert lines[-1] == expected[-1]
    with pytest.raises(IndexError):
        Lines(b"a\n")[1]
