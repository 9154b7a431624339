"""The glossary's alphabetical order: each language's alphabet, not code points (which
put every accented or Polish letter after z) and not the machine's locales (which a
build cannot count on)."""

from __future__ import annotations

import pytest

from validator.site.collation import sort_key, sorted_by

ORDERS = {
    # ñ is a letter after n; accents only break ties; opening ¡ and ¿ are not letters.
    "es": ["¡Abran Paso!", "árbol", "arma", "cañón", "carga", "chequeo", "fila", "fila de combate", "filas",
           "nácar", "nube", "ñandú", "oca", "pánico"],
    # Every Polish letter with a mark is a letter of its own, after its base.
    "pl": ["atak", "ącki", "bohater", "cyk", "ćma", "ewa", "ęsi", "lud", "łucznik", "mapa", "nora", "ńa",
           "oko", "ósmy", "potwór", "strach", "szereg", "śmiech", "zebra", "źrebię", "żaba"],
    # Czech: č after c, the digraph ch after h, ř after r, š after s, ž after z.
    "cs": ["cesta", "cyklus", "čas", "hrad", "chata", "ibis", "rak", "řeka", "sud", "šok", "zub", "žába"],
    # German and English: the root order, marks folded (ä with a), ß as ss.
    "de": ["Arg", "Ärger", "Asche", "Zebra"],
    "en": ["armour save", "Attacks", "Look out, Sir!", "model"],
}


@pytest.mark.parametrize("language", sorted(ORDERS))
def test_each_language_sorts_by_its_alphabet(language: str) -> None:
    expected = ORDERS[language]
    shuffled = list(reversed(expected))
    assert sorted(shuffled, key=sort_key(language)) == expected
    assert sorted_by(shuffled, lambda word: word, language) == expected


@pytest.mark.parametrize("language", ["es", "pl", "cs"])
def test_code_points_and_the_root_order_get_it_wrong(language: str) -> None:
    """The orders above are ones a naive sort breaks: the test can fail."""
    expected = ORDERS[language]
    assert sorted(expected) != expected
    assert sorted(expected, key=sort_key("und")) != expected


def test_a_region_shares_its_language_s_order() -> None:
    assert sorted(["ñu", "oca", "nube"], key=sort_key("es-MX")) == ["nube", "ñu", "oca"]
    assert sorted(["łuk", "mapa", "lis"], key=sort_key("pl_PL")) == ["lis", "łuk", "mapa"]


def test_ties_break_unmarked_then_lowercase_first_and_the_order_is_total() -> None:
    assert sorted(["Árbol", "arbol", "árbol", "Arbol"], key=sort_key("es")) == ["arbol", "Arbol", "árbol", "Árbol"]
    assert sort_key("es")("a") != sort_key("es")("A")
