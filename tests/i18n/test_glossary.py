"""The UI strings use the game's own words of docs/glossary.json in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "it", "pl", "es", "pt", "fr")
GLOSSARY: dict[str, Any] = json.loads((ROOT / "docs" / "glossary.json").read_text("utf-8"))


def ui(lang: str) -> dict[str, str]:
    strings: dict[str, str] = json.loads(
        (ROOT / "web" / "src" / "i18n" / f"{lang}.json").read_text("utf-8")
    )
    return strings


def said(text: str, word: str) -> bool:
    """Whether `word` starts a word of `text` (case-insensitive): "ospite" finds "L'ospite"."""
    return re.search(rf"(?<!\w){re.escape(word)}", text, re.IGNORECASE) is not None


def test_every_concept_has_a_word_in_every_language() -> None:
    for name, concept in GLOSSARY["concepts"].items():
        assert concept["keys"], name
        for lang in LANGS:
            assert concept[lang]["term"] and concept[lang]["stem"], (name, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_strings_that_name_a_concept_use_its_word(lang: str) -> None:
    strings = ui(lang)
    wrong = [
        (name, key, strings[key])
        for name, concept in GLOSSARY["concepts"].items()
        for key in concept["keys"]
        if concept[lang]["stem"].lower() not in strings[key].lower()
    ]
    assert wrong == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_string_uses_a_word_the_glossary_rules_out(lang: str) -> None:
    never = [w for c in GLOSSARY["concepts"].values() for w in c[lang].get("never", [])]
    never += GLOSSARY["variety"].get(lang, {}).get("never", [])
    found = [(key, word) for key, text in ui(lang).items() for word in never if said(text, word)]
    assert found == []


def test_the_check_finds_the_words_it_rules_out() -> None:
    assert said("In attesa che l'ospite avvii la partita…", "ospite")
    assert said("Podpowiedź nie może być pusta.", "podpowied")
    assert not said("Dodaj podpowiedzi", "odpowied")
    assert said("Le salon ABCD n'existe pas.", "salon")


def test_italian_calls_the_host_host_everywhere() -> None:
    it = ui("it")
    host_strings = [text for text in it.values() if said(text, "host")]
    assert len(host_strings) >= 8
    assert not [text for text in it.values() if said(text, "ospit") or "chi ospita" in text]
