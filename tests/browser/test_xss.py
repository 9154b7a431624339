"""Text from the rulebook never runs as script in a reader's browser.

A copy of the bundled project gets hostile text (``xss_corpus``) in every kind of
text the sites show: rule, chapter, glossary, source and discrepancy texts in the
English YAML and in the Spanish and Polish catalogues, labels and the site's own
words.  ``validator check`` refuses such a project; the sites are built anyway,
through the internal API, to prove the rendering is safe on its own.  Debian's
Chromium then loads the pages, hovers and focuses every element that has or may
show a tooltip, clicks every link and types every payload into the search box;
each payload calls ``__xss('<id>')``, recorded by a script installed before any
page script, and a dialog counts as well.
"""

from __future__ import annotations

import contextlib
import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import needs_chromium, serve
from conftest import copy_project
from xss_corpus import (
    DESCRIPTION,
    FAQ_UNDER_RULE,
    FIELDS,
    GUIDES,
    KINDS,
    LANGUAGE_NAMES,
    MKDOCS,
    PAGES,
    PREVIEWED,
    YAML_CONTEXTS,
    all_ids,
    payload,
    plant,
    short,
    shown_ids,
)

LANGUAGES = ("en", "es", "pl")
RECORDER = """
window.__xss_calls = [];
window.__xss = function (id) { window.__xss_calls.push(String(id)); };
// A clicked link must not leave the page, but a script address must still run: stop
// only the links that would load a document.
window.addEventListener("click", function (event) {
  var link = event.target && event.target.closest && event.target.closest("a[href]");
  if (link && link.protocol !== "javascript:") { event.preventDefault(); }
}, true);
"""
HOVERED = "[title], a, abbr, .md-ellipsis, .md-nav__link, [tabindex], button, label, summary"
"""Everything that has a title or may show a tooltip, or reacts to a pointer."""
CALL = re.compile(r"__xss\('([^']+)'\)")


@pytest.fixture(scope="module")
def hostile_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("hostile") / "project")
    plant(root)
    return root


@pytest.fixture(scope="module")
def hostile_site(hostile_project: Path) -> Path:
    """The three sites of the hostile project, built without the check that refuses it."""
    from validator.checks.run import check_workspace
    from validator.site.build import build_sites
    from validator.workspace import load_workspace

    workspace = load_workspace(hostile_project)
    report = check_workspace(workspace)
    site = hostile_project.parent / "site"
    build_sites(workspace, report, site)
    return site


@pytest.fixture(scope="module")
def server(hostile_site: Path) -> Iterator[str]:
    yield from serve(hostile_site)


class Visit:
    """One page under watch: every __xss call and dialog, and no navigation away
    once it has loaded (a clicked link must not take the test elsewhere)."""

    def __init__(self, browser: Any, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1400, "height": 900})
        self.context.add_init_script(RECORDER)
        self.dialogs: list[str] = []
        self.loaded = False
        self.page = self.context.new_page()
        self.page.on("dialog", self._dialog)
        self.page.route("**/*", self._route)
        self.page.goto(url)
        self.page.wait_for_load_state("load")
        self.loaded = True

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _route(self, route: Any) -> None:
        request = route.request
        if self.loaded and request.is_navigation_request() and request.frame == self.page.main_frame:
            route.abort()
        else:
            route.continue_()

    def calls(self) -> list[str]:
        return [str(call) for call in self.page.evaluate("window.__xss_calls || []")]

    def close(self) -> None:
        self.context.close()


def _fired(visit: Visit) -> list[str]:
    return sorted(set(visit.calls())) + [f"dialog: {message}" for message in visit.dialogs]


