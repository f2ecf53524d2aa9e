"""Action categories as data: a profile is a TOML rules file under `agents/categories/`.

`load_profile("semantic")` (the default) or `load_profile("paper")` reads a packaged profile;
a path reads your own. `Profile.classify_tool` and `Profile.classify_command` return the
category and the id of the rule that decided it (`<profile>:<rule id>`, or
`<profile>:default-tool` / `<profile>:default-command` when no rule matched).
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from hunkmetrics.agents.model import Command, JSONValue
from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.inputfile import read_input

RULES_MAX_BYTES = 16 * 1024 * 1024  # a rules file is a few KB

PROFILES = ("semantic", "paper")
_RULE_KEYS = frozenset(
    {
        "id",
        "category",
        "tool",
        "tool_regex",
        "argument",
        "command",
        "command_glob",
        "subcommand",
        "any_arg",
        "arg_prefix",
        "arg_regex",
        "path_glob",
        "input_regex",
        "writes_file",
    }
)
_NOT_FILES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "-"})
_STDOUT_INTO = frozenset({">", ">>", ">|", "1>", "1>>", "&>", "&>>"})
_WRAPPER_KEYS = frozenset(
    {"value_flags", "positional", "assignments", "skip", "rules_first", "needs_skip"}
)


class ProfileError(HunkmetricsError):
    """A category rules file is missing or malformed."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One classification rule; every condition given must hold."""

    id: str
    category: str
    tools: frozenset[str] = frozenset()
    tool_regex: re.Pattern[str] | None = None
    argument: tuple[tuple[str, frozenset[str]], ...] = ()
    commands: frozenset[str] = frozenset()
    command_globs: tuple[str, ...] = ()
    # The globs as one compiled pattern (fnmatch per glob per command is the slow part).
    glob_pattern: re.Pattern[str] | None = field(default=None, compare=False, repr=False)
    subcommands: frozenset[str] = frozenset()
    any_args: frozenset[str] = frozenset()
    arg_prefixes: tuple[str, ...] = ()
    arg_regex: re.Pattern[str] | None = None
    path_globs: tuple[str, ...] = ()
    input_regex: re.Pattern[str] | None = None
    writes_file: bool | None = None

    @property
    def for_tools(self) -> bool:
        return bool(self.tools) or self.tool_regex is not None

    def matches_tool(self, name: str, arguments: Mapping[str, JSONValue]) -> bool:
        if self.tools and name not in self.tools:
            return False
        if self.tool_regex is not None and not self.tool_regex.search(name):
            return False
        for key, allowed in self.argument:
            value = arguments.get(key)
            if not isinstance(value, str) or value not in allowed:
                return False
        return True

    def matches_command(self, cmd: Command) -> bool:
        return self.failed_condition(cmd) is None

    def failed_condition(self, cmd: Command) -> str | None:
        """The key of the first condition `cmd` fails (None: the rule matches); cheap, no
        message is made (`command_failure` says what the condition wanted)."""
        if (self.commands or self.command_globs) and not (
            cmd.name in self.commands or self._globbed(cmd.name)
        ):
            return "command"
        args = cmd.args
        if self.subcommands and (not args or args[0] not in self.subcommands):
            return "subcommand"
        if self.any_args and not any(a in self.any_args for a in args):
            return "any_arg"
        if self.arg_prefixes and not any(a.startswith(self.arg_prefixes) for a in args):
            return "arg_prefix"
        if self.arg_regex is not None and not any(self.arg_regex.search(a) for a in args):
            return "arg_regex"
        path = cmd.argv[0]
        if self.path_globs and not any(fnmatch.fnmatchcase(path, g) for g in self.path_globs):
            return "path_glob"
        if self.input_regex is not None and not any(
            self.input_regex.search(r.body if r.op == "<<" else r.target)
            for r in cmd.redirects
            if r.op in ("<<", "<<<")
        ):
            return "input_regex"
        if self.writes_file is not None and self.writes_file != writes_file(cmd):
            return "writes_file"
        return None

    def _globbed(self, name: str) -> bool:
        pattern = self.glob_pattern
        if pattern is None and self.command_globs:  # a Rule made by hand, not parsed
            return any(fnmatch.fnmatchcase(name, g) for g in self.command_globs)
        return pattern is not None and pattern.match(name) is not None

    def command_failure(self, cmd: Command) -> tuple[str, str] | None:
        """The first condition `cmd` fails, as (key, what it wanted), or None when the rule
        matches (for `--explain`)."""
        key = self.failed_condition(cmd)
        if key is None:
            return None
        return key, self._wanted(key)

    def _wanted(self, key: str) -> str:
        """What condition `key` asks for, in words."""
        if key == "command":
            return _listed(sorted(self.commands) + list(self.command_globs))
        if key == "subcommand":
            return "first argument " + _listed(sorted(self.subcommands))
        if key == "any_arg":
            return "an argument " + _listed(sorted(self.any_args))
        if key == "arg_prefix":
            return "an argument starting " + _listed(list(self.arg_prefixes))
        if key == "arg_regex":
            return f"an argument matching /{_pattern(self.arg_regex)}/"
        if key == "path_glob":
            return "the command written as " + _listed(list(self.path_globs))
        if key == "input_regex":
            return f"a heredoc or here-string matching /{_pattern(self.input_regex)}/"
        return "output redirected into a file" if self.writes_file else "no output file"

    def tool_failure(self, name: str, arguments: Mapping[str, JSONValue]) -> tuple[str, str] | None:
        """As `command_failure`, for a non-shell tool call."""
        if self.tools and name not in self.tools:
            return "tool", _listed(sorted(self.tools))
        if self.tool_regex is not None and not self.tool_regex.search(name):
            return "tool_regex", f"a name matching /{self.tool_regex.pattern}/"
        for key, allowed in self.argument:
            value = arguments.get(key)
            if not isinstance(value, str) or value not in allowed:
                return "argument", f"{key} " + _listed(sorted(allowed)) + f", got {value!r}"
        return None


