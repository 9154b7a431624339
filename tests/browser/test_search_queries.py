"""Search as players ask, in a real browser: natural queries of each language (without
accents, inflected, misspelt by a letter, nicknames, three words of a question) put
into the search box of the built site (the first ones typed key by key), each with the
entry it must bring in the first three results; and the same queries failing where the
data they rely on is taken away."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import needs_chromium
from conftest import ROOT

pytestmark = needs_chromium

SHOWN = 3
"""How far down the results the expected entry may be: what a reader sees without looking."""

# (query, the rule, official answer or glossary term it must find), chosen by reading the
# rules as a player who asks. The queries open each list.
QUERIES: dict[str, list[tuple[str, str]]] = {
    "en": [
        ("character chariot infantry", "characters-in-units/which-units"),
        ("lookout sir", "shooting-at-characters/look-out-sir"),
        ("look out sir", "shooting-at-characters/look-out-sir"),
        ("shooting monster rider", "monstrous-mounts/shooting-hit-allocation"),
        ("refused challenge", "challenges/refusing"),
        ("refuse a duel", "challenges/refusing"),
        ("chalenge refused", "challenges/refusing"),
        ("issue challenge", "challenges/issuing"),
        ("can a lone character refuse", "challenges/lone-character"),
        ("split attacks", "challenges/splitting-attacks"),
        ("rider killed", "monstrous-mounts/death-of-the-rider"),
        ("death of the ridr", "monstrous-mounts/death-of-the-rider"),
        ("mount dies", "monstrous-mounts/death-of-the-mount"),
        ("monster reaction table", "monstrous-mounts/monster-reaction"),
        ("when does the monster test", "monstrous-mounts/rider-death-test-timing"),
        ("cannon ball monster", "monstrous-mounts/templates-and-cannon"),
        ("chariot destroyed", "chariots/destruction"),
        ("chariot destroyed charging", "chariots/destruction-during-charge"),
        ("armour save chariot character", "chariots/armour-save"),
        ("joining a unit", "characters-in-units/joining"),
        ("leave unit", "characters-in-units/leaving"),
        ("second rank character", "characters-in-units/second-rank"),
        ("charging lone character", "characters-alone/charging-lone-characters"),
        ("shooting at lone characters", "shooting-at-characters/lone-characters"),
        ("characters bigger than troops", "shooting-at-characters/larger-characters"),
        ("steed one wound cavalry", "monstrous-mounts/cavalry"),
        ("victory points chariot", "chariots/victory-points"),
        ("pursuit overrun", "characters-in-units/pursuit-and-overrun"),
        ("leadership test 2d6", "core-tables/leadership-tests"),
        ("2K6", "core-tables/leadership-tests"),
        ("stone thrower", "glossary/stone-thrower"),
        ("catapult", "glossary/stone-thrower"),
        ("duel", "challenges/fighting-the-duel"),
        ("BSB", "glossary/battle-standard"),
        ("captured standard", "faq/captured-standard-two-characters"),
        ("overkill challenge", "faq/challenge-combat-resolution"),
        ("character on foot joins cavalry", "faq/slowest-model-sets-the-pace"),
        ("monster reacton", "monstrous-mounts/monster-reaction"),
        ("splitting atacks", "challenges/splitting-attacks"),
    ],
    "es": [
        ("carro unirse infanteria", "characters-in-units/which-units"),
        ("miradlo señor", "shooting-at-characters/look-out-sir"),
        ("miradlo senor", "shooting-at-characters/look-out-sir"),
        ("cuidado senor", "shooting-at-characters/look-out-sir"),
        ("disparos monstruo jinete", "monstrous-mounts/shooting-hit-allocation"),
        ("reparto impactos", "monstrous-mounts/shooting-hit-allocation"),
        ("rechazar desafio", "challenges/refusing"),
        ("desafio rechazado", "challenges/refusing"),
        ("rechazr desafio", "challenges/refusing"),
        ("lanzar desafios", "challenges/issuing"),
        ("aceptar duelo", "challenges/accepting"),
        ("personaje solitario negarse", "challenges/lone-character"),
        ("repartir ataques", "challenges/splitting-attacks"),
        ("muerte del jinete", "monstrous-mounts/death-of-the-rider"),
        ("jinete muerto", "monstrous-mounts/death-of-the-rider"),
        ("muerte montura", "monstrous-mounts/death-of-the-mount"),
        ("reaccion monstruos", "monstrous-mounts/monster-reaction"),
        ("plantilla monstruo", "monstrous-mounts/templates-and-cannon"),
        ("carro destruido", "chariots/destruction"),
        ("carro destruido durante la carga", "chariots/destruction-during-charge"),
        ("salvacion armadura carro", "chariots/armour-save"),
        ("unirse a unidad", "characters-in-units/joining"),
        ("abandonar unidad", "characters-in-units/leaving"),
        ("segunda fila", "characters-in-units/second-rank"),
        ("cargar personaje solitario", "characters-alone/charging-lone-characters"),
        ("disparar personajes solitarios", "shooting-at-characters/lone-characters"),
        ("personajes mas grandes", "shooting-at-characters/larger-characters"),
        ("monturas una herida caballeria", "monstrous-mounts/cavalry"),
        ("persecucion arrasamiento", "characters-in-units/pursuit-and-overrun"),
        ("chequeo liderazgo", "core-tables/leadership-tests"),
        ("2k6 liderazgo", "core-tables/leadership-tests"),
        ("TSA", "glossary/armour-save"),
        ("catapulta", "glossary/stone-thrower"),
        ("estandarte capturado", "faq/captured-standard-two-characters"),
        ("personaje a pie caballeria", "faq/slowest-model-sets-the-pace"),
        ("hostigadres", "glossary/skirmishers"),
        ("plantila monstruo", "monstrous-mounts/templates-and-cannon"),
    ],
    "pl": [
        ("rydwan dolaczyc piechota", "characters-in-units/which-units"),
        ("wyzwanie odrzucone", "challenges/refusing"),
        ("odmowa pojedynku", "challenges/refusing"),
        ("uwaga panie", "shooting-at-characters/look-out-sir"),
        ("look out sir", "shooting-at-characters/look-out-sir"),
        ("strzelanie potwor jezdziec", "monstrous-mounts/shooting-hit-allocation"),
        ("podzial trafien", "monstrous-mounts/shooting-hit-allocation"),
        ("rzucenie wyzwania", "challenges/issuing"),
        ("przyjac wyzwanie", "challenges/accepting"),
        ("samotny bohater odmowic", "challenges/lone-character"),
        ("rozdzielanie atakow", "challenges/splitting-attacks"),
        ("smierc jezdzca", "monstrous-mounts/death-of-the-rider"),
        ("smirc jezdzca", "monstrous-mounts/death-of-the-rider"),
        ("smierc wierzchowca", "monstrous-mounts/death-of-the-mount"),
        ("reakcja potwora", "monstrous-mounts/monster-reaction"),
        ("kula armatnia potwor", "monstrous-mounts/templates-and-cannon"),
        ("zniszczony rydwan", "chariots/destruction"),
        ("zniszczenie podczas szarzy", "chariots/destruction-during-charge"),
        ("rzut obronny rydwan", "chariots/armour-save"),
        ("dolaczenie do oddzialu", "characters-in-units/joining"),
        ("opuszczenie jednostki", "characters-in-units/leaving"),
        ("drugi szereg", "characters-in-units/second-rank"),
        ("szarza na samotnego bohatera", "characters-alone/charging-lone-characters"),
        ("strzelanie do samotnych bohaterow", "shooting-at-characters/lone-characters"),
        ("bohaterowie wieksi od zolnierzy", "shooting-at-characters/larger-characters"),
        ("wierzchowiec jedna rana kawaleria", "monstrous-mounts/cavalry"),
        ("poscig", "characters-in-units/pursuit-and-overrun"),
        ("test dowodzenia", "core-tables/leadership-tests"),
        ("D6", "monstrous-mounts/shooting-hit-allocation"),
        ("postac", "glossary/character"),
        ("wzornik", "glossary/template"),
        ("zdobyty sztandar", "faq/captured-standard-two-characters"),
        ("pieszy bohater kawaleria", "faq/slowest-model-sets-the-pace"),
        ("harcownicy", "glossary/skirmishers"),
        ("dolaczenie do jednostki", "characters-in-units/joining"),
        ("rydwna zniszczenie", "chariots/destruction"),
        ("odmowa pojedynk", "challenges/refusing"),
    ],
}

TOP_THREE = """() => Array.from(document.querySelectorAll('.md-search-result__link'))
    .slice(0, 3).map(link => link.dataset.entry)"""
"""The first results, read in one call once the query is typed."""


TYPED = 5
"""How many queries of each list are typed key by key, as a player types (the results
follow every key); the others are put in the box at once, which is the same query to
the search and costs one search instead of one per key."""


def ask(page: Any, query: str, typed: bool = False) -> list[str]:
    """Clear the box, put the query in it (key by key when ``typed``), and read the first results."""
    box = page.locator("input.md-search__input")
    box.fill("")
    if typed:
        box.press_sequentially(query)
    else:
        box.fill(query)
    return list(page.evaluate(TOP_THREE))


def misses(page: Any, queries: list[tuple[str, str]]) -> list[str]:
    return [f"{query!r} -> {found} (wanted {expected})" for number, (query, expected) in enumerate(queries)
            if expected not in (found := ask(page, query, typed=number < TYPED))[:SHOWN]]


@pytest.fixture
def search_page(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    yield page
    page.close()


def open_search(page: Any, url: str) -> None:
    page.goto(url)
    page.click("input.md-search__input")


@pytest.mark.parametrize("language", list(QUERIES))
def test_natural_queries_find_their_entry_in_the_first_three(built_site: Path, search_page: Any,
                                                             language: str) -> None:
    assert len(QUERIES[language]) >= 25
    open_search(search_page, (built_site / language / "index.html").as_uri())
    assert misses(search_page, QUERIES[language]) == []


NEED_NAMES = {
    "en": [("shooting monster rider", "monstrous-mounts/shooting-hit-allocation"), ("BSB", "glossary/battle-standard")],
    "es": [("TSA", "glossary/armour-save")],
    "pl": [("uwaga panie", "shooting-at-characters/look-out-sir"), ("odmowa pojedynku", "challenges/refusing")],
}
"""Queries found only through the names players use (``also_called:``)."""


def test_the_queries_can_fail_without_the_names_players_use(built_site: Path, search_page: Any,
                                                            tmp_path: Path) -> None:
    """The test above can fail: with an index built from a book without ``also_called:``,
    the nicknames find nothing of what they name, and with the index restored they do."""
    from validator.site import search
    from validator.workspace import load_workspace

    workspace = load_workspace(ROOT)
    for entry in (*workspace.rulebook.rules, *workspace.rulebook.glossary.terms):
        object.__setattr__(entry, "also_called", {})
    copy = tmp_path / "site"
    shutil.copytree(built_site, copy)
    for language, queries in NEED_NAMES.items():
        index_file = copy / language / "assets" / "validator" / search.INDEX_FILE
        kept = index_file.read_text(encoding="utf-8")
        bare = search.build_index(workspace, language)
        index_file.write_text(f"window.{search.GLOBAL}={json.dumps(bare, ensure_ascii=False)};", encoding="utf-8")
        open_search(search_page, (copy / language / "index.html").as_uri())
        assert len(misses(search_page, queries)) == len(queries), language
        index_file.write_text(kept, encoding="utf-8")
        open_search(search_page, (copy / language / "index.html").as_uri())
        assert misses(search_page, queries) == [], language
