"""``python -m dixit.decks.illustrated build | borders | preview``: rebuild, check or look at
the illustrated decks' cards."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from dixit.decks.illustrated.borders import edge_bands
from dixit.decks.illustrated.build import (
    BuildError,
    build_decks,
    read_original,
    texts_from_decks,
    texts_from_meta,
)
from dixit.decks.illustrated.curation import load_curation
from dixit.decks.illustrated.grade import TREATMENTS
from dixit.decks.illustrated.legibility import FLOORS
from dixit.decks.illustrated.pools import load_pools
from dixit.decks.illustrated.preview import card_views, plate_with_grid
from dixit.decks.illustrated.process import WEBP_QUALITY, Box
from dixit.decks.library import DeckLibrary, builtin_root


def _plates(value: str | None) -> set[str] | None:
    return set(value.split(",")) if value else None


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
            [Path(r) for r in args.art_root],
            out,
            curation,
            texts,
            _plates(args.plates),
            args.quality,
            progress,
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
    pools = load_pools(Path(r) for r in args.art_root)
    chosen = _plates(args.plates)
    flagged = 0
    for spec in load_curation(Path(args.curation) if args.curation else None).cards:
        if chosen is None or spec.plate in chosen:
            bands = edge_bands(read_original(pools[spec.plate]), spec.crop)
            found = {side: px for side, px in bands.items() if px}
            flagged += bool(found)
            print(f"{spec.plate} {spec.deck} {found or 'clean'}")
    print(f"{flagged} card(s) with a band at an edge")
    return 0


def _preview(args: argparse.Namespace) -> int:
    pools = load_pools(Path(r) for r in args.art_root)
    if args.plate not in pools:
        print(f"error: no plate {args.plate!r} under {args.art_root}", file=sys.stderr)
        return 2
    original = read_original(pools[args.plate])
    print(f"{args.plate}: {original.width} x {original.height} px ({pools[args.plate].work})")
    if not args.crop:
        plate_with_grid(original).save(args.out)
        print(f"plate with a pixel grid: {args.out}")
        return 0
    x, y, w = (int(v) for v in args.crop.split(","))
    crop = Box(x, y, w, w * 3 // 2)
    try:
        view, numbers = card_views(original, crop, args.treatment)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    view.save(args.out)
    failures = numbers.failures(FLOORS[args.treatment])
    print(
        f"crop x={crop.x} y={crop.y} w={crop.w} h={crop.h}: saturation {numbers.saturation:.0f}, "
        f"luma {numbers.luma:.0f}, squint {numbers.squint:.1f}, blank {numbers.blank:.0%}; "
        + (f"under the floors: {'; '.join(failures)}" if failures else "passes the floors")
    )
    print(f"card views: {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dixit.decks.illustrated", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    art = {
        "action": "append",
        "required": True,
        "help": "a folder holding pools (../shared/art, tools/art); repeat for several",
    }
    p = sub.add_parser("build", help="render the curated cards into deck folders")
    p.add_argument("--art-root", **art)  # type: ignore[arg-type]
    p.add_argument("--curation", help="curation file (default: the package's curation.json)")
    p.add_argument("--plates", help="only these plates, e.g. public-domain/062,public-domain-2/036")
    p.add_argument(
        "--meta-dir",
        action="append",
        default=[],
        help="folder of per-plate *.json texts (default: the shipped deck.json texts)",
    )
    p.add_argument("--out", help="output folder (default: the package's shipped decks)")
    p.add_argument("--quality", type=int, default=WEBP_QUALITY, help="WebP quality")
    p.add_argument("--contact-sheets", metavar="DIR", help="also write contact sheets")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=_build)
    p = sub.add_parser("borders", help="report mount/frame/caption bands at the crops' edges")
    p.add_argument("--art-root", **art)  # type: ignore[arg-type]
    p.add_argument("--curation", help="curation file (default: the package's curation.json)")
    p.add_argument("--plates", help="only these plates")
    p.set_defaults(func=_borders)
    p = sub.add_parser("preview", help="a plate with a pixel grid, or a crop as its card")
    p.add_argument("--art-root", **art)  # type: ignore[arg-type]
    p.add_argument("--plate", required=True, help="e.g. public-domain-2/036")
    p.add_argument("--crop", help="x,y,width of a 2:3 crop (the height follows)")
    p.add_argument("--treatment", choices=TREATMENTS, default="watercolour")
    p.add_argument("--out", required=True, help="PNG to write")
    p.set_defaults(func=_preview)
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