def _hover_and_focus(visit: Visit) -> None:
    """Every element that has a title or may get a tooltip: the mouse moved onto each
    visible one whose own title or text holds a payload (what a tooltip shows; Material
    shows tooltips on mouse enter; the viewport is made as tall as the page, so none
    needs scrolling to); one link to each address met by the pointer's events in turn
    inside the page (what a link preview shows is its target, the same for every link
    to it); then focus and the pointer's events for all of them, hidden ones included.

    Only the texts that hold a payload take a real mouse, once for each title and text
    (Material's tooltips answer no event sent from the page): each move is a round trip
    to the browser, and a link's preview answers the same events sent from the page."""
    page = visit.page
    height = int(page.evaluate("document.documentElement.scrollHeight"))
    page.set_viewport_size({"width": 1400, "height": min(max(height, 900), 16000)})
    points = page.evaluate("""(selector) => {
        const seen = new Set();
        const own = [], links = [];
        window.__xss_links = links;
        for (const element of document.querySelectorAll(selector)) {
            const box = element.getBoundingClientRect();
            if (box.width <= 0 || box.height <= 0) continue;
            const shown = (element.getAttribute("title") || "") + "\u0000" + (element.textContent || "");
            if (shown.includes("__xss")) {
                // A tooltip shows the element's own title and text: the same twice is the same tooltip.
                if (!seen.has(shown)) own.push([box.x + box.width / 2, box.y + box.height / 2]);
                seen.add(shown);
                continue;
            }
            const address = element.getAttribute("href");
            if (address === null || seen.has(address)) continue;
            seen.add(address);
            links.push(element);
        }
        return {own, links: links.length};
    }""", "[title], article a, .md-ellipsis")
    assert points["own"] and points["links"], f"nothing to hover on {page.url}"
    for x, y in points["own"]:
        page.mouse.move(x, y)
        page.wait_for_timeout(10)
    page.evaluate("""async () => {
        for (const link of window.__xss_links) {
            for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter", "mousemove"]) {
                link.dispatchEvent(new MouseEvent(type, {bubbles: type.endsWith("over") || type === "mousemove"}));
            }
            await new Promise((resolve) => setTimeout(resolve, 10));
            for (const type of ["pointerout", "pointerleave", "mouseout", "mouseleave"]) {
                link.dispatchEvent(new MouseEvent(type, {bubbles: type.endsWith("out")}));
            }
        }
    }""")
    page.evaluate("""(selector) => {
        for (const element of document.querySelectorAll(selector)) {
            for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter", "mousemove"]) {
                element.dispatchEvent(new MouseEvent(type, {bubbles: type.endsWith("over") || type === "mousemove"}));
            }
            if (typeof element.focus === "function") element.focus();
        }
    }""", HOVERED)
    page.wait_for_timeout(400)


def _open_every_box(visit: Visit) -> None:
    """Open every closed box of the article (worked examples and notes start closed),
    as a reader opens them to read their texts."""
    visit.page.evaluate("() => document.querySelectorAll('article details').forEach((box) => { box.open = true; })")


def _click_every_link(visit: Visit) -> int:
    """Click every link (navigation is stopped; a javascript: address or an onclick
    runs all the same).  Returns how many were clicked."""
    page = visit.page
    # One at a time, letting each click's task run: a script address runs as a task of
    # its own, which the next link's navigation (even to an anchor) would cancel.
    count = int(page.evaluate("""async () => {
        const links = [...document.querySelectorAll("a, [onclick], [href]")];
        for (const link of links) {
            link.click();
            await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return links.length;
    }"""))
    page.wait_for_timeout(300)
    return count


@needs_chromium
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_payload_runs_on_load_hover_focus_or_click(server: str, browser: Any, language: str) -> None:
    fired: dict[str, list[str]] = {}
    for name in PAGES:
        visit = Visit(browser, f"{server}/{language}/{name}")
        try:
            loaded = _fired(visit)
            _hover_and_focus(visit)
            hovered = _fired(visit)
            clicked = _click_every_link(visit)
            assert clicked > 0
            after = _fired(visit)
            if after:
                fired[name] = [f"load: {loaded}", f"hover/focus: {sorted(set(hovered) - set(loaded))}",
                               f"click: {sorted(set(after) - set(hovered))}"]
        finally:
            visit.close()
    assert fired == {}


