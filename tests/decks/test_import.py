"""Imported decks: good files are normalised; hostile files are rejected with reasons."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from dixit.decks import DeckLibrary
from dixit.decks.importer import collect_zip, normalise

SVG = b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'


def _zip(entries: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as zf:
        for name, data in entries.items():
            zf.writestr(zipfile.ZipInfo(name), data, compress_type=compression)
    return buf.getvalue()


def _reasons(report_rejected: list) -> dict[str, str]:
    return {r.filename: r.reason for r in report_rejected}


def test_good_folder_is_imported_and_normalised(tmp_path: Path, files: Any) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "tall.png").write_bytes(files.png(600, 900, seed=1))
    (src / "square.jpg").write_bytes(files.jpeg(1000, 1000, exif=b"Exif\x00\x00MM\x00*"))
    (src / "wide.webp").write_bytes(files.webp(900, 500))
    (src / "no-extension").write_bytes(files.png(400, 600, seed=3))  # identified by content
    (src / "captions.csv").write_text(
        "file,description\ntall.png,A tall card of noise\nsquare.jpg,Square noise\n"
    )
    lib = DeckLibrary(tmp_path / "data")
    report = lib.import_path(src, "My Holiday Pictures")
    assert report.rejected == []
    assert report.slug == "my-holiday-pictures"
    assert len(report.accepted) == 4
    alts = {c.alt_text for c in report.accepted}
    assert "A tall card of noise" in alts and "Square noise" in alts
    deck = lib.get(report.slug)
    assert len(deck.cards) == 4
    for card in deck.cards:
        path = lib.card_image(card.id)
        with Image.open(path) as im:
            assert im.format == "WEBP" and im.size == (800, 1200)
            assert "exif" not in im.info and "xmp" not in im.info
        assert card.id.startswith("my-holiday-pictures-")
    info = {d.slug: d for d in lib.list()}["my-holiday-pictures"]
    assert info.card_count == 4 and not info.builtin


def test_hostile_files_are_rejected_with_reasons_and_the_rest_goes_on(
    tmp_path: Path, files: Any
) -> None:
    bomb = files.png_bomb()
    assert 11_000 <= len(bomb) <= 13_000
    truncated = files.jpeg(600, 900)
    truncated = truncated[: len(truncated) // 2]
    inner_zip_bomb = _zip({"zeros.png": b"\x00" * (10 * 1024 * 1024)})
    assert len(inner_zip_bomb) < 100_000
    upload = _zip(
        {
            "good.png": files.png(600, 900),
            "bomb.png": bomb,
            "../escape.png": files.png(600, 900, seed=5),
            "/abs.png": files.png(600, 900, seed=6),
            "drawing.svg": SVG,
            "sneaky.png": SVG,
            "notes.png": b"this is not a picture, just text\n" * 20,
            "cut.jpg": truncated,
            "zeros.png": b"\x00" * (10 * 1024 * 1024),
        }
    )
    lib = DeckLibrary(tmp_path / "data")
    report = lib.import_bytes(upload, "upload.zip", "Mixed bag")
    reasons = _reasons(report.rejected)
    assert reasons == {
        "bomb.png": "too-many-pixels",
        "../escape.png": "unsafe-path",
        "/abs.png": "unsafe-path",
        "drawing.svg": "svg",
        "sneaky.png": "svg",
        "notes.png": "not-an-image",
        "cut.jpg": "corrupt",
        "zeros.png": "zip-bomb",
    }
    assert all(r.message for r in report.rejected)
    assert len(report.accepted) == 1
    assert not (tmp_path / "escape.png").exists()
    assert not (tmp_path / "data" / "escape.png").exists()


def test_each_hostile_file_alone(tmp_path: Path, files: Any) -> None:
    assert normalise("big.png", files.png_bomb()).reason == "too-many-pixels"  # type: ignore[union-attr]
    assert normalise("a.svg", SVG).reason == "svg"  # type: ignore[union-attr]
    assert normalise("t.png", b"hello world").reason == "not-an-image"  # type: ignore[union-attr]
    jpg = files.jpeg(600, 900)
    assert normalise("t.jpg", jpg[: len(jpg) // 3]).reason == "corrupt"  # type: ignore[union-attr]
    assert normalise("tiny.png", files.png(40, 60)).reason == "too-small"  # type: ignore[union-attr]


def test_zip_bomb_declared_huge_is_rejected_without_inflating(files: Any) -> None:
    zeros = _zip({"huge.png": b"\x00" * (30 * 1024 * 1024)})
    col = collect_zip(zeros, "bomb.zip")
    assert [(r.filename, r.reason) for r in col.rejected] == [("huge.png", "too-large")]
    nested = _zip({"inner.zip": zeros, "ok.png": files.png(600, 900)})
    col = collect_zip(nested, "nested.zip")
    assert len(col.images) == 1
    assert col.rejected[0].filename == "inner.zip"


def test_not_a_zip_and_nothing_accepted(tmp_path: Path, files: Any) -> None:
    lib = DeckLibrary(tmp_path / "data")
    report = lib.import_bytes(b"PK\x03\x04garbage", "x.zip", "Broken")
    assert report.slug is None and not report.ok
    assert report.rejected[0].reason == "bad-archive"
    report = lib.import_bytes(b"plain text", "x.png", "Text")
    assert report.slug is None and report.rejected[0].reason == "not-an-image"
    assert all(not d.slug.startswith(("broken", "text")) for d in lib.list())


def test_folder_with_symlink_and_same_names_twice(tmp_path: Path, files: Any) -> None:
    src = tmp_path / "src"
    src.mkdir()
    pic = files.png(600, 900, seed=9)
    (src / "a.png").write_bytes(pic)
    (src / "b.png").write_bytes(pic)  # same picture: duplicate
    target = tmp_path / "secret.png"
    target.write_bytes(files.png(600, 900, seed=10))
    (src / "link.png").symlink_to(target)
    lib = DeckLibrary(tmp_path / "data")
    report = lib.import_path(src, "Dups")
    assert _reasons(report.rejected) == {"b.png": "duplicate", "link.png": "unsafe-path"}
    second = lib.import_path(src, "Dups")
    assert second.slug == "dups-2"


@pytest.mark.parametrize("bad", ["../x", "x/../../y", "", "default-1/../../etc", "UPPER-abc"])
def test_card_image_refuses_odd_ids(tmp_path: Path, bad: str) -> None:
    lib = DeckLibrary(tmp_path / "data")
    with pytest.raises(KeyError):
        lib.card_image(bad)


def test_pixel_cap_applies_below_pillows_own_bomb_limit(files: Any) -> None:
    # 48 megapixels: Pillow would decode it without a warning; our cap refuses it first.
    res = normalise("wide.png", files.png_bomb(8000, 6000))
    assert res.reason == "too-many-pixels"  # type: ignore[union-attr]
    assert normalise("thin.png", files.png_bomb(20_000, 200)).reason == "too-many-pixels"  # type: ignore[union-attr]


def test_palette_png_with_transparency_is_flattened(files: Any) -> None:
    from PIL import Image as PILImage

    img = PILImage.new("P", (300, 450), 1)
    img.putpalette([0, 0, 0, 255, 0, 0] + [0] * 762)
    buf = io.BytesIO()
    img.save(buf, "PNG", transparency=bytes([0, 255] + [255] * 254))
    res = normalise("pal.png", buf.getvalue())
    assert not hasattr(res, "reason"), res


def test_imported_deck_can_be_removed_but_builtin_cannot(tmp_path: Path, files: Any) -> None:
    lib = DeckLibrary(tmp_path / "data")
    report = lib.import_bytes(files.png(600, 900, seed=33), "one.png", "Single")
    assert report.slug == "single" and len(report.accepted) == 1
    card_id = report.accepted[0].id
    assert lib.card_image(card_id).is_file()
    lib.remove("single")
    with pytest.raises(KeyError):
        lib.card_image(card_id)
    with pytest.raises(PermissionError):
        lib.remove("default-1")
