"""Per-attempt metrics, each worked out by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hunkmetrics.agents import read_trajectory
from hunkmetrics.agents.metrics import (
    HunkSite,
    category_shares,
    command_key,
    compilation,
    edit_cycles,
    hunk_reach,
    localization_success,
    ngrams,
    pooled_shares,
    read_range,
    regression_reduction,
    repaired,
    same_file,
    simple_method_name,
    unique_native_tools,
    unique_shell_commands,
)
from hunkmetrics.agents.model import (
    Action,
    Attempt,
    Command,
    Outcome,
    ToolCall,
    freeze_mapping,
)

from .fixture_paths import FIXTURES

T0 = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)


def _action(
    index: int,
    category: str,
    tool: str = "T",
    args: dict[str, object] | None = None,
    paths: tuple[str, ...] = (),
    seconds: float | None = None,
    command: Command | None = None,
) -> Action:
    call = ToolCall(
        index=index,
        step=1,
        tool_name=tool,
        arguments=freeze_mapping(args or {}),
        timestamp=T0 + timedelta(seconds=seconds) if seconds is not None else None,
        paths=paths,
    )
    return Action(index, call, command, category, "test:rule", paths)


def _attempt(*actions: Action, workdir: str | None = "/w") -> Attempt:
    return Attempt(
        agent="a",
        source_format="test",
        source_path="x",
        workdir=workdir,
        started_at=T0,
        calls=tuple(a.call for a in actions),
        actions=actions,
    )


# ------------------------------------------------------------------ the study's equations


def test_compilation_is_the_harness_flag() -> None:
    assert compilation(Outcome(compiled=True)) is True
    assert compilation(Outcome(compiled=False, failing_after=0)) is False
    assert compilation(Outcome()) is None
    assert compilation(None) is None


def test_regression_reduction_is_before_minus_after_when_it_compiled() -> None:
    assert regression_reduction(True, 4, 0) == 4
    assert regression_reduction(True, 2, 5) == -3  # the patch broke three more tests
    assert regression_reduction(True, 3, 3) == 0


def test_regression_reduction_is_undefined_not_zero_without_compilation() -> None:
    assert regression_reduction(False, 1, 0) is None
    assert regression_reduction(None, 1, 0) is None
    assert regression_reduction(True, None, 0) is None


def test_repaired_needs_a_non_empty_compiling_patch_with_no_failing_test() -> None:
    assert repaired(True, True, 0) is True
    assert repaired(False, True, 0) is False  # empty patch
    assert repaired(True, False, 0) is False  # did not compile (the study's after count is 0)
    assert repaired(True, True, 1) is False


def test_localization_success_is_a_file_superset_of_a_compiling_patch() -> None:
    dev = ["a/X.java", "b/Y.java"]
    assert localization_success(True, True, ["a/X.java", "b/Y.java", "c/Z.java"], dev)
    assert not localization_success(True, True, ["a/X.java"], dev)
    assert not localization_success(True, False, dev, dev)
    assert not localization_success(False, True, dev, dev)


# ------------------------------------------------------------------ utilization


def test_shares_of_four_actions() -> None:
    acts = [_action(i, c) for i, c in enumerate(["READ", "READ", "WRITE", "TEST"])]
    assert category_shares(acts) == {"READ": 0.5, "WRITE": 0.25, "TEST": 0.25}
    assert category_shares([]) == {}


def test_pooled_shares_weigh_every_action_the_same() -> None:
    # Attempt 1: 3 WRITE of 4; attempt 2: 0 WRITE of 6. Pooled: 3 of 10 = 0.3 (the mean of
    # the two attempts' shares would be 0.375).
    shares = pooled_shares([{"WRITE": 3, "READ": 1}, {"READ": 4, "TEST": 2}])
    assert shares == {"WRITE": 0.3, "READ": 0.5, "TEST": 0.2}
    assert pooled_shares([]) == {}


def test_ngrams_of_a_short_sequence() -> None:
    seq = ["READ", "WRITE", "TEST", "WRITE", "TEST"]
    grams = ngrams(seq, 2)
    assert grams[("WRITE", "TEST")] == 2
    assert grams[("READ", "WRITE")] == 1
    assert grams[("TEST", "WRITE")] == 1
    assert ngrams(seq, 6) == {}
    with pytest.raises(ValueError):
        ngrams(seq, 0)


def test_command_key_keeps_the_second_word_of_the_studys_two_word_commands() -> None:
    assert command_key(Command("defects4j", ("defects4j", "test"), "")) == "defects4j test"
    assert command_key(Command("mvn", ("mvn", "-q", "test"), "")) == "mvn"
    assert command_key(Command("grep", ("grep", "-rn", "x"), "")) == "grep"


def test_unique_tools_and_commands_of_the_claude_fixture() -> None:
    attempt = read_trajectory(FIXTURES / "claude" / "session.jsonl")
    # Native calls: Read, MAPLE, Task, Grep, Edit, TodoWrite; Bash runs cd, defects4j
    # compile, tail, then defects4j test.
    assert unique_native_tools(attempt) == (
        "Edit",
        "Grep",
        "Read",
        "Task",
        "TodoWrite",
        "mcp__maple__maple_find_method_in_class",
    )
    assert unique_shell_commands(attempt) == ("cd", "defects4j compile", "defects4j test", "tail")


# ------------------------------------------------------------------ cycles


def test_edit_cycles() -> None:
    cats = ["READ", "WRITE", "WRITE", "BUILD", "TEST", "WRITE", "TEST", "WRITE"]
    cycles = edit_cycles([_action(i, c) for i, c in enumerate(cats)])
    # WRITE WRITE → BUILD is one cycle (TEST right after adds none), WRITE → TEST another;
    # the last WRITE is never validated.
    assert (cycles.count, cycles.edits, cycles.validations) == (2, 4, 3)
    assert cycles.last_edit_validated is False
    assert edit_cycles([_action(0, "WRITE"), _action(1, "TEST")]).last_edit_validated is True
    assert edit_cycles([_action(0, "READ")]).last_edit_validated is None


# ------------------------------------------------------------------ fault-site reach


def test_paths_match_at_directory_boundaries() -> None:
    assert same_file("/w/src/a/Foo.java", "src/a/Foo.java")
    assert same_file("Foo.java", "src/a/Foo.java")
    assert not same_file("/w/src/a/BarFoo.java", "src/a/Foo.java")


def test_method_names() -> None:
    assert simple_method_name("org.x.Foo.draw(int, String)") == "draw"
    assert simple_method_name("Outer$Inner#run()") == "run"


def test_read_ranges() -> None:
    assert read_range(_action(0, "READ", "Read", {"offset": 40, "limit": 20})) == (40, 59)
    assert read_range(_action(0, "READ", "read_file", {"start_line": 5, "end_line": 9})) == (5, 9)
    assert read_range(_action(0, "READ", "Read", {"file_path": "x"})) is None
    sed = Command("sed", ("sed", "-n", "120,180p", "F.java"), "sed -n 120,180p F.java")
    assert read_range(_action(0, "READ", "Bash", command=sed)) == (120, 180)


def test_hunk_reach() -> None:
    site = HunkSite(0, "src/a/Foo.java", "a.Foo.draw(int)", (100, 130), ("if (x > 0) {",))
    other = HunkSite(1, "src/a/Bar.java", None, None, ("return y;",))
    attempt = _attempt(
        _action(0, "READ", "Read", {"offset": 1, "limit": 50}, ("/w/src/a/Foo.java",), 10),
        _action(1, "SEARCH_CONTENT", "Grep", {"pattern": "redraw"}, (), 20),
        _action(2, "READ", "Read", {"offset": 90, "limit": 20}, ("/w/src/a/Foo.java",), 30),
        _action(3, "WRITE", "Edit", {"old_string": "y = 1;"}, ("/w/src/a/Foo.java",), 40),
        _action(4, "WRITE", "Edit", {"old_string": "  if (x > 0)"}, ("/w/src/a/Foo.java",), 50),
        _action(5, "SEARCH_CONTENT", "Grep", {"pattern": "draw\\("}, (), 60),
    )
    first, second = hunk_reach(attempt, [site, other])
    # Lines 1-50 miss the method (100-130); 90-109 overlap it. "redraw" is not the name
    # "draw". The first edit replaces text the hunk does not change; the second does.
    assert first.read_file is not None and first.read_file.action == 0
    assert first.read_file.at_s == 10.0
    assert first.read_method is not None and first.read_method.action == 2
    assert first.edited is not None and first.edited.action == 4
    assert first.edited.at_s == 50.0 and first.edit_match == "text"
    assert (second.read_file, second.read_method, second.edited) == (None, None, None)


def test_a_search_finds_the_method_by_name_and_a_sed_edit_counts_for_the_file() -> None:
    site = HunkSite(0, "src/a/Foo.java", "a.Foo.draw(int)", None, ("x = 1;",))
    sed = Command("sed", ("sed", "-i", "s/a/b/", "src/a/Foo.java"), "sed -i s/a/b/ src/a/Foo.java")
    attempt = _attempt(
        _action(0, "SEARCH_CONTEXT", "maple_find_method", {"method_name": "draw"}, (), None),
        _action(1, "WRITE", "Bash", paths=("src/a/Foo.java",), command=sed),
    )
    (reach,) = hunk_reach(attempt, [site])
    assert reach.read_method is not None and reach.read_method.action == 0
    assert reach.read_method.at_s is None  # the log had no times
    assert reach.edited is not None and reach.edit_match == "file"


# ------------------------------------------------------------------ properties

CATEGORIES = st.sampled_from(["READ", "WRITE", "TEST", "BUILD", "SEARCH_CONTENT", "OTHER"])


@given(st.lists(CATEGORIES, min_size=1, max_size=60))
def test_shares_sum_to_one(cats: list[str]) -> None:
    shares = category_shares([_action(i, c) for i, c in enumerate(cats)])
    assert sum(shares.values()) == pytest.approx(1.0)


@given(st.lists(CATEGORIES, max_size=60), st.integers(min_value=1, max_value=6))
def test_ngram_counts_sum_to_actions_minus_window_plus_one(cats: list[str], w: int) -> None:
    assert sum(ngrams(cats, w).values()) == max(0, len(cats) - w + 1)


@given(
    st.one_of(st.none(), st.booleans()),
    st.integers(min_value=0, max_value=50),
    st.integers(min_value=0, max_value=50),
)
def test_rr_is_undefined_exactly_when_compilation_failed(
    compiled: bool | None, before: int, after: int
) -> None:
    rr = regression_reduction(compiled, before, after)
    assert (rr is None) == (compiled is not True)
    if rr is not None:
        assert rr == before - after


def test_tokens_sum_equals_adding_one_by_one() -> None:
    from types import MappingProxyType

    from hunkmetrics.agents.model import Tokens

    a = Tokens(10, 5, 1, 7, 2, MappingProxyType({"input_tokens": 16, "x": 1}))
    b = Tokens(1, 0, 3, 4, 0, MappingProxyType({"input_tokens": 4}))
    total = Tokens.sum([a, b], "both")
    assert (total.input_uncached, total.cache_read, total.cache_write) == (11, 5, 4)
    assert (total.output, total.reasoning, total.total) == (11, 2, 33)
    assert dict(total.raw) == {"input_tokens": 20, "x": 1}
    assert total.source == "both"
    assert Tokens.sum([]).total == 0


def test_classification_memo_tells_tool_calls_apart_by_the_arguments_rules_read() -> None:
    from hunkmetrics.agents import load_profile
    from hunkmetrics.agents.build import classify_calls

    def call(i: int, args: dict[str, object]) -> ToolCall:
        path = args.get("path")
        paths = (path,) if isinstance(path, str) else ()
        return ToolCall(i, 1, "str_replace_editor", arguments=freeze_mapping(args), paths=paths)

    # view reads, str_replace writes; an object-valued `command` (never a rule's string)
    # falls through to the default and must not break the memo.
    calls = [
        call(0, {"command": "view", "path": "a.py"}),
        call(1, {"command": "str_replace", "path": "a.py"}),
        call(2, {"command": "view", "path": "b.py"}),
        call(3, {"command": {"odd": 1}}),
    ]
    actions = classify_calls(calls, load_profile("semantic"))
    assert [a.category for a in actions] == ["READ", "WRITE", "READ", "OTHER"]
    assert actions[2].paths == ("b.py",)  # each action keeps its own call's paths


def test_line_range_edits_and_windowed_reads() -> None:
    # SWE-agent: `open F 293` shows lines 243-343; `edit 10:12` misses the hunk (lines
    # 285-293), `edit 287:295` overlaps it.
    site = HunkSite(0, "pkg/h.py", "h.get", (250, 320), ("'Rows', 'Columns',",), (285, 293))
    attempt = _attempt(
        _action(0, "READ", "open", {"path": "pkg/h.py", "line_number": "293"}, ("pkg/h.py",)),
        _action(1, "WRITE", "edit", {"argv": ("10:12",), "text": "x"}, ("/w/pkg/h.py",)),
        _action(2, "WRITE", "edit", {"argv": ("287:295",), "text": "y"}, ("/w/pkg/h.py",)),
    )
    assert read_range(attempt.actions[0]) == (243, 343)
    (reach,) = hunk_reach(attempt, [site])
    assert reach.read_method is not None and reach.read_method.action == 0
    assert reach.edited is not None and reach.edited.action == 2
    assert reach.edit_match == "range"
