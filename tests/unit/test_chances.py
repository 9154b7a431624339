"""How a page says a probability, in each language (validator.site.text.Chances):
the locale's percentage, a fraction only where it is short, certainty and
near-certainty in words, never 100 % for a chance that can fail nor 0 % for one
that can happen."""

from __future__ import annotations

from fractions import Fraction

import pytest

from validator.catalogs.interface import engine_catalog_path
from validator.site.text import Chances

CASES = {
    "en": ("certain", "impossible", "almost certain (more than 99.9%)", "almost impossible (less than 0.1%)",
           "70.4% (19/27)", "42.1%", ">\u00a099.9%"),
    "es": ("seguro", "imposible", "casi seguro (más del 99,9\u00a0%)", "casi imposible (menos del 0,1\u00a0%)",
           "70,4\u00a0% (19/27)", "42,1\u00a0%", ">\u00a099,9\u00a0%"),
    "pl": ("pewne", "niemożliwe", "prawie pewne (ponad 99,9%)", "prawie niemożliwe (poniżej 0,1%)",
           "70,4% (19/27)", "42,1%", ">\u00a099,9%"),
}


def _chances(language: str) -> Chances:
    from babel.messages.pofile import read_po

    if language == "en":
        return Chances.of(language, str)
    with engine_catalog_path(language).open("rb") as file:
        catalog = read_po(file)
    return Chances.of(language, lambda message: str(catalog[message].string) if message in catalog else message)


@pytest.mark.parametrize("language", sorted(CASES))
def test_a_chance_is_said_as_players_say_it(language: str) -> None:
    certain, impossible, almost, hardly, short, long, compact = CASES[language]
    chances = _chances(language)
    assert chances.said(Fraction(1)) == certain
    assert chances.said(Fraction(0)) == impossible
    assert chances.said(Fraction(3485735825, 3486784401)) == almost  # 20 hits: not quite every time
    assert chances.said(Fraction(1, 3 ** 20)) == hardly
    assert chances.said(Fraction(19, 27)) == short
    assert chances.said(Fraction(91, 216)) == long  # a fraction that long is left to the editor view
    assert chances.compact(Fraction(3485735825, 3486784401)) == compact
    for value in (Fraction(9999, 10000), Fraction(1, 10000)):
        assert chances.compact(value) not in (chances.compact(Fraction(1)), chances.compact(Fraction(0)))
