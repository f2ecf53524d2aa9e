"""Per-attempt metrics of the "Beyond Accuracy" study (its §4 equations), and the fault-site
timing it did not measure. Pure functions on an `Attempt`, its `Outcome` and the patches.

The study's metrics (docs/agents.md, "Metrics"):

* compilation (Eq. 4): the harness says the patched program compiled;
* accuracy (Eq. 5): the patch is non-empty, it compiled, and no test fails after it;
* regression reduction RR (Eq. 6): failing before − failing after, **None** (undefined, not
  0) when compilation failed or the counts are unknown;
* LS (Eq. 3): the patch is non-empty, it compiled, and its files ⊇ the developer's files;
* U_a (Eq. 12): each category's share of the actions (`pooled_shares` over an agent's
  attempts, as Table 8); n-grams (Eq. 13) over categories;
* unique native tools and unique shell commands (Table 7).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hunkmetrics.agents.model import Action, Attempt, Command, JSONValue, Outcome

EDIT = "WRITE"
VALIDATE = frozenset({"BUILD", "TEST"})
READ = "READ"
SEARCH = frozenset({"SEARCH_CONTENT", "SEARCH_CONTEXT"})

# The study's parser kept a second word for these commands unless it is a flag (spec §1).
TWO_WORD_COMMANDS = frozenset(
    {
        "defects4j",
        "git",
        "docker",
        "npm",
        "mvn",
        "gradle",
        "cargo",
        "pip",
        "conda",
        "apt",
        "apt-get",
        "yum",
        "brew",
    }
)


# ---------------------------------------------------------------- the study's equations


def compilation(outcome: Outcome | None) -> bool | None:
    """Eq. 4: the harness's compile flag (None when it does not say)."""
    return outcome.compiled if outcome is not None else None


def regression_reduction(
    compiled: bool | None, failing_before: int | None, failing_after: int | None
) -> int | None:
    """Eq. 6: failing tests before − after the patch; undefined (None) unless it compiled
    and both counts are known. May be negative (the patch broke tests)."""
    if compiled is not True or failing_before is None or failing_after is None:
        return None
    return failing_before - failing_after


def repaired(patch_nonempty: bool, compiled: bool | None, failing_after: int | None) -> bool:
    """Eq. 5 (accuracy): a non-empty patch that compiled with no failing test after it."""
    return patch_nonempty and compiled is True and failing_after == 0


def localization_success(
    patch_nonempty: bool,
    compiled: bool | None,
    patch_files: Iterable[str],
    dev_files: Iterable[str],
) -> bool:
    """Eq. 3 (LS): a non-empty, compiling patch whose files include every developer file."""
    dev = set(dev_files)
    return patch_nonempty and compiled is True and bool(dev) and dev <= set(patch_files)


# ---------------------------------------------------------------- tool utilization


def category_counts(actions: Sequence[Action]) -> dict[str, int]:
    """Actions per category, in first-seen order."""
    return dict(Counter(a.category for a in actions))


def category_shares(actions: Sequence[Action]) -> dict[str, float]:
    """U_a (Eq. 12): each category's share of the actions; empty for no actions."""
    n = len(actions)
    return {k: v / n for k, v in category_counts(actions).items()} if n else {}


def pooled_shares(counts: Iterable[Mapping[str, int]]) -> dict[str, float]:
    """U_a over several attempts as the study's Table 8 gives it: each category's share of
    all their actions together (every action weighs the same, not every attempt)."""
    total: Counter[str] = Counter()
    for c in counts:
        total.update(c)
    n = sum(total.values())
    return {k: v / n for k, v in total.items()} if n else {}


def ngrams(categories: Sequence[str], window: int) -> Counter[tuple[str, ...]]:
    """Eq. 13: every run of `window` consecutive categories, counted (max(0, n − w + 1))."""
    if window < 1:
        raise ValueError("window must be at least 1")
    return Counter(tuple(categories[i : i + window]) for i in range(len(categories) - window + 1))


def command_key(cmd: Command) -> str:
    """A shell command's normalized name: argv[0], with the second word for the study's
    two-word commands (`defects4j test`, `git diff`, `mvn clean`) unless it is a flag."""
    args = cmd.args
    if cmd.name in TWO_WORD_COMMANDS and args and not args[0].startswith("-"):
        return f"{cmd.name} {args[0]}"
    return cmd.name


def unique_native_tools(attempt: Attempt) -> tuple[str, ...]:
    """The distinct tools called other than through a shell, sorted."""
    return tuple(sorted({c.tool_name for c in attempt.calls if c.shell is None}))


def unique_shell_commands(attempt: Attempt) -> tuple[str, ...]:
    """The distinct normalized shell commands run (`command_key`), sorted."""
    return tuple(sorted({command_key(cmd) for c in attempt.calls for cmd in c.commands}))


