"""Where a diff's bytes come from, read as often as the reader needs, a megabyte at a time.

A patch file is opened once (only a regular file no larger than the patch cap,
`HUNKMETRICS_MAX_PATCH_BYTES`) and read from its start on each pass; a diff already in
memory is cut into chunks. `diff_chunks` gives the diff's bytes as UTF-8 whatever its
byte-order mark said; `scan` reads them once for what must be known before any line is
parsed: whether there is anything, whether the whole diff was converted to CRLF, and
where mails of an mbox start."""

from __future__ import annotations

import codecs
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Protocol

from ..errors import HunkmetricsError
from ..inputfile import READ_CHUNK, env_bytes, read_capped
from .text import ENCODING, ERRORS, patch_error, show

MAX_PATCH_BYTES_ENV = "HUNKMETRICS_MAX_PATCH_BYTES"
# A 64 MiB diff takes `hunks` about 0.55 GB and 2 minutes on a 2-core EPYC with 24 GB
# (docs/security.md, "Sizes, caps and figures"); 256 MiB would take 8+ minutes, and the
# pairwise metrics grow with the square of the hunks.
DEFAULT_MAX_PATCH_BYTES = 64 * 1024 * 1024

_BOMS = {b"\xef\xbb\xbf": "utf-8", b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}
_MBOX_FROM_BYTES_RE = re.compile(rb"^From [0-9a-f]{40} ", re.M)  # git format-patch mails
_HEADER_RE = re.compile(rb"^(?:--- |\+\+\+ |@@ |diff )", re.M)


def max_patch_bytes() -> int:
    """The largest patch file read: `HUNKMETRICS_MAX_PATCH_BYTES` (bytes) or 64 MiB."""
    try:
        return env_bytes(MAX_PATCH_BYTES_ENV, DEFAULT_MAX_PATCH_BYTES)
    except HunkmetricsError as exc:
        raise patch_error(str(exc)) from None


def read_stdin_bytes(stream: BinaryIO, max_bytes: int | None = None) -> bytes:
    """A diff from standard input, under the same size limit as a patch file."""
    limit = max_patch_bytes() if max_bytes is None else max_bytes
    data = read_capped(stream, limit)
    if len(data) > limit:
        raise _too_large("standard input", limit)
    return data


def _too_large(shown: str, limit: int) -> HunkmetricsError:
    return patch_error(
        f"{shown}: larger than {limit:,} bytes, the most hunkmetrics reads of a patch "
        f"(set {MAX_PATCH_BYTES_ENV} to read more)"
    )


def open_patch_file(path: str | Path) -> BinaryIO:
    """A patch file open for reading; what is not a readable regular file is a one-line
    PatchError (a device or FIFO such as /dev/zero would never end)."""
    target = Path(path)
    shown = show(str(path))
    if not target.exists():
        raise patch_error(f"{shown}: no such file")
    if target.is_dir():
        raise patch_error(f"{shown}: is a directory, expected a diff file")
    try:
        # Non-blocking, so that a FIFO does not wait for a writer before it is refused.
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise patch_error(f"{shown}: cannot read ({exc.strerror})") from None
    handle = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        handle.close()
        raise patch_error(f"{shown}: not a regular file (a device, FIFO or socket)")
    return handle


def read_patch_bytes(path: str | Path, max_bytes: int | None = None) -> bytes:
    """A patch file's bytes; what is not a readable regular file, or is larger than
    `max_bytes` (default `max_patch_bytes()`), is a one-line PatchError."""
    limit = max_patch_bytes() if max_bytes is None else max_bytes
    shown = show(str(path))
    with open_patch_file(path) as handle:
        try:
            data = read_capped(handle, limit, os.fstat(handle.fileno()).st_size)
        except OSError as exc:
            raise patch_error(f"{shown}: cannot read ({exc.strerror})") from None
    if len(data) > limit:
        raise _too_large(shown, limit)
    return data


class PatchSource(Protocol):
    """A diff's bytes, from the start on every call of `chunks`."""

    @property
    def name(self) -> str: ...

    def chunks(self) -> Iterator[bytes]: ...


@dataclass(frozen=True, slots=True)
class MemorySource:
    """A diff held in memory, given out a chunk at a time."""

    data: bytes
    name: str = "<patch>"

    def chunks(self) -> Iterator[bytes]:
        for start in range(0, len(self.data), READ_CHUNK):
            yield self.data[start : start + READ_CHUNK]


