"""Words from text in the six languages: tokens, stop words and light stemmers of our own.

A clue may come in any of the six languages and the listener does not know which, so
:func:`forms` gives a token's stems under every language's stemmer plus a short prefix; a
card's text is stemmed with its own language's stemmer. Stems are accent-free.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from importlib import resources

LANGS = ("en", "it", "pl", "es", "pt", "fr")
PREFIX = 5  # characters of the accent-free word kept as a fallback form

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)

_STOP: dict[str, frozenset[str]] = {
    lang: frozenset(ws)
    for lang, ws in json.loads(
        resources.files(__package__).joinpath("data/stopwords.json").read_text("utf-8")
    ).items()
}
STOPWORDS: frozenset[str] = frozenset().union(*_STOP.values())

# Suffixes tried longest first; the stem keeps at least three letters.
_SUFFIXES: dict[str, tuple[str, ...]] = {
    "en": (
        "ations", "ation", "ingly", "ings", "ing", "ness", "ments", "ment", "ities", "ity",
        "ously", "ous", "fully", "ful", "ies", "ied", "ers", "er", "est", "ed", "ly", "es", "s",
        "e", "y",
    ),
    "it": (
        "amente", "mente", "azioni", "azione", "zioni", "zione", "ità", "ismo", "iste", "isti",
        "ista", "ando", "endo", "are", "ere", "ire", "ato", "ata", "ati", "ate", "ito", "ita",
        "iti", "ite", "uto", "uta", "oso", "osa", "osi", "ose", "ini", "ino", "ina", "ine",
        "etti", "etto", "etta", "a", "e", "i", "o",
    ),
    "pl": (
        "owania", "owanie", "ościami", "ością", "ości", "ość", "owie", "owych", "owego", "owej",
        "ami", "ach", "ów", "om", "owi", "iem", "em", "ego", "emu", "ymi", "imi", "ich", "ych",
        "ej", "ie", "ia", "ią", "ię", "ę", "ą", "y", "i", "a", "o", "e", "u",
    ),
    "es": (
        "amente", "mente", "aciones", "ación", "idades", "idad", "ismo", "istas", "ista",
        "ando", "iendo", "ados", "adas", "idos", "idas", "ado", "ada", "ido", "ida", "osos",
        "osas", "oso", "osa", "ar", "er", "ir", "es", "os", "as", "a", "e", "o", "s",
    ),
    "pt": (
        "amente", "mente", "ações", "ação", "ções", "ção", "idades", "idade", "ismo", "ista",
        "ando", "endo", "indo", "ados", "adas", "idos", "idas", "ado", "ada", "ido", "ida",
        "inho", "inha", "osos", "osas", "oso", "osa", "ões", "ães", "ar", "er", "ir", "os", "as",
        "es", "a", "e", "o", "s",
    ),
    "fr": (
        "issements", "issement", "ements", "ement", "ations", "ation", "ités", "ité", "euses",
        "euse", "eux", "ives", "ive", "ifs", "if", "ismes", "isme", "iste", "antes", "ante",
        "ants", "ant", "ées", "ée", "és", "é", "er", "ez", "es", "e", "s", "x",
    ),
}  # fmt: skip


def fold(word: str) -> str:
    """Lower case without accents (ł becomes l)."""
    word = word.lower().replace("ł", "l").replace("ß", "ss").replace("’", "'")
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    """Lower-case words of ``text`` (elisions such as l' and d' split off)."""
    out: list[str] = []
    for match in _WORD.findall(text.lower()):
        if "'" in match or "’" in match:
            head, _, tail = match.replace("’", "'").partition("'")
            if len(head) <= 2:  # l'amour, d'oro, qu'il
                match = tail
        out.append(match)
    return out


@lru_cache(maxsize=65536)
def stem(word: str, lang: str) -> str:
    """The accent-free stem of one lower-case word in ``lang``."""
    for suffix in _SUFFIXES.get(lang, ()):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return fold(word)


def content_words(text: str) -> list[str]:
    """The words of ``text`` that carry meaning (stop words of all six languages dropped)."""
    return [w for w in words(text) if w not in STOPWORDS and len(w) > 1]


def stems(text: str, lang: str) -> list[str]:
    """Stems of the content words of ``text`` written in ``lang``."""
    return [stem(w, lang) for w in content_words(text)]


@lru_cache(maxsize=65536)
def forms(word: str) -> tuple[str, ...]:
    """Every stem ``word`` may have (one per language) and its prefix form ``~prefix``."""
    found = {stem(word, lang) for lang in LANGS}
    pre = prefix_form(word)
    if pre is not None:
        found.add(pre)
    return tuple(sorted(found))


def prefix_form(word: str) -> str | None:
    """The ``~prefix`` form of a word long enough to have one."""
    folded = fold(word)
    return "~" + folded[:PREFIX] if len(folded) > PREFIX else None
