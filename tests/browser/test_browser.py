"""The built site in a real browser (Debian's Chromium driven by Playwright): the
language selector keeps the page, the register filters, links work, a phone fits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_support import needs_chromium

pytestmark = needs_chromium


def test_language_selector_keeps_the_page(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"{server}/es/chariots.html")
    assert page.get_attribute("html", "lang") == "es"
    page.hover(".md-header__option .md-select")
    page.click("a.md-select__link[hreflang='pl']")
    page.wait_for_load_state()
    assert page.url == f"{server}/pl/chariots.html"
    assert page.get_attribute("html", "lang") == "pl"
    assert page.locator("#challenges").count() == 1
    page.close()


def test_register_filters_by_kind_and_status(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"{server}/en/discrepancies.html")
    entries = page.locator(".discrepancy-entry")
    total = entries.count()
    ambiguities = page.locator(".discrepancy-entry[data-kind='ambiguity']").count()
    assert total > ambiguities > 0
    page.uncheck("input[name='kind'][value='ambiguity']")
    assert page.locator(".discrepancy-entry:visible").count() == total - ambiguities
    assert page.locator(".discrepancy-entry[data-kind='ambiguity']:visible").count() == 0
    page.uncheck("input[name='status'][value='adopted']")
    assert page.locator(".discrepancy-entry:visible").count() == 0
    page.check("input[name='status'][value='adopted']")
    page.check("input[name='kind'][value='ambiguity']")
    assert page.locator(".discrepancy-entry:visible").count() == total
    page.close()


def test_term_link_leads_to_the_glossary_entry(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"{server}/pl/monstrous-mounts.html")
    # Worked examples start closed: follow a term a reader sees in the rule text itself.
    link = page.locator("article a[href$='glossary.html#large-target']:visible").first
    assert link.get_attribute("title")
    link.click()
    page.wait_for_load_state()
    assert page.url == f"{server}/pl/glossary.html#large-target"
    assert page.locator("#large-target").is_visible()
    page.close()


def test_a_phone_sees_the_page_without_sideways_scrolling(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 375, "height": 740})
    page.goto(f"{server}/es/parallel-monstrous-mounts.html")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.close()


def test_the_site_works_from_disk_without_a_server(built_site: Path, browser: Any) -> None:
    """At the table, with no network and no server: open the files, follow a link,
    switch language."""
    page = browser.new_page()
    page.goto((built_site / "es" / "chariots.html").as_uri())
    page.locator("article a[href*='glossary.html#']").first.click()
    page.wait_for_load_state()
    assert page.url.startswith((built_site / "es" / "glossary.html").as_uri() + "#")
    page.goto((built_site / "es" / "chariots.html").as_uri())
    page.hover(".md-header__option .md-select")
    page.click("a.md-select__link[hreflang='pl']")
    page.wait_for_load_state()
    assert page.url == (built_site / "pl" / "chariots.html").as_uri()
    page.close()


def test_search_finds_a_spanish_word_on_the_spanish_site(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(f"{server}/es/index.html")
    page.click("input.md-search__input")
    page.fill("input.md-search__input", "grifo")
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    links = page.locator(".md-search-result__item a").evaluate_all("items => items.map(a => a.href)")
    assert links and all("/es/" in link for link in links)
    page.close()