class FileSource:
    """A patch file, open until `close`, read from its start on every pass. It must not
    change between passes: one that did is a PatchError."""

    def __init__(self, path: str | Path, max_bytes: int | None = None) -> None:
        limit = max_patch_bytes() if max_bytes is None else max_bytes
        self.name = str(path)
        self._handle = open_patch_file(path)
        self._stamp = self._now()
        if self._stamp[0] > limit:
            self.close()
            raise _too_large(show(self.name), limit)

    def _now(self) -> tuple[int, int]:
        status = os.fstat(self._handle.fileno())
        return status.st_size, status.st_mtime_ns

    def chunks(self) -> Iterator[bytes]:
        if self._now() != self._stamp:
            raise patch_error(f"{show(self.name)}: the file changed while it was read")
        self._handle.seek(0)
        read = 0
        while True:
            try:
                chunk = self._handle.read(READ_CHUNK)
            except OSError as exc:
                raise patch_error(f"{show(self.name)}: cannot read ({exc.strerror})") from None
            if not chunk:
                break
            read += len(chunk)
            yield chunk
        if read != self._stamp[0]:
            raise patch_error(f"{show(self.name)}: the file changed while it was read")

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> FileSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _leading(chunks: Iterator[bytes], size: int) -> tuple[bytes, Iterator[bytes]]:
    """At least the first `size` bytes (fewer only when there are no more), and the
    chunks after them."""
    first = b""
    for chunk in chunks:
        first += chunk
        if len(first) >= size:
            break
    return first, chunks


def byte_order_mark(source: PatchSource) -> str | None:
    """The codec a byte-order mark at the start of the diff names, or None."""
    first, _ = _leading(source.chunks(), 3)
    for bom, codec in _BOMS.items():
        if first.startswith(bom):
            return codec
    return None


def diff_chunks(source: PatchSource, codec: str | None) -> Iterator[bytes]:
    """The diff's bytes without its byte-order mark; a UTF-16 diff (as Windows PowerShell
    writes `git diff > x`) re-encoded as UTF-8. `codec`: `byte_order_mark(source)`."""
    chunks = source.chunks()
    if codec is None:
        yield from chunks
        return
    first, rest = _leading(chunks, 3)
    bom = next(b for b, c in _BOMS.items() if c == codec)
    if codec == "utf-8":
        yield first[len(bom) :]
        yield from rest
        return
    decoder = codecs.getincrementaldecoder(codec)("strict")
    try:
        yield decoder.decode(first[len(bom) :]).encode(ENCODING, ERRORS)
        for chunk in rest:
            yield decoder.decode(chunk).encode(ENCODING, ERRORS)
        yield decoder.decode(b"", final=True).encode(ENCODING, ERRORS)
    except UnicodeDecodeError:
        raise patch_error(f"{show(source.name)}: not valid {codec.upper()} after its BOM") from None


@dataclass
class Preamble:
    """What one read of the whole diff tells before any line is parsed."""

    blank: bool = True  # nothing but whitespace
    headers: int = 0  # lines starting like a header: `--- `, `+++ `, `@@ `, `diff `
    crlf_headers: bool = True  # every one of them ends in CRLF
    mails: list[int] = field(default_factory=list)  # the first two mails' line numbers
    mail_count: int = 0

    @property
    def crlf(self) -> bool:
        """The diff was converted to CRLF as a whole (e.g. saved on Windows): its own
        header lines end in CRLF, so every CR belongs to the transport, not the code."""
        return self.headers > 0 and self.crlf_headers

    def _lines(self, text: bytes, first_line: int) -> None:
        """Note the lines of `text` (whole lines from `first_line` on; the last one may
        lack its `\\n` only at the end of the diff)."""
        if self.blank and text.strip():
            self.blank = False
        for match in _MBOX_FROM_BYTES_RE.finditer(text):
            self.mail_count += 1
            if len(self.mails) < 2:
                self.mails.append(first_line + text.count(b"\n", 0, match.start()))
        for match in _HEADER_RE.finditer(text):
            self.headers += 1
            if not self.crlf_headers:
                break
            end = text.find(b"\n", match.start())
            if end <= 0 or text[end - 1 : end] != b"\r":
                self.crlf_headers = False
                break


def scan(chunks: Iterator[bytes]) -> Preamble:
    """Read the diff's bytes once (`diff_chunks`) for its `Preamble`."""
    preamble = Preamble()
    carry = b""
    line = 0
    for chunk in chunks:
        data = carry + chunk
        cut = data.rfind(b"\n") + 1
        if cut:
            preamble._lines(data[:cut], line)
            line += data.count(b"\n", 0, cut)
        carry = data[cut:]
    if carry:
        preamble._lines(carry, line)
    return preamble
