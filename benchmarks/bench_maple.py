#!/usr/bin/env python3
"""Benchmark: MAPLE's index and tools on a large real Java repository.

First as a user meets it: `hunkmetrics maple --rev HEAD` started by the official MCP
client over stdio, cold (empty cache) and warm (a restart on the cache), the time until
the tools are listed; then every tool called through that client over queries built from
the repository's own class and method names and lines (mostly hits, one in ten a
near-miss), p50/p95/p99 per tool; the server's peak memory against the index's size on
disk, the imports alone and the same server on the 11-file fixture project; and a
one-character `maple_find_code("e")` sent beside other calls, with those calls' latency
while it runs. Then, in this process, the tools' own time (no transport)
and the cold and warm start of the index alone.

    python benchmarks/bench_maple.py [--repo /work/.mirror/spring-projects+spring-framework/repo]
        [--rev HEAD] [--queries 150] [--out benchmarks/results/maple_spring.json]

This is a standalone script, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import compact_json, machine, snapshot_hunkmetrics

DEFAULT_REPO = "/work/.mirror/spring-projects+spring-framework/repo"

_START = """
import json, sys, time
def memory(cache):
    import pathlib, re
    status = pathlib.Path("/proc/self/status").read_text()
    rss = int(re.search(r"VmRSS:\\s*(\\d+)", status).group(1)) / 1024
    size = sum(f.stat().st_size for f in pathlib.Path(cache).rglob("*") if f.is_file())
    return {"rss_mib": round(rss, 1), "cache_mib": round(size / 2**20, 1)}
t0 = time.perf_counter()
from hunkmetrics.maple import open_index
index = open_index(sys.argv[1], sys.argv[2], cache_dir=sys.argv[3], jobs=2)
elapsed = time.perf_counter() - t0
from collections import Counter
languages = Counter(r.index.language for r in index.files.values())
print(json.dumps({"seconds": elapsed, "files": len(index.files), "parsed": index.parsed,
                  "languages": dict(sorted(languages.items())),
                  "scopes": sum(r.scope_count for r in index.files.values()),
                  "held_mib": {k: round(v / 2**20, 2) for k, v in index.held_bytes().items()},
                  "warnings": len(index.warnings), **memory(sys.argv[3])}))
"""


def start(repo: str, rev: str, cache: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _START, repo, rev, str(cache)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


_START_TREE = """
import json, sys, time
def memory(cache):
    import pathlib, re
    status = pathlib.Path("/proc/self/status").read_text()
    rss = int(re.search(r"VmRSS:\\s*(\\d+)", status).group(1)) / 1024
    size = sum(f.stat().st_size for f in pathlib.Path(cache).rglob("*") if f.is_file())
    return {"rss_mib": round(rss, 1), "cache_mib": round(size / 2**20, 1)}
t0 = time.perf_counter()
from hunkmetrics.maple import open_index
index = open_index(sys.argv[1], cache_dir=sys.argv[2], jobs=2)
elapsed = time.perf_counter() - t0
from collections import Counter
languages = Counter(r.index.language for r in index.files.values())
print(json.dumps({"seconds": elapsed, "files": len(index.files), "parsed": index.parsed,
                  "languages": dict(sorted(languages.items())),
                  "lines": sum(r.index.line_count - 1 for r in index.files.values()),
                  **memory(sys.argv[2])}))
