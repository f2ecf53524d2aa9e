"""The README's headline command, run exactly as printed, and its table checked by hand."""

from __future__ import annotations

import math
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def headline_command() -> list[str]:
    """The first indented `pip install … && hunkmetrics …` line of the README, without
    its install step."""
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("    pip install") and "&& hunkmetrics " in line:
            return shlex.split(line.split("&&", 1)[1])
    raise AssertionError("README.md has no `pip install … && hunkmetrics …` line")


def run_headline() -> str:
    argv = headline_command()
    assert argv[0] == "hunkmetrics"
    exe = shutil.which("hunkmetrics")
    command = [exe, *argv[1:]] if exe else [sys.executable, "-m", "hunkmetrics", *argv[1:]]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def table_rows(output: str) -> dict[tuple[int, int], list[str]]:
    rows = {}
    for line in output.splitlines():
        cells = [c.strip() for c in re.split(r"[│|]", line)[1:-1]]
        if len(cells) == 7 and cells[0].isdigit():
            rows[(int(cells[0]), int(cells[1]))] = cells[2:]
    return rows


def test_headline_command_prints_the_hand_computed_pair_and_div() -> None:
    """fixtures/patches/java_packages_near.diff, default profile, with the source tree.

    Hunk 0 (core/Inventory.java) changes
        if (current == null || current < quantity) {
    into
        if (quantity <= 0 || current == null || current < quantity) {
    hunk 1 (core/util/Strings.java) changes
        throw new IllegalArgumentException("empty SKU");
    into
        throw new IllegalArgumentException("empty SKU: '" + raw + "'");

    L (tree-sitter leaves, ⟂ between the removed and the added tokens):
      h0 = if ( current == null || current < quantity ) { ⟂ if ( quantity <= 0 || current
           == null || current < quantity ) {                           27 tokens
      h1 = throw new IAE ( " empty SKU " ) ; ⟂ throw new IAE ( " empty SKU: ' " + raw + " ' "
           ) ;                                                         25 tokens
      The only tokens both have are `(`, `)` and ⟂. An alignment costs, per stretch between
      matched tokens, the longer of the two stretches. Keeping the first `)` (h0[9] ~
      h1[7]), ⟂ (h0[11] ~ h1[9]) and the last `)` (h0[25] ~ h1[23]) costs
      max(9,7) + max(1,1) + max(13,13) + max(1,1) = 24; every other choice of matches costs
      25 or more (keeping all five: 3 + 7 + 1 + 3 + 11 + 1 = 26). L = 24/27 = 0.8889.
    S (edit bags; named nodes starting on the changed lines):
      h0: the added line has two more binary_expression, one more identifier and a
          decimal_integer_literal; identifiers paired in order (current/quantity,
          current/current, quantity/current) give ~identifier 2.
          {+binary_expression 2, +identifier 1, +decimal_integer_literal 1, ~identifier 2}
      h1: {+binary_expression 2, +string_literal 1, +string_fragment 1, +identifier 1,
           ~string_fragment 1}
      Σmin = 2 + 1 = 3, Σmax = 2+1+1+2+1+1+1 = 9, S = 1 − 3/9 = 0.6667.
    F: src/main/java/com/acme/core/Inventory.java (7 segments) vs …/core/util/Strings.java
      (8 segments): 6 equal leading segments, c = 5, m = 8, F = 1 − 5/8 = 0.3750; g = 2.
    d = (24/27)·(2/3 + 2·3/8)/3 = 408/972 = 0.4198.
    """
    output = run_headline()
    rows = table_rows(output)
    assert set(rows) == {(0, 1), (0, 2), (1, 2)}
    assert rows[(0, 1)] == ["0.8889", "0.6667", "0.3750", "2", "0.4198"]

    # Every printed pair obeys d = L(S + gF)/(1 + g) and Div = ln 3 · mean(d).
    ds = []
    for lexical, structural, file, gamma, d in (map(float, r) for r in rows.values()):
        assert d == pytest.approx(lexical * (structural + gamma * file) / (1 + gamma), abs=2e-4)
        ds.append(d)
    div = float(re.search(r"Div\(P\) = ([0-9.]+)", output).group(1))  # type: ignore[union-attr]
    assert div == pytest.approx(math.log(3) * sum(ds) / 3, abs=2e-4)
