"""``python -m dixit.decks.illustrated build | borders``: rebuild or check the Storybook decks."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from dixit.decks.illustrated.borders import edge_bands
from dixit.decks.illustrated.build import (
    BuildError,
    build_decks,
    load_manifest,
    read_original,
    texts_from_decks,
    texts_from_meta,
)
from dixit.decks.illustrated.curation import load_curation
from dixit.decks.illustrated.process import WEBP_QUALITY
from dixit.decks.library import DeckLibrary, builtin_root


def _plates(value: str | None) -> set[int] | None:
    return {int(p) for p in value.split(",")} if value else None


def _build(args: argparse.Namespace) -> int:
    from dixit.decks.sheet import contact_sheet

    out = Path(args.out) if args.out else builtin_root()
    curation = load_curation(Path(args.curation) if args.curation else None)
    texts = texts_from_decks(builtin_root())
    texts.update(texts_from_meta(Path(d) for d in args.meta_dir))
    t0 = time.perf_counter()

    def progress(slug: str, i: int, n: int) -> None:
        if not args.quiet and (i % 21 == 0 or i == n):
            print(f"  {slug}: {i}/{n} cards ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)

    try:
        decks = build_decks(
            Path(args.art_dir), out, curation, texts, _plates(args.plates), args.quality, progress
        )
    except (BuildError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for deck in decks:
        size = sum((out / deck["slug"] / c["file"]).stat().st_size for c in deck["cards"])
        print(f"{deck['slug']}: {len(deck['cards'])} cards, {size / 1e6:.1f} MB in {out}")
    if args.contact_sheets:
        lib = DeckLibrary(Path("/nonexistent"), builtin_dir=out)
        for deck in decks:
            dest = Path(args.contact_sheets) / f"{deck['slug']}.jpg"
            contact_sheet(lib.get(deck["slug"]), dest)
            print(f"contact sheet: {dest}")
    return 0


def _borders(args: argparse.Namespace) -> int:
    art = Path(args.art_dir)
    manifest = load_manifest(art)
    chosen = _plates(args.plates)
    flagged = 0
    for spec in load_curation(Path(args.curation) if args.curation else None).cards:
        if chosen is None or spec.plate in chosen:
            bands = edge_bands(read_original(art, manifest[spec.plate]), spec.crop)
            found = {side: px for side, px in bands.items() if px}
            flagged += bool(found)
            print(f"{spec.plate:03d} {spec.deck} {found or 'clean'}")
    print(f"{flagged} card(s) with a band at an edge")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dixit.decks.illustrated", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, func, help_ in (
        ("build", _build, "render the curated cards into deck folders"),
        ("borders", _borders, "report mount/border/caption bands at the curated crops' edges"),
    ):
        p = sub.add_parser(name, help=help_)
        p.add_argument("--art-dir", required=True, help="folder with manifest.json and the scans")
        p.add_argument("--curation", help="curation file (default: the package's curation.json)")
        p.add_argument("--plates", help="only these plates, e.g. 1,5,12")
        p.set_defaults(func=func)
        if name == "build":
            p.add_argument(
                "--meta-dir",
                action="append",
                default=[],
                help="folder of per-plate NNN.json texts (default: the shipped deck.json texts)",
            )
            p.add_argument("--out", help="output folder (default: the package's shipped decks)")
            p.add_argument("--quality", type=int, default=WEBP_QUALITY, help="WebP quality")
            p.add_argument("--contact-sheets", metavar="DIR", help="also write contact sheets")
            p.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
