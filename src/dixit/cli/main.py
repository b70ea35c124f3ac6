"""``dixit`` entry point: one sub-command per module, each with a ``register(subparsers)``.

Only the module of the sub-command named on the command line is imported (all of them for
``dixit --help`` or a name that is none of them): ``arena``, ``simulate`` and ``bot`` import
the computer players with numpy, ``deck`` the image tools, about 0.4 s of CPU that a restart
of ``dixit serve`` after a crash would otherwise spend before it answers.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each sub-command's module, in the order ``dixit --help`` lists them.
COMMANDS = {
    "serve": "serve",
    "score": "score",
    "simulate": "simulate",
    "arena": "arena",
    "bot": "bot",
    "replay": "replay",
    "deck": "deck",
    "export": "dataset",
    "import-rounds": "dataset",
    "store": "store",
}


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser of the sub-command ``argv`` starts with, or of every one."""
    parser = argparse.ArgumentParser(prog="dixit", description="Dixit, the storytelling card game.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = [COMMANDS[argv[0]]] if argv and argv[0] in COMMANDS else COMMANDS.values()
    for name in dict.fromkeys(chosen):
        importlib.import_module(f"{__package__}.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    try:
        status: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
