#!/usr/bin/env python3
"""Benchmark: parse a large patch and locate every hunk (package/class/method).

Generates a synthetic Java project (seeded, deterministic), commits it as `base`, makes
N edits per file, commits that as `fixed`, and measures on `git diff base fixed`:

  parse     hunkmetrics.read_patch only
  git-rev   parse + resolve sources from git revision `base` + locate every hunk
  worktree  the same from a working tree holding `fixed` (the tool derives the pre-image)
  diff-only locate from the diff's own lines, no repository

Each measurement runs in a fresh interpreter so that its peak RSS is its own.

    python benchmarks/bench_locate.py [--files 500 --hunks-per-file 10]

This is a standalone script, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _common import compact_json, mib, snapshot_hunkmetrics, vm_hwm_kib
from _common import machine as common_machine

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "locate.json"
GIT = [
    "git",
    "-c",
    "user.name=b",
    "-c",
    "user.email=b@example.org",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "core.autocrlf=false",
]
MODES = ("parse", "git-rev", "worktree", "diff-only")
MODE_TEXT = {
    "parse": "(a) parse only",
    "git-rev": "(b) parse + sources from rev base + locate",
    "worktree": "(c) parse + sources from worktree of fixed + locate",
    "diff-only": "(d) parse + locate from the diff alone",
}
TARGET_MODE = "git-rev"
TARGET_SECONDS = 10.0
TARGET_MIB = 1024.0
MIN_IN_METHOD = 0.95
MIN_GAP = 8  # unchanged lines between two edits, so that git keeps them as separate hunks


# --------------------------------------------------------------------------- generation

VERBS = [
    "compute",
    "load",
    "store",
    "merge",
    "validate",
    "render",
    "resolve",
    "update",
    "collect",
    "apply",
    "build",
    "check",
    "flush",
    "parse",
    "normalize",
    "scan",
    "index",
    "convert",
    "publish",
    "reset",
    "schedule",
    "fetch",
    "filter",
    "count",
]
NOUNS = [
    "Total",
    "Items",
    "Cache",
    "Entry",
    "Config",
    "Batch",
    "Report",
    "State",
    "Window",
    "Buffer",
    "Record",
    "Limits",
    "Names",
    "Offsets",
    "Tokens",
    "Path",
    "Header",
    "Score",
    "Range",
    "Queue",
    "Handler",
    "Result",
    "Weights",
    "Index",
]
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "omega",
    "north",
    "south",
    "amber",
    "coral",
    "ivory",
    "lemon",
    "olive",
    "pearl",
    "slate",
    "topaz",
]
# (declaration as written, type as hunkmetrics names it in a method's parameter list)
PARAM_TYPES = [
    ("int", "int"),
    ("int", "int"),
    ("long", "long"),
    ("double", "double"),
    ("boolean", "boolean"),
    ("String", "String"),
    ("String", "String"),
    ("char", "char"),
    ("List<String>", "List"),
    ("Map<String, Integer>", "Map"),
    ("Map<String, List<Integer>>", "Map"),
    ("Set<? extends Number>", "Set"),
    ("int[]", "int[]"),
    ("String[]", "String[]"),
    ("byte[]", "byte[]"),
    ("Optional<Long>", "Optional"),
    ("Function<String, Integer>", "Function"),
    ("final int", "int"),
    ("final String", "String"),
    ("Object", "Object"),
]
VARARGS = [("Object...", "Object..."), ("String...", "String...")]
RETURNS = ["void", "void", "int", "long", "String", "boolean", "List<String>", "double"]
RETURN_EXPR = {
    "int": "counter + {n}",
    "long": "(long) counter * {n}L",
    "String": 'name + "{w}" + {n}',
    "boolean": "counter > {n}",
    "List<String>": "new ArrayList<>(names.subList(0, Math.min({n}, names.size())))",
    "double": "counter / {n}.0",
}
MODIFIERS = [
    "public",
    "public",
    "private",
    "protected",
    "",
    "public static",
    "private static",
    "public final",
    "public synchronized",
]
IMPORTS = [
    "java.util.ArrayList",
    "java.util.Comparator",
    "java.util.HashMap",
    "java.util.List",
    "java.util.Map",
    "java.util.Objects",
    "java.util.Optional",
    "java.util.Set",
    "java.util.function.Function",
    "java.util.stream.Collectors",
]


@dataclass
class Editable:
    """A one-line statement that an edit may modify, delete or insert after."""

    method: str  # the qualified method name hunkmetrics should report for it
    deletable: bool  # an expression statement (not a declaration others may use)


class JavaFile:
    """Builds one Java source file line by line, remembering which lines are statements
    inside a named method (and which method)."""

    def __init__(self, rng: random.Random, package: str, class_name: str) -> None:
        self.rng = rng
        self.package = package
        self.class_name = class_name
        self.lines: list[str] = []
        self.editable: list[Editable | None] = []
        self.uid = 0
        self.anon: dict[str, int] = {}  # anonymous-class counters per enclosing type
        self.methods = 0  # named callables written (constructors and anonymous run() too)

    # -- helpers
    def emit(self, depth: int, text: str, editable: Editable | None = None) -> None:
        self.lines.append(("    " * depth + text) if text else "")
        self.editable.append(editable)

    def next_uid(self) -> int:
        self.uid += 1
        return self.uid

    def n(self) -> int:
        return self.rng.randint(2, 97)

    # -- statements
    def statement(self, depth: int, method: str, ints: list[str]) -> None:
        rng, u, n = self.rng, self.next_uid(), self.n()
        var = rng.choice(ints) if ints else "counter"
        kind = rng.randrange(9)
        if kind == 0:
            self.emit(
                depth, f"int v{u} = {var} * {n} + {rng.randint(1, 9)};", Editable(method, False)
            )
            ints.append(f"v{u}")
        elif kind == 1:
            self.emit(
                depth,
                f'String s{u} = "{rng.choice(WORDS)}-" + {var} + {n};',
                Editable(method, False),
            )
        elif kind == 2:
            self.emit(depth, f"counter += {var} % {n};", Editable(method, True))
        elif kind == 3:
            self.emit(depth, f"counter = Math.max(counter, {var} - {n});", Editable(method, True))
        elif kind == 4:
            self.emit(depth, f'log("{rng.choice(WORDS)} {u}", {var}, {n});', Editable(method, True))
        elif kind == 5:
            self.emit(
                depth,
                f'cache.computeIfAbsent("k{u}", k -> new ArrayList<>()).add({n});',
                Editable(method, True),
            )
        elif kind == 6:
            self.emit(depth, f"names.add(String.valueOf({var} + {n}));", Editable(method, True))
        elif kind == 7:
            self.emit(
                depth, f"long t{u} = System.nanoTime() / {n * 1000};", Editable(method, False)
            )
        else:
            self.emit(
                depth, f'Objects.requireNonNull(name, "name {u} at {n}");', Editable(method, True)
            )

    def statements(self, depth: int, method: str, ints: list[str], count: int) -> None:
        for _ in range(count):
            self.statement(depth, method, ints)

    def block(self, depth: int, method: str, ints: list[str], owner: str, nesting: int) -> None:
        """One statement or compound statement at `depth`."""
        rng = self.rng
        kind = rng.randrange(12) if nesting < 2 else 0
        u, n = self.next_uid(), self.n()
        var = rng.choice(ints) if ints else "counter"
        inner = list(ints)
        if kind <= 3:
            self.statement(depth, method, ints)
        elif kind == 4:
            self.emit(depth, f"if ({var} > {n}) {{")
            self.body(depth + 1, method, inner, owner, nesting + 1, rng.randint(1, 3))
            if rng.random() < 0.5:
                self.emit(depth, "} else {")
                self.body(depth + 1, method, list(ints), owner, nesting + 1, rng.randint(1, 2))
            self.emit(depth, "}")
        elif kind == 5:
            self.emit(depth, f"for (int i{u} = 0; i{u} < {n}; i{u}++) {{")
            self.body(depth + 1, method, inner + [f"i{u}"], owner, nesting + 1, rng.randint(1, 3))
            self.emit(depth, "}")
        elif kind == 6:
            self.emit(depth, f"for (String item{u} : names) {{")
            self.emit(depth + 1, f"int len{u} = item{u}.length() + {n};", Editable(method, False))
            self.body(depth + 1, method, inner + [f"len{u}"], owner, nesting + 1, rng.randint(1, 2))
            self.emit(depth, "}")
        elif kind == 7:  # a block lambda: still the enclosing method
            self.emit(depth, f"names.forEach(entry{u} -> {{")
            self.emit(depth + 1, f"int h{u} = entry{u}.hashCode() % {n};", Editable(method, False))
            self.statements(depth + 1, method, inner + [f"h{u}"], rng.randint(1, 3))
            self.emit(depth, "});")
        elif kind == 8:  # a multi-line stream pipeline with expression lambdas
            self.emit(depth, f"List<String> picked{u} = names.stream()")
            self.emit(depth + 2, f".filter(s -> s.length() > {n % 7})")
            self.emit(depth + 2, ".map(String::trim)")
            self.emit(depth + 2, ".sorted(Comparator.comparing(String::length))")
            self.emit(depth + 2, ".collect(Collectors.toList());")
        elif kind == 9:
            self.emit(depth, "try {")
            self.body(depth + 1, method, inner, owner, nesting + 1, rng.randint(1, 3))
            self.emit(depth, f"}} catch (IllegalStateException e{u}) {{")
            self.emit(depth + 1, f"log(e{u}.getMessage(), counter, {n});", Editable(method, True))
            self.emit(depth, "}")
        elif kind == 10:
            self.emit(depth, f"switch ({var} % 3) {{")
            for label in ("case 0:", "case 1:", "default:"):
                self.emit(depth + 1, label)
                self.statements(depth + 2, method, list(ints), rng.randint(1, 2))
                if label != "default:":
                    self.emit(depth + 2, "break;")
            self.emit(depth, "}")
        else:  # an anonymous class: its method is Owner$k.run()
            self.anon[owner] = self.anon.get(owner, 0) + 1
            anon_method = f"{owner}${self.anon[owner]}.run()"
            self.methods += 1
            self.emit(depth, f"Runnable task{u} = new Runnable() {{")
            self.emit(depth + 1, "@Override")
            self.emit(depth + 1, "public void run() {")
            self.statements(depth + 2, anon_method, [], rng.randint(1, 3))
            self.emit(depth + 1, "}")
            self.emit(depth, "};")
            self.emit(depth, f"task{u}.run();", Editable(method, True))

    def body(
        self, depth: int, method: str, ints: list[str], owner: str, nesting: int, count: int
    ) -> None:
        for _ in range(count):
            self.block(depth, method, ints, owner, nesting)

    # -- members
    def method(self, depth: int, owner: str, lines_budget: int, ctor: str | None = None) -> None:
        rng = self.rng
        params: list[tuple[str, str, str]] = []  # (decl, named type, name)
        for k in range(rng.choice([0, 1, 1, 2, 2, 3, 3, 4])):
            decl, named = rng.choice(PARAM_TYPES)
            params.append((decl, named, f"p{k}"))
        if rng.random() < 0.08:
            decl, named = rng.choice(VARARGS)
            params.append((decl, named, "rest"))
        if ctor:
            name, ret, mods, doc = ctor, None, "public", f"Creates a {ctor}"
        else:
            verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
            name, ret, mods = verb + noun, rng.choice(RETURNS), rng.choice(MODIFIERS)
            doc = f"{verb.capitalize()}s the {noun.lower()}"
        qualified = f"{owner}.{name}({','.join(named for _, named, _ in params)})"
        self.methods += 1
        if rng.random() < 0.4:
            self.emit(depth, "/**")
            self.emit(depth, f" * {doc} of the {rng.choice(WORDS)} group.")
            for _, _, pname in params:
                self.emit(depth, f" * @param {pname} the {rng.choice(WORDS)} input")
            self.emit(depth, " */")
        if rng.random() < 0.1:
            self.emit(depth, '@SuppressWarnings("unchecked")')
        sig = ", ".join(f"{decl} {pname}" for decl, _, pname in params)
        head = " ".join(x for x in (mods, ret, f"{name}({sig})") if x)
        if rng.random() < 0.15:
            head += " throws IllegalStateException"
        self.emit(depth, head + " {")
        ints = [p for decl, _, p in params if decl in ("int", "final int", "long")]
        start = len(self.lines)
        while len(self.lines) - start < lines_budget:
            self.block(depth + 1, qualified, ints, owner, 0)
        if ret and ret != "void":
            expr = RETURN_EXPR[ret].format(n=self.n(), w=rng.choice(WORDS))
            self.emit(depth + 1, f"return {expr};")
        self.emit(depth, "}")
        self.emit(depth, "")

    def fields(self, depth: int) -> None:
        rng = self.rng
        self.emit(depth, f"private static final int LIMIT = {self.n()};")
        self.emit(depth, "private final Map<String, List<Integer>> cache = new HashMap<>();")
        self.emit(depth, "private final List<String> names = new ArrayList<>();")
        self.emit(depth, "private int counter;")
        self.emit(depth, "private String name;")
        for _ in range(rng.randint(0, 3)):
            self.emit(depth, f"private double {rng.choice(WORDS)}{self.next_uid()} = {self.n()}.5;")
        self.emit(depth, "")

    def build(self, methods: int, target_lines: int) -> str:
        rng = self.rng
        top = f"{self.package}.{self.class_name}"
        self.emit(0, f"package {self.package};")
        self.emit(0, "")
        for imp in IMPORTS:
            self.emit(0, f"import {imp};")
        self.emit(0, "")
        self.emit(0, "/**")
        self.emit(0, f" * {self.class_name}: generated for the hunkmetrics locate benchmark.")
        self.emit(0, " */")
        self.emit(0, f"public class {self.class_name} {{")
        self.fields(1)
        nested = rng.randint(0, 2)
        nested_methods = [rng.randint(2, 4) for _ in range(nested)]
        top_methods = max(1, methods - sum(nested_methods) - 1)  # -1: the constructor
        remaining = [top_methods + sum(nested_methods) + 1]

        def budget_now() -> int:
            """Body lines for the next method, so that the file ends near target_lines
            (a method also has its signature, javadoc, return, brace and blank line)."""
            left = target_lines - len(self.lines) - 6 - 8 * nested
            share = max(3, left // remaining[0] - 6)
            remaining[0] -= 1
            return rng.randint(max(2, share * 2 // 3), share * 4 // 3)

        self.method(1, top, budget_now(), ctor=self.class_name)
        order = ["m"] * top_methods + [f"n{k}" for k in range(nested)]
        rng.shuffle(order)
        for item in order:
            if item == "m":
                self.method(1, top, budget_now())
                continue
            k = int(item[1:])
            inner = f"Helper{k}"
            self.emit(1, f"static class {inner} {{")
            self.emit(2, "private final Map<String, List<Integer>> cache = new HashMap<>();")
            self.emit(2, "private final List<String> names = new ArrayList<>();")
            self.emit(2, "private int counter;")
            self.emit(2, "private String name;")
            self.emit(2, "")
            for _ in range(nested_methods[k]):
                self.method(2, f"{top}.{inner}", budget_now())
            self.emit(2, "private void log(String message, Object... args) {")
            self.emit(3, "System.out.println(message + args.length);")
            self.emit(2, "}")
            self.emit(1, "}")
            self.emit(1, "")
        self.emit(1, "private void log(String message, Object... args) {")
        self.emit(2, 'System.err.println(message + " " + args.length);')
        self.emit(1, "}")
        self.emit(0, "}")
        return "\n".join(self.lines) + "\n"


@dataclass
class Edit:
    lo: int  # 1-based pre-image lines lo..hi changed (an addition: inserted after lo)
    hi: int
    kind: str  # modify, add, delete
    method: str


def plan_edits(rng: random.Random, jf: JavaFile, count: int) -> list[Edit]:
    """`count` edits, each on statements of one method, at least MIN_GAP unchanged lines
    apart from each other (random greedy placement, retried a few times if crowded)."""
    best: list[Edit] = []
    for _attempt in range(50):
        edits = _place_edits(rng, jf, count)
        if len(edits) == count:
            return sorted(edits, key=lambda e: e.lo)
        best = max(best, edits, key=len)
    raise SystemExit(
        f"only {len(best)} edits fit {MIN_GAP} lines apart in a file of "
        f"{len(jf.lines)} lines; lower --hunks-per-file"
    )


def _place_edits(rng: random.Random, jf: JavaFile, count: int) -> list[Edit]:
    lines = jf.lines
    candidates = [i + 1 for i, e in enumerate(jf.editable) if e is not None]
    rng.shuffle(candidates)
    edits: list[Edit] = []
    for line in candidates:
        if len(edits) == count:
            break
        info = jf.editable[line - 1]
        assert info is not None
        kind = rng.choices(["modify", "add", "delete"], weights=[5, 3, 2])[0]
        hi = line
        if kind in ("modify", "delete") and rng.random() < 0.35:
            nxt = jf.editable[line] if line < len(lines) else None
            if (
                nxt is not None
                and nxt.method == info.method
                and (kind == "modify" or nxt.deletable)
            ):
                hi = line + 1
        if kind == "delete" and not info.deletable:
            kind = "modify"
        if any(line - MIN_GAP - 1 < e.hi and e.lo < hi + MIN_GAP + 1 for e in edits):
            continue
        edits.append(Edit(line, hi, kind, info.method))
    return edits


_LITERAL = re.compile(r"\b\d+\b")


def apply_edits(rng: random.Random, jf: JavaFile, edits: list[Edit], tag: str) -> str:
    out: list[str] = []
    cursor = 0
    for k, edit in enumerate(edits):
        out.extend(jf.lines[cursor : edit.lo - 1])
        region = jf.lines[edit.lo - 1 : edit.hi]
        indent = region[0][: len(region[0]) - len(region[0].lstrip())]
        fresh = f"{tag}_{k}"
        if edit.kind == "modify":  # an off-by-something fix: bump the first literal
            for text in region:
                fixed = _LITERAL.sub(lambda m: str(int(m.group()) + 1), text, count=1)
                out.append(fixed if fixed != text else f"{text} // checked {fresh}")
            if rng.random() < 0.3:
                out.append(f"{indent}counter = Math.min(counter, LIMIT); // fix {fresh}")
        elif edit.kind == "add":
            out.extend(region)
            shape = rng.randrange(3)
            if shape == 0:
                out.append(f'{indent}Objects.requireNonNull(name, "{fresh}");')
            elif shape == 1:
                out.append(f"{indent}if (counter > LIMIT) {{ // guard {fresh}")
                out.append(f"{indent}    counter = LIMIT;")
                out.append(f"{indent}}}")
            else:
                out.append(f'{indent}log("{fresh}", counter);')
                out.append(f"{indent}counter = Math.abs(counter);")
        # delete: drop the region
        cursor = edit.hi
    out.extend(jf.lines[cursor:])
    return "\n".join(out) + "\n"


def git(repo: Path, *args: str, capture: bool = False) -> str:
    done = subprocess.run(
        [*GIT, "-C", str(repo), *args], check=True, capture_output=True, text=True
    )
    return done.stdout if capture else ""


def generate(work: Path, files: int, packages: int, per_file: int, seed: int) -> dict:
    """Write the project, commit base and fixed, write the patch and the expected
    methods; returns a summary."""
    rng = random.Random(seed)
    repo = work / "repo"
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    width = max(3, len(str(files - 1)))
    pwidth = max(2, len(str(packages - 1)))
    plans: list[tuple[str, JavaFile, list[Edit]]] = []
    line_counts, method_counts = [], []
    for i in range(files):
        pkg = f"pkg{i % packages:0{pwidth}d}"
        cls = f"Class{i:0{width}d}"
        rel = f"src/main/java/com/example/{pkg}/{cls}.java"
        jf = JavaFile(random.Random(rng.random()), f"com.example.{pkg}", cls)
        target = rng.randint(310, 550)  # the last blocks overshoot by up to ~40 lines
        methods = rng.randint(15, max(15, min(30, (target - 60) // 17)))  # ~17 lines each
        text = jf.build(methods, target)
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        line_counts.append(len(jf.lines))
        method_counts.append(jf.methods)
        plans.append((rel, jf, plan_edits(random.Random(rng.random()), jf, per_file)))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "tag", "base")
    expected: dict[str, list[list]] = {}
    for n, (rel, jf, edits) in enumerate(plans):
        (repo / rel).write_text(apply_edits(random.Random(seed * 7919 + n), jf, edits, f"f{n}"))
        expected[rel] = [[e.lo, e.hi, e.kind, e.method] for e in edits]
    git(repo, "commit", "-q", "-a", "-m", "fixed")
    git(repo, "tag", "fixed")
    patch = work / "fix.diff"
    diff = subprocess.run(
        [*GIT, "-C", str(repo), "diff", "base", "fixed"], check=True, capture_output=True
    ).stdout
    patch.write_bytes(diff)
    hunks = len(re.findall(rb"^@@ ", diff, re.M))
    (work / "expected.json").write_text(json.dumps(expected))
    kinds = [e[2] for v in expected.values() for e in v]
    return {
        "files": files,
        "packages": packages,
        "hunks_per_file": per_file,
        "seed": seed,
        "lines_total": sum(line_counts),
        "lines_min": min(line_counts),
        "lines_max": max(line_counts),
        "methods_per_file_mean": round(sum(method_counts) / len(method_counts), 1),
        "edits": {k: kinds.count(k) for k in ("modify", "add", "delete")},
        "patch_bytes": len(diff),
        "patch_sha1": hashlib.sha1(diff).hexdigest(),
        "patch_hunks": hunks,
    }


# --------------------------------------------------------------------------- child


def child(mode: str, patch: str, repo: str, out: str, profile: str | None) -> None:
    t_start = time.perf_counter()
    import hunkmetrics

    t_import = time.perf_counter()
    rss_import = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    t0 = time.perf_counter()
    located = None
    if mode == "parse":
        parsed = hunkmetrics.read_patch(patch)
        hunks = len(parsed.hunks)
    elif mode == "git-rev":
        with hunkmetrics.open_workspace(patch, repo=repo, rev="base") as ws:
            located = ws.located()
    elif mode == "worktree":
        with hunkmetrics.open_workspace(patch, repo=repo) as ws:
            located = ws.located()
    elif mode == "diff-only":
        with hunkmetrics.open_workspace(patch) as ws:
            located = ws.located()
    else:
        raise SystemExit(f"unknown mode {mode}")
    t1 = time.perf_counter()
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    result = {
        "mode": mode,
        "seconds": t1 - t0,
        "import_seconds": t_import - t_start,
        "hunkmetrics_file": hunkmetrics.__file__,
        "ru_maxrss_kib": usage.ru_maxrss,
        "ru_maxrss_after_import_kib": rss_import,
        "vm_hwm_kib": vm_hwm_kib(),
        "git_children_maxrss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    }
    if located is not None:
        hunks = len(located)
        result["in_method"] = sum(1 for item in located if item.location.method)
        result["placements"] = [
            [item.file.path, list(item.hunk.changed_lines), item.location.method]
            for item in located
        ]
    result["hunks"] = hunks
    Path(out).write_text(json.dumps(result))


# --------------------------------------------------------------------------- parent


def run_child(mode: str, work: Path, profile: Path | None = None) -> dict:
    out = work / f"result-{mode}.json"
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        mode,
        "--patch",
        str(work / "fix.diff"),
        "--repo",
        str(work / "repo"),
        "--out",
        str(out),
    ]
    if profile:
        cmd += ["--profile-out", str(profile)]
    env = dict(os.environ)
    snapshot = work / "snapshot"
    if snapshot.is_dir():
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(snapshot), env.get("PYTHONPATH")) if p)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, env=env)
    result = json.loads(out.read_text())
    result["process_seconds"] = time.perf_counter() - t0
    return result


def check_placements(result: dict, expected: dict[str, list[list]]) -> dict:
    """Compare each hunk's method with the method its edit was made in."""
    misses, wrong = [], []
    for path, changed, method in result["placements"]:
        edits = expected.get(path, [])
        want = next((e[3] for e in edits if changed and e[0] <= changed[0] <= e[1]), None)
        if method is None:
            misses.append((path, changed, want))
        elif method != want:
            wrong.append((path, changed, method, want))
    return {"misses": misses, "wrong": wrong}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=500)
    ap.add_argument("--packages", type=int, default=25)
    ap.add_argument("--hunks-per-file", type=int, default=10)
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--repeat", type=int, default=3, help="runs per mode; the best is kept")
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated subset")
    ap.add_argument("--keep", type=Path, help="generate into this directory and keep it")
    ap.add_argument(
        "--profile",
        action="store_true",
        help="also run mode git-rev once under cProfile and print the top entries",
    )
    ap.add_argument("--out", type=Path, default=RESULTS, help="where to write the JSON")
    ap.add_argument(
        "--no-snapshot",
        action="store_true",
        help="import hunkmetrics live in each run instead of from a copy taken at the start",
    )
    ap.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    ap.add_argument("--generate-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--patch", help=argparse.SUPPRESS)
    ap.add_argument("--repo", help=argparse.SUPPRESS)
    ap.add_argument("--profile-out", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.child:
        child(args.child, args.patch, args.repo, str(args.out), args.profile_out)
        return 0
    if args.generate_only:
        summary = generate(args.keep, args.files, args.packages, args.hunks_per_file, args.seed)
        (args.keep / "summary.json").write_text(json.dumps(summary))
        return 0

    modes = [m for m in args.modes.split(",") if m]
    if bad := [m for m in modes if m not in MODES]:
        ap.error(f"unknown mode(s) {bad}; choose from {', '.join(MODES)}")
    if args.keep:
        if args.keep.exists() and any(args.keep.iterdir()):
            ap.error(f"{args.keep} is not empty")
        args.keep.mkdir(parents=True, exist_ok=True)
        return run(args, modes, args.keep.resolve())
    with tempfile.TemporaryDirectory(prefix="bench-locate-") as tmp:
        return run(args, modes, Path(tmp))


def run(args: argparse.Namespace, modes: list[str], work: Path) -> int:
    info = common_machine()
    print(
        f"machine: {info['cpu_model'] or info['processor']}, {info['cpu_count']} CPUs, "
        f"{info['implementation']} {info['python']}, {info['system']}, {info['git']}"
    )
    # Generating in a child keeps this process small: a child's ru_maxrss includes the
    # parent's peak at the time it was started.
    t0 = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--generate-only",
            "--keep",
            str(work),
            "--files",
            str(args.files),
            "--packages",
            str(args.packages),
            "--hunks-per-file",
            str(args.hunks_per_file),
            "--seed",
            str(args.seed),
        ]
    )
    if done.returncode != 0:
        print("generating the project failed", file=sys.stderr)
        return done.returncode
    summary = json.loads((work / "summary.json").read_text())
    measured = snapshot_hunkmetrics(work, copy=not args.no_snapshot)
    print(
        f"hunkmetrics from {measured['source']} (commit {measured['commit']}, "
        f"{measured['uncommitted_changes']} uncommitted change(s))"
        + (", copied for this run" if measured["snapshot"] else "")
    )
    want = args.files * args.hunks_per_file
    print(
        f"generated {summary['files']} files in {summary['packages']} packages, "
        f"{summary['lines_total']:,} lines ({summary['lines_min']}-{summary['lines_max']} "
        f"per file, ~{summary['methods_per_file_mean']} methods each); "
        f"edits {summary['edits']}; patch {summary['patch_bytes'] / 2**20:.1f} MiB, "
        f"{summary['patch_hunks']} hunks [{time.perf_counter() - t0:.1f} s]"
    )
    assert summary["patch_hunks"] == want, (
        f"the patch has {summary['patch_hunks']} @@ hunks, expected {want}"
    )
    expected = json.loads((work / "expected.json").read_text())

    rows: dict[str, dict] = {}
    failures: list[str] = []
    for mode in modes:
        runs = [run_child(mode, work) for _ in range(args.repeat)]
        best = min(runs, key=lambda r: r["seconds"])
        row = {
            "seconds_best": round(best["seconds"], 3),
            "seconds_all": [round(r["seconds"], 3) for r in runs],
            "process_seconds_best": round(min(r["process_seconds"] for r in runs), 3),
            "import_seconds": round(best["import_seconds"], 3),
            "peak_rss_mib": mib(max(r["ru_maxrss_kib"] for r in runs)),
            "vm_hwm_mib": mib(max((r["vm_hwm_kib"] or 0) for r in runs) or None),
            "rss_after_import_mib": mib(best["ru_maxrss_after_import_kib"]),
            "git_children_peak_rss_mib": mib(max(r["git_children_maxrss_kib"] for r in runs)),
            "hunks": best["hunks"],
        }
        if "placements" in best:
            check = check_placements(best, expected)
            row["in_method"] = best["in_method"]
            row["method_as_edited"] = best["hunks"] - len(check["misses"]) - len(check["wrong"])
            row["misses_sample"] = check["misses"][:5]
            row["wrong_sample"] = check["wrong"][:5]
            if mode != "diff-only":
                share = best["in_method"] / max(1, best["hunks"])
                if share < MIN_IN_METHOD:
                    failures.append(f"{mode}: only {share:.1%} of hunks placed in a method")
                for miss in check["misses"][:20]:
                    print(
                        f"  {mode}: no method for {miss[0]} lines {miss[1]} (edited in {miss[2]})"
                    )
                if len(check["misses"]) > 20:
                    print(f"  ... and {len(check['misses']) - 20} more")
        if row["hunks"] != want:
            failures.append(f"{mode}: {row['hunks']} hunks, expected {want}")
        rows[mode] = row
        print(
            f"  {mode:<9} best {row['seconds_best']:7.2f} s  "
            f"peak RSS {row['peak_rss_mib']:7.1f} MiB  ({len(runs)} runs)",
            flush=True,
        )

    print()
    head = (
        f"{'measurement':<54}{'best s':>8}{'proc s':>8}{'RSS MiB':>9}{'hunks':>7}"
        f"{'in method':>11}{'as edited':>11}"
    )
    print(head)
    print("-" * len(head))
    for mode, row in rows.items():
        print(
            f"{MODE_TEXT[mode]:<54}{row['seconds_best']:>8.2f}"
            f"{row['process_seconds_best']:>8.2f}{row['peak_rss_mib']:>9.1f}"
            f"{row['hunks']:>7}{row.get('in_method', '-'):>11}"
            f"{row.get('method_as_edited', '-'):>11}"
        )
    print(
        "best s: the measured work, best of runs; proc s: the whole child process "
        "(interpreter start + import + work); RSS: ru_maxrss of the child, max of runs"
    )

    targets = {}
    if TARGET_MODE in rows:
        row = rows[TARGET_MODE]
        targets = {
            "time": {
                "limit_s": TARGET_SECONDS,
                "measured_s": row["process_seconds_best"],
                "pass": row["process_seconds_best"] < TARGET_SECONDS,
            },
            "memory": {
                "limit_mib": TARGET_MIB,
                "measured_mib": row["peak_rss_mib"],
                "pass": row["peak_rss_mib"] < TARGET_MIB,
            },
        }
        print()
        for name, t in targets.items():
            limit = t.get("limit_s", t.get("limit_mib"))
            got = t.get("measured_s", t.get("measured_mib"))
            unit = "s" if "limit_s" in t else "MiB"
            print(
                f"target {MODE_TEXT[TARGET_MODE]}: {name} {got} {unit} < {limit} {unit}: "
                f"{'PASS' if t['pass'] else 'FAIL'}"
            )
    for failure in failures:
        print(f"CHECK FAILED: {failure}")

    document = {
        "benchmark": "locate",
        "machine": info,
        "hunkmetrics": measured,
        "workload": summary,
        "results": {
            m: {k: v for k, v in r.items() if not k.endswith("_sample")} for m, r in rows.items()
        },
        "targets": targets,
        "checks_failed": failures,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(compact_json(document))
    print(f"wrote {args.out}")

    if args.profile:
        prof = work / "git-rev.prof"
        run_child(TARGET_MODE, work, profile=prof)
        import pstats

        for key in ("cumulative", "tottime"):
            print(f"\ncProfile of {MODE_TEXT[TARGET_MODE]}, by {key}:")
            pstats.Stats(str(prof)).sort_stats(key).print_stats(25)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
