"""The check the browser test makes of every string of a translated page
(``tests/interface_words.py``) finds an English interface text left on it, and only
that: a text whose translation keeps it, a name the language keeps, a quoted section
and a word the language spells the same pass."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import ROOT
from interface_words import SHARED_WORDS, interface_words, kept_names, leftovers, phrase_pattern

from validator.catalogs.interface import ENGINE_LOCALES


def test_an_english_interface_text_on_a_spanish_page_is_found() -> None:
    words = interface_words("es")
    spanish = ["Enlace permanente", "Hecho con", "carga, combate cuerpo a cuerpo", "no es la fase de Movimiento"]
    assert leftovers(spanish, words) == []
    found = leftovers([*spanish, "Permanent link", "not movement phase, carga", "Made with"], words)
    assert {line.split(" (")[0] for line in found} == {"'Permanent link'", "'not movement phase'", "'phase'",
                                                       "'movement'", "'Made with'"}
    assert "ui catalogue" in found[0] and any("labels catalogue" in line for line in found)


def test_material_s_own_words_are_looked_for() -> None:
    assert [line.split(" (")[0] for line in leftovers(["Back to top"], interface_words("pl"))] == ["'Back to top'"]
    assert leftovers(["Powrót na górę"], interface_words("pl")) == []


def test_a_placeholder_stands_for_any_value() -> None:
    pattern = phrase_pattern("Try other values with")
    assert pattern is not None and pattern.search("TRY other  values with validator calc")
    chart = phrase_pattern("%(outcome)s of each %(field)s on one roll")
    assert chart is not None and chart.search("chance of each hit on one roll")
    assert phrase_pattern("D6") is None and phrase_pattern("%(count)s") is None


def test_what_the_language_keeps_passes() -> None:
    words = interface_words("pl")
    allowed = [*kept_names("pl"), *SHARED_WORDS["pl"]]
    assert "Look out, Sir!" in allowed
    page = ["Rzut Look out, Sir! bohatera", "(zasada ta nazywa się Look out sir!)", "indeks online",
            "Material for MkDocs", "podręcznik, «Randomise Hits (Monsters)», strony 12"]
    assert leftovers(page, words, allowed) == []
    assert leftovers(["(zasada ta nazywa się Look out sir!)"], words) != []


def test_a_text_without_a_translation_is_looked_for(tmp_path: Path) -> None:
    """A catalogue missing one translation makes its English a leftover to find."""
    engine = tmp_path / "engine"
    shutil.copytree(ENGINE_LOCALES, engine)
    catalogue = engine / "es" / "LC_MESSAGES" / "ui.po"
    text = catalogue.read_text(encoding="utf-8")
    catalogue.write_text(text.replace('msgstr "Enlace permanente"', 'msgstr ""'), encoding="utf-8")
    assert "Permanent link" in {word.english for word in interface_words("es", ROOT, engine)}
    kept = text.replace('msgstr "Enlace permanente"', 'msgstr "Permanent link"')
    catalogue.write_text(kept, encoding="utf-8")
    assert "Permanent link" not in {word.english for word in interface_words("es", ROOT, engine)}
