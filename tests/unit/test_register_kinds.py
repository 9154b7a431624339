"""The bundled register's kinds read apart in every language: a reader picks a kind
in the register's filter by its label alone, so two labels built of the same words
("Source erratum", "Erratum in a source") leave the reader guessing which is which."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("es", "pl")


def stems(label: str) -> set[str]:
    """The label's words that carry meaning, cut to their first letters so that the
    forms of one word ("errata", "erratum"; "źródło", "źródle") count as one; short
    words (articles, prepositions) say nothing of the kind."""
    return {word[:5] for word in re.findall(r"\w+", label.casefold()) if len(word) >= 4}


def alike(labels: dict[str, str]) -> list[tuple[str, str]]:
    """The pairs of kinds whose labels share a word: such labels tell their kinds
    apart by the other words alone, which is what makes them read alike."""
    kinds = sorted(labels)
    return [(first, second) for index, first in enumerate(kinds) for second in kinds[index + 1:]
            if stems(labels[first]) & stems(labels[second])]


def english_labels() -> dict[str, str]:
    register = yaml.safe_load((ROOT / "docs" / "discrepancies.yml").read_text(encoding="utf-8"))
    return {kind["id"]: kind["label"] for kind in register["kinds"]}


def translated_labels(language: str) -> dict[str, str]:
    with (ROOT / "locales" / language / "LC_MESSAGES" / "rules.po").open("rb") as file:
        catalog = read_po(file)
    labels = {}
    for message in catalog:
        match = re.fullmatch(r"discrepancies/kind\.(.+)#label", message.context or "")
        if match and message.string:
            labels[match.group(1)] = str(message.string)
    return labels


def test_the_english_kinds_read_apart() -> None:
    labels = english_labels()
    assert len(labels) >= 6
    assert alike(labels) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_translated_kinds_read_apart(language: str) -> None:
    labels = translated_labels(language)
    assert set(labels) == set(english_labels())
    assert alike(labels) == []


def test_labels_of_the_same_words_are_found() -> None:
    """The labels the register once had are caught, in each language."""
    assert alike({"source-erratum": "Source erratum", "erratum": "Erratum in a source"}) == [
        ("erratum", "source-erratum")]
    assert alike({"source-erratum": "Errata de la fuente", "erratum": "Errata en una fuente"}) != []
    assert alike({"source-erratum": "Błąd w źródle", "erratum": "Erratum w źródle"}) != []
    assert alike({"a": "Misprint", "b": "Damage in a scanned copy"}) == []
