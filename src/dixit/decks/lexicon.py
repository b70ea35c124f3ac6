"""Card text of the generated decks in six languages, assembled from our own word tables.

The tables live in ``text/``: ``nouns.txt`` (motif names), ``words.txt`` (themes, moods,
things, scenery) and ``captions.txt`` (titles and description templates per composition and
staging). :func:`card_text` turns what a composition drew into the ``text`` field of a card
(see docs/deck/README.md): title, description, alt text, things, themes and moods per language.

Templates use slots: ``{a}`` (indefinite noun phrase), ``{a.bare}``, ``{a.pl}``, ``{n}``, and
``{a?masc|fem}`` for an ending that agrees with the slot's grammatical gender.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from dixit.decks.motifs import MOTIFS, plural

LANGS = ("en", "it", "pl", "es", "pt", "fr")
OTHER_LANGS = LANGS[1:]
MAX_ALT = 200

_ARTICLES = {
    "it": ("un'", "una ", "uno ", "un ", "delle ", "dei "),
    "es": ("unas ", "unos ", "una ", "un "),
    "pt": ("umas ", "uns ", "uma ", "um "),
    "fr": ("une ", "un ", "des "),
}
_FEMININE = {"it": ("una ", "un'", "delle "), "es": ("una ", "unas "), "pt": ("uma ", "umas ")}
_SCENERY_LABEL = {
    "en": "Scenery",
    "it": "Sullo sfondo",
    "pl": "W tle",
    "es": "Al fondo",
    "pt": "Ao fundo",
    "fr": "À l'arrière-plan",
}


@dataclass(frozen=True)
class Noun:
    """A motif's name in one language."""

    a: str  # with the indefinite article where the language has one
    bare: str
    pl: str
    feminine: bool


def _text(name: str) -> str:
    return resources.files("dixit.decks").joinpath("text", name).read_text("utf-8")


def _rows(name: str) -> list[list[str]]:
    rows = []
    for line in _text(name).splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append([cell.strip() for cell in line.split(" ; ")])
    return rows


def _bare(lang: str, phrase: str) -> str:
    for art in _ARTICLES.get(lang, ()):
        if phrase.startswith(art):
            return phrase[len(art) :]
    return phrase


def _noun(lang: str, cell: str) -> Noun:
    parts = cell.split("|")
    sing, pl = parts[0], parts[1]
    if len(parts) > 2:
        fem = parts[2] == "f"
    elif lang == "fr":
        fem = sing.startswith("une ")
    else:
        fem = sing.startswith(_FEMININE.get(lang, ()))
    return Noun(sing, _bare(lang, sing), pl, fem)


@cache
def nouns() -> dict[str, dict[str, Noun]]:
    """icon name -> language -> :class:`Noun` (English derived from the motif labels)."""
    out: dict[str, dict[str, Noun]] = {}
    for row in _rows("nouns.txt"):
        name, cells = row[0], row[1:]
        if len(cells) != len(OTHER_LANGS):
            raise ValueError(f"nouns.txt: {name} needs {len(OTHER_LANGS)} languages")
        out[name] = {lang: _noun(lang, cell) for lang, cell in zip(OTHER_LANGS, cells, strict=True)}
    for name, motif in MOTIFS.items():
        label = motif.label
        art = "an " if label[:1].lower() in "aeiou" else "a "
        out.setdefault(name, {})["en"] = Noun(art + label, label, plural(label), False)
    return out


@cache
def words() -> dict[str, dict[str, str]]:
    """English key -> language -> word (themes, moods, things, scenery)."""
    out: dict[str, dict[str, str]] = {}
    for row in _rows("words.txt"):
        if len(row) != len(LANGS):
            raise ValueError(f"words.txt: {row[0]} needs {len(LANGS)} columns")
        out[row[0]] = dict(zip(LANGS, row, strict=True))
    return out


@dataclass(frozen=True)
class Caption:
    titles: dict[str, tuple[str, ...]]
    forms: dict[str, dict[str, str]]  # form ("" = default) -> language -> template


@cache
def captions() -> dict[str, Caption]:
    """composition name -> :class:`Caption`, parsed from ``captions.txt``."""
    out: dict[str, Caption] = {}
    comp, form = "", None
    for line in _text("captions.txt").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            comp, form = line.strip("[]"), None
            out[comp] = Caption({}, {})
        elif line.startswith("="):
            form = line[1:].strip()
            out[comp].forms[form] = {}
        else:
            lang, _, text = line.partition(": ")
            if form is None:
                out[comp].titles[lang] = tuple(t.strip() for t in text.split("|"))
            else:
                out[comp].forms[form][lang] = text.strip()
    return out


_SLOT = re.compile(r"\{(\w)(?:\.(bare|pl))?\}|\{(\w)\?([^|}]*)\|([^}]*)\}")
_FR_ELISION = re.compile(r"\b([Dd]e|[Qq]ue) (une?|il|elle)\b")


def fill(template: str, lang: str, slots: dict[str, str], count: int = 0) -> str:
    """Put motif names (and ``{n}``) into a caption template."""
    table = nouns()

    def sub(m: re.Match[str]) -> str:
        if m.group(1):
            noun = table[slots[m.group(1)]][lang]
            return {"bare": noun.bare, "pl": noun.pl}.get(m.group(2) or "", noun.a)
        noun = table[slots[m.group(3)]][lang]
        return m.group(5) if noun.feminine else m.group(4)

    text = _SLOT.sub(sub, template.replace("{n}", str(count)))
    if lang == "fr":
        text = _FR_ELISION.sub(lambda m: f"{m.group(1)[:-1]}'{m.group(2)}", text)
        text = re.sub(r"\b([Dd])e des\b", r"\1es", text)
    return text[:1].upper() + text[1:]


def word(key: str, lang: str) -> str:
    return words()[key][lang]


def card_text(
    composition: str,
    form: str,
    slots: dict[str, str],
    count: int,
    title_index: int,
    motifs: list[str],
    scenery: list[str],
    things: list[str],
    themes: list[str],
    moods: list[str],
) -> dict[str, dict[str, object]]:
    """The ``text`` field of a card: six languages of title, description, alt text and lists."""
    cap = captions()[composition]
    table = nouns()
    out: dict[str, dict[str, object]] = {}
    for lang in LANGS:
        titles = cap.titles[lang]
        title = titles[title_index % len(titles)]
        sentence = fill(cap.forms[form][lang], lang, slots, count)
        sep = " : " if lang == "fr" else ": "
        scene = ", ".join(dict.fromkeys(word(s, lang) for s in scenery))
        alt = f"{title}{sep}{sentence}"
        if len(alt) > MAX_ALT:
            alt = sentence if len(sentence) <= MAX_ALT else sentence[: MAX_ALT - 1] + "…"
        named = [table[m][lang].bare for m in motifs]
        listed = [*named, *(word(t, lang) for t in [*things, *scenery])]
        out[lang] = {
            "title": title,
            "description": f"{sentence} {_SCENERY_LABEL[lang]}{sep}{scene}.",
            "alt_text": alt,
            "things": _unique(listed)[:15],
            "themes": _unique(word(t, lang) for t in themes)[:10],
            "moods": _unique(word(m, lang) for m in moods)[:6],
        }
    return out


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
