"""What a batch run reads: a directory of patches, or a manifest CSV.

A directory holds `*.diff` / `*.patch` files (top level only); each file's name without
its extension is its id. A manifest is a CSV with the columns `id,patch` and, optionally,
`repo`, `rev`, `reverse`, `path_prefix` (the patch's paths are relative to that directory
of the repository), `file_order` (a file listing the study's file order, for the birch
profile's published artifact) and `published_artifacts` (the study's other artifacts for
that row: `key-order;lexical-hunks`); paths in it are relative to the manifest's folder, and a
non-empty cell overrides the command line's default for that row.

The whole input is checked before anything runs (header, every row, duplicate ids), so a
bad row is a one-line error naming it, never a surprise halfway through a long run. Items
are then produced lazily (`BatchInput.items()`): a manifest of a million rows is never
held in memory as a million objects.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..csvfiles import open_csv
from ..errors import HunkmetricsError

PATCH_SUFFIXES = (".diff", ".patch")
REQUIRED_COLUMNS = ("id", "patch")
OPTIONAL_COLUMNS = ("repo", "rev", "reverse", "path_prefix", "file_order", "published_artifacts")
_TRUE = {"true", "1", "yes", "y"}
_FALSE = {"false", "0", "no", "n"}


@dataclass(frozen=True, slots=True)
class Item:
    """One patch to characterize: small and picklable, as sent to a worker.

    `patch` is the path as the driver sees it (also the document's `patch` name); `repo`
    is absolute, so that it means the same on every worker. `data` holds the patch's bytes
    when the driver read them itself (remote workers need not see the patch files)."""

    id: str
    patch: str
    repo: str | None = None
    rev: str | None = None
    reverse: bool = False
    data: bytes | None = None
    path_prefix: str | None = None
    file_order: str | None = None  # absolute path of a file-order list
    # The study's artifacts to reproduce for this row (birch): None takes the run's.
    published_artifacts: tuple[str, ...] | None = None

    @property
    def source_key(self) -> tuple[str | None, str | None, str | None]:
        """Items with the same key can share one source reader."""
        return self.repo, self.rev, self.path_prefix


@dataclass(frozen=True)
class Defaults:
    """The command line's --repo/--rev/--reverse: every item's, unless its row says."""

    repo: str | Path | None = None
    rev: str | None = None
    reverse: bool = False
    path_prefix: str | None = None


def _absolute(path: str | Path, base: Path | None = None) -> str:
    path = Path(path).expanduser()
    if base is not None and not path.is_absolute():
        path = base / path
    return os.path.abspath(path)


def _source(repo: str | None, rev: str | None) -> tuple[str | None, str | None]:
    # As `open_workspace`: a revision without a repository means the current directory.
    if rev and repo is None:
        repo = os.path.abspath(".")
    return repo, rev or None


def parse_bool(text: str) -> bool | None:
    """A manifest's `reverse` cell: true/false, 1/0, yes/no; empty means the default."""
    value = text.strip().lower()
    if not value:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"reverse must be true or false, not {text.strip()!r}")


@dataclass
class BatchInput:
    """A checked input: its size, its ids, and its items in input order."""

    path: Path
    kind: str  # "directory" or "manifest"
    count: int
    ids: set[str]
    defaults: Defaults
    _names: list[str] = field(default_factory=list, repr=False)  # directory: file names

    def items(self) -> Iterator[Item]:
        """Every item, in input order (directories: by file name; manifests: by row)."""
        if self.kind == "directory":
            repo = _absolute(self.defaults.repo) if self.defaults.repo else None
            repo, rev = _source(repo, self.defaults.rev)
            for name in self._names:
                yield Item(
                    id=_stem(name),
                    patch=str(self.path / name),
                    repo=repo,
                    rev=rev,
                    reverse=self.defaults.reverse,
                    path_prefix=self.defaults.path_prefix,
                )
        else:
            yield from _manifest_rows(self.path, self.defaults)


def _stem(name: str) -> str:
    for suffix in PATCH_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def open_input(path: str | Path, defaults: Defaults | None = None) -> BatchInput:
    """Check `path` (a directory of patches or a manifest CSV) from end to end.

    Raises HunkmetricsError (one line, naming the file or row) for anything wrong with
    the input itself. Problems of a single patch (empty, garbage, sources that do not
    match) are not checked here: they become that item's error line."""
    defaults = defaults or Defaults()
    path = Path(path)
    if not path.exists():
        raise HunkmetricsError(f"{path}: no such file or directory")
    if path.is_dir():
        return _open_directory(path, defaults)
    if path.suffix in PATCH_SUFFIXES:
        raise HunkmetricsError(
            f"{path}: batch needs a directory of patches or a manifest "
            "CSV, not one patch (use `hunkmetrics characterize`)"
        )
    ids: set[str] = set()
    count = 0
    for _item in _manifest_rows(path, defaults, seen=ids):
        count += 1
    if count == 0:
        raise HunkmetricsError(f"{path}: the manifest has a header but no rows")
    return BatchInput(path=path, kind="manifest", count=count, ids=ids, defaults=defaults)


