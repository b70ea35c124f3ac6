"""Validation and normalisation of player-imported card images.

Hostile input is expected: every check happens *before* a full decode, and every failure is a
:class:`Rejection` naming the file and a reason code, never an exception escaping the import.

Reason codes: ``too-large`` (bytes), ``too-many-pixels`` (header claims too big an image,
including decompression bombs), ``too-small``, ``svg``, ``not-an-image`` (unknown content,
whatever the extension), ``corrupt`` (truncated or undecodable), ``unsafe-path`` (``..``,
absolute paths, links), ``zip-bomb`` (suspicious compression ratio), ``archive-too-large``,
``too-many-files``, ``bad-archive``, ``duplicate``, ``bad-captions``.
"""

from __future__ import annotations

import csv
import io
import stat
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from PIL import Image, ImageOps

CARD_WIDTH = 800
CARD_HEIGHT = 1200
WEBP_QUALITY = 82

MAX_FILE_BYTES = 25 * 1024 * 1024  # one image
MAX_PIXELS = 40_000_000  # header dimensions, checked before decoding
MAX_SIDE = 16_000
MIN_SIDE = 120
MAX_ARCHIVE_BYTES = 300 * 1024 * 1024  # the zip itself
MAX_MEMBERS = 1000
MAX_TOTAL_UNCOMPRESSED = 600 * 1024 * 1024
MAX_RATIO = 120  # uncompressed / compressed, for members above 1 MiB
MAX_CAPTIONS_BYTES = 1024 * 1024

FORMATS = {"PNG": b"\x89PNG\r\n\x1a\n", "JPEG": b"\xff\xd8\xff"}


class Rejection(NamedTuple):
    """A file that was not imported: (filename, reason code, human-readable message)."""

    filename: str
    reason: str
    message: str


@dataclass
class NormalisedImage:
    """An accepted image: 800x1200 WebP bytes, stripped of metadata."""

    source: str
    webp: bytes


@dataclass
class Collected:
    """What came out of a folder or archive: images, captions, rejections."""

    images: list[NormalisedImage] = field(default_factory=list)
    captions: dict[str, str] = field(default_factory=dict)
    rejected: list[Rejection] = field(default_factory=list)


def sniff(data: bytes) -> str | None:
    """The image format from the content (``PNG``, ``JPEG``, ``WEBP``), ``SVG``, or None."""
    if data.startswith(FORMATS["PNG"]):
        return "PNG"
    if data.startswith(FORMATS["JPEG"]):
        return "JPEG"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<?xml", b"<svg", b"<!doctype svg")) or b"<svg" in head:
        return "SVG"
    if head.startswith(b"\x1f\x8b") and b"svg" in data[:64].lower():
        return "SVG"
    return None