def _pattern(regex: re.Pattern[str] | None) -> str:
    return regex.pattern if regex is not None else ""


def _listed(values: list[str]) -> str:
    shown = ", ".join(repr(v) for v in values[:6])
    more = f", … ({len(values) - 6} more)" if len(values) > 6 else ""
    return f"one of {shown}{more}" if len(values) > 1 else shown + more


def writes_file(cmd: Command) -> bool:
    """True when the command's standard output is redirected into a real file (`>`, `>>`,
    `>|`, `1>`, `&>`; not `2>`, not `>&2`, not /dev/null)."""
    return any(red.op in _STDOUT_INTO and red.target not in _NOT_FILES for red in cmd.redirects)


@dataclass(frozen=True, slots=True)
class Wrapper:
    """A command that runs another one (`timeout 60 mvn test`, `xargs grep x`, `npx jest`,
    `python tests/runtests.py`): its flags (`value_flags` take a value), then `positional`
    words of its own, then one of the `skip` words when present (`uv run`, `bundle exec`),
    then `VAR=value` words when `assignments`, then the wrapped command. A lone `-` (a
    script read from standard input) wraps nothing. With `rules_first`, the rules that
    name the wrapper itself are tried before it is looked through (`python -m pytest`,
    `yarn build`)."""

    value_flags: frozenset[str] = frozenset()
    positional: int = 0
    assignments: bool = False
    skip: frozenset[str] = frozenset()
    rules_first: bool = False
    needs_skip: bool = False  # looked through only after a skip word (`npm exec`, not `npm ls`)

    def inner(self, cmd: Command) -> Command | None:
        argv, i, own = cmd.argv, 1, self.positional
        skipped = False
        while i < len(argv):
            word = argv[i]
            if word in self.value_flags:
                i += 2
            elif word.startswith("-") and word != "-":
                i += 1
            elif own > 0:
                own, i = own - 1, i + 1
            elif not skipped and word in self.skip:
                skipped, i = True, i + 1
            elif self.assignments and "=" in word and not word.startswith("="):
                i += 1
            else:
                break
        if i >= len(argv) or argv[i] == "-" or (self.needs_skip and not skipped):
            return None
        rest = argv[i:]
        return Command(
            rest[0].rsplit("/", 1)[-1] or rest[0], rest, cmd.text, cmd.start, cmd.redirects
        )


