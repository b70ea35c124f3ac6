"""The built-in decks as shipped: the illustrated decks (one look each, legible on a phone) and
every card's form, text, distinctness and provenance; and the command that builds them."""

from __future__ import annotations

import json
import os
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from dixit.decks import DeckLibrary
from dixit.decks.illustrated.__main__ import main as illustrated_main
from dixit.decks.illustrated.borders import edge_bands
from dixit.decks.illustrated.build import LANGS, LIST_FIELDS, TEXT_FIELDS, BuildError, check_text
from dixit.decks.illustrated.curation import load_curation
from dixit.decks.illustrated.grade import INK, PAPER, watercolour
from dixit.decks.illustrated.legibility import FLOORS, measure
from dixit.decks.illustrated.pools import load_pools
from dixit.decks.illustrated.process import MAX_UPSCALE, Box, card_width, render_card
from dixit.decks.library import builtin_root
from dixit.decks.phash import RECROPPED_BITS, SAME_PICTURE_BITS, distance, phash, phash_file

ROOT = Path(__file__).resolve().parents[2]
SHARED_ART = Path(os.environ.get("DIXIT_ART_DIR", ROOT.parent / "shared" / "art"))
OWN_ART = ROOT / "tools" / "art"
ILLEGIBLE = Path(__file__).parent / "data" / "illegible"
needs_art = pytest.mark.skipif(
    not (SHARED_ART / "public-domain" / "manifest.json").is_file(),
    reason=f"the original scans are not at {SHARED_ART} (set DIXIT_ART_DIR)",
)
SOURCE_KEYS = {
    "plate", "file", "plate_title", "work", "artist", "artist_death_year", "published",
    "source_repo", "source_path", "sha1", "crop", "upscale",
}  # fmt: skip
ILLUSTRATED = ("golden-tales", "golden-tales-2", "ink-tales")
MAX_PER_BOOK = {"golden-tales": 6, "golden-tales-2": 8, "ink-tales": 8}


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> DeckLibrary:
    return DeckLibrary(tmp_path_factory.mktemp("data"))


@pytest.fixture(scope="module")
def raw_decks() -> dict[str, dict[str, Any]]:
    return {
        p.parent.name: json.loads(p.read_text("utf-8"))
        for p in sorted(builtin_root().glob("*/deck.json"))
    }


def _size(path: Path) -> tuple[int, int]:
    """Width and height as the image header says (Pillow reads no pixels for this)."""
    with Image.open(path) as im:
        assert im.format == "WEBP", path
        return im.size


def test_the_builtin_decks_and_the_recommended_one_first(lib: DeckLibrary) -> None:
    infos = {d.slug: d for d in lib.list() if d.builtin}
    assert set(infos) == {*ILLUSTRATED, "default-1", "default-2"}
    assert [d.slug for d in lib.list()[:3]] == list(ILLUSTRATED)
    assert lib.default_slugs() == ["golden-tales"]
    assert [s for s, d in infos.items() if d.recommended] == ["golden-tales"]
    assert infos["golden-tales"].card_count >= 84
    for slug in ILLUSTRATED:
        assert infos[slug].kind == "illustrated" and infos[slug].licence.startswith("Public domain")
    assert {infos[s].kind for s in ("default-1", "default-2")} == {"generated"}


def test_every_builtin_card_is_2x3_and_at_least_600x900(lib: DeckLibrary) -> None:
    for info in lib.list():
        for card in lib.get(info.slug).cards:
            w, h = _size(lib.card_image(card.id))
            assert w * 3 == h * 2 and w >= 600, (card.id, w, h)


def test_the_illustrated_cards_fit_the_size_budget(lib: DeckLibrary) -> None:
    total = sum(lib.card_image(c).stat().st_size for c in lib.cards_for(list(ILLUSTRATED)))
    assert total <= 40 * 1024 * 1024


