"""Line counts per module and the largest classes and functions (by lines), for review.

.venv/bin/python tools/code_sizes.py src/dixit/server src/dixit/protocol [--top 8]
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path


def sizes(
    paths: list[Path],
) -> tuple[list[tuple[int, str]], list[tuple[int, str]], list[tuple[int, str]]]:
    modules: list[tuple[int, str]] = []
    classes: list[tuple[int, str]] = []
    functions: list[tuple[int, str]] = []
    for root in paths:
        for path in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            text = path.read_text(encoding="utf-8")
            modules.append((len(text.splitlines()), str(path)))
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                    length = (node.end_lineno or node.lineno) - node.lineno + 1
                    where = f"{path}:{node.lineno} {node.name}"
                    (classes if isinstance(node, ast.ClassDef) else functions).append(
                        (length, where)
                    )
    return modules, classes, functions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    modules, classes, functions = sizes(args.paths)
    print("lines  module")
    for n, name in sorted(modules, reverse=True):
        print(f"{n:5}  {name}")
    print(f"{sum(n for n, _ in modules):5}  total")
    for title, rows in (("class", classes), ("function", functions)):
        print(f"\nlargest {title}es (lines)" if title == "class" else "\nlargest functions (lines)")
        for n, name in sorted(rows, reverse=True)[: args.top]:
            print(f"{n:5}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