"""


def corpus(mirrors: Path, work: Path) -> dict[str, Any]:
    """Cold and warm start on a working tree holding the HEAD of every mirrored
    repository with Java files side by side (about 10,000 Java files)."""
    tree = work / "corpus"
    tree.mkdir()
    repos = []
    for repo in sorted(mirrors.glob("*/repo")):
        listing = subprocess.run(
            ["git", "-C", str(repo), "ls-tree", "-r", "-z", "HEAD"], capture_output=True
        ).stdout.split(b"\0")
        java = []
        for entry in listing:
            meta, _, path = entry.partition(b"\t")
            if path.endswith(b".java") and meta.split()[1:2] == [b"blob"]:
                java.append((meta.split()[2], path.decode("utf-8", "surrogateescape")))
        if not java:
            continue
        # Blobs one by one through cat-file (a mirror may lack its largest non-source files,
        # so `git archive` can fail).
        out = subprocess.run(
            ["git", "-C", str(repo), "cat-file", "--batch"],
            input=b"".join(blob + b"\n" for blob, _ in java),
            capture_output=True,
            check=True,
        ).stdout
        at = 0
        for _, path in java:
            end = out.index(b"\n", at)
            header = out[at:end].split()
            at = end + 1
            if len(header) != 3:
                continue  # missing object
            size = int(header[2])
            target = tree / repo.parent.name / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(out[at : at + size])
            at += size + 1
        repos.append(repo.parent.name)
    cache = work / "corpus-cache"
    runs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", _START_TREE, str(tree), str(cache)],
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(done.stdout))
    cold, warm = runs
    from hunkmetrics.maple import open_index

    index = open_index(tree, cache_dir=cache)
    rescans = []
    for _ in range(20):  # what a due rescan adds to an answer when nothing changed
        t0 = time.perf_counter()
        index.ensure_current(max_age=0.0)
        rescans.append((time.perf_counter() - t0) * 1000)
    return {
        "repositories": repos,
        "files": cold["files"],
        "files_by_language": cold["languages"],
        "lines": cold["lines"],
        "cold_seconds": round(cold["seconds"], 2),
        "cold_files_parsed": cold["parsed"],
        "warm_seconds": round(warm["seconds"], 2),
        "warm_files_parsed": warm["parsed"],
        "cache_mib": warm["cache_mib"],
        "cold_rss_mib": cold["rss_mib"],
        "warm_rss_mib": warm["rss_mib"],
        "rescan_ms_p50": round(statistics.median(rescans), 1),
        "rescan_ms_max": round(max(rescans), 1),
        "note": "working tree; each start in a fresh interpreter, imports included; a rescan "
        "(every 2 s at most, and on a miss) stats every file",
    }


def _status_kib(pid: int, key: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _server_pid() -> int | None:
    """The `hunkmetrics maple` process the MCP client started (a child of this one)."""
    me = os.getpid()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == me and b"maple" in cmdline:
            return int(stat.parent.name)
    return None


def _mib(kib: int | None) -> float | None:
    return None if kib is None else round(kib / 1024, 1)


def user_queries(index: Any, count: int, seed: int = 7) -> dict[str, list[dict[str, Any]]]:
    """`count` calls per tool, from the repository's own names and lines: mostly hits,
    one in ten a near-miss (a name or line with a character dropped and an x added)."""
    rng = random.Random(seed)
    types = sorted(index.names.types)
    methods = sorted(index.names.callables)
    files = sorted(index.files)

    def mangle(text: str) -> str:
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1 :] + "x"

    def maybe(text: str) -> str:
        return mangle(text) if rng.random() < 0.1 else text

    def symbol(table: dict[str, list[Any]], names: list[str]) -> Any:
        return rng.choice(table[rng.choice(names)])

    def code_line() -> tuple[str, str]:
        while True:
            path = rng.choice(files)
            lines = [ln.strip() for ln in index.lines(path)]
            lines = [ln for ln in lines if len(ln) > 12]
            if lines:
                return rng.choice(lines), path

    def code() -> str:
        kind = rng.random()
        if kind < 0.6:
            return maybe(code_line()[0])  # a line of code, as an agent copies one
        if kind < 0.8:
            return maybe(symbol(index.names.callables, methods).bare) + "("  # a call
        if kind < 0.9:
            return "new " + maybe(symbol(index.names.types, types).bare)
        return maybe(rng.choice(types))  # a bare identifier

    def base(path: str) -> str:
        return path.rsplit("/", 1)[-1]

    makers: dict[str, Callable[[], dict[str, Any]]] = {
        "maple_find_class": lambda: {"class_name": maybe(rng.choice(types))},
        "maple_find_class_in_file": lambda: (
            lambda s: {"class_name": s.bare, "file_name": base(s.path)}
        )(symbol(index.names.types, types)),
        "maple_find_method": lambda: {"method_name": maybe(rng.choice(methods))},
        "maple_find_method_in_class": lambda: (
            lambda s: {
                "method_name": maybe(s.bare),
                "class_name": (s.scope.owner or "x").rsplit(".", 1)[-1],
            }
        )(symbol(index.names.callables, methods)),
        "maple_find_method_in_file": lambda: (
            lambda s: {"method_name": maybe(s.bare), "file_name": base(s.path)}
        )(symbol(index.names.callables, methods)),
        "maple_find_code": lambda: {"code_snippet": code()},
        "maple_find_code_in_file": lambda: (
            lambda lp: {"code_snippet": maybe(lp[0]), "file_name": lp[1]}
        )(code_line()),
        "maple_extract_class_skeleton": lambda: {"file_name": rng.choice(files)},
        "maple_repo_structure": lambda: {"max_depth": rng.randint(1, 12)},
        "maple_find_references": lambda: {"name": rng.choice(methods)},
        "maple_find_enclosing": lambda: (
            lambda path: {
                "file_name": path,
                "line": rng.randint(1, max(1, len(index.lines(path)))),
            }
        )(rng.choice(files)),
    }
    return {tool: [make() for _ in range(count)] for tool, make in makers.items()}


def _summary(times: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(percentile(times, 0.95), 2),
        "p99_ms": round(percentile(times, 0.99), 2),
        "max_ms": round(max(times), 2),
    }


async def _stdio(repo: str, rev: str, cache: Path, count: int, home: Path) -> dict[str, Any]:
    """Start the server cold and warm through the official MCP client (stdio), then
    call every tool through it."""
    import anyio
    from mcp import Client, StdioServerParameters

    from hunkmetrics.maple import open_index

    source = Path(snapshot_hunkmetrics.__code__.co_filename).parent.parent
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hunkmetrics", "maple", "--repo", repo, "--rev", rev]
        + ["--cache", str(cache), "--extra-tools"],
        env={"PATH": os.environ.get("PATH", ""), "HOME": str(home), "PYTHONPATH": str(source)},
    )
    out: dict[str, Any] = {}

    async def started(client: Any) -> None:
        await client.list_tools()

    # cold: an empty cache; the tools are listed once the index is built
    t0 = time.perf_counter()
    async with Client(params, read_timeout_seconds=900) as client:
        await started(client)
        out["cold_start_seconds"] = round(time.perf_counter() - t0, 2)
        pid = _server_pid()
        out["cold_peak_rss_mib"] = _mib(_status_kib(pid, "VmHWM:")) if pid else None
    index_bytes = sum(f.stat().st_size for f in cache.rglob("*") if f.is_file())
    out["index_on_disk_mib"] = round(index_bytes / 2**20, 1)
    out["index_files"] = {
        f.name: round(f.stat().st_size / 2**20, 1) for f in sorted(cache.rglob("*")) if f.is_file()
    }

    index = open_index(repo, rev, cache_dir=cache)  # to build the queries (this process)
    calls = user_queries(index, count)
    out["files"] = len(index.files)
    index.close()

    t0 = time.perf_counter()
    async with Client(params, read_timeout_seconds=900) as client:
        await started(client)
        out["warm_start_seconds"] = round(time.perf_counter() - t0, 2)
        pid = _server_pid()
        assert pid is not None, "the server process was not found"
        out["warm_rss_mib_started"] = _mib(_status_kib(pid, "VmRSS:"))

        async def timed(tool: str, arguments: dict[str, Any]) -> tuple[float, bool]:
            t = time.perf_counter()
            result = await client.call_tool(tool, arguments)
            return (time.perf_counter() - t) * 1000, bool(result.is_error)

        latency: dict[str, Any] = {}
        for tool, arguments in calls.items():
            times, misses = [], 0
            for args in arguments:
                ms, error = await timed(tool, args)
                times.append(ms)
                misses += error
            latency[tool] = {"queries": len(times), "misses": misses, **_summary(times)}
            print("stdio", tool, latency[tool], file=sys.stderr)
        out["latency"] = latency

        # maple_find_code("e") beside other calls: each other call alone, then sent
        # together with an "e" search
        others = [
            (tool, calls[tool][i])
            for i in range(20)
            for tool in ("maple_find_class", "maple_find_method", "maple_find_method_in_file")
        ]
        alone = [(await timed(t, a))[0] for t, a in others]
        beside: list[float] = []
        searches: list[float] = []
        for tool, args in others:
            found: dict[str, float] = {}

            async def one(found: dict[str, float], key: str, t: str, a: dict[str, Any]) -> None:
                found[key] = (await timed(t, a))[0]

            async with anyio.create_task_group() as group:
                group.start_soon(one, found, "e", "maple_find_code", {"code_snippet": "e"})
                await anyio.sleep(0)  # the "e" search goes out first
                group.start_soon(one, found, "other", tool, args)
            beside.append(found["other"])
            searches.append(found["e"])
        out["beside_find_code_e"] = {
            "calls": len(others),
            "others_alone": _summary(alone),
            "others_beside_e": _summary(beside),
            "find_code_e": _summary(searches),
        }
        out["peak_rss_mib"] = _mib(_status_kib(pid, "VmHWM:"))
        out["rss_mib_after"] = _mib(_status_kib(pid, "VmRSS:"))
        # resident anonymous memory (the heap) and file pages (code, libraries) at the end
        out["rss_anon_mib_after"] = _mib(_status_kib(pid, "RssAnon:"))
        out["rss_file_mib_after"] = _mib(_status_kib(pid, "RssFile:"))
    imports = subprocess.run(
        [sys.executable, "-c", _IMPORTS],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(source)},
    )
    baseline = float(imports.stdout.strip())
    floor = await _floor(home, source)
    goal = 1.5 * index_bytes / 2**20
    out["rss_mib_of_the_imports_alone"] = baseline
    out["server_floor_peak_rss_mib"] = floor
    out["memory_goal_mib"] = round(goal, 1)
    out["peak_rss_mib_above_the_imports"] = round(out["peak_rss_mib"] - baseline, 1)
    out["peak_rss_mib_above_the_floor"] = round(out["peak_rss_mib"] - floor, 1)
    out["memory_goal_met"] = {
        "peak_rss": out["peak_rss_mib"] <= goal,
        "peak_rss_above_the_imports": out["peak_rss_mib_above_the_imports"] <= goal,
        "peak_rss_above_the_floor": out["peak_rss_mib_above_the_floor"] <= goal,
    }
    return out


_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "java-project"
_FLOOR_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("maple_find_class", {"class_name": "Inventory"}),
    ("maple_find_class", {"class_name": "Inventroy"}),  # a miss: suggestions
    ("maple_find_method", {"method_name": "add"}),
    ("maple_find_method_in_class", {"method_name": "add", "class_name": "Inventory"}),
    ("maple_find_method_in_file", {"method_name": "add", "file_name": "Inventory.java"}),
    ("maple_find_class_in_file", {"class_name": "Inventory", "file_name": "Inventory.java"}),
    ("maple_find_code", {"code_snippet": "int count"}),
    ("maple_find_code_in_file", {"code_snippet": "int count", "file_name": "Inventory.java"}),
    ("maple_extract_class_skeleton", {"file_name": "Inventory.java"}),
    ("maple_repo_structure", {"max_depth": 5}),
    ("maple_find_references", {"name": "fire"}),
    ("maple_find_enclosing", {"file_name": "Inventory.java", "line": 60}),
]


async def _floor(home: Path, source: Path) -> float | None:
    """The peak RSS of the same server on the 11-file fixture project, started warm and
    called 20 times with every tool: what serving costs without a large index."""
    from mcp import Client, StdioServerParameters

    work = Path(tempfile.mkdtemp(dir=home))
    repo = work / "java-project"
    shutil.copytree(_FIXTURE, repo)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hunkmetrics", "maple", "--repo", str(repo), "--cache", str(work / "cache")]
        + ["--extra-tools"],
        env={"PATH": os.environ.get("PATH", ""), "HOME": str(home), "PYTHONPATH": str(source)},
    )
    peak = None
    for _ in ("cold", "warm"):
        async with Client(params, read_timeout_seconds=300) as client:
            await client.list_tools()
            for _ in range(20):
                for tool, arguments in _FLOOR_CALLS:
                    await client.call_tool(tool, arguments)
            pid = _server_pid()
            peak = _mib(_status_kib(pid, "VmHWM:")) if pid else None
    return peak


_IMPORTS = """
import pathlib, re
import hunkmetrics.cli.app, hunkmetrics.cli.maple_commands, hunkmetrics.maple.server
status = pathlib.Path("/proc/self/status").read_text()
print(round(int(re.search(r"VmRSS:\\s*(\\d+)", status).group(1)) / 1024, 1))
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=DEFAULT_REPO)
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--queries", type=int, default=150)
    parser.add_argument("--references", type=int, default=150)
    parser.add_argument("--out", default="benchmarks/results/maple_spring.json")
    parser.add_argument(
        "--corpus",
        default="",
        help="A folder of mirrors (<name>/repo); their HEADs side by side make the "
        "10,000-file corpus ('' to skip).",
    )
    args = parser.parse_args()

    from hunkmetrics.maple import Maple, MapleError, open_index

    load_before = os.getloadavg()

    with tempfile.TemporaryDirectory() as work:
        cache = Path(work) / "cache"
        code = snapshot_hunkmetrics(Path(work), copy=False)
        import anyio

        stdio = anyio.run(
            _stdio, args.repo, args.rev, Path(work) / "stdio-cache", args.queries, Path(work)
        )
        load_stdio = os.getloadavg()
        cold = start(args.repo, args.rev, cache)
        warm = start(args.repo, args.rev, cache)
        index = open_index(args.repo, args.rev, cache_dir=cache)
        maple = Maple(index, max_results=10)
        texts = dict(index.all_texts())  # loads every blob once, as the first find_code would
        lines = sum(t.count(b"\n") for t in texts.values())

        rng = random.Random(12)
        types = sorted(index.names.types)
        methods = sorted(index.names.callables)
        files = sorted(index.files)

        def mangle(name: str) -> str:
            i = rng.randrange(len(name))
            return name[:i] + name[i + 1 :] + "x"

        def pick_type() -> str:
            name = rng.choice(types)
            return mangle(name) if rng.random() < 0.1 else name

        def pick_method() -> str:
            name = rng.choice(methods)
            return mangle(name) if rng.random() < 0.1 else name

        def method_and_class() -> tuple[str, str]:
            symbol = rng.choice(index.names.callables[rng.choice(methods)])
            owner = (symbol.scope.owner or "x").rsplit(".", 1)[-1]
            return symbol.bare, owner

        def method_and_file() -> tuple[str, str]:
            symbol = rng.choice(index.names.callables[rng.choice(methods)])
            return symbol.bare, symbol.path.rsplit("/", 1)[-1]

        def snippet() -> tuple[str, str]:
            path = rng.choice(files)
            candidates = [ln.strip() for ln in texts[path].decode("utf-8", "replace").splitlines()]
            candidates = [ln for ln in candidates if len(ln) > 12]
            text = rng.choice(candidates) if candidates else "return"
            return (mangle(text) if rng.random() < 0.1 else text), path

        def line_in_file() -> tuple[str, int]:
            path = rng.choice(files)
            return path, rng.randint(1, max(1, texts[path].count(b"\n")))

        tools: dict[str, Callable[[], str]] = {
            "maple_find_class": lambda: maple.find_class(pick_type()),
            "maple_find_class_in_file": lambda: maple.find_class_in_file(
                *(lambda s: (s.bare, s.path))(rng.choice(index.names.types[rng.choice(types)]))
            ),
            "maple_find_method": lambda: maple.find_method(pick_method()),
            "maple_find_method_in_class": lambda: maple.find_method_in_class(*method_and_class()),
            "maple_find_method_in_file": lambda: maple.find_method_in_file(*method_and_file()),
            "maple_find_code": lambda: maple.find_code(snippet()[0]),
            "maple_find_code_in_file": lambda: maple.find_code_in_file(*snippet()),
            "maple_extract_class_skeleton": lambda: maple.extract_class_skeleton(rng.choice(files)),
            "maple_repo_structure": lambda: maple.repo_structure(rng.randint(1, 12)),
            "maple_find_enclosing": lambda: maple.find_enclosing(*line_in_file()),
            "maple_find_references": lambda: maple.find_references(rng.choice(methods)),
        }
        latency: dict[str, Any] = {}
        for name, tool in tools.items():
            count = args.references if name == "maple_find_references" else args.queries
            times: list[float] = []
            misses = 0
            for _ in range(count):
                t0 = time.perf_counter()
                try:
                    tool()
                except MapleError:
                    misses += 1
                times.append((time.perf_counter() - t0) * 1000)
            latency[name] = {
                "queries": count,
                "misses": misses,
                "p50_ms": round(statistics.median(times), 2),
                "p99_ms": round(percentile(times, 0.99), 2),
                "max_ms": round(max(times), 2),
            }
            print(name, latency[name], file=sys.stderr)
        index.close()
        big = corpus(Path(args.corpus), Path(work)) if args.corpus else None
        if big is not None:
            print("corpus", big, file=sys.stderr)

    head = subprocess.run(
        ["git", "-C", args.repo, "rev-parse", args.rev], capture_output=True, text=True
    ).stdout.strip()
    document = {
        "benchmark": "maple",
        "machine": machine(
            load_average_before=[round(x, 2) for x in load_before],
            load_average_after=[round(x, 2) for x in os.getloadavg()],
            note="the machine is shared: other jobs ran at the same time (load averages)",
        ),
        "code": code,
        "repository": {
            "path": args.repo,
            "rev": args.rev,
            "commit": head,
            "files": cold["files"],
            "files_by_language": cold["languages"],
            "lines": lines,
            "types_and_callables": cold["scopes"],
            "files_with_syntax_errors": cold["warnings"],
        },
        "index": {
            "cold_seconds": round(cold["seconds"], 2),
            "cold_files_parsed": cold["parsed"],
            "cold_seconds_per_10000_files": round(cold["seconds"] / cold["files"] * 10000, 1),
            "warm_seconds": round(warm["seconds"], 2),
            "warm_files_parsed": warm["parsed"],
            "cache_mib": warm["cache_mib"],
            "cold_rss_mib": cold["rss_mib"],
            "warm_rss_mib": warm["rss_mib"],
            "warm_held_mib": warm["held_mib"],
            "note": "each in a fresh interpreter, imports included; 2 parsing processes; "
            "RSS: of the indexing process once built (not its parsing workers); held: the "
            "index's tables in memory (RepoIndex.held_bytes)",
        },
        "mcp_stdio": {k: v for k, v in stdio.items() if k not in ("latency", "beside_find_code_e")},
        "mcp_stdio_latency": stdio["latency"],
        "mcp_stdio_beside_find_code_e": stdio["beside_find_code_e"],
        "corpus": big,
        "latency": latency,
        "targets": {
            "cold_10000_files_seconds": 60,
            "warm_seconds": 2,
            "p99_ms_every_tool_warm": 50,
            "peak_memory": "1.5 x the index on disk",
        },
    }
    document["machine"]["load_average_after_stdio"] = [round(x, 2) for x in load_stdio]
    Path(args.out).write_text(compact_json(document))
    print(compact_json(document))
    print(report(document))


