"""The built-in decks as shipped: the illustrated Storybook decks and every card's form, text,
distinctness and provenance; and the command that builds the Storybook cards from the scans."""

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
from dixit.decks.illustrated.process import MAX_UPSCALE, Box, card_width, render_card
from dixit.decks.library import DEFAULT_DECKS, builtin_root
from dixit.decks.phash import RECROPPED_BITS, SAME_PICTURE_BITS, distance, phash, phash_file

ROOT = Path(__file__).resolve().parents[2]
ART = Path(os.environ.get("DIXIT_ART_DIR", ROOT.parent / "shared" / "art" / "public-domain"))
needs_art = pytest.mark.skipif(
    not (ART / "manifest.json").is_file(),
    reason=f"the original scans are not at {ART} (set DIXIT_ART_DIR)",
)
SOURCE_KEYS = {
    "plate", "file", "plate_title", "work", "artist", "artist_death_year", "published",
    "source_repo", "source_path", "sha1", "crop", "upscale",
}  # fmt: skip


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


def test_four_builtin_decks_and_the_storybooks_are_the_default(lib: DeckLibrary) -> None:
    infos = {d.slug: d for d in lib.list() if d.builtin}
    assert set(infos) == {"storybook-1", "storybook-2", "default-1", "default-2"}
    assert [d.slug for d in lib.list()[:2]] == list(DEFAULT_DECKS)
    assert lib.default_slugs() == ["storybook-1", "storybook-2"]
    for slug, name in (("storybook-1", "Storybook I"), ("storybook-2", "Storybook II")):
        assert (infos[slug].name, infos[slug].card_count, infos[slug].kind) == (
            name,
            84,
            "illustrated",
        )
        assert infos[slug].licence.startswith("Public domain")
    assert {infos[s].kind for s in ("default-1", "default-2")} == {"generated"}
    assert len(set(lib.cards_for(lib.default_slugs()))) == 168


def test_every_builtin_card_is_2x3_and_at_least_600x900(lib: DeckLibrary) -> None:
    for info in lib.list():
        for card in lib.get(info.slug).cards:
            w, h = _size(lib.card_image(card.id))
            assert w * 3 == h * 2 and w >= 600, (card.id, w, h)


def test_the_storybook_cards_fit_the_size_budget(lib: DeckLibrary) -> None:
    total = sum(lib.card_image(c).stat().st_size for c in lib.cards_for(list(DEFAULT_DECKS)))
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
    card = lib.get("storybook-1").cards[0]
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


@pytest.mark.parametrize("slug", ["storybook-1", "storybook-2", "default-1", "default-2"])
def test_every_card_has_six_language_text(slug: str, raw_decks: dict[str, Any]) -> None:
    deck = raw_decks[slug]
    if deck.get("kind") != "illustrated" and not any("text" in c for c in deck["cards"]):
        pytest.skip(f"{slug}: the generated decks' six-language text comes with branch gendecks")
    for card in deck["cards"]:
        text = check_text(card.get("source", {}).get("plate", 0), card.get("text"))
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
    assert check_text(1, good) == good
    with pytest.raises(BuildError, match=r"plate 7: no 'pl' text"):
        check_text(7, {k: v for k, v in good.items() if k != "pl"})
    with pytest.raises(BuildError, match=r"plate 7: fr.moods is missing or empty"):
        check_text(7, good | {"fr": good["fr"] | {"moods": []}})
    with pytest.raises(BuildError, match=r"plate 7: it.title is missing or empty"):
        check_text(7, good | {"it": good["it"] | {"title": " "}})


