"""The register's new kinds in a real browser: each has its box in the filter, the
damaged places show as a table of quotations in the document's language, and the
evidence of a claim about the English originals is a link a reader can follow."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import needs_chromium

pytestmark = needs_chromium


def test_errata_and_scan_damage_filter_and_show_their_places(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"{server}/pl/discrepancies.html")
    damage = page.locator(".discrepancy-entry[data-kind='scan-damage']")
    errata = page.locator(".discrepancy-entry[data-kind='erratum']")
    assert damage.count() > 0 and errata.count() > 0
    page.uncheck("input[name='kind'][value='scan-damage']")
    assert page.locator(".discrepancy-entry[data-kind='scan-damage']:visible").count() == 0
    assert page.locator(".discrepancy-entry[data-kind='erratum']:visible").count() == errata.count()
    page.check("input[name='kind'][value='scan-damage']")
    garbled = page.locator("#scan-garbled-letter").locator("xpath=..")
    quote = garbled.locator("table q.document-text").first
    assert quote.is_visible() and quote.get_attribute("lang") == "pl"
    assert quote.inner_text().startswith("%7ładne")
    headers = garbled.locator("table th").all_inner_texts()
    assert headers == ["Źródło", "Strona", "Miejsce", "W oryginale", "Powinno być"]
    evidence = page.locator("#look-out-sir-face").locator("xpath=..").locator(
        "a[href='https://6th.whfb.app/characters/look-out-sir']")
    assert evidence.count() == 1 and evidence.is_visible()
    page.close()


TOC_SHOWN = """() => [...document.querySelectorAll('.md-sidebar--secondary .md-nav__link')]
    .filter((link) => link.offsetParent !== null).map((link) => link.getAttribute('href'))"""
ENTRIES_SHOWN = """() => [...document.querySelectorAll('.discrepancy-entry')]
    .filter((entry) => entry.offsetParent !== null).map((entry) => '#' + entry.querySelector('h3').id)"""


def _register(where: str, code: str) -> str:
    return f"{where}/{code}/discrepancies.html"


@pytest.mark.parametrize("code", ["en", "es", "pl"])
def test_editorial_notes_stand_apart_from_the_differences(server: str, browser: Any, code: str) -> None:
    """Misprints and scan damage (the kinds that hold places) come after the
    differences that change the game, under a heading of their own."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(_register(server, code))
    groups = page.locator(".register-group")
    assert [groups.nth(index).get_attribute("data-holds") for index in range(groups.count())] == [
        "readings", "places"]
    notes = page.locator(".register-group[data-holds='places'] .discrepancy-entry")
    kinds = set(notes.evaluate_all("(entries) => entries.map((entry) => entry.dataset.kind)"))
    assert kinds == {"erratum", "scan-damage"}
    other = page.locator(".register-group[data-holds='readings'] .discrepancy-entry")
    assert not set(other.evaluate_all("(entries) => entries.map((entry) => entry.dataset.kind)")) & kinds
    assert notes.count() == 14 and other.count() > 0
    heading = page.locator("#register-notes")
    assert heading.evaluate("(node) => node.tagName") == "H2"
    assert heading.inner_text().rstrip("¶").strip() == {"en": "Editorial notes", "es": "Notas editoriales",
                                            "pl": "Uwagi redakcyjne"}[code]
    page.close()


@pytest.mark.parametrize("from_disk", [False, True], ids=["served", "from-disk"])
def test_an_empty_filter_says_so_and_the_contents_follow(server: str, built_site: Path, browser: Any,
                                                         from_disk: bool) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((built_site / "es" / "discrepancies.html").as_uri() if from_disk else _register(server, "es"))
    message = page.locator(".register-empty")
    assert not message.is_visible()
    everything = page.evaluate(TOC_SHOWN)
    differences = page.locator(".register-group[data-holds='readings'] .discrepancy-entry").count()
    assert everything[0] == "#register-readings" and everything[1 + differences] == "#register-notes"
    assert page.evaluate(ENTRIES_SHOWN) == everything[1:1 + differences] + everything[2 + differences:]
    for box in page.locator("input[name='kind']").all():
        box.uncheck()
    assert page.evaluate(ENTRIES_SHOWN) == []
    assert message.is_visible() and message.inner_text().startswith("Ninguna entrada responde a este filtro")
    assert message.get_attribute("role") == "status"
    assert page.evaluate(TOC_SHOWN) == []
    # One kind of editorial note back: its entries, under their group, and nothing else.
    page.check("input[name='kind'][value='scan-damage']")
    assert not message.is_visible()
    shown = page.evaluate(ENTRIES_SHOWN)
    assert len(shown) == 6 and page.evaluate(TOC_SHOWN) == ["#register-notes", *shown]
    assert not page.locator("#register-readings").is_visible()
    # No status ticked empties the page as surely as no kind.
    for box in page.locator("input[name='kind']").all():
        box.check()
    for box in page.locator("input[name='status']").all():
        box.uncheck()
    assert message.is_visible() and page.evaluate(TOC_SHOWN) == []
    page.close()