def _open_directory(path: Path, defaults: Defaults) -> BatchInput:
    names = sorted(
        entry.name
        for entry in os.scandir(path)
        if entry.name.endswith(PATCH_SUFFIXES) and not entry.is_dir()
    )
    if not names:
        raise HunkmetricsError(f"{path}: no *.diff or *.patch files in this directory")
    first: dict[str, str] = {}
    for name in names:
        key = _stem(name)
        if key in first:
            raise HunkmetricsError(
                f"{path}: {first[key]} and {name} both give the id {key!r}; rename one"
            )
        first[key] = name
    return BatchInput(
        path=path,
        kind="directory",
        count=len(names),
        ids=set(first),
        defaults=defaults,
        _names=names,
    )


def _manifest_rows(path: Path, defaults: Defaults, seen: set[str] | None = None) -> Iterator[Item]:
    """The item of every data row, in order; raises on the first bad row.
    With `seen`, ids are collected there and duplicates are an error."""
    base = path.parent
    default_repo = _absolute(defaults.repo) if defaults.repo else None
    with open_csv(path, "the manifest") as handle:
        reader = csv.reader(handle)
        try:
            header = next(reader, None)
        except (csv.Error, UnicodeDecodeError) as exc:
            raise HunkmetricsError(f"{path}: not a CSV manifest ({exc})") from None
        columns = _check_header(path, header)
        row_number = 0
        while True:
            try:
                cells = next(reader, None)
            except (csv.Error, UnicodeDecodeError) as exc:
                raise HunkmetricsError(
                    f"{path}: row {row_number + 1} (line {reader.line_num}): not valid CSV ({exc})"
                ) from None
            if cells is None:
                return
            if not any(cell.strip() for cell in cells):
                continue  # blank lines are allowed
            row_number += 1
            where = f"{path}: row {row_number} (line {reader.line_num})"
            if len(cells) != len(columns):
                raise HunkmetricsError(
                    f"{where}: expected {len(columns)} fields "
                    f"({','.join(columns)}), found {len(cells)}"
                )
            row = dict(zip(columns, (cell.strip() for cell in cells), strict=True))
            if not row["id"]:
                raise HunkmetricsError(f"{where}: the id is empty")
            if not row["patch"]:
                raise HunkmetricsError(f"{where}: the patch path is empty")
            if seen is not None:
                if row["id"] in seen:
                    raise HunkmetricsError(f"{where}: duplicate id {row['id']!r}")
                seen.add(row["id"])
            try:
                reverse = parse_bool(row.get("reverse", ""))
            except ValueError as exc:
                raise HunkmetricsError(f"{where}: {exc}") from None
            artifacts = _artifacts(row.get("published_artifacts", ""), where)
            repo = _absolute(row["repo"], base) if row.get("repo") else default_repo
            repo, rev = _source(repo, row.get("rev") or defaults.rev)
            patch = Path(row["patch"]).expanduser()
            yield Item(
                id=row["id"],
                patch=str(patch if patch.is_absolute() else base / patch),
                repo=repo,
                rev=rev,
                reverse=defaults.reverse if reverse is None else reverse,
                path_prefix=row.get("path_prefix") or defaults.path_prefix,
                file_order=_absolute(row["file_order"], base) if row.get("file_order") else None,
                published_artifacts=artifacts,
            )


def _artifacts(cell: str, where: str) -> tuple[str, ...] | None:
    """A row's `published_artifacts`: names separated by `;` (empty: the run's)."""
    from ..metrics.birch_artifacts import ARTIFACT_NAMES

    names = tuple(n.strip() for n in cell.replace(",", ";").split(";") if n.strip())
    unknown = [n for n in names if n not in ARTIFACT_NAMES]
    if unknown:
        raise HunkmetricsError(
            f"{where}: unknown published artifact(s) {', '.join(unknown)} "
            f"(use {' or '.join(ARTIFACT_NAMES)}, separated by ;)"
        )
    return names or None


def _check_header(path: Path, header: list[str] | None) -> list[str]:
    if header is None or not any(cell.strip() for cell in header):
        raise HunkmetricsError(
            f"{path}: empty manifest (expected a header row: id,patch[,repo,rev,reverse])"
        )
    columns = [cell.strip() for cell in header]
    known = REQUIRED_COLUMNS + OPTIONAL_COLUMNS
    unknown = [c for c in columns if c not in known]
    if unknown:
        raise HunkmetricsError(
            f"{path}: unknown column(s) {', '.join(map(repr, unknown))} in "
            f"the header; the columns are {','.join(known)} (id and patch "
            "required)"
        )
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        raise HunkmetricsError(
            f"{path}: the header lacks {' and '.join(missing)} (expected "
            "id,patch[,repo,rev,reverse])"
        )
    duplicated = sorted({c for c in columns if columns.count(c) > 1})
    if duplicated:
        raise HunkmetricsError(
            f"{path}: column(s) {', '.join(duplicated)} appear twice in the header"
        )
    return columns