# ---------------------------------------------------------------- edit → validate cycles


@dataclass(frozen=True, slots=True)
class Cycles:
    """Edit → build/test cycles: `count` is how many times a BUILD or TEST action came after
    at least one WRITE action since the previous validation; `last_edit_validated` is None
    when the attempt never edited."""

    count: int
    edits: int
    validations: int
    last_edit_validated: bool | None


def edit_cycles(actions: Sequence[Action]) -> Cycles:
    """The edit → build/test cycles of an action sequence (semantic categories)."""
    count = edits = validations = 0
    pending = False
    last_edit: int | None = None
    last_validation: int | None = None
    for action in actions:
        if action.category == EDIT:
            edits += 1
            pending = True
            last_edit = action.index
        elif action.category in VALIDATE:
            validations += 1
            last_validation = action.index
            if pending:
                count += 1
                pending = False
    validated = None
    if last_edit is not None:
        validated = last_validation is not None and last_validation > last_edit
    return Cycles(count, edits, validations, validated)


# ---------------------------------------------------------------- fault-site timing


@dataclass(frozen=True, slots=True)
class HunkSite:
    """One developer hunk: its repository-relative file, method (None outside one), the
    method's 1-based line span, the pre-image lines it changes (for matching edits) and
    the pre-image line range it covers (for edits given as a line range)."""

    index: int
    file: str
    method: str | None
    method_span: tuple[int, int] | None
    lines: tuple[str, ...]
    span: tuple[int, int] | None = None  # the pre-image lines the hunk covers


@dataclass(frozen=True, slots=True)
class Reach:
    """The first action that did something: its index and seconds since the attempt began
    (None when the log has no times)."""

    action: int
    at_s: float | None


@dataclass(frozen=True, slots=True)
class HunkReach:
    """When the agent first read the hunk's file, read or searched its method, and edited
    it. `edit_match` says how the edit was tied to the hunk: `text` (the edit's old text
    holds a line the hunk changes), `range` (it replaced a line range overlapping the
    hunk's, as SWE-agent's `edit A:B`; line numbers as the agent saw them, which earlier
    edits of the file may have shifted) or `file` (a write to the file whose text and
    lines are unknown)."""

    hunk: int
    file: str
    method: str | None
    read_file: Reach | None
    read_method: Reach | None
    edited: Reach | None
    edit_match: str | None


_SED_RANGE = re.compile(r"^(\d+)(?:,(\d+))?p$")
_RANGE_KEYS = (("offset", "limit"), ("start_line", "end_line"))


def normalize_path(path: str, workdir: str | None) -> str:
    """`path` relative to `workdir` when under it; `./` and duplicate slashes removed."""
    if workdir and path.startswith(workdir.rstrip("/") + "/"):
        path = path[len(workdir.rstrip("/")) + 1 :]
    path = re.sub(r"/+", "/", path)
    while path.startswith("./"):
        path = path[2:]
    return path


def same_file(action_path: str, repo_path: str) -> bool:
    """True when an action's path names the repository file: equal, or one ends with the
    other at a directory boundary (`/w/src/Foo.java`, `Foo.java` vs `src/Foo.java`)."""
    a, r = action_path.rstrip("/"), repo_path
    return a == r or a.endswith("/" + r) or r.endswith("/" + a)


def _seconds(action: Action, attempt: Attempt) -> float | None:
    if action.timestamp is None or attempt.started_at is None:
        return None
    return max(0.0, (action.timestamp - attempt.started_at).total_seconds())


def _int(value: JSONValue) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def read_range(action: Action) -> tuple[int, int] | None:
    """The 1-based line range a read shows, when its arguments say (`Read` offset/limit,
    `read_file` start/end, `view_range`, `sed -n 'A,Bp'`); None means the whole file."""
    if action.command is not None:
        if action.command.name == "sed":
            for arg in action.command.args:
                m = _SED_RANGE.match(arg)
                if m:
                    first = int(m.group(1))
                    return first, int(m.group(2) or first)
        return None
    args = action.arguments
    line = _int(args.get("line_number"))
    if action.tool_name == "open" and line is not None:
        return max(1, line - _WINDOW), line + _WINDOW
    view = args.get("view_range")
    if isinstance(view, tuple) and len(view) == 2:
        lo, hi = _int(view[0]), _int(view[1])
        if lo is not None and hi is not None:
            return lo, (hi if hi > 0 else 10**9)
    for start_key, end_key in _RANGE_KEYS:
        start, end = _int(args.get(start_key)), _int(args.get(end_key))
        if start is None and end is None:
            continue
        first = max(1, start or 1)
        if start_key == "offset":
            return first, first + end - 1 if end is not None else 10**9
        return first, end if end is not None else 10**9
    return None


