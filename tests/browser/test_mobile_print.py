"""The sites on a phone and on paper: at 390 px wide no page scrolls sideways, the
parallel text shows one language at a time with a switch, and a chapter prints as
text alone (no navigation, header, footer, search or rule identifiers; a row, an
item or a paragraph's last lines kept whole, and no page left largely blank; links
printed as their titles, without addresses)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_support import LANGUAGES, PHONE, needs_chromium, overflow

pytestmark = needs_chromium

HIDDEN_IN_PRINT = (".md-header", ".md-sidebar--primary", ".md-sidebar--secondary", ".md-footer", ".md-search",
                   ".md-top", ".headerlink")


def test_no_page_scrolls_sideways_on_a_phone(phone_tour: dict[str, Any]) -> None:
    """Every page of each language's site from disk, opened on a phone (conftest's
    ``phone_tour``): a longer word of one language may break a layout that holds in another."""
    assert len(phone_tour["pages"]) >= 3 * 20
    assert phone_tour["wide"] == {}


def test_the_width_check_sees_a_page_that_is_too_wide(built_site: Path, browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto((built_site / "pl" / "chariots.html").as_uri())
        assert overflow(page) == []
        page.evaluate("""() => { const wide = document.createElement('div');
            wide.className = 'too-wide'; wide.style.width = '900px'; wide.textContent = 'x';
            document.querySelector('article').appendChild(wide); }""")
        assert any("too-wide" in element for element in overflow(page))
    finally:
        page.close()


SHOWN = """() => [...document.querySelectorAll('.parallel')].map((block) =>
    [...block.children].filter((column) => getComputedStyle(column).display !== 'none')
        .map((column) => column.getAttribute('lang')))"""


def test_the_parallel_text_shows_one_language_at_a_time_on_a_phone(server: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(f"{server}/es/parallel-chariots.html")
        blocks = page.evaluate(SHOWN)
        assert blocks and all(shown == ["es"] for shown in blocks)
        switch = page.locator(".parallel-switch").first
        assert switch.is_visible()
        assert switch.get_attribute("aria-label") == "Idioma mostrado"
        assert [button.get_attribute("aria-pressed") for button in switch.locator("button").all()] == [
            "false", "true", "false"]
        # By keyboard: Tab to the Polish button and press Enter; every rule switches.
        switch.locator("button[data-lang='es']").focus()
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.getAttribute('data-lang')") == "pl"
        page.keyboard.press("Enter")
        assert all(shown == ["pl"] for shown in page.evaluate(SHOWN))
        assert page.locator(".parallel-switch button[aria-pressed='true']").evaluate_all(
            "(buttons) => [...new Set(buttons.map((button) => button.getAttribute('data-lang')))]") == ["pl"]
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Space")
        assert all(shown == ["es"] for shown in page.evaluate(SHOWN))
        # The choice is remembered on the next parallel page.
        page.locator(".parallel-switch button[data-lang='en']").first.click()
        page.goto(f"{server}/es/parallel-monstrous-mounts.html")
        assert all(shown == ["en"] for shown in page.evaluate(SHOWN))
        assert overflow(page) == []
    finally:
        context.close()


def test_the_parallel_text_shows_every_language_on_a_wide_screen(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto(f"{server}/pl/parallel-chariots.html")
        assert all(shown == list(LANGUAGES) for shown in page.evaluate(SHOWN))
        assert not page.locator(".parallel-switch").first.is_visible()
    finally:
        page.close()


def _print_faults(page: Any) -> list[str]:
    """What would spoil a printed chapter: page furniture still shown, a row, an item
    or a given value that may break across pages, a rule's identifier, addresses
    printed after links."""
    return list(page.evaluate("""(hidden) => {
        const faults = [];
        for (const selector of hidden) {
            const element = document.querySelector(selector);
            if (element && getComputedStyle(element).display !== 'none') faults.push('shown: ' + selector);
        }
        for (const part of document.querySelectorAll('.md-typeset :is(tr, li, pre, dd)')) {
            if (getComputedStyle(part).breakInside !== 'avoid') faults.push('splits: ' + part.tagName);
        }
        for (const id of document.querySelectorAll('.rule-meta code')) {
            if (id.getClientRects().length) faults.push('rule id: ' + id.textContent);
        }
        for (const link of document.querySelectorAll('article a[href]')) {
            const after = getComputedStyle(link, '::after').content;
            if (after !== 'none' && after !== 'normal') faults.push('after a link: ' + after);
        }
        return [...new Set(faults)];
    }""", list(HIDDEN_IN_PRINT)))


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_chapter_prints_cleanly(server: str, browser: Any, code: str) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 1200})
    try:
        page.goto(f"{server}/{code}/monstrous-mounts.html")
        # On screen the furniture is there, so the check can fail.
        assert any(fault.startswith("shown: ") for fault in _print_faults(page))
        page.emulate_media(media="print")
        assert _print_faults(page) == []
        assert page.locator(".admonition, details.worked-example").count() > 3
        # Examples start closed on screen; printed, their steps show all the same.
        assert page.locator("details.worked-example .worked-trace").first.is_visible()
        # A rule link prints as the rule's title: its printed text is the text of the link.
        link = page.locator("article a[href*='#death-of-the-rider']:not(.headerlink)").first
        title = page.locator("h2#death-of-the-rider").evaluate(
            "(heading) => [...heading.childNodes].filter((node) => node.nodeType === 3)"
            ".map((node) => node.textContent).join('').trim()")
        assert link.inner_text().strip() == title
        # (That the chapter prints to a PDF of many pages, test_no_printed_page_... proves.)
    finally:
        page.close()


def test_the_parallel_text_prints_every_language(server: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(f"{server}/en/parallel-chariots.html")
        assert all(shown == ["en"] for shown in page.evaluate(SHOWN))
        page.emulate_media(media="print")
        assert all(shown == list(LANGUAGES) for shown in page.evaluate(SHOWN))
        assert not page.locator(".parallel-switch").first.is_visible()
    finally:
        context.close()


# Every block of the chapter's text ends with a tiny link to an address of its own;
# Chromium writes each link of the PDF as an annotation with its place on its page,
# so the lowest one on a page says how far down the page the text goes.
MARK_BLOCKS = """() => {
    const blocks = document.querySelectorAll(
        'article :is(p, li, dt, dd, th, td, h1, h2, h3, h4, summary, pre, figcaption)');
    let count = 0;
    for (const block of blocks) {
        if (!block.getClientRects().length) continue;
        const mark = document.createElement('a');
        mark.href = 'https://mark.invalid/' + count++;
        mark.textContent = '.';
        mark.style.cssText = 'font-size:1px;color:transparent;text-decoration:none';
        block.append(mark);
    }
    return count;
}"""
MARGIN_MM = 15
A4_HEIGHT_PT = 842.88
MOST_BLANK = 0.3
"""The share of a page (but the last) that may be left blank at its foot: a block
kept whole (a table's header with its first row) may move to the next page, a
whole worked example may not."""


def _blank_at_foot(pdf: bytes) -> list[float]:
    """For each page but the last, the share of its height left blank below the text."""
    objects = {int(match.group(1)): match.group(2) for match in re.finditer(rb"(\d+) 0 obj(.*?)endobj", pdf, re.S)}
    pages = [body for _, body in sorted(objects.items()) if re.search(rb"/Type\s*/Page(?!s)", body)]
    margin = MARGIN_MM / 25.4 * 72
    shares = []
    for body in pages[:-1]:
        found = re.search(rb"/Annots\s*\[([^\]]*)\]", body)
        marks = [objects[int(number)] for number in re.findall(rb"(\d+) 0 R", found.group(1) if found else b"")]
        rects = [re.search(rb"/Rect\s*\[([^\]]*)\]", mark) for mark in marks if b"mark.invalid" in mark]
        lowest = [float(rect.group(1).split()[1]) for rect in rects if rect]
        shares.append(1.0 if not lowest else (min(lowest) - margin) / (A4_HEIGHT_PT - 2 * margin))
    return shares


def _printed(page: Any) -> list[float]:
    """The chapter printed to an A4 PDF: the share of each page left blank at its foot."""
    assert page.evaluate(MARK_BLOCKS) > 100
    pdf = page.pdf(format="A4", margin={side: f"{MARGIN_MM}mm" for side in ("top", "bottom", "left", "right")})
    return _blank_at_foot(pdf)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("chapter", ["monstrous-mounts", "characters-in-units"])
def test_no_printed_page_is_left_largely_blank(server: str, browser: Any, code: str, chapter: str) -> None:
    page = browser.new_page(viewport={"width": 680, "height": 1009})
    try:
        page.goto(f"{server}/{code}/{chapter}.html")
        page.emulate_media(media="print")
        blank = _printed(page)
        assert len(blank) > 10
        assert max(blank) <= MOST_BLANK, [round(share, 2) for share in blank]
    finally:
        page.close()


def test_the_blank_check_sees_examples_kept_whole(server: str, browser: Any) -> None:
    """Worked examples, callouts and tables kept whole, as the print style once had
    them, leave pages largely blank: the check finds it."""
    page = browser.new_page(viewport={"width": 680, "height": 1009})
    try:
        page.goto(f"{server}/en/monstrous-mounts.html")
        page.emulate_media(media="print")
        page.add_style_tag(content="@media print { .md-typeset :is(.admonition, details, table) "
                                   "{ break-inside: avoid !important; } }")
        assert max(_printed(page)) > MOST_BLANK
    finally:
        page.close()
