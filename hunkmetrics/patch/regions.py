"""Re-cut a patch's hunks into change regions, as git would with 3 lines of context.

An agent's diff made with -U0 or -U10 then yields the same hunks as a developer's made
with the default. Two runs of changes fall into one region when at most 6 unchanged
pre-image lines separate them (git merges hunks whose contexts would touch). A region
keeps up to 3 context lines each side, of those the diff carried."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .model import FileDiff, Hunk, Line, LineKind, Patch

CONTEXT = 3


@dataclass(frozen=True, slots=True)
class _Block:
    lines: tuple[Line, ...]
    old_first: int  # first pre-image line the block replaces (insertion: point + 1)
    old_last: int  # last pre-image line it replaces (insertion: the point)
    section: str
    new_before: int  # post-image line just before the block (for a pure deletion's header)


def recut_regions(patch: Patch, context: int = CONTEXT) -> Patch:
    files: list[FileDiff] = []
    index = 0
    for file_diff in patch.files:
        hunks = recut_file(file_diff, index, context)
        index += len(hunks)
        files.append(replace(file_diff, hunks=hunks))
    return replace(patch, files=tuple(files), hunking="regions")


def _blocks(hunk: Hunk) -> list[_Block]:
    blocks: list[_Block] = []
    run: list[Line] = []
    last_old = hunk.old_start - 1 if hunk.old_lines else hunk.old_start
    last_new = hunk.new_start - 1 if hunk.new_lines else hunk.new_start

    def flush() -> None:
        if not run:
            return
        removed = [ln.old_lineno for ln in run if ln.old_lineno is not None]
        first, last = (removed[0], removed[-1]) if removed else (last_old + 1, last_old)
        blocks.append(_Block(tuple(run), first, last, hunk.section, last_new))
        run.clear()

    for line in hunk.lines:
        if line.kind is LineKind.CONTEXT:
            flush()
            last_old = line.old_lineno or last_old
            last_new = line.new_lineno or last_new
        else:
            run.append(line)
    flush()
    return blocks


def recut_file(file_diff: FileDiff, first_index: int, context: int = CONTEXT) -> tuple[Hunk, ...]:
    """One file's hunks re-cut into regions, numbered from `first_index`."""
    if not file_diff.hunks:
        return ()
    known_context: dict[int, Line] = {}
    blocks: list[_Block] = []
    for hunk in file_diff.hunks:
        for line in hunk.lines:
            if line.kind is LineKind.CONTEXT and line.old_lineno is not None:
                known_context[line.old_lineno] = line
        blocks.extend(_blocks(hunk))
    blocks.sort(key=lambda b: (b.old_first, b.old_last))
    groups: list[list[_Block]] = []
    for block in blocks:
        if groups and block.old_first - groups[-1][-1].old_last - 1 <= 2 * context:
            groups[-1].append(block)
        else:
            groups.append([block])
    return tuple(
        _region(file_diff.path, group, known_context, first_index + i, context)
        for i, group in enumerate(groups)
    )


def _region(
    path: str, group: list[_Block], known: dict[int, Line], index: int, context: int
) -> Hunk:
    lines: list[Line] = []
    lo = group[0].old_first - context
    for n in range(lo, group[0].old_first):
        if n in known:
            lines.append(known[n])
    for i, block in enumerate(group):
        lines.extend(block.lines)
        stop = group[i + 1].old_first if i + 1 < len(group) else block.old_last + 1 + context
        for n in range(block.old_last + 1, stop):
            if n in known:
                lines.append(known[n])
    old_numbers = [ln.old_lineno for ln in lines if ln.old_lineno is not None]
    new_numbers = [ln.new_lineno for ln in lines if ln.new_lineno is not None]
    old_start = old_numbers[0] if old_numbers else group[0].old_last
    new_start = new_numbers[0] if new_numbers else group[0].new_before
    return Hunk(
        index=index,
        path=path,
        old_start=old_start,
        old_lines=(old_numbers[-1] - old_numbers[0] + 1) if old_numbers else 0,
        new_start=new_start,
        new_lines=(new_numbers[-1] - new_numbers[0] + 1) if new_numbers else 0,
        section=group[0].section,
        lines=tuple(lines),
    )
