"""The metric commands: hunks, divergence, proximity, localization, characterize."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..documents import (
    divergence_document,
    hunks_document,
    localization_document,
    omit_pairs,
    proximity_document,
)
from ..errors import HunkmetricsError
from ..lang.selection import DEFAULT_SELECTION, EXCLUDE_TESTS_DEFAULT, PathSelection
from ..metrics.birch_artifacts import PublishedArtifacts
from ..metrics.divergence_shape import PAIR_KEYS
from ..metrics.profiles import DISTRIBUTED_WEIGHT, PROFILES
from ..patch.parse import read_stdin_bytes
from ..workspace import Workspace, open_candidate, open_workspace, patch_path
from .common import command_group, guarded, plain, print_warnings, rich_console, styled
from .options import (
    PROFILE_DEFAULT,
    AllFilesOpt,
    Artifact,
    CutoffOpt,
    ExcludeOpt,
    ExcludeTestsOpt,
    FileOrderOpt,
    Format,
    FormatOpt,
    Hunking,
    HunksOpt,
    IgnoreCommentOnlyOpt,
    IncludeOpt,
    PairsOpt,
    PatchArg,
    PathPrefixOpt,
    ProfileOpt,
    PublishedArtifactsOpt,
    ReferenceOpt,
    RepoOpt,
    ReverseCandidateOpt,
    ReverseOpt,
    ReverseReferenceOpt,
    RevOpt,
    WeightOpt,
    published_artifacts,
    selection_from,
)
from .output import write_csv, write_json

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

app = command_group()


def load(
    patch: str,
    repo: Path | None,
    rev: str | None,
    reverse: bool,
    hunks: Hunking,
    path_prefix: str | None = None,
    selection: PathSelection = DEFAULT_SELECTION,
) -> Workspace:
    """The shared inputs of every command, as one Workspace."""
    check_path_prefix(path_prefix, repo, rev)
    stdin = read_stdin_bytes(sys.stdin.buffer) if patch == "-" else None
    return open_workspace(
        patch_path(patch),
        repo=repo,
        rev=rev,
        reverse=reverse,
        hunking=hunks.value,
        stdin=stdin,
        path_prefix=path_prefix,
        selection=selection,
    )


def check_path_prefix(path_prefix: str | None, repo: Path | None, rev: str | None) -> None:
    """--path-prefix names a directory of the source tree: without one it would be
    ignored in silence."""
    if path_prefix is not None and repo is None and rev is None:
        raise HunkmetricsError(
            "--path-prefix is a directory inside the source tree: give --repo (or --rev) too"
        )


def artifacts_for(
    profile: str, artifact: list[Artifact] | None, file_order: Path | None
) -> PublishedArtifacts:
    """The requested artifacts, checked against the profile."""
    artifacts = published_artifacts(artifact, file_order)
    if artifacts and not PROFILES[profile].reproduces_published_artifacts:
        raise HunkmetricsError(
            "--published-artifacts and --file-order reproduce the birch study's numbers: "
            "use them with --profile birch"
        )
    return artifacts


def emit(
    document: dict[str, Any],
    format: Format,
    render: Callable[[dict[str, Any]], None],
    csv_rows: Iterable[dict[str, Any]],
    csv_columns: list[str],
) -> None:
    """Print a document: JSON whole (warnings inside), CSV rows or a table for people
    (warnings on stderr)."""
    if format is Format.json:
        write_json(document)
        return
    if format is Format.csv:
        write_csv(csv_rows, csv_columns)
    else:
        render(document)
    print_warnings(document["warnings"])


HUNK_COLUMNS = [
    "index",
    "file",
    "old_start",
    "old_lines",
    "new_start",
    "new_lines",
    "added",
    "removed",
    "language",
    "package",
    "class",
    "method",
    "methods",
    "located_by",
    "placed",
    "note",
    "kind",
    "evidence",
]
# characterize's CSV: one row per hunk, the patch's own numbers repeated on each.
CHARACTERIZE_COLUMNS = ["patch", "profile", "divergence", "proximity", *HUNK_COLUMNS]


@app.command()
def hunks(
    ctx: typer.Context,
    patch: PatchArg,
    repo: RepoOpt = None,
    rev: RevOpt = None,
    path_prefix: PathPrefixOpt = None,
    reverse: ReverseOpt = False,
    hunks: HunksOpt = Hunking.as_given,
    all_files: AllFilesOpt = False,
    include: IncludeOpt = None,
    exclude: ExcludeOpt = None,
    exclude_tests: ExcludeTestsOpt = EXCLUDE_TESTS_DEFAULT,
    ignore_comment_only: IgnoreCommentOnlyOpt = False,
    format: FormatOpt = Format.table,
) -> None:
    """List a patch's hunks and where each sits: package, class, method.

    With --repo (and --rev) the whole file is parsed; without, only the diff's own lines
    are, and the table says which hunks could not be placed in a method.

    Examples:

      hunkmetrics hunks fix.diff

      hunkmetrics hunks fix.diff --repo ~/src/project --rev HEAD~1 --format json

      git diff | hunkmetrics hunks - --repo .
    """

    def run() -> None:
        files = selection_from(all_files, include, exclude, exclude_tests, ignore_comment_only)
        check_path_prefix(path_prefix, repo, rev)
        if repo is None and rev is None:
            with stream_hunks(patch, reverse, hunks, files) as document:
                emit(document, format, render_hunks, document["hunks"], HUNK_COLUMNS)
            return
        with load(patch, repo, rev, reverse, hunks, path_prefix, files) as workspace:
            document = hunks_document(workspace)
        emit(document, format, render_hunks, document["hunks"], HUNK_COLUMNS)

    guarded(ctx, run)


@contextmanager
def stream_hunks(
    patch: str, reverse: bool, hunks: Hunking, selection: PathSelection
) -> Iterator[dict[str, Any]]:
    """The hunks document of a patch located from the diff alone, read as a stream: the
    patch file stays open while the document's hunks are written (standard input is
    read whole first)."""
    from ..documents.streamed import streamed_hunks_document
    from ..hunkstream import HunkStream
    from ..patch.source import FileSource, MemorySource
    from ..patch.stream import StreamedPatch

    with ExitStack() as stack:
        if patch == "-":
            source: FileSource | MemorySource = MemorySource(
                read_stdin_bytes(sys.stdin.buffer), "<stdin>"
            )
        else:
            source = stack.enter_context(FileSource(patch))
        streamed = StreamedPatch(source, reverse=reverse, hunking=hunks.value)
        yield streamed_hunks_document(HunkStream(streamed, selection))


def _short(name: str | None, prefix: str | None) -> str:
    if not name:
        return ""
    if prefix and name.startswith(prefix + "."):
        return name[len(prefix) + 1 :]
    return name


def render_hunks(document: dict[str, Any], console: Console | None = None) -> None:
    from rich.table import Table

    console = console or rich_console()
    source = document["source"]
    origin = (
        f"{plain(source['description'])} ({source['side']}-image)"
        if source
        else "the diff alone (no --repo given)"
    )
    table = Table(
        title=f"{plain(document['patch'])}: {len(document['hunks'])} hunks, located from {origin}",
        title_justify="left",
        show_lines=False,
    )
    for column in ("#", "file", "lines (old)", "+/-", "package", "class", "method"):
        table.add_column(column, overflow="fold")
    guessed = False
    unplaced, first_note = 0, None  # the hunks are gone through once: they may be made then
    for h in document["hunks"]:
        if not h["placed"]:
            first_note = first_note if unplaced else h["note"]
            unplaced += 1
        package_basis, class_basis, method_basis = _bases(h)
        method = plain(_short(h["method"], h["class"])) or (
            plain(" | ".join(_short(m, h["class"]) for m in h["methods"])) if h["methods"] else ""
        )
        cell: str | Text
        if not h["placed"]:
            cell = styled(("? not placed", "yellow"))
        elif not method:
            cell = styled(("—", "dim"))
        else:
            cell = _marked(method, method_basis)
        guessed = guessed or "inferred" in (package_basis, class_basis, method_basis)
        name = h["file"].rsplit("/", 1)[-1]
        table.add_row(
            str(h["index"]),
            plain(name),
            f"{h['old_start']},{h['old_lines']}",
            f"+{h['added']} -{h['removed']}",
            _marked(plain(h["package"] or ""), package_basis),
            _marked(plain(_short(h["class"], h["package"])), class_basis),
            cell,
        )
    console.print(table)
    if guessed:
        console.print(
            styled(
                (
                    "~ inferred: a guess from the diff alone (a package from the path, a "
                    "class from the file name); give --repo/--rev for exact locations",
                    "dim",
                )
            )
        )
    if unplaced:
        console.print(
            styled(
                (
                    f"{unplaced} hunk(s) not placed in a method: "
                    f"{first_note}. Give --repo/--rev for exact locations.",
                    "yellow",
                )
            )
        )
    render_excluded(document, console)


def _bases(hunk: dict[str, Any]) -> tuple[str, str, str]:
    """The hunk's evidence for package, class and method (`seen/seen/seen` when absent)."""
    parts = (hunk.get("evidence") or "seen/seen/seen").split("/")
    return parts[0], parts[1], parts[2]