@needs_chromium
@pytest.mark.parametrize("language", LANGUAGES)
def test_payloads_are_shown_as_text(server: str, browser: Any, language: str) -> None:
    """The payloads are really on the pages (so the test above watched them), as
    the characters written, except < and > where a title shows them."""
    visit = Visit(browser, f"{server}/{language}/chariots.html")
    try:
        # Worked examples and notes start closed: a reader opens them to read their texts.
        _open_every_box(visit)
        text = visit.page.inner_text("body")
        seen = set(CALL.findall(text))
        tooltip = visit.page.locator("article a[title*='__xss']").first.get_attribute("title") or ""
        title = visit.page.title()
    finally:
        visit.close()
    origin = "en" if language == "en" else language
    for context in ("chariots#intro", "chariots/challenges#text", "chariots/challenges#example.lone-enemy"):
        for kind in KINDS:
            assert f"{origin}-{short(context)}:{kind}" in seen
    assert f"<script>__xss('{origin}-{short('chariots#intro')}:script')</script>" in text
    assert "__xss" in tooltip and "<" not in tooltip
    assert f"__xss('{origin}-{short('chariots#title')}:title')" in title and "<" not in title


@needs_chromium
@pytest.mark.parametrize("language", LANGUAGES)
def test_search_shows_payloads_without_running_them(server: str, browser: Any, language: str) -> None:
    visit = Visit(browser, f"{server}/{language}/index.html")
    page = visit.page
    results = 0
    try:
        for query in ["script", "onerror", "javascript", *[payload("search", (kind,)) for kind in KINDS], "__xss"]:
            page.click("input.md-search__input")
            page.fill("input.md-search__input", query)
            try:
                page.wait_for_selector(".md-search-result__item", timeout=700)
                results += page.locator(".md-search-result__item").count()
            except Exception:  # a payload that matches nothing shows no result
                pass
            page.wait_for_timeout(100)
        page.hover(".md-search-result__item", timeout=2000)
        fired = _fired(visit)
    finally:
        visit.close()
    assert results > 0, "the search found none of the planted texts"
    assert fired == []


PREVIEW_LINK = f"article a[href$='{PREVIEWED.split('/')[0]}.html#{PREVIEWED.split('/')[1]}']"
PREVIEW_TEXT = """() => { const box = document.querySelector('.rule-preview');
    return box && !box.hidden ? box.textContent : null; }"""
SHOWS_PREVIEW = """(title) => { const box = document.querySelector('.rule-preview');
    return box && !box.hidden && box.textContent.includes(title); }"""


@needs_chromium
@pytest.mark.parametrize("language", LANGUAGES)
def test_official_answers_show_payloads_as_text(server: str, browser: Any, language: str) -> None:
    """The planted official answer, on the FAQ page and opened under the rule it touches:
    every payload shown as text, none run (opening the answers included)."""
    origin = "en" if language == "en" else language
    shown: dict[str, set[str]] = {}
    fired: dict[str, list[str]] = {}
    for name in ("faq.html", FAQ_UNDER_RULE):
        visit = Visit(browser, f"{server}/{language}/{name}")
        try:
            for summary in visit.page.locator("details.official-answers > summary").all():
                summary.click()
            _open_every_box(visit)
            shown[name] = set(CALL.findall(visit.page.inner_text("article")))
            if _fired(visit):
                fired[name] = _fired(visit)
        finally:
            visit.close()
    fields = {"faq.html": ("question", "answer", "example.hero-on-foot-and-chariots"),
              FAQ_UNDER_RULE: ("question", "answer")}
    for name, names in fields.items():
        for field in names:
            for kind in KINDS:
                assert f"{origin}-{short('faq/chariots-and-chariot-units#' + field)}:{kind}" in shown[name], \
                    (name, field, kind)
    assert fired == {}


