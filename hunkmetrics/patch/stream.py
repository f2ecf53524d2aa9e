"""A diff read as a stream of files, never held whole.

`DiffReading` is a diff opened for reading: what must be known before its lines are
parsed (its byte-order mark, whether it was converted to CRLF as a whole, whether it is
an mbox of several commits), then its sections, read again from the start each time
they are asked for. `StreamedPatch` gives a patch's FileDiffs one at a time, as
`parse_patch` would number and present them, in as many passes as its reader needs;
its memory is one file's sections at a time, whatever the size of the diff."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .convert import StripVotes, check_options, file_diffs, no_file_changes
from .lines import LineCursor, split_lines
from .model import FileDiff
from .sections import Section, SectionReader, mbox_error
from .source import PatchSource, byte_order_mark, diff_chunks, scan
from .text import patch_error, show


@dataclass(frozen=True, slots=True)
class DiffReading:
    """A diff opened for reading (`open`): its source, the codec its byte-order mark
    names, whether it is CRLF throughout, and the warnings these give."""

    source: PatchSource
    codec: str | None
    crlf: bool
    warnings: tuple[str, ...]

    @classmethod
    def open(cls, source: PatchSource) -> DiffReading:
        """Read the diff once for what its lines' reading depends on; an empty diff, a
        UTF-16 one that is not valid and an mbox of several commits are PatchErrors."""
        codec = byte_order_mark(source)
        preamble = scan(diff_chunks(source, codec))
        warnings = []
        if codec is not None and codec != "utf-8":
            warnings.append(f"the diff is {codec.upper()}; read it as UTF-8")
        if preamble.blank:
            raise patch_error(f"{show(source.name)}: empty diff")
        if preamble.crlf:
            warnings.append("the whole diff has CRLF line endings; read it with LF endings")
        if preamble.mail_count > 1:
            raise mbox_error(source.name, preamble.mails, preamble.mail_count)
        return cls(source, codec, preamble.crlf, tuple(warnings))

    def sections(self, *, keep_lines: bool = True) -> Iterator[Section]:
        """The diff's file sections, read from its start (`SectionReader`)."""
        lines = split_lines(diff_chunks(self.source, self.codec), crlf=self.crlf)
        reader = SectionReader(LineCursor(lines), self.source.name, keep_lines=keep_lines)
        return reader.sections()


class StreamedPatch:
    """A patch read file by file from `source` (the `parse_patch` options alike). Opening
    it reads the whole diff twice without keeping it (the preamble, then every section
    for the `-p1` votes of plain sections), raising what `parse_patch` would raise
    before it makes a file; a name or status that cannot be made is raised by the first
    pass of `files`. `warnings` are the diff's own (encoding, line endings); each file's
    are told by `files`."""

    def __init__(
        self,
        source: PatchSource,
        *,
        reverse: bool = False,
        hunking: str = "as-given",
        strip: int | None = None,
    ) -> None:
        check_options(hunking, strip)
        self.name = source.name
        self.reversed = reverse
        self.hunking = hunking
        self.strip = strip
        self.reading = DiffReading.open(source)
        votes = StripVotes()
        for section in self.reading.sections(keep_lines=False):
            votes.add(section)
        if not votes.sections:
            raise no_file_changes(self.name)
        self.strip_lone = votes.strip_lone
        self.warnings = self.reading.warnings

    def files(self, warn: Callable[[str], None] | None = None) -> Iterator[FileDiff]:
        """Every file of the patch, as `parse_patch` gives them (`file_diffs`), read
        afresh from the diff; `warn` is told of each file excluded from the metrics."""
        return file_diffs(
            self.reading.sections(),
            self.name,
            self.strip_lone,
            self.strip,
            reverse=self.reversed,
            hunking=self.hunking,
            warn=warn,
        )