def test_illustrated_cards_record_source_licence_and_their_curated_crop(
    raw_decks: dict[str, Any],
) -> None:
    curation = {c.plate: c for c in load_curation().cards}
    shipped = set()
    for slug in DEFAULT_DECKS:
        deck = raw_decks[slug]
        assert deck["kind"] == "illustrated" and deck["builtin"] is True
        books: Counter[str] = Counter()
        for card in deck["cards"]:
            src = card["source"]
            assert card["licence"] == "public domain" and set(src) == SOURCE_KEYS
            assert all(src[k] not in ("", None) for k in SOURCE_KEYS), card["id"]
            assert src["artist_death_year"] <= 1945 and int(src["published"][:4]) < 1930
            spec = curation[src["plate"]]
            assert spec.deck == slug and Box(**src["crop"]) == spec.crop
            width = card_width(spec.crop.w)
            assert src["upscale"] == round(max(1.0, width / spec.crop.w), 3) <= MAX_UPSCALE
            books[src["work"]] += 1
            shipped.add(src["plate"])
        assert max(books.values()) <= 21, books.most_common(1)
    assert shipped == set(curation)


def test_render_card_refuses_bad_crops() -> None:
    img = Image.new("RGB", (900, 1200), (200, 180, 150))
    with pytest.raises(ValueError, match="not 2:3"):
        render_card(img, Box(0, 0, 600, 800), "colour")
    with pytest.raises(ValueError, match="leaves"):
        render_card(img, Box(400, 0, 600, 900), "colour")
    with pytest.raises(ValueError, match="upscale"):
        render_card(img, Box(0, 0, 300, 450), "colour")
    card = render_card(img, Box(0, 0, 700, 1050), "sepia")
    assert card.size == (600, 900)
    r, g, b = card.getpixel((300, 450))  # type: ignore[misc]
    assert r > g > b  # grey or colour, a sepia card is warm


@needs_art
def test_the_build_command_rebuilds_shipped_cards(
    tmp_path: Path, lib: DeckLibrary, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = lib.get("storybook-1").cards[:2] + lib.get("storybook-2").cards[:1]
    plates = [c.metadata["source"]["plate"] for c in cards if c.metadata]
    argv = ["build", "--art-dir", str(ART), "--out", str(tmp_path), "-q"]
    assert illustrated_main([*argv, "--plates", ",".join(map(str, plates))]) == 0
    assert "storybook-1: 2 cards" in capsys.readouterr().out
    built = DeckLibrary(tmp_path / "data", builtin_dir=tmp_path)
    for card in cards:
        assert card.metadata is not None
        plate = card.metadata["source"]["plate"]
        slug = card.id.rsplit("-", 1)[0]
        (new,) = [c for c in built.get(slug).cards if c.metadata["source"]["plate"] == plate]
        assert new.metadata == {**card.metadata}
        with Image.open(lib.card_image(card.id)) as a, Image.open(built.card_image(new.id)) as b:
            assert a.size == b.size
            small = (a.size[0] // 8, a.size[1] // 8)
            pa = np.asarray(a.convert("L").resize(small), np.float32)
            pb = np.asarray(b.convert("L").resize(small), np.float32)
            assert float(np.abs(pa - pb).mean()) < 2.0


@needs_art
def test_the_build_command_refuses_a_changed_scan(tmp_path: Path) -> None:
    spec = load_curation().cards[0]
    art = tmp_path / "art"
    art.mkdir()
    manifest = json.loads((ART / "manifest.json").read_text("utf-8"))
    (art / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    (plate,) = [p for p in manifest["images"] if p["id"] == spec.plate]
    data = bytearray((ART / plate["file"]).read_bytes())
    data[-3] ^= 0xFF
    (art / plate["file"]).write_bytes(bytes(data))
    argv = ["build", "--art-dir", str(art), "--out", str(tmp_path / "out"), "-q"]
    assert illustrated_main([*argv, "--plates", str(spec.plate)]) == 2


def test_a_room_without_a_deck_choice_deals_both_storybooks(tmp_path: Path) -> None:
    from dixit.server.cards import LibraryCards

    cards = LibraryCards(DeckLibrary(tmp_path))
    dealt = cards.card_ids([])
    assert len(dealt) == len(set(dealt)) == 168
    assert {cid.rsplit("-", 1)[0] for cid in dealt} == {"storybook-1", "storybook-2"}
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
