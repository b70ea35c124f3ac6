"""No import cycles among our own modules under src/ (as web/scripts/check-cycles.mjs for the
client). Every import counts: at module level, under ``if TYPE_CHECKING:`` and inside a
function; a cycle of types is still a knot in the design. None is allowed: the parts of a room
receive narrow callables or a small Protocol, never the room (docs/architecture.md).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def modules(src: Path = SRC) -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, is a package's ``__init__``)."""
    found = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def _targets(
    name: str, package: bool, node: ast.Import | ast.ImportFrom, known: Iterable[str]
) -> set[str]:
    ours = set(known)
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in ours}
    base = node.module or ""
    if node.level:
        here = name.split(".") if package else name.split(".")[:-1]
        here = here[: len(here) - (node.level - 1)]
        base = ".".join(here + ([node.module] if node.module else []))
    found = set()
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if sub in ours:
            found.add(sub)  # a module of a package (``from . import lobby``)
        elif base in ours:
            found.add(base)
    return found


def graph(src: Path = SRC) -> dict[str, set[str]]:
    """Each module's imports of our own modules, wherever in the file they are."""
    found = modules(src)
    edges: dict[str, set[str]] = {}
    for name, (path, package) in found.items():
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                out |= _targets(name, package, node, found)
        out.discard(name)
        edges[name] = out
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (a -> b -> ... -> a) through each knot of ``edges`` (each strongly connected
    group of more than one module), found by depth-first search."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, iteratively
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            step = next(todo, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(edges[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return [_cycle_in(group, edges) for group in groups]


def _cycle_in(group: set[str], edges: dict[str, set[str]]) -> list[str]:
    """A path from the group's first module back to it, within the group."""
    first = min(group)
    paths = {first: [first]}
    frontier = [first]
    while frontier:
        following = []
        for node in frontier:
            for step in sorted(edges[node] & group):
                if step == first:
                    return [*paths[node], first]
                if step not in paths:
                    paths[step] = [*paths[node], step]
                    following.append(step)
        frontier = following
    raise AssertionError(f"no cycle in {sorted(group)}")


def test_src_has_no_import_cycles() -> None:
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)


def test_the_search_finds_cycles_of_type_only_and_function_level_imports(tmp_path: Path) -> None:
    """What the test above relies on, on a made-up package: a cycle through an import under
    ``if TYPE_CHECKING:`` and one through an import in a function are both found; a package
    importing its own modules is not a cycle."""
    files = {
        "pkg/__init__.py": "from .a import A\n",
        "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n"
        "class A: ...\n",
        "pkg/b.py": "from pkg import a\nclass B: ...\n",
        "pkg/c.py": "def make():\n    from . import d\n",
        "pkg/d.py": "import pkg.c\n",
        "pkg/e.py": "from .a import A\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = sorted(cycles(graph(tmp_path)))
    assert found == [["pkg.a", "pkg.b", "pkg.a"], ["pkg.c", "pkg.d", "pkg.c"]]