def test_every_builtin_card_is_distinct_by_perceptual_hash(lib: DeckLibrary) -> None:
    hashes = {
        card.id: (info.kind, phash_file(lib.card_image(card.id)))
        for info in lib.list()
        for card in lib.get(info.slug).cards
    }
    too_close = []
    for (a, (kind_a, ha)), (b, (kind_b, hb)) in combinations(hashes.items(), 2):
        limit = RECROPPED_BITS if "illustrated" in (kind_a, kind_b) else SAME_PICTURE_BITS
        if distance(ha, hb) <= limit:
            too_close.append((a, b, distance(ha, hb)))
    assert not too_close


def test_the_hash_finds_a_copy_of_a_card(lib: DeckLibrary) -> None:
    """The distinctness test can fail: a re-encoded, tinted or re-cropped copy is caught."""
    card = lib.get("golden-tales").cards[0]
    with Image.open(lib.card_image(card.id)) as im:
        img = im.convert("RGB")
    w, h = img.size
    copies = [
        img.resize((w // 2, h // 2)),
        img.convert("L").convert("RGB"),
        img.crop((w // 50, h // 50, w - w // 50, h - h // 50)),
    ]
    for copy in copies:
        assert distance(phash(img), phash(copy)) <= RECROPPED_BITS


@pytest.mark.parametrize("slug", [*ILLUSTRATED, "default-1", "default-2"])
def test_every_card_has_six_language_text(slug: str, raw_decks: dict[str, Any]) -> None:
    deck = raw_decks[slug]
    if deck.get("kind") != "illustrated" and not any("text" in c for c in deck["cards"]):
        pytest.skip(f"{slug}: the generated decks' six-language text comes with branch gendecks")
    for card in deck["cards"]:
        text = check_text(card.get("source", {}).get("plate", "?"), card.get("text"))
        assert set(text) == set(LANGS)
        en = text["en"]
        assert (card["title"], card["description"], card["alt_text"]) == (
            en["title"],
            en["description"],
            en["alt_text"],
        )
        assert len(en["alt_text"]) <= 200, card["id"]
        for lang in LANGS:
            assert all(text[lang][k] for k in TEXT_FIELDS + LIST_FIELDS)


def test_check_text_names_what_is_missing() -> None:
    good = {lang: {k: "x" for k in TEXT_FIELDS} | {k: ["y"] for k in LIST_FIELDS} for lang in LANGS}
    assert check_text("p/001", good) == good
    with pytest.raises(BuildError, match=r"plate p/007: no 'pl' text"):
        check_text("p/007", {k: v for k, v in good.items() if k != "pl"})
    with pytest.raises(BuildError, match=r"plate p/007: fr.moods is missing or empty"):
        check_text("p/007", good | {"fr": good["fr"] | {"moods": []}})
    with pytest.raises(BuildError, match=r"plate p/007: it.title is missing or empty"):
        check_text("p/007", good | {"it": good["it"] | {"title": " "}})


def test_illustrated_cards_record_source_licence_crop_and_few_per_book(
    raw_decks: dict[str, Any],
) -> None:
    curation = {c.plate: c for c in load_curation().cards}
    shipped = set()
    for slug in ILLUSTRATED:
        deck = raw_decks[slug]
        assert deck["kind"] == "illustrated" and deck["builtin"] is True
        books: Counter[str] = Counter()
        for card in deck["cards"]:
            src = card["source"]
            assert card["licence"] == "public domain" and set(src) == SOURCE_KEYS
            assert all(src[k] not in ("", None) for k in SOURCE_KEYS), card["id"]
            assert src["artist_death_year"] <= 1955 and int(src["published"][:4]) < 1930
            spec = curation[src["plate"]]
            assert spec.deck == slug and Box(**src["crop"]) == spec.crop
            assert src["sha1"] == spec.sha1
            width = card_width(spec.crop.w)
            assert src["upscale"] == round(max(1.0, width / spec.crop.w), 3) <= MAX_UPSCALE
            books[src["work"]] += 1
            shipped.add(src["plate"])
        assert max(books.values()) <= MAX_PER_BOOK[slug], books.most_common(1)
    assert shipped == set(curation)


def test_each_illustrated_deck_has_one_treatment_and_every_card_reads_on_a_phone(
    lib: DeckLibrary,
) -> None:
    """Every kept card passes its deck's floors (measured on the shipped picture at the
    table's 240 x 360), and the recommended deck is a colour deck."""
    curation = load_curation()
    assert curation.deck("golden-tales").treatment == "watercolour"
    under = []
    for slug in ILLUSTRATED:
        floors = FLOORS[curation.deck(slug).treatment]
        for card in lib.get(slug).cards:
            with Image.open(lib.card_image(card.id)) as im:
                failures = measure(im).failures(floors)
            if failures:
                under.append((slug, card.id, failures))
    assert not under


def test_the_plates_dropped_as_illegible_fail_the_floors() -> None:
    """The floors are not a formality: plates dropped because they did not read at phone size
    (too dark, washed out, busy, blank paper; rendered with the grade at the crop tried, kept at
    120 x 180) each miss at least one floor of the watercolour decks."""
    index = json.loads((ILLEGIBLE / "index.json").read_text("utf-8"))
    assert len(index) >= 20
    rejected = load_curation().rejected
    for name, entry in index.items():
        assert entry["plate"] in rejected, name
        with Image.open(ILLEGIBLE / name) as im:
            assert measure(im).failures(FLOORS["watercolour"]), name


def _plate(paper: tuple[int, ...], ink: tuple[int, ...], tint: tuple[int, ...]) -> Image.Image:
    """A synthetic plate: paper, a tinted figure, a patch of ink, a little grain."""
    pic = np.empty((600, 400, 3), np.float64)
    pic[:] = paper
    pic[150:450, 100:300] = tint
    pic[250:350, 150:250] = ink
    pic += np.random.default_rng(3).normal(0, 3, pic.shape)
    return Image.fromarray(np.uint8(pic.clip(0, 255)))


def test_the_watercolour_grade_brings_plates_to_one_paper_and_one_black() -> None:
    """Two plates printed on different papers with different inks come out alike."""
    yellowed = _plate((236, 214, 160), (70, 52, 40), (118, 140, 122))
    grey = _plate((205, 208, 212), (20, 20, 24), (122, 134, 150))
    for plate in (yellowed, grey):
        rgb = np.asarray(watercolour(plate), np.float64) / 255
        assert np.abs(rgb[20:100, 20:100].mean((0, 1)) - PAPER).max() < 0.05
        assert abs(rgb[280:320, 180:220].mean() - INK) < 0.06


def test_the_watercolour_grade_lifts_a_faded_palette() -> None:
    plate = _plate((240, 240, 236), (30, 28, 26), (170, 140, 140))

    def saturation(img: Image.Image) -> float:
        return float(np.asarray(img.convert("HSV"))[200:240, 120:160, 1].mean())

    assert saturation(watercolour(plate)) > 1.3 * saturation(plate)


def test_render_card_refuses_bad_crops() -> None:
    img = Image.new("RGB", (900, 1200), (200, 180, 150))
    with pytest.raises(ValueError, match="not 2:3"):
        render_card(img, Box(0, 0, 600, 800), "watercolour")
    with pytest.raises(ValueError, match="leaves"):
        render_card(img, Box(400, 0, 600, 900), "watercolour")
    with pytest.raises(ValueError, match="upscale"):
        render_card(img, Box(0, 0, 300, 450), "watercolour")
    card = render_card(img, Box(0, 0, 700, 1050), "engraving")
    assert card.size == (600, 900)
    r, g, b = card.getpixel((300, 450))  # type: ignore[misc]
    assert r > g > b  # grey or colour, an engraving card is warm


@needs_art
def test_every_plate_of_the_pools_is_kept_or_has_a_reason() -> None:
    pools = load_pools([SHARED_ART, OWN_ART])
    curation = load_curation()
    kept = {c.plate for c in curation.cards}
    assert not kept & set(curation.rejected)
    shared = {ref for ref in pools if not ref.startswith("public-domain-3/")}
    assert shared <= kept | set(curation.rejected)
    own = json.loads((OWN_ART / "public-domain-3" / "manifest.json").read_text("utf-8"))
    assert {f"public-domain-3/{int(e['file'][:3]):03d}" for e in own} <= kept | set(
        curation.rejected
    )
    assert all(reason.strip() for reason in curation.rejected.values())


@needs_art
def test_the_build_command_rebuilds_shipped_cards(
    tmp_path: Path, lib: DeckLibrary, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = lib.get("golden-tales").cards[:2] + lib.get("golden-tales-2").cards[:1]
    plates = [c.metadata["source"]["plate"] for c in cards if c.metadata]
    plates = [p for p in plates if not p.startswith("public-domain-3/")] or plates
    argv = ["build", "--art-root", str(SHARED_ART), "--art-root", str(OWN_ART)]
    argv += ["--out", str(tmp_path), "-q", "--plates", ",".join(plates)]
    assert illustrated_main(argv) == 0
    assert "golden-tales" in capsys.readouterr().out
    built = DeckLibrary(tmp_path / "data", builtin_dir=tmp_path)
    for card in cards:
        assert card.metadata is not None
        plate = card.metadata["source"]["plate"]
        if plate not in plates:
            continue
        slug = card.id.rsplit("-", 1)[0]
        (new,) = [c for c in built.get(slug).cards if c.metadata["source"]["plate"] == plate]
        # the same text and source (a build into an empty folder has no clue bank to carry)
        assert new.metadata == {k: v for k, v in card.metadata.items() if k != "bank"}
        with Image.open(lib.card_image(card.id)) as a, Image.open(built.card_image(new.id)) as b:
            assert a.size == b.size
            small = (a.size[0] // 8, a.size[1] // 8)
            pa = np.asarray(a.convert("L").resize(small), np.float32)
            pb = np.asarray(b.convert("L").resize(small), np.float32)
            assert float(np.abs(pa - pb).mean()) < 2.0


@needs_art
def test_the_build_command_refuses_a_changed_scan(tmp_path: Path) -> None:
    spec = next(c for c in load_curation().cards if c.plate.startswith("public-domain/"))
    art = tmp_path / "art" / "public-domain"
    art.mkdir(parents=True)
    manifest = json.loads((SHARED_ART / "public-domain" / "manifest.json").read_text("utf-8"))
    (art / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    (plate,) = [p for p in manifest["images"] if f"public-domain/{p['id']:03d}" == spec.plate]
    data = bytearray((SHARED_ART / "public-domain" / plate["file"]).read_bytes())
    data[-3] ^= 0xFF
    (art / plate["file"]).write_bytes(bytes(data))
    argv = ["build", "--art-root", str(tmp_path / "art"), "--out", str(tmp_path / "out"), "-q"]
    assert illustrated_main([*argv, "--plates", spec.plate]) == 2


def test_a_room_without_a_deck_choice_deals_the_recommended_deck(tmp_path: Path) -> None:
    from dixit.server.cards import LibraryCards

    library = DeckLibrary(tmp_path)
    cards = LibraryCards(library)
    dealt = cards.card_ids([])
    assert dealt == library.get("golden-tales").card_ids
    assert len(cards.card_ids(["default-1"])) == 84  # the Dreamlands stay available


def test_the_border_check_finds_a_mount_and_a_caption_strip() -> None:
    rng = np.random.default_rng(5)
    picture = (rng.random((900, 600, 3)) * 255).astype(np.uint8)  # busy everywhere
    picture[:30] = (226, 204, 160)  # a cream mount at the top
    picture[-60:] = 250  # a white caption strip at the bottom ...
    picture[-40:-30, 100:400] = 20  # ... with a line of printed text
    bands = edge_bands(Image.fromarray(picture), Box(0, 0, 600, 900))
    assert 30 <= bands["top"] <= 33 and 60 <= bands["bottom"] <= 63
    assert bands["left"] == bands["right"] == 0
    assert edge_bands(Image.fromarray(picture), Box(0, 90, 400, 600)) == dict.fromkeys(
        ("top", "bottom", "left", "right"), 0
    )