@needs_chromium
@pytest.mark.parametrize("language", LANGUAGES)
def test_rule_previews_show_payloads_without_running_them(server: str, browser: Any, language: str) -> None:
    """A link to a rule with payloads in its title and text, hovered and focused: the
    preview shows them as the characters written (< and > as look-alikes, as in every
    title) and none runs."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    origin = "en" if language == "en" else language
    title = f"__xss('{origin}-{short(PREVIEWED + '#title')}:script')"
    text = f"__xss('{origin}-{short(PREVIEWED + '#text')}:img')"
    shown: dict[str, int] = {}
    fired: dict[str, list[str]] = {}
    for name in ("index.html", "chariots.html", "parallel-chariots.html", "discrepancies.html"):
        visit = Visit(browser, f"{server}/{language}/{name}")
        try:
            # Worked examples and notes start closed: opened, as a reader opens them.
            _open_every_box(visit)
            links = visit.page.locator(PREVIEW_LINK)
            shown[name] = 0
            for index in range(links.count()):
                link = links.nth(index)
                link.focus()
                previews = [visit.page.evaluate(PREVIEW_TEXT)]
                visit.page.keyboard.press("Escape")
                if link.is_visible():
                    visit.page.mouse.move(0, 0)
                    link.hover()
                    # On its way from the corner the mouse may cross other links, whose
                    # previews come and go first: wait for this link's (a loaded machine
                    # took more than a quarter of a second), and look at whatever shows.
                    with contextlib.suppress(PlaywrightTimeout):
                        visit.page.wait_for_function(SHOWS_PREVIEW, arg=title, timeout=5000)
                    previews.append(visit.page.evaluate(PREVIEW_TEXT))
                for preview in previews:
                    assert preview and title in preview and text in preview, (name, index, len(previews), preview)
                    assert "<" not in preview and "\u2039script\u203a" in preview
                    shown[name] += 1
            if _fired(visit):
                fired[name] = _fired(visit)
        finally:
            visit.close()
    assert all(count > 0 for count in shown.values()), shown
    assert fired == {}


@needs_chromium
def test_the_preview_test_fails_when_previews_are_written_as_html(server: str, browser: Any,
                                                                  hostile_site: Path) -> None:
    """The same preview with both defences taken away, its texts written as HTML
    instead of text and its data without the look-alikes of < and >: payloads run,
    so the test above would see them."""
    assets = hostile_site / "es" / "assets" / "validator"
    script = (assets / "previews.js").read_text(encoding="utf-8")
    assert script.count(".textContent = String(entry.") == 2
    unsafe = script.replace(".textContent = String(entry.", ".innerHTML = String(entry.")
    data = (assets / "previews-data.js").read_text(encoding="utf-8").replace("\u2039", "<").replace("\u203a", ">")
    context = browser.new_context()
    context.add_init_script(RECORDER)
    page = context.new_page()
    try:
        page.route("**/previews.js", lambda route: route.fulfill(
            status=200, content_type="text/javascript", body=unsafe))
        page.route("**/previews-data.js", lambda route: route.fulfill(
            status=200, content_type="text/javascript", body=data))
        page.goto(f"{server}/es/chariots.html")
        page.locator(PREVIEW_LINK).first.focus()
        page.wait_for_timeout(300)
        fired = page.evaluate("window.__xss_calls")
    finally:
        context.close()
    assert any(call.startswith(f"es-{short(PREVIEWED)}") for call in fired), fired


def _shown_calls(page: Path) -> set[str]:
    """The payload ids a page shows as text, in its body or its title: its HTML without
    the tags, then decoded (a payload shown as text is escaped in the HTML)."""
    return set(CALL.findall(html.unescape(re.sub(r"<[^>]*>", " ", page.read_text(encoding="utf-8")))))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_texts_shown_as_written_are_on_the_pages(hostile_site: Path, language: str) -> None:
    """The payloads planted outside the translated texts (the register's quotations and
    evidence, the units' citations on the Spanish site, whose distances are in
    centimetres, the official answers' pages, the languages' names, the translator's
    guide) are really on the pages the browser tests watch, so those tests would see
    them run; site_url and site_description are in the head, escaped in their attributes."""
    shown = set().union(*(_shown_calls(hostile_site / language / name) for name in PAGES))
    expected = {f"{name}:{kind}" for name in shown_ids() for kind in KINDS
                if not name.startswith(("guide-", DESCRIPTION)) and (language == "es" or not name.startswith("units-"))}
    # In a guide, Markdown is read: a link's or an attribute list's payload is markup made harmless, not text.
    expected |= {f"guide-{language}:{kind}" for kind in KINDS if kind not in ("mdlink", "attrlist")}
    expected.add(f"guide-{language}-front-matter:title")
    assert sorted(expected - shown) == []
    head = (hostile_site / language / "index.html").read_text(encoding="utf-8")
    assert 'href="https://x.example/&#34;&gt;&lt;script&gt;__xss(&#39;mkdocs-site-url:script' in head
    assert f'content="&lt;script&gt;__xss(&#39;{DESCRIPTION}:script' in head
    assert "mkdocs-homepage" not in head


def test_the_check_refuses_every_planted_text(hostile_project: Path) -> None:
    """Defence in the first place: `validator check` names each hostile text with
    its file, line and msgctxt, and fails."""
    from validator.checks.run import check_workspace
    from validator.workspace import load_workspace

    report = check_workspace(load_workspace(hostile_project))
    lines = [str(problem) for problem in report.problems]
    for context in YAML_CONTEXTS:
        for code in ("", "es", "pl"):
            where = f"locales/{code}/LC_MESSAGES/rules.po:" if code else ".yml:"
            assert any(where in line and f"[{context}] markup:" in line for line in lines), (context, code)
            assert any(where in line and f"[{context}] url-scheme:" in line for line in lines), (context, code)
    for domain in ("labels", "ui"):
        assert any(f"locales/es/LC_MESSAGES/{domain}.po:" in line and "markup:" in line for line in lines)
    for file, _start, _name in FIELDS:
        assert any(line.startswith(f"{file}:") and "] markup:" in line for line in lines), file
    project = (hostile_project / "rulebook.yml").read_text(encoding="utf-8").split("\n")
    names = [number for number, line in enumerate(project, start=1) if "__xss('language-" in line]
    assert len(names) == len(LANGUAGE_NAMES)
    for number in names:
        assert any(line.startswith(f"rulebook.yml:{number}: [rulebook] markup:") for line in lines), number
    for code in GUIDES:
        guide = f"docs/guide/translators.{code}.md:"
        for wrong in ("raw HTML in a hand-written page", "the script address javascript:", "an event handler"):
            assert any(line.startswith(guide) and wrong in line for line in lines), (code, wrong)
    assert any(line.startswith("mkdocs.yml:") and "site_url is not a web address" in line for line in lines)
    assert MKDOCS["site_url"] and len(all_ids()) > 500


def _fired_on_rendered_chapter(browser: Any, hostile_project: Path) -> list[str]:
    """The Spanish chapter page rendered to HTML by Python-Markdown (as MkDocs does,
    without the theme), opened, hovered and clicked: the payloads that ran."""
    import markdown as python_markdown

    from validator.checks.run import check_workspace
    from validator.site.pages import render_pages
    from validator.workspace import load_workspace

    workspace = load_workspace(hostile_project)
    text = render_pages(workspace, check_workspace(workspace), "es")["chariots.md"]
    body = python_markdown.markdown(text, extensions=["admonition", "attr_list", "md_in_html", "tables", "toc"])
    context = browser.new_context()
    context.add_init_script(RECORDER)
    page = context.new_page()
    try:
        # Served from a made-up address through the browser's own router (no network),
        # so the recorder is installed as on any page; set_content would replace it.
        document = f"<!doctype html><meta charset=utf-8><title>x</title><body>{body}</body>"
        page.route("http://page.invalid/**", lambda route: route.fulfill(
            status=200, content_type="text/html; charset=utf-8", body=document))
        page.goto("http://page.invalid/es/chariots.html")
        page.wait_for_timeout(200)
        page.evaluate("""async (selector) => {
            for (const element of document.querySelectorAll(selector)) {
                element.dispatchEvent(new MouseEvent("mouseover", {bubbles: true}));
                if (element.matches("a, [onclick]")) element.click();
                await new Promise((resolve) => setTimeout(resolve, 5));
            }
        }""", HOVERED + ", b, strong, span")
        page.wait_for_timeout(200)
        return sorted(set(page.evaluate("window.__xss_calls")))
    finally:
        context.close()


@needs_chromium
def test_the_test_fails_when_text_is_not_escaped(browser: Any, hostile_project: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The browser sees what the escaping stops: with it, nothing runs on the page;
    with the escaping replaced by the identity, payloads of every origin run."""
    from markupsafe import Markup

    from validator.site import markdown

    assert _fired_on_rendered_chapter(browser, hostile_project) == []
    monkeypatch.setattr(markdown, "escape", lambda text: Markup(text))
    monkeypatch.setattr(markdown, "inert", lambda text: str(text))
    fired = _fired_on_rendered_chapter(browser, hostile_project)
    assert any(call.startswith("es-chariots-intro:") for call in fired), fired
    assert any(call.startswith("es-labels-") for call in fired), fired
    assert {call.rsplit(":", 1)[1] for call in fired} >= {"img", "svg", "attrlist"}, fired