def report(document: dict[str, Any]) -> str:
    """The figures a reader wants first, as text."""
    m, s = document["machine"], document["mcp_stdio"]
    out = [
        f"machine: {m['cpu_model']}, {m['cpu_count']} CPUs, {m['memory_gib']} GiB, "
        f"Python {m['python']}, {m['system']}",
        f"load average (1, 5, 15 min): before {m['load_average_before']}, after the MCP "
        f"part {m['load_average_after_stdio']}, at the end {m['load_average_after']} "
        "(the machine is shared)",
        f"repository: {document['repository']['path']} {document['repository']['rev']} "
        f"({document['repository']['commit'][:12]}), {s['files']} files indexed",
        f"MCP over stdio, official client: cold start {s['cold_start_seconds']} s, warm start "
        f"{s['warm_start_seconds']} s (until the tools are listed)",
        f"{'tool':32} {'n':>4} {'miss':>4} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7} (ms)",
    ]
    for tool, row in document["mcp_stdio_latency"].items():
        out.append(
            f"{tool:32} {row['queries']:>4} {row['misses']:>4} {row['p50_ms']:>7} "
            f"{row['p95_ms']:>7} {row['p99_ms']:>7} {row['max_ms']:>7}"
        )
    e = document["mcp_stdio_beside_find_code_e"]
    out.append(
        f"beside maple_find_code('e') ({e['calls']} calls): others alone p50/p99 "
        f"{e['others_alone']['p50_ms']}/{e['others_alone']['p99_ms']} ms, beside it "
        f"{e['others_beside_e']['p50_ms']}/{e['others_beside_e']['p99_ms']} ms; the 'e' search "
        f"p50/max {e['find_code_e']['p50_ms']}/{e['find_code_e']['max_ms']} ms"
    )
    out.append(
        f"server memory: peak RSS {s['peak_rss_mib']} MiB serving (cold start peak "
        f"{s['cold_peak_rss_mib']} MiB), {s['warm_rss_mib_started']} MiB once started warm, "
        f"at the end {s['rss_anon_mib_after']} MiB heap + {s['rss_file_mib_after']} MiB file "
        f"pages; the imports alone {s['rss_mib_of_the_imports_alone']} MiB, so "
        f"{s['peak_rss_mib_above_the_imports']} MiB above them at the peak; the same server "
        f"on the 11-file fixture project peaks at {s['server_floor_peak_rss_mib']} MiB, so "
        f"{s['peak_rss_mib_above_the_floor']} MiB above it; index on disk "
        f"{s['index_on_disk_mib']} MiB, goal 1.5 x = {s['memory_goal_mib']} MiB (met: "
        f"{s['memory_goal_met']})"
    )
    return "\n".join(out)


if __name__ == "__main__":
    main()
