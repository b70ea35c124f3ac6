"""``dixit`` entry point: one sub-command per module, each with a ``register(subparsers)``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import arena, bot, dataset, deck, replay, score, serve, simulate, store


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dixit", description="Dixit, the storytelling card game.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (serve, score, simulate, arena, bot, replay, deck, dataset, store):
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