def _marked(text: str, basis: str) -> str:
    """A table cell with `~` in front when the value is inferred, not seen."""
    return f"~{text}" if text and basis == "inferred" else text


def render_excluded(document: dict[str, Any], console: Console) -> None:
    """The files left out of the metrics, each with its reason (`excluded_files`, or
    the characterize document's `files[].excluded`)."""
    items = document.get("excluded_files")
    if items is None:
        items = [
            {"file": f["file"], "reason": f["excluded"]}
            for f in document.get("files", [])
            if f["excluded"]
        ]
    for item in items:
        console.print(styled((f"excluded: {item['file']} ({item['reason']})", "dim")))
    kinds = document.get("hunk_kinds") or {}
    if kinds.get("comment") or kinds.get("whitespace"):
        console.print(
            styled(
                (
                    f"{kinds.get('comment', 0)} hunk(s) change only comments, "
                    f"{kinds.get('whitespace', 0)} only whitespace (--ignore-comment-only "
                    "leaves them out)",
                    "dim",
                )
            )
        )


@app.command()
def divergence(
    ctx: typer.Context,
    patch: PatchArg,
    repo: RepoOpt = None,
    rev: RevOpt = None,
    path_prefix: PathPrefixOpt = None,
    reverse: ReverseOpt = False,
    hunks: HunksOpt = Hunking.as_given,
    all_files: AllFilesOpt = False,
    include: IncludeOpt = None,
    exclude: ExcludeOpt = None,
    exclude_tests: ExcludeTestsOpt = EXCLUDE_TESTS_DEFAULT,
    ignore_comment_only: IgnoreCommentOnlyOpt = False,
    profile: ProfileOpt = PROFILE_DEFAULT,
    pairs: Annotated[
        bool,
        typer.Option(
            "--pairs",
            help="Also list every pair's components: in the table, and in the JSON document "
            "(without it, divergence.pairs is empty and the config says pairs: false). CSV "
            "always lists them.",
        ),
    ] = False,
    weight: WeightOpt = DISTRIBUTED_WEIGHT,
    artifact: PublishedArtifactsOpt = None,
    file_order: FileOrderOpt = None,
    format: FormatOpt = Format.table,
) -> None:
    """Hunk divergence Div(P): how different a patch's hunks are from each other.

    Div(P) = ln(n) · mean over pairs of L·(S + g·F)/(1 + g), with L lexical, S structural
    (AST) and F file-level distance, g = 0 in one file and 2 across files. It lies in
    [0, ln n] in the default profile; birch's uncapped F (up to 2) stretches that to
    [0, (1 + 2g)/(1 + g) · ln n], 5/3 · ln n with g = 2. Use --profile birch to compare
    with the published Hunk4J numbers (on the Defects4J patch as shipped, without
    --reverse, and --repo/--rev at the fixed revision for the AST part); the default
    profile otherwise.

    Examples:

      hunkmetrics divergence fix.diff --pairs

      hunkmetrics divergence Lang_27.diff --profile birch --repo commons-lang --rev c2560c0

      hunkmetrics divergence fix.diff --format csv > pairs.csv
    """

    def run() -> None:
        artifacts = artifacts_for(profile, artifact, file_order)
        files = selection_from(all_files, include, exclude, exclude_tests, ignore_comment_only)
        with load(patch, repo, rev, reverse, hunks, path_prefix, files) as workspace:
            result = workspace.divergence(
                profile=profile, distributed_weight=weight, artifacts=artifacts
            )
            document = divergence_document(workspace, result, lazy_pairs=True)
        if format is Format.json and not pairs:
            document = omit_pairs(document)
        emit(
            document,
            format,
            lambda doc: render_divergence(doc, show_pairs=pairs),
            document["divergence"]["pairs"],
            PAIR_COLUMNS,
        )

    guarded(ctx, run)


