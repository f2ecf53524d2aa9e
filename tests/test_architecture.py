"""The layout's promises, checked on the source: imports flow one way and never in a
circle, clients' packages stay out of the library, and no shared code of `lang` asks
which language it is handling (that belongs in rules files and hooks)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "hunkmetrics"

# Lower layers must not import higher ones (clients → api → metrics → lang/sources → patch).
FORBIDDEN = {
    "hunkmetrics.patch": ("sources", "lang", "metrics", "datasets", "cli", "report", "agents"),
    "hunkmetrics.lang": ("sources", "metrics", "datasets", "cli", "report", "agents", "maple"),
    "hunkmetrics.sources": ("lang", "metrics", "datasets", "cli", "report", "agents", "maple"),
    "hunkmetrics.metrics": ("datasets", "cli", "report", "agents", "maple", "workspace", "api"),
}
CLIENT_ONLY = ("typer", "rich", "click")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p) for p in PACKAGE.rglob("*.py")}


def imports(path: Path) -> set[str]:
    """Every module `path` imports, absolute, including imports inside functions and
    under TYPE_CHECKING (a cycle dodged by a lazy import is still a cycle)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # `from pkg import sub` needs the module pkg.sub; `from mod import name`
            # needs mod (its package is already importing, by then, if it is ours).
            for alias in node.names:
                found.add(f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in MODULES else stem)
    return found


def graph() -> dict[str, set[str]]:
    return {
        module_name(path): {t for t in imports(path) if t in MODULES and t != module_name(path)}
        for path in PACKAGE.rglob("*.py")
    }


def test_no_import_cycles() -> None:
    edges = graph()
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    cycles: list[list[str]] = []
    for start in sorted(edges):
        if state.get(start):
            continue
        stack: list[tuple[str, list[str]]] = [(start, sorted(edges[start]))]
        path = [start]
        state[start] = 1
        while stack:
            node, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                state[node] = 2
                continue
            nxt = todo.pop()
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt) :] + [nxt])
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, sorted(edges[nxt])))
    assert cycles == []


def test_lower_layers_do_not_import_higher_ones() -> None:
    offences = []
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        for layer, banned in FORBIDDEN.items():
            if name != layer and not name.startswith(layer + "."):
                continue
            for target in imports(path):
                if any(
                    target == f"hunkmetrics.{b}" or target.startswith(f"hunkmetrics.{b}.")
                    for b in banned
                ):
                    offences.append(f"{name} imports {target}")
    assert offences == []


def test_only_the_command_line_imports_its_packages() -> None:
    offences = [
        f"{module_name(path)} imports {target}"
        for path in PACKAGE.rglob("*.py")
        if "cli" not in path.relative_to(PACKAGE).parts
        for target in imports(path)
        if target.split(".")[0] in CLIENT_ONLY
    ]
    assert offences == []


def test_shared_lang_code_never_compares_a_language_name() -> None:
    comparison = re.compile(r"""(language|name|lang)\s*[!=]=\s*["']|in\s*\(\s*["']c["']""")
    offences = [
        f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
        for path in (PACKAGE / "lang").rglob("*.py")
        if "hooks" not in path.relative_to(PACKAGE / "lang").parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if comparison.search(line)
    ]
    assert offences == []
