"""``dixit`` entry point: one sub-command per module, each with a ``register(subparsers)``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Sub-command modules, in the order ``dixit --help`` lists them. A module that is missing (a
# part not built yet) is skipped, so the command line grows with the project.
SUBCOMMANDS = ("serve", "score", "simulate", "replay", "deck")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dixit", description="Dixit, the storytelling card game.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"dixit.cli.{name}")
        except ModuleNotFoundError as missing:
            if missing.name != f"dixit.cli.{name}":
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