def normalise(name: str, data: bytes) -> NormalisedImage | Rejection:
    """Check and convert one image file. Never raises for bad input."""
    if len(data) > MAX_FILE_BYTES:
        return Rejection(name, "too-large", f"{len(data)} bytes, limit {MAX_FILE_BYTES}")
    kind = sniff(data)
    if kind == "SVG":
        return Rejection(name, "svg", "SVG images are not accepted; export PNG, JPEG or WebP")
    if kind is None:
        return Rejection(name, "not-an-image", "content is not PNG, JPEG or WebP")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow's other warnings are not our business
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img: Image.Image = Image.open(io.BytesIO(data), formats=[kind])
            w, h = img.size
            if w * h > MAX_PIXELS or max(w, h) > MAX_SIDE:
                return Rejection(
                    name, "too-many-pixels", f"{w}x{h} exceeds {MAX_PIXELS} pixels / {MAX_SIDE} px"
                )
            if min(w, h) < MIN_SIDE:
                return Rejection(name, "too-small", f"{w}x{h}, at least {MIN_SIDE} px a side")
            img.seek(0)
            if kind == "JPEG":
                # decode big JPEGs at a reduced scale: bounded time and memory
                img.draft("RGB", (CARD_WIDTH * 2, CARD_HEIGHT * 2))
            img.load()
            img = ImageOps.exif_transpose(img)
            img = _flatten(img)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        return Rejection(name, "too-many-pixels", f"decompression bomb: {exc}")
    except Exception as exc:  # any decoder failure on hostile input is a rejection
        return Rejection(name, "corrupt", f"cannot decode {kind}: {exc}")
    img = ImageOps.fit(img, (CARD_WIDTH, CARD_HEIGHT), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    img.save(buf, "WEBP", quality=WEBP_QUALITY, method=4)
    return NormalisedImage(name, buf.getvalue())


def _flatten(img: Image.Image) -> Image.Image:
    """RGB, with any transparency composited over a dark card colour; metadata dropped."""
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        bg = Image.new("RGBA", rgba.size, (20, 18, 30, 255))
        bg.alpha_composite(rgba)
        return bg.convert("RGB")
    return img.convert("RGB")


def parse_captions(name: str, data: bytes) -> dict[str, str] | Rejection:
    """A CSV of ``file,description`` rows (a header row is optional)."""
    if len(data) > MAX_CAPTIONS_BYTES:
        return Rejection(name, "bad-captions", "captions file larger than 1 MiB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return Rejection(name, "bad-captions", "captions file is not UTF-8")
    out: dict[str, str] = {}
    try:
        for row in csv.reader(io.StringIO(text)):
            if len(row) < 2 or not row[0].strip():
                continue
            key, desc = row[0].strip(), row[1].strip()
            if key.lower() in ("file", "filename") and desc.lower() in ("description", "caption"):
                continue
            out[PurePosixPath(key.replace("\\", "/")).name] = desc[:500]
    except csv.Error as exc:
        return Rejection(name, "bad-captions", f"unreadable CSV: {exc}")
    return out


def _unsafe(name: str) -> bool:
    if "\x00" in name or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return True
    parts = name.replace("\\", "/").split("/")
    return any(p == ".." for p in parts)


def _skip(name: str) -> bool:
    base = PurePosixPath(name).name
    return name.startswith("__MACOSX/") or base.startswith(".") or base in ("Thumbs.db",)


def _add(col: Collected, name: str, data: bytes) -> None:
    if name.lower().endswith(".csv"):
        caps = parse_captions(name, data)
        if isinstance(caps, Rejection):
            col.rejected.append(caps)
        else:
            col.captions.update(caps)
        return
    result = normalise(name, data)
    if isinstance(result, Rejection):
        col.rejected.append(result)
    else:
        col.images.append(result)


def collect_zip(data: bytes, archive_name: str = "upload.zip") -> Collected:
    """Validate every member of a zip archive (given as bytes)."""
    col = Collected()
    if len(data) > MAX_ARCHIVE_BYTES:
        col.rejected.append(Rejection(archive_name, "archive-too-large", "archive too big"))
        return col
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as exc:
        col.rejected.append(Rejection(archive_name, "bad-archive", f"not a readable zip: {exc}"))
        return col
    if len(infos) > MAX_MEMBERS:
        col.rejected.append(
            Rejection(archive_name, "too-many-files", f"{len(infos)} entries, max {MAX_MEMBERS}")
        )
        return col
    total = 0
    with zf:
        for info in infos:
            name = info.filename
            if _unsafe(name):
                col.rejected.append(Rejection(name, "unsafe-path", "path escapes the archive"))
                continue
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                col.rejected.append(Rejection(name, "unsafe-path", "symbolic links not allowed"))
                continue
            if info.is_dir() or _skip(name):
                continue
            if info.flag_bits & 0x1:
                col.rejected.append(Rejection(name, "corrupt", "encrypted entry"))
                continue
            if info.file_size > MAX_FILE_BYTES:
                col.rejected.append(
                    Rejection(name, "too-large", f"{info.file_size} bytes, limit {MAX_FILE_BYTES}")
                )
                continue
            if info.file_size > 1024 * 1024 and info.file_size > MAX_RATIO * max(
                1, info.compress_size
            ):
                col.rejected.append(
                    Rejection(name, "zip-bomb", f"compression ratio over {MAX_RATIO}:1")
                )
                continue
            total += info.file_size
            if total > MAX_TOTAL_UNCOMPRESSED:
                col.rejected.append(
                    Rejection(name, "archive-too-large", "archive expands past the total limit")
                )
                continue
            try:
                with zf.open(info) as fh:
                    blob = fh.read(MAX_FILE_BYTES + 1)
            except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError) as exc:
                col.rejected.append(Rejection(name, "corrupt", f"cannot extract: {exc}"))
                continue
            if len(blob) > MAX_FILE_BYTES or len(blob) > info.file_size:
                col.rejected.append(Rejection(name, "zip-bomb", "entry larger than declared"))
                continue
            _add(col, name, blob)
    return col


def _walk(root: Path) -> Iterator[Path]:
    yield from sorted(root.rglob("*"))


def collect_path(path: Path) -> Collected:
    """Validate a folder of images (recursively) or a single zip / image file."""
    if path.is_file() and not path.is_symlink():
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(4)
        if head.startswith(b"PK"):
            if size > MAX_ARCHIVE_BYTES:
                return Collected(rejected=[Rejection(path.name, "archive-too-large", "too big")])
            return collect_zip(path.read_bytes(), path.name)
        col = Collected()
        _add_file(col, path, path.name)
        return col
    col = Collected()
    if not path.is_dir():
        col.rejected.append(Rejection(str(path), "not-an-image", "no such file or folder"))
        return col
    for count, f in enumerate(_walk(path)):
        rel = f.relative_to(path).as_posix()
        if count >= MAX_MEMBERS:
            col.rejected.append(
                Rejection(rel, "too-many-files", f"only the first {MAX_MEMBERS} entries are read")
            )
            break
        if f.is_symlink():
            col.rejected.append(Rejection(rel, "unsafe-path", "symbolic links not allowed"))
            continue
        if f.is_dir() or _skip(rel):
            continue
        _add_file(col, f, rel)
    return col


def _add_file(col: Collected, f: Path, rel: str) -> None:
    size = f.stat().st_size
    if size > MAX_FILE_BYTES:
        col.rejected.append(Rejection(rel, "too-large", f"{size} bytes, limit {MAX_FILE_BYTES}"))
        return
    with f.open("rb") as fh:
        data = fh.read(MAX_FILE_BYTES + 1)
    _add(col, rel, data)
