"""The register's new kinds in a real browser: each has its box in the filter, the
damaged places show as a table of quotations in the document's language, and the
evidence of a claim about the English originals is a link a reader can follow."""

from __future__ import annotations

from typing import Any

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
