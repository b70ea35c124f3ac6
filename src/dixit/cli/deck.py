"""``dixit deck``: generate the built-in decks, import a deck, list decks."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from dixit.decks import DeckLibrary
from dixit.decks.library import builtin_root
from dixit.storage import default_data_dir

DATA_DIR_HELP = "data folder (default: $DIXIT_DATA_DIR or ~/.local/share/dixit, as dixit serve)"


def _data_dir(args: argparse.Namespace) -> Path:
    """The same data directory ``dixit serve`` uses, so imported decks show up in the lobby."""
    given: str | None = args.data_dir
    return Path(given) if given else default_data_dir()


def _generate(args: argparse.Namespace) -> int:
    # The painting stack (numpy, resvg) loads only here, so other commands start fast.
    from dixit.decks.catalog import default_node_modules, write_catalog
    from dixit.decks.generator import DEFAULT_SEED, generate_decks
    from dixit.decks.planner import DECK_SIZE
    from dixit.decks.sheet import contact_sheet

    seed = DEFAULT_SEED if args.seed is None else args.seed
    size = DECK_SIZE if args.size is None else args.size
    if args.refresh_catalog:
        node_modules = Path(args.node_modules) if args.node_modules else default_node_modules()
        if not (node_modules / "@iconify-json" / "fluent-emoji-flat").is_dir():
            npm = shutil.which("npm")
            deckgen = node_modules.parent
            if args.npm_ci and npm and (deckgen / "package-lock.json").is_file():
                subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=deckgen, check=True)
            else:
                print(
                    f"error: {node_modules} has no @iconify-json/fluent-emoji-flat.\n"
                    f"Run `npm ci` in {deckgen} (or pass --npm-ci), then retry.",
                    file=sys.stderr,
                )
                return 2
        path = write_catalog(node_modules)
        print(f"catalog rebuilt: {path}")
    out = Path(args.out) if args.out else builtin_root()
    t0 = time.perf_counter()

    def progress(slug: str, i: int, n: int) -> None:
        if not args.quiet and (i % 12 == 0 or i == n):
            print(f"  {slug}: {i}/{n} cards ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)

    manifests = generate_decks(out, seed, args.decks, size, progress)
    total = sum(len(m["cards"]) for m in manifests)
    print(
        f"{total} cards in {len(manifests)} deck(s) written to {out} "
        f"in {time.perf_counter() - t0:.1f} s (seed {seed})"
    )
    if args.contact_sheets:
        lib = DeckLibrary(_data_dir(args), builtin_dir=out)
        for m in manifests:
            dest = Path(args.contact_sheets) / f"{m['slug']}.jpg"
            contact_sheet(lib.get(m["slug"]), dest)
            print(f"contact sheet: {dest}")
    return 0


def _import(args: argparse.Namespace) -> int:
    lib = DeckLibrary(_data_dir(args))
    report = lib.import_path(Path(args.path), args.name)
    if args.json:
        print(
            json.dumps(
                {
                    "slug": report.slug,
                    "name": report.name,
                    "accepted": [c.id for c in report.accepted],
                    "rejected": [r._asdict() for r in report.rejected],
                },
                indent=1,
            )
        )
    else:
        print(report.summary())
    return 0 if report.ok else 1


def _list(args: argparse.Namespace) -> int:
    lib = DeckLibrary(_data_dir(args))
    decks = lib.list()
    defaults = lib.default_slugs()
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "slug": d.slug,
                        "name": d.name,
                        "cards": d.card_count,
                        "builtin": d.builtin,
                        "kind": d.kind,
                        "licence": d.licence,
                        "default": d.slug in defaults,
                    }
                    for d in decks
                ],
                indent=1,
            )
        )
        return 0
    width = max([len(d.slug) for d in decks] + [4])
    named = max([len(d.name) for d in decks] + [4])
    for d in decks:
        licence = d.licence.split(". ")[0] or "-"
        mark = "default" if d.slug in defaults else ""
        print(
            f"{d.slug:<{width}}  {d.name:<{named}}  {d.card_count:>4} cards  {d.origin:<8}  "
            f"{d.kind:<11}  {mark:<7}  {licence}"
        )
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``deck`` with its ``generate``, ``import`` and ``list`` sub-commands."""
    parser = subparsers.add_parser("deck", help="generate, import and list card decks")
    sub = parser.add_subparsers(dest="deck_command", required=True, metavar="ACTION")

    gen = sub.add_parser("generate", help="render the built-in generated decks from a seed")
    gen.add_argument("--seed", type=int, help="default: the built-in decks' seed")
    gen.add_argument("--decks", type=int, default=2, help="number of decks (default 2)")
    gen.add_argument("--size", type=int, help="cards per deck (default 84)")
    gen.add_argument("--out", help="output folder (default: the package's shipped decks)")
    gen.add_argument("--contact-sheets", metavar="DIR", help="also write contact sheets here")
    gen.add_argument(
        "--refresh-catalog",
        action="store_true",
        help="re-extract the motif catalog from tools/deckgen/node_modules",
    )
    gen.add_argument("--node-modules", help="node_modules holding the npm art packages")
    gen.add_argument("--npm-ci", action="store_true", help="run `npm ci` in tools/deckgen first")
    gen.add_argument("--data-dir", help=argparse.SUPPRESS)
    gen.add_argument("-q", "--quiet", action="store_true")
    gen.set_defaults(func=_generate)

    imp = sub.add_parser("import", help="import a folder or zip of PNG/JPEG/WebP images")
    imp.add_argument("path", help="folder, zip file, or single image")
    imp.add_argument("--name", required=True, help="the deck's display name")
    imp.add_argument("--data-dir", help=DATA_DIR_HELP)
    imp.add_argument("--json", action="store_true", help="print the report as JSON")
    imp.set_defaults(func=_import)

    lst = sub.add_parser("list", help="list built-in and imported decks")
    lst.add_argument("--data-dir", help=DATA_DIR_HELP)
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(func=_list)
