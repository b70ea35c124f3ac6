"""A bounded fuzz run against a real server: hostile input never answers 5xx, never drops a
socket without a documented code, and a rejected input changes nothing (bench/fuzz.py has
the longer campaign and the checks; docs/benchmarks.md its figures)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from .harness import ServerProcess

BENCH = Path(__file__).resolve().parents[2] / "bench" / "fuzz.py"


def _fuzz() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dixit_bench_fuzz", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_hostile_input_is_answered_and_changes_nothing(server: ServerProcess) -> None:
    fuzz = _fuzz()
    figures = fuzz.campaign(server.base, examples=250)
    assert figures.inputs >= 700
    assert figures.ok(), (figures, figures.notes)


def test_the_fuzz_catches_a_server_that_breaks(server: ServerProcess) -> None:
    """The checks can fail: a socket closed under the fuzz counts as dropped."""
    fuzz = _fuzz()
    figures = fuzz.Figures()
    target = fuzz.Target(server.base, figures)
    target.send("text", '{"type":"ping"}')
    assert target.ws is not None
    target.ws.close()  # as if the server had dropped it
    target._exchange("text", '{"type":"ping"}', attached=True)
    assert figures.dropped == 1 and not figures.ok()
    target.close()