def _strings(value: JSONValue) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)


def _words(action: Action) -> Iterable[str]:
    if action.command is not None:
        return action.command.args
    return _strings(action.arguments)


def simple_method_name(method: str) -> str:
    """`Foo.bar(int, String)` → `bar`; `Outer.Inner#baz` → `baz`."""
    head = method.split("(", 1)[0]
    return re.split(r"[.#:$]", head)[-1].strip()


_OLD_TEXT_KEYS = ("old_string", "old_str")


def edit_text(action: Action) -> str | None:
    """The text an edit replaced, when its arguments carry it (Edit, MultiEdit,
    str_replace_editor, apply_patch's `-` and context lines); None when unknown."""
    if action.command is not None:
        return None
    args = action.arguments
    parts = [v for k in _OLD_TEXT_KEYS if isinstance(v := args.get(k), str)]
    edits = args.get("edits")
    if isinstance(edits, tuple):
        for item in edits:
            if isinstance(item, Mapping):
                parts.extend(v for k in _OLD_TEXT_KEYS if isinstance(v := item.get(k), str))
    for key in ("input", "patch"):
        value = args.get(key)
        if isinstance(value, str) and "*** Begin Patch" in value:
            parts.extend(
                line[1:] for line in value.splitlines() if line[:1] in ("-", " ") and line[1:]
            )
    return "\n".join(parts) if parts else None


_EDIT_RANGE = re.compile(r"^(\d+):(\d+)$")
_WINDOW = 50  # SWE-agent's `open FILE N` shows a 100-line window around line N


def edit_range(action: Action) -> tuple[int, int] | None:
    """The lines an edit replaced when it names them (SWE-agent's `edit A:B`)."""
    if action.command is None and action.tool_name == "edit":
        argv = action.arguments.get("argv")
        if isinstance(argv, tuple) and argv and isinstance(argv[0], str):
            m = _EDIT_RANGE.match(argv[0])
            if m:
                return int(m.group(1)), int(m.group(2))
    return None


def _hits_text(text: str, lines: Sequence[str]) -> bool:
    """True when a line of the edit's old text (3+ characters, not punctuation only) is
    part of one of the hunk's lines, or one of them is part of it."""
    olds = [
        t
        for line in text.splitlines()
        if len(t := line.strip()) >= 3 and any(ch.isalnum() for ch in t)
    ]
    return any(old in line or line in old for old in olds for line in lines)


def _touches(action: Action, site: HunkSite, workdir: str | None) -> bool:
    return any(same_file(normalize_path(p, workdir), site.file) for p in action.paths)


def hunk_reach(attempt: Attempt, sites: Sequence[HunkSite]) -> list[HunkReach]:
    """For every developer hunk, the first action that read its file, that read its method
    (the whole file, or a line range overlapping the method's span) or searched for the
    method's name, and that edited it. Give the attempt with
    semantic categories (`classify(attempt, "semantic")`). Paths are matched by suffix
    (`same_file`): commands run after a `cd` are matched only when they name the file
    with enough of its path."""
    out = []
    for site in sites:
        read_file = read_method = edited = None
        match: str | None = None
        name = simple_method_name(site.method) if site.method else None
        for action in attempt.actions:
            touches = _touches(action, site, attempt.workdir)
            if action.category == READ and touches:
                if read_file is None:
                    read_file = Reach(action.index, _seconds(action, attempt))
                if read_method is None and site.method is not None:
                    span = read_range(action)  # None: the whole file, method included
                    if span is None or (
                        site.method_span is not None
                        and span[0] <= site.method_span[1]
                        and span[1] >= site.method_span[0]
                    ):
                        read_method = Reach(action.index, _seconds(action, attempt))
            elif action.category in SEARCH and read_method is None and name:
                pattern = re.compile(rf"\b{re.escape(name)}\b")
                if any(pattern.search(w) for w in _words(action)):
                    read_method = Reach(action.index, _seconds(action, attempt))
            elif action.category == EDIT and edited is None and touches:
                text, lines = edit_text(action), edit_range(action)
                if text is None and lines is not None and site.span is not None:
                    if lines[0] <= site.span[1] and lines[1] >= site.span[0]:
                        edited, match = Reach(action.index, _seconds(action, attempt)), "range"
                elif text is None:
                    edited, match = Reach(action.index, _seconds(action, attempt)), "file"
                elif _hits_text(text, site.lines):
                    edited, match = Reach(action.index, _seconds(action, attempt)), "text"
        out.append(
            HunkReach(site.index, site.file, site.method, read_file, read_method, edited, match)
        )
    return out
