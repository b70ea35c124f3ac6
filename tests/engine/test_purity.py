"""The engine stays pure: standard library only, nothing else of ours, no I/O, no clock."""

from __future__ import annotations

import ast
import doctest
import sys
from pathlib import Path

import dixit.engine

ENGINE = Path(dixit.engine.__file__).parent
FORBIDDEN_STDLIB = {"os", "io", "socket", "time", "datetime", "subprocess", "pathlib", "threading"}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_only_the_standard_library():
    for path in ENGINE.glob("*.py"):
        modules = imported_modules(path)
        outside = {m for m in modules if m not in sys.stdlib_module_names and m != "__future__"}
        assert not outside, f"{path.name} imports {outside}"
        assert not modules & FORBIDDEN_STDLIB, f"{path.name} does I/O or reads the clock"


def test_engine_docstring_examples_run():
    failures, tried = doctest.testmod(dixit.engine, verbose=False)
    assert tried > 0 and failures == 0
