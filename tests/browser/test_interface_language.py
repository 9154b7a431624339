"""Every word of a Spanish or Polish page in its reader's language, Material's own
included: one page of each kind opened in Chromium, every text node and every
title, label and placeholder read at once, every try-it form set to each of its
combinations and its outcome read, the search run with and without results; no
English text of the interface (the engine's, the labels', Material's) may be left,
unless its translation keeps it as it is.  The page not found leads home, from disk
and served."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import needs_chromium
from interface_words import SHARED_WORDS, interface_words, kept_names, leftovers

pytestmark = needs_chromium
LANGUAGES = ("es", "pl")
PAGES = {
    "home": "index.html",
    "chapter": "characters-in-units.html",
    "parallel text": "parallel-monstrous-mounts.html",
    "glossary": "glossary.html",
    "register": "discrepancies.html",
    "sources": "sources.html",
    "official answers": "faq.html",
    "status": "status.html",
    "page not found": "404.html",
}
"""One page of each kind (the chapter with the most try-it forms), by kind.  The
translators' guide is left out: it quotes the English texts it explains."""
CHAPTERS = ("challenges.html", "characters-alone.html", "chariots.html", "core-tables.html",
            "monstrous-mounts.html", "shooting-at-characters.html")
"""The other chapters, opened only for their try-it forms: every form of the book."""
QUERIES = {"es": ("carga", "zzzzqx"), "pl": ("szarża", "zzzzqx")}
"""A query with results and one without, in each language."""

COLLECT = """() => {
  const lang = document.documentElement.lang;
  // Text another language may stand in: the parallel text's other columns, the names
  // of the languages in the selector, a glossary's term in the book's own language, each
  // marked with its language (but not the English shown for want of a translation,
  // which is the leftover looked for); a document quoted in its own words; and code
  // (commands, identifiers), which is no language's.
  const foreign = (el) => {
    const marked = el.closest('[lang]:not(.untranslated)');
    return (marked !== null && marked.getAttribute('lang') !== lang)
      || el.closest('q.document-text, code, pre, kbd, samp') !== null;
  };
  const found = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const parent = walker.currentNode.parentElement;
    if (parent && !parent.closest('script, style, noscript, template') && !foreign(parent)) {
      found.push(walker.currentNode.nodeValue);
    }
  }
  const names = ['title', 'aria-label', 'placeholder', 'alt', 'data-title', 'data-switch-label'];
  for (const el of document.querySelectorAll('*')) {
    if (foreign(el)) { continue; }
    for (const name of names) { if (el.hasAttribute(name)) { found.push(el.getAttribute(name)); } }
  }
  for (const tip of document.querySelectorAll('.md-tooltip, .md-tooltip2, [role=tooltip]')) {
    found.push(tip.textContent);
  }
  return found;
}"""

TRY_EVERY_STATE = """() => {
  // Every combination of every try-it form's choices, each outcome read as shown.
  const found = [];
  for (const form of document.querySelectorAll('form.try-it')) {
    const selects = Array.from(form.querySelectorAll('select'));
    const cells = Array.from(form.querySelectorAll('dd[data-field]'));
    const counts = selects.map((select) => select.options.length);
    const total = counts.reduce((a, b) => a * b, 1);
    for (let state = 0; state < total; state++) {
      let rest = state;
      selects.forEach((select, i) => {
        select.selectedIndex = rest % counts[i];
        rest = Math.floor(rest / counts[i]);
        select.dispatchEvent(new Event('change'));
      });
      for (const cell of cells) { found.push(cell.textContent); }
    }
    for (const select of selects) {
      for (const option of select.options) { found.push(option.textContent); }
    }
  }
  return found;
}"""


def _search(page: Any, query: str) -> None:
    """Type ``query`` in the search box and wait until the results say how many there are."""
    page.click("input.md-search__input")
    page.fill("input.md-search__input", query)
    page.wait_for_function("document.querySelector('.md-search-result__meta').textContent.trim() !== ''")


def _strings_of_site(page: Any, site: str, language: str) -> dict[str, list[str]]:
    """Every string each page kind shows, by kind (try-it forms and search too)."""
    strings: dict[str, list[str]] = {}
    for kind, name in PAGES.items():
        page.goto(f"{site}/{language}/{name}")
        strings[kind] = page.evaluate(COLLECT)
        if kind == "chapter":  # Material's tooltip, made as a permalink is hovered
            page.hover(".md-content h2 .headerlink")
            strings[kind] += page.evaluate(COLLECT)
        strings[kind] += page.evaluate(TRY_EVERY_STATE)
    for name in CHAPTERS:
        page.goto(f"{site}/{language}/{name}")
        strings[f"try-it of {name}"] = page.evaluate(TRY_EVERY_STATE)
    for query in QUERIES[language]:
        _search(page, query)
        strings[f"search for {query!r}"] = page.evaluate(COLLECT)
    return strings


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_interface_word_is_left(language: str, server: str, browser: Any) -> None:
    words = interface_words(language)
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    strings = _strings_of_site(page, server, language)
    page.close()
    assert sum(1 for text in strings["chapter"] if text.strip()) > 100  # the collection read the page
    assert len(strings["try-it of monstrous-mounts.html"]) > 100
    allowed = [*kept_names(language), *SHARED_WORDS.get(language, ())]
    # Every distinct text read once (the header, the navigation and the footer are on every
    # page); where one is left, each kind's texts again, to say where.
    if leftovers([text for texts in strings.values() for text in texts], words, allowed):
        found = {kind: leftovers(texts, words, allowed) for kind, texts in strings.items()}
        assert {kind: lines for kind, lines in found.items() if lines} == {}


@pytest.mark.parametrize("origin", ["disk", "served"])
def test_the_page_not_found_leads_home(origin: str, server: str, built_site: Path, browser: Any) -> None:
    site = built_site.resolve().as_uri() if origin == "disk" else server
    page = browser.new_page()
    for language, home in (("es", "Ir a la página de inicio"), ("pl", "Przejdź do strony głównej")):
        page.goto(f"{site}/{language}/404.html")
        link = page.locator(".md-content a.validator-home")
        assert link.inner_text().strip() == home
        link.click()
        page.wait_for_url(f"{site}/{language}/index.html")
        assert page.get_attribute("html", "lang") == language
    page.close()
