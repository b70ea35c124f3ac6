"""Helpers for driving the ``dixit`` command line in-process."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from dixit.cli.main import main


@dataclass
class Result:
    status: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)

    def error(self) -> dict[str, Any]:
        body: dict[str, Any] = json.loads(self.err)["error"]
        return body


Runner = Callable[..., Result]


@pytest.fixture
def dixit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Runner:
    """``dixit(*argv, stdin="...")``: run the command line, return status, stdout, stderr."""

    def run(*argv: str, stdin: str = "") -> Result:
        capsys.readouterr()
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        status = main(list(argv))
        captured = capsys.readouterr()
        return Result(status, captured.out, captured.err)

    return run