_MAX_WRAPPING = 8


@dataclass(frozen=True, slots=True)
class NearMiss:
    """A rule that was tried for an action's name (command or tool) but did not fire:
    `condition` is the key that failed (`subcommand`, `any_arg`, `arg_prefix`, `arg_regex`,
    `writes_file`, `argument`) and `wanted` what it asked for. `after` is True for a rule
    listed after the one that fired (never tried; `condition` is empty when it would have
    matched too)."""

    rule: str
    category: str
    condition: str
    wanted: str
    after: bool = False


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why an action got its category: the rule id as `classify_*` gives it, the rule that
    fired (None: the default), the wrappers looked through with the command each ran, the
    name the rules were tried on, and the near misses in rule order."""

    category: str
    rule: str
    fired: str | None
    name: str
    wrappers: tuple[tuple[str, str], ...] = ()
    near: tuple[NearMiss, ...] = ()


@dataclass(frozen=True, slots=True)
class Profile:
    """A named, ordered list of rules over a fixed set of categories.

    A command named in `wrappers` is classified by the command it wraps (the rule id then
    says `via <wrapper>`); `by_name` indexes the command rules that can match each name."""

    name: str
    description: str
    categories: tuple[str, ...]
    tool_rules: tuple[Rule, ...]
    command_rules: tuple[Rule, ...]
    default_tool: str
    default_command: str
    wrappers: Mapping[str, Wrapper] = field(default_factory=dict)
    by_name: Mapping[str, tuple[Rule, ...]] = field(default_factory=dict)
    glob_rules: tuple[Rule, ...] = ()

    def classify_tool(self, name: str, arguments: Mapping[str, JSONValue]) -> tuple[str, str]:
        for rule in self.tool_rules:
            if rule.matches_tool(name, arguments):
                return rule.category, f"{self.name}:{rule.id}"
        return self.default_tool, f"{self.name}:default-tool"

    def classify_command(self, cmd: Command) -> tuple[str, str]:
        via: list[str] = []
        for _ in range(_MAX_WRAPPING):
            wrapper = self.wrappers.get(cmd.name)
            if wrapper is None:
                break
            if wrapper.rules_first:
                named = self._named_rule(cmd)
                if named is not None:
                    return self._decided(named, via)
            inner = wrapper.inner(cmd)
            if inner is None:
                break
            via.append(cmd.name)
            cmd = inner
        for rule in self.by_name.get(cmd.name, self.glob_rules):
            if rule.matches_command(cmd):
                return self._decided(rule, via)
        suffix = f" (via {' > '.join(via)})" if via else ""
        return self.default_command, f"{self.name}:default-command{suffix}"

    def _named_rule(self, cmd: Command) -> Rule | None:
        """The first rule that names this command (not by a glob) and matches it."""
        for rule in self.by_name.get(cmd.name, ()):
            if cmd.name in rule.commands and rule.matches_command(cmd):
                return rule
        return None

    def _decided(self, rule: Rule, via: list[str]) -> tuple[str, str]:
        suffix = f" (via {' > '.join(via)})" if via else ""
        return rule.category, f"{self.name}:{rule.id}{suffix}"

    def unwrap(self, cmd: Command) -> tuple[Command, tuple[tuple[str, str], ...]]:
        """The command the rules are tried on, and each wrapper looked through to reach it
        with the words it ran (as `classify_command` does)."""
        via: list[tuple[str, str]] = []
        for _ in range(_MAX_WRAPPING):
            wrapper = self.wrappers.get(cmd.name)
            if wrapper is None or (wrapper.rules_first and self._named_rule(cmd) is not None):
                break
            inner = wrapper.inner(cmd)
            if inner is None:
                break
            via.append((cmd.name, " ".join(inner.argv)))
            cmd = inner
        return cmd, tuple(via)

    def explain_command(self, cmd: Command) -> Explanation:
        """`classify_command`'s answer with its reasons: the wrappers looked through and
        the rules for the same command name that did not fire (slower; for `--explain`)."""
        category, rule_id = self.classify_command(cmd)
        inner, via = self.unwrap(cmd)
        fired, near = _sift(
            (rule, rule.command_failure(inner))
            for rule in self.by_name.get(inner.name, self.glob_rules)
        )
        return Explanation(category, rule_id, fired, inner.name, via, near)

    def explain_tool(self, name: str, arguments: Mapping[str, JSONValue]) -> Explanation:
        """`classify_tool`'s answer with the rules for the same tool name that did not
        fire (their argument condition failed)."""
        category, rule_id = self.classify_tool(name, arguments)
        fired, near = _sift((rule, rule.tool_failure(name, arguments)) for rule in self.tool_rules)
        return Explanation(category, rule_id, fired, name, (), near)


_OTHER_NAMES = frozenset({"command", "tool", "tool_regex"})  # a rule for other names


def _sift(
    checked: Iterable[tuple[Rule, tuple[str, str] | None]],
) -> tuple[str | None, tuple[NearMiss, ...]]:
    """The first rule that matched, and the rules for the same name that did not (or came
    after the one that did: `later`), with the condition each failed."""
    fired: str | None = None
    near: list[NearMiss] = []
    for rule, failure in checked:
        if failure is not None and failure[0] in _OTHER_NAMES:
            continue
        if fired is None and failure is None:
            fired = rule.id
        elif fired is None and failure is not None:
            near.append(NearMiss(rule.id, rule.category, *failure))
        else:
            near.append(NearMiss(rule.id, rule.category, *(failure or ("", "")), True))
    return fired, tuple(near)


def load_profile(profile: str | Path = "semantic") -> Profile:
    """A packaged profile by name (`semantic`, `paper`) or a rules file by path."""
    if isinstance(profile, str) and profile in PROFILES:
        return _packaged(profile)
    path = Path(profile)
    if not path.exists():
        raise ProfileError(f"{profile}: no such category profile (packaged: {', '.join(PROFILES)})")
    try:
        text = read_input(path, "category rules", limit=RULES_MAX_BYTES).decode("utf-8")
    except (HunkmetricsError, UnicodeDecodeError) as exc:
        raise ProfileError(f"{profile}: {exc}") from None
    return parse_profile(text, str(path))


@cache
def _packaged(name: str) -> Profile:
    text = resources.files("hunkmetrics.agents").joinpath(f"categories/{name}.toml").read_text()
    return parse_profile(text, f"{name}.toml")


def _strings(value: object, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(str(v) for v in value)
    raise ProfileError(f"{where}: expected a string or a list of strings")


def _regex(value: object, where: str) -> re.Pattern[str] | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ProfileError(f"{where}: expected a regular expression string")
    try:
        return re.compile(value)
    except re.error as exc:
        raise ProfileError(f"{where}: bad regular expression: {exc}") from exc


def _rule(raw: object, index: int, source: str, categories: tuple[str, ...]) -> Rule:
    where = f"{source}: rule {index + 1}"
    if not isinstance(raw, dict):
        raise ProfileError(f"{where}: expected a table")
    unknown = set(raw) - _RULE_KEYS
    if unknown:
        raise ProfileError(f"{where}: unknown keys {sorted(unknown)}")
    rid, category = raw.get("id"), raw.get("category")
    if not isinstance(rid, str) or not isinstance(category, str):
        raise ProfileError(f"{where}: needs a string `id` and `category`")
    if category not in categories:
        raise ProfileError(f"{where} ({rid}): category {category!r} is not declared")
    argument = raw.get("argument", {})
    if not isinstance(argument, dict):
        raise ProfileError(f"{where} ({rid}): `argument` must be a table")
    writes = raw.get("writes_file")
    if writes is not None and not isinstance(writes, bool):
        raise ProfileError(f"{where} ({rid}): `writes_file` must be true or false")
    rule = Rule(
        id=rid,
        category=category,
        tools=frozenset(_strings(raw.get("tool", []), where)),
        tool_regex=_regex(raw.get("tool_regex"), where),
        argument=tuple(
            (str(k), frozenset(_strings(v, where))) for k, v in sorted(argument.items())
        ),
        commands=frozenset(_strings(raw.get("command", []), where)),
        command_globs=(globs := _strings(raw.get("command_glob", []), where)),
        glob_pattern=re.compile("|".join(fnmatch.translate(g) for g in globs)) if globs else None,
        subcommands=frozenset(_strings(raw.get("subcommand", []), where)),
        any_args=frozenset(_strings(raw.get("any_arg", []), where)),
        arg_prefixes=_strings(raw.get("arg_prefix", []), where),
        arg_regex=_regex(raw.get("arg_regex"), where),
        path_globs=_strings(raw.get("path_glob", []), where),
        input_regex=_regex(raw.get("input_regex"), where),
        writes_file=writes,
    )
    is_command = bool(rule.commands or rule.command_globs)
    if rule.for_tools == is_command:
        raise ProfileError(f"{where} ({rid}): give either tool/tool_regex or command/command_glob")
    return rule


def parse_profile(text: str, source: str = "<profile>") -> Profile:
    """A profile from TOML text (see `categories/semantic.toml` for the keys)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{source}: {exc}") from exc
    head = data.get("profile")
    if not isinstance(head, dict):
        raise ProfileError(f"{source}: missing [profile] table")
    name = head.get("name")
    if not isinstance(name, str) or not name:
        raise ProfileError(f"{source}: [profile] needs a name")
    categories = _strings(head.get("categories"), f"{source}: categories")
    defaults = (head.get("default_tool"), head.get("default_command"))
    for value in defaults:
        if value not in categories:
            raise ProfileError(
                f"{source}: default_tool/default_command must be declared categories"
            )
    rules_raw = data.get("rule", [])
    if not isinstance(rules_raw, list):
        raise ProfileError(f"{source}: `rule` must be an array of tables")
    rules = [_rule(raw, i, source, categories) for i, raw in enumerate(rules_raw)]
    ids = [r.id for r in rules]
    if len(set(ids)) != len(ids):
        raise ProfileError(f"{source}: rule ids must be unique")
    command_rules = tuple(r for r in rules if not r.for_tools)
    names = {n for r in command_rules for n in r.commands}
    return Profile(
        name=name,
        description=str(head.get("description", "")),
        categories=categories,
        tool_rules=tuple(r for r in rules if r.for_tools),
        command_rules=command_rules,
        default_tool=str(defaults[0]),
        default_command=str(defaults[1]),
        wrappers=_wrappers(data.get("wrappers", {}), source),
        by_name={
            n: tuple(r for r in command_rules if n in r.commands or r.command_globs) for n in names
        },
        glob_rules=tuple(r for r in command_rules if r.command_globs),
    )


def _wrappers(raw: object, source: str) -> dict[str, Wrapper]:
    if not isinstance(raw, dict):
        raise ProfileError(f"{source}: [wrappers] must be a table of tables")
    out: dict[str, Wrapper] = {}
    for name, spec in raw.items():
        where = f"{source}: wrappers.{name}"
        if not isinstance(spec, dict) or set(spec) - _WRAPPER_KEYS:
            raise ProfileError(f"{where}: keys are {', '.join(sorted(_WRAPPER_KEYS))}")
        positional = spec.get("positional", 0)
        assignments = spec.get("assignments", False)
        rules_first = spec.get("rules_first", False)
        needs_skip = spec.get("needs_skip", False)
        if not isinstance(positional, int) or not isinstance(assignments, bool):
            raise ProfileError(f"{where}: positional is a number, assignments true or false")
        if not isinstance(rules_first, bool) or not isinstance(needs_skip, bool):
            raise ProfileError(f"{where}: rules_first and needs_skip are true or false")
        flags = frozenset(_strings(spec.get("value_flags", []), where))
        skip = frozenset(_strings(spec.get("skip", []), where))
        out[str(name)] = Wrapper(flags, positional, assignments, skip, rules_first, needs_skip)
    return out
