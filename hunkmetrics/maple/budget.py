"""The character budget every answer fits in: a long answer is cut at a line, and the
cut says how much was left out and how to ask for less."""

from __future__ import annotations

__all__ = ["DEFAULT_BUDGET", "MIN_BUDGET", "fit"]

DEFAULT_BUDGET = 40_000  # characters per answer (about 10,000 tokens)
MIN_BUDGET = 2_000
_NOTE_ROOM = 400  # kept free for the note that ends a cut answer


def fit(text: str, budget: int, hint: str) -> str:
    """`text` when it fits in `budget` characters; else its first lines that fit, then a
    note counting the lines and characters left out and giving `hint` (how to narrow)."""
    if len(text) <= budget:
        return text
    room = max(0, budget - _NOTE_ROOM)
    cut = text.rfind("\n", 0, room + 1)
    if cut <= 0:
        cut = room  # one over-long line: cut inside it
    kept, rest = text[:cut], text[cut:]
    lines_left = rest.count("\n") + (0 if rest.endswith("\n") else 1) - (rest[:1] == "\n")
    note = (
        f"\n[answer cut at the budget of {budget:,} characters: {max(lines_left, 1):,} more "
        f"line(s), {len(rest):,} characters not shown. {hint}]"
    )
    return kept + note