PAIR_COLUMNS = list(PAIR_KEYS)
MAX_TABLE_PAIRS = 500


def _number(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def _upper_bound(divergence: dict[str, Any], n: int) -> str:
    """Div(P)'s largest value for n hunks under the document's profile and g, as text."""
    ln_n = math.log(n) if n else 0.0
    factor = PROFILES[divergence["profile"]].max_pair_distance(divergence["distributed_weight"])
    if factor == 1.0:
        return f"ln n = {ln_n:.4f}"
    return f"{factor:.4g} · ln n = {factor * ln_n:.4f}"


def render_divergence(document: dict[str, Any], show_pairs: bool) -> None:
    from rich.table import Table

    console = rich_console()
    div = document["divergence"]
    n = document["hunk_count"]
    source = document["source"]
    origin = (
        f"{plain(source['description'])} ({source['side']}-image)"
        if source
        else "the diff alone (no --repo given)"
    )
    console.print(
        styled(
            (document["patch"], "bold"),
            "  profile ",
            (div["profile"], "cyan"),
            f", AST from {origin}",
        )
    )
    console.print(
        styled(
            (f"Div(P) = {div['value']:.4f}", "bold"),
            f"   n = {n} hunk{'s' * (n != 1)}, "
            f"{len(div['pairs'])} pairs, range [0, {_upper_bound(div, n)}]",
        )
    )
    if n < 2:
        console.print(styled(("fewer than two hunks: Div(P) is 0 by definition", "dim")))
    means = div["means"]
    console.print(
        f"mean lexical {_number(means['lexical'])}   mean structural "
        f"{_number(means['structural'])}   mean file {_number(means['file'])}"
    )
    if div["excluded_hunks"]:
        console.print(styled((f"not counted: hunks {div['excluded_hunks']}", "dim")))
    render_excluded(document, console)
    if not show_pairs or not div["pairs"]:
        return
    table = Table(title="pairs: d = L·(S + g·F)/(1 + g)", title_justify="left")
    for column in ("i", "j", "L", "S", "F", "g", "d"):
        table.add_column(column, justify="right")
    for pair in div["pairs"][:MAX_TABLE_PAIRS]:
        table.add_row(
            str(pair["i"]),
            str(pair["j"]),
            _number(pair["lexical"]),
            _number(pair["structural"]),
            _number(pair["file"]),
            f"{pair['gamma']:g}",
            _number(pair["value"]),
        )
    console.print(table)
    if len(div["pairs"]) > MAX_TABLE_PAIRS:
        console.print(
            styled(
                (
                    f"showing {MAX_TABLE_PAIRS} of {len(div['pairs'])} pairs; "
                    "--format json or csv lists them all",
                    "yellow",
                )
            )
        )


@app.command()
def proximity(
    ctx: typer.Context,
    patch: PatchArg,
    repo: RepoOpt = None,
    rev: RevOpt = None,
    path_prefix: PathPrefixOpt = None,
    reverse: ReverseOpt = False,
    hunks: HunksOpt = Hunking.as_given,
    all_files: AllFilesOpt = False,
    include: IncludeOpt = None,
    exclude: ExcludeOpt = None,
    exclude_tests: ExcludeTestsOpt = EXCLUDE_TESTS_DEFAULT,
    ignore_comment_only: IgnoreCommentOnlyOpt = False,
    profile: ProfileOpt = PROFILE_DEFAULT,
    cutoff: CutoffOpt = None,
    format: FormatOpt = Format.table,
) -> None:
    """Spatial proximity: Nucleus, Cluster, Orbit, Sprawl or Fragment, and why.

    Checked in order: all hunks in one file → Nucleus if all in one method, else
    Cluster; all files in one package → Orbit; every pair of hunks sharing more than
    the cutoff's leading package segments → Sprawl; else Fragment. Nucleus vs Cluster
    needs methods: give --repo/--rev, or the output warns which hunks were not placed.

    Examples:

      hunkmetrics proximity fix.diff --repo . --rev HEAD~1

      hunkmetrics proximity Lang_27.diff --profile birch --format json
    """

    def run() -> None:
        files = selection_from(all_files, include, exclude, exclude_tests, ignore_comment_only)
        with load(patch, repo, rev, reverse, hunks, path_prefix, files) as workspace:
            result = workspace.proximity(profile=profile, cutoff=cutoff)
            document = proximity_document(workspace, result)
        emit(
            document,
            format,
            lambda doc: render_proximity(doc["proximity"], doc),
            [document["proximity"]],
            PROXIMITY_COLUMNS,
        )

    guarded(ctx, run)


PROXIMITY_COLUMNS = [
    "class",
    "profile",
    "cutoff",
    "hunk_count",
    "files",
    "packages",
    "classes",
    "methods",
    "shared_package_prefix",
    "shared_package_depth",
    "located_by",
    "reason",
]


def render_proximity(
    prox: dict[str, Any], document: dict[str, Any], console: Console | None = None
) -> None:
    console = console or rich_console()
    label = prox["class"] or "no class"
    console.print(
        styled(
            (document["patch"], "bold"),
            "  proximity ",
            (label, "bold cyan"),
            f" ({prox['profile']})",
        )
    )
    console.print(f"  why: {plain(prox['reason'])}")
    console.print(
        f"  spans {prox['files']} file(s), {prox['packages']} package(s), "
        f"{prox['classes']} class(es), {prox['methods']} method(s); shared package "
        f"prefix '{plain(prox['shared_package_prefix'])}' (depth "
        f"{prox['shared_package_depth']}), cutoff {prox['cutoff']}; located from "
        f"{plain(prox['located_by'])}"
    )
    render_excluded(document, console)


@app.command()
def localization(
    ctx: typer.Context,
    reference: Annotated[
        str, typer.Option("--reference", help="The developer's patch.", show_default=False)
    ],
    candidate: Annotated[
        str,
        typer.Option(
            "--candidate",
            help="The agent's patch ('-' for standard input). An "
            "empty or unparseable one localizes nothing.",
            show_default=False,
        ),
    ],
    repo: RepoOpt = None,
    rev: RevOpt = None,
    path_prefix: PathPrefixOpt = None,
    reverse: ReverseOpt = False,
    reverse_reference: ReverseReferenceOpt = False,
    reverse_candidate: ReverseCandidateOpt = False,
    hunks: HunksOpt = Hunking.as_given,
    all_files: AllFilesOpt = False,
    include: IncludeOpt = None,
    exclude: ExcludeOpt = None,
    exclude_tests: ExcludeTestsOpt = EXCLUDE_TESTS_DEFAULT,
    ignore_comment_only: IgnoreCommentOnlyOpt = False,
    format: FormatOpt = Format.table,
) -> None:
    """Did an agent's patch touch every file, hunk and method the developer's did?

    file_superset is true when the candidate modifies every file the reference does.
    hunk_recall is the share of reference hunks whose changed lines overlap a candidate
    hunk's in the same file (pre-image coordinates); method_recall the share of the
    reference's methods the candidate touches (needs --repo/--rev). Files compare by
    their pre-image path, so a candidate that renames the file it fixes still counts.

    Example:

      hunkmetrics localization --reference Lang_27.diff --reverse-reference
      --candidate agent.diff --repo commons-lang --rev 7c91533
    """

    def run() -> None:
        check_path_prefix(path_prefix, repo, rev)
        stdin = read_stdin_bytes(sys.stdin.buffer) if candidate == "-" else None
        files = selection_from(all_files, include, exclude, exclude_tests, ignore_comment_only)
        with ExitStack() as stack:
            ref_ws = stack.enter_context(
                open_workspace(
                    patch_path(reference),
                    repo=repo,
                    rev=rev,
                    reverse=reverse != reverse_reference,
                    hunking=hunks.value,
                    path_prefix=path_prefix,
                    selection=files,
                )
            )
            cand_ws, error = open_candidate(
                patch_path(candidate),
                repo=repo,
                rev=rev,
                reverse=reverse != reverse_candidate,
                hunking=hunks.value,
                stdin=stdin,
                cache=ref_ws.cache,
                path_prefix=path_prefix,
                selection=files,
            )
            if cand_ws is not None:
                stack.enter_context(cand_ws)
            result = ref_ws.localization(cand_ws, candidate_error=error)
            document = localization_document(ref_ws, cand_ws, result, candidate)
        emit(
            document,
            format,
            lambda doc: render_localization(doc["localization"]),
            [document["localization"]],
            LOCALIZATION_COLUMNS,
        )

    guarded(ctx, run)


LOCALIZATION_COLUMNS = [
    "file_superset",
    "missed_files",
    "extra_files",
    "hunk_recall",
    "reference_hunks",
    "hunks_found",
    "method_recall",
    "method_recall_reason",
    "exclude_tests",
    "candidate_error",
    "candidate_hunks",
    "hunk_precision",
    "methods_missed",
]


def _share(value: float | None, reason: str | None = None) -> str:
    return f"{value:.0%}" if value is not None else f"n/a ({reason})" if reason else "n/a"


def render_localization(loc: dict[str, Any], console: Console | None = None) -> None:
    console = console or rich_console()
    verdict = ("yes", "bold green") if loc["file_superset"] else ("no", "bold red")
    console.print(styled("localized (touches every reference file): ", verdict))
    if loc["candidate_error"]:
        console.print(styled("  candidate: ", (loc["candidate_error"], "red")))
    for name in loc["missed_files"]:
        console.print(styled("  ", ("missed", "red"), f" {name}"))
    for name in loc["extra_files"]:
        console.print(styled("  ", ("extra", "yellow"), f"  {name}"))
    console.print(
        f"  hunk recall {_share(loc['hunk_recall'])} ({loc['hunks_found']}/"
        f"{loc['reference_hunks']})   method recall "
        f"{plain(_share(loc['method_recall'], loc['method_recall_reason']))}"
    )
    for hunk in loc.get("hunks", []):
        if not hunk["reached"]:
            console.print(
                styled("  ", ("missed", "red"), f" hunk {hunk['index']} ({hunk['file']})")
            )
    for method in loc.get("methods_missed", []):
        console.print(styled("  ", ("missed", "red"), f" method {method}"))
    if loc.get("candidate_hunks"):
        console.print(
            f"  hunk precision {_share(loc['hunk_precision'])} "
            f"({loc['candidate_hunks_on_reference']}/{loc['candidate_hunks']} candidate hunks "
            "change a line the reference changes)"
        )


@app.command()
def characterize(
    ctx: typer.Context,
    patch: PatchArg,
    repo: RepoOpt = None,
    rev: RevOpt = None,
    path_prefix: PathPrefixOpt = None,
    reverse: ReverseOpt = False,
    hunks: HunksOpt = Hunking.as_given,
    profile: ProfileOpt = PROFILE_DEFAULT,
    cutoff: CutoffOpt = None,
    weight: WeightOpt = DISTRIBUTED_WEIGHT,
    reference: ReferenceOpt = None,
    reverse_reference: ReverseReferenceOpt = False,
    all_files: AllFilesOpt = False,
    include: IncludeOpt = None,
    exclude: ExcludeOpt = None,
    exclude_tests: ExcludeTestsOpt = EXCLUDE_TESTS_DEFAULT,
    ignore_comment_only: IgnoreCommentOnlyOpt = False,
    artifact: PublishedArtifactsOpt = None,
    file_order: FileOrderOpt = None,
    pairs: PairsOpt = False,
    format: FormatOpt = Format.table,
) -> None:
    """Everything about one patch in one run: hunks, divergence, proximity, localization.

    Hunks and their methods, the divergence and the proximity class and, with
    --reference, localization against the developer's patch. Each file is parsed once
    for all of it.

    Examples:

      hunkmetrics characterize Lang_27.diff --profile birch --repo commons-lang --rev c2560c0

      hunkmetrics characterize agent.diff --reference dev.diff --repo . --format json
    """

    def run() -> None:
        artifacts = artifacts_for(profile, artifact, file_order)
        files = selection_from(all_files, include, exclude, exclude_tests, ignore_comment_only)
        with ExitStack() as stack:
            workspace = stack.enter_context(
                load(patch, repo, rev, reverse, hunks, path_prefix, files)
            )
            ref_ws = None
            if reference is not None:
                ref_ws = stack.enter_context(
                    open_workspace(
                        patch_path(reference),
                        repo=repo,
                        rev=rev,
                        reverse=reverse != reverse_reference,
                        hunking=hunks.value,
                        cache=workspace.cache,
                        path_prefix=path_prefix,
                        selection=files,
                    )
                )
            result = workspace.characterize(
                profile=profile,
                cutoff=cutoff,
                distributed_weight=weight,
                reference=ref_ws,
                artifacts=artifacts,
            )
            document = result.to_dict(lazy_pairs=True)
        shown = document if pairs else omit_pairs(document)
        rows = characterize_rows(document)
        emit(shown, format, render_characterization, rows, CHARACTERIZE_COLUMNS)

    guarded(ctx, run)


def characterize_rows(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The hunks of a characterize document, each with the patch's divergence and
    proximity class (a patch without counted hunks has none: empty cells)."""
    patch_cells = {
        "patch": document["patch"],
        "profile": document["profile"],
        "divergence": document["divergence"]["value"],
        "proximity": document["proximity"]["class"],
    }
    return [{**patch_cells, **hunk} for hunk in document["hunks"]]


def render_characterization(document: dict[str, Any]) -> None:
    console = rich_console()
    div, prox = document["divergence"], document["proximity"]
    console.print(
        styled(
            (document["patch"], "bold"),
            f"   {document['hunk_count']} hunks, profile {document['profile']}",
        )
    )
    console.print(
        styled(
            "  ",
            (prox["class"] or "no class", "bold cyan"),
            "   ",
            (f"Div(P) = {div['value']:.4f}", "bold"),
            f"   (L {_number(div['means']['lexical'])}, "
            f"S {_number(div['means']['structural'])}, "
            f"F {_number(div['means']['file'])})",
        )
    )
    console.print(f"  why: {plain(prox['reason'])}")
    render_hunks(document, console=console)
    if "localization" in document:
        render_localization(document["localization"], console)
