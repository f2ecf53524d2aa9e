"""The `paper` profile against the study's own per-action tables.

`tools_count_detailed_{claude,gemini,qwen}.csv` (agentic-se/agentic-multihunk-repair,
`hunk4j-results/results/`) hold one row per action: bug, tool, raw command, the command name
the study parsed out of it, and its category. Each shell call is re-split here with
tree-sitter-bash and classified with the `paper` profile; the rows must agree. Where they do
not, the difference is one of the known quirks of the study's splitter, shown in the tests at
the end of this file (shell keywords taken for commands; the command right after a heredoc
dropped).

The tables are test data that is never committed: they are read from ../shared/agent-study/
(or the folder named by HUNKMETRICS_AGENT_STUDY) and the test skips when they are absent.
"""

from __future__ import annotations

import csv
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("tree_sitter_bash")

from hunkmetrics.agents import load_profile  # noqa: E402
from hunkmetrics.agents.model import Command, freeze_mapping  # noqa: E402
from hunkmetrics.agents.shell import ShellSplitter  # noqa: E402

from .fixture_paths import STUDY  # noqa: E402

TABLES = {
    "claude": "claude_code_results/claude_results/tools_count_detailed_claude.csv",
    "gemini": "gemini_cli_results/tools_count_detailed_gemini.csv",
    "qwen": "qwen_code_results/qwen_results/tools_count_detailed_qwen.csv",
}
SHELL_TOOLS = {"Bash", "run_shell_command"}
# The study names these commands by two words unless the second is a flag.
TWO_WORDS = {
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


def study_dir() -> Path:
    return Path(os.environ.get("HUNKMETRICS_AGENT_STUDY", STUDY))


def paper_name(cmd: Command) -> str:
    """The study's name for a command: `defects4j test`, `git diff`, `mvn` (for `mvn -q`)."""
    if cmd.name in TWO_WORDS and cmd.args and not cmd.args[0].startswith("-"):
        return f"{cmd.name} {cmd.args[0]}"
    return cmd.name


@dataclass
class Agreement:
    rows: int = 0
    category: int = 0
    name: int = 0
    disagreements: Counter[tuple[str, str, str, str]] = field(default_factory=Counter)


def compare(path: Path) -> Agreement:
    """Row-by-row agreement of the paper profile with one detailed table."""
    profile = load_profile("paper")
    splitter = ShellSplitter()
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    out = Agreement()
    i = 0
    while i < len(rows):
        row = rows[i]
        command = row["command"]
        if row["tool"] not in SHELL_TOOLS or not command:
            category, _ = profile.classify_tool(row["tool"], freeze_mapping({}))
            out.rows += 1
            out.category += category == row["category"]
            out.name += row["parsed_command"] == row["tool"]
            if category != row["category"]:
                out.disagreements[(row["tool"], "", row["category"], category)] += 1
            i += 1
            continue
        # a run of rows for the same call text: one or more calls of it, back to back
        j = i
        key = (row["bug"], row["tool"], command)
        while j < len(rows) and (rows[j]["bug"], rows[j]["tool"], rows[j]["command"]) == key:
            j += 1
        ours = [
            (paper_name(c), profile.classify_command(c)[0])
            for c in splitter.split(command).commands
        ]
        theirs = [(r["parsed_command"], r["category"]) for r in rows[i:j]]
        if ours and len(theirs) % len(ours) == 0:
            ours = ours * (len(theirs) // len(ours))
        for k in range(max(len(ours), len(theirs))):
            mine = ours[k] if k < len(ours) else ("<none>", "<none>")
            study = theirs[k] if k < len(theirs) else ("<none>", "<none>")
            if k < len(theirs):
                out.rows += 1
            out.category += mine[1] == study[1] and k < len(theirs)
            out.name += mine[0] == study[0] and k < len(theirs)
            if mine[1] != study[1]:
                out.disagreements[(study[0], mine[0], study[1], mine[1])] += 1
        i = j
    return out


@pytest.mark.parametrize("agent", sorted(TABLES))
def test_paper_profile_agrees_with_the_study_tables(agent):
    path = study_dir() / "hunk4j-results" / "results" / TABLES[agent]
    if not path.is_file():
        pytest.skip(f"{path} is not present (the study's per-action tables)")
    result = compare(path)
    assert result.rows > 0
    share = result.category / result.rows
    print(f"{agent}: {result.category}/{result.rows} rows agree on the category ({share:.2%}),")
    print(f"{agent}: {result.name}/{result.rows} on the parsed command name")
    for (theirs, mine, cat_theirs, cat_mine), n in result.disagreements.most_common(15):
        print(f"  {n:5d}  study {theirs!r} -> {cat_theirs}; here {mine!r} -> {cat_mine}")
    assert share >= 0.97


def category_table(path: Path) -> list[tuple[str, str, int]]:
    """(command as the study named it, its category, how many actions) from the detailed
    breakdown of COMMAND_CATEGORIES.md."""
    out: list[tuple[str, str, int]] = []
    category = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            category = line[4:].split(" ")[0]
        elif line.startswith("## ") and category is not None:
            break
        elif category and line.startswith("| ") and "`" in line:
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) >= 3 and cells[0].isdigit():
                out.append((cells[1].strip("`"), category, int(cells[2].replace(",", ""))))
    return out


def classify_study_name(name: str) -> str:
    """The paper category of a name from the study's table: a native tool when a tool rule
    names it, else the command those words name (`defects4j test`, `ls`, `[`)."""
    profile = load_profile("paper")
    category, rule = profile.classify_tool(name, freeze_mapping({}))
    if not rule.endswith("default-tool"):
        return category
    words = tuple(name.split()) or (name,)
    return profile.classify_command(Command(words[0].rsplit("/", 1)[-1], words, name))[0]


# Shell keywords that the study's splitter, falling back to plain text on scripts bashlex could
# not parse, took for commands (UTIL). tree-sitter-bash parses those scripts, so the keywords
# never reach the classifier as commands; the commands inside them are counted instead.
KEYWORDS = {"if", "then", "else", "fi", "for", "while", "do", "done", "case"}


def test_paper_profile_agrees_with_the_study_category_table():
    path = study_dir() / "agent_command_statistics" / "COMMAND_CATEGORIES.md"
    if not path.is_file():
        pytest.skip(f"{path} is not present (the study's category table)")
    table = category_table(path)
    total = sum(n for _, _, n in table)
    # 64,380 in the table's own header; 8 actions of OTHER are named by a bare newline, which
    # breaks their Markdown row, so they are not read
    assert total == 64380 - 8
    wrong = [(name, cat, n) for name, cat, n in table if classify_study_name(name) != cat]
    assert {name for name, _, _ in wrong} <= KEYWORDS
    agreed = total - sum(n for _, _, n in wrong)
    print(f"category table: {agreed}/{total} actions ({agreed / total:.2%}) agree")
    for name, cat, n in wrong:
        print(f"  {n:5d}  {name!r}: study {cat}, here {classify_study_name(name)}")


def test_known_quirk_the_command_after_a_heredoc():
    """jacksondatabind_31 (Claude) ran `cat > /tmp/test_context.java << 'EOF' … EOF` then
    `javac … && java …` in one call; the study's table has two rows for it, `cat` (READ) and
    `java` (BUILD); `javac` is missing, lost with the heredoc the study strips before parsing.
    Here all three commands count."""
    text = (
        "cat > /tmp/T.java << 'EOF'\nclass T {}\nEOF\n"
        'javac -cp "lib/*:." /tmp/T.java && java -cp "lib/*:/tmp:." T'
    )
    commands = ShellSplitter().split(text).commands
    paper = load_profile("paper")
    assert [(paper_name(c), paper.classify_command(c)[0]) for c in commands] == [
        ("cat", "READ"),
        ("javac", "BUILD"),
        ("java", "BUILD"),
    ]
