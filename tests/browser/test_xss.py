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
from conftest import copy_project, made_once
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
  // (An SVG link has no protocol of its own: the route below stops where it would go.)
  if (link instanceof HTMLAnchorElement && link.protocol !== "javascript:") { event.preventDefault(); }
}, true);
"""
HOVERED = "[title], a, abbr, .md-ellipsis, .md-nav__link, [tabindex], button, label, summary"
"""Everything that has a title or may show a tooltip, or reacts to a pointer."""
CALL = re.compile(r"__xss\('([^']+)'\)")


def _plant_and_build(folder: Path) -> None:
    """The hostile project, and its three sites built without the check that refuses it."""
    from validator.checks.run import check_workspace
    from validator.pipeline import build_sites
    from validator.workspace import load_workspace

    root = copy_project(folder / "project")
    plant(root)
    workspace = load_workspace(root)
    build_sites(workspace, check_workspace(workspace), folder / "site")


@pytest.fixture(scope="session")
def hostile_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Made once for the session (every worker's tests only read it)."""
    return made_once(tmp_path_factory, "hostile", _plant_and_build)


@pytest.fixture(scope="session")
def hostile_project(hostile_folder: Path) -> Path:
    return hostile_folder / "project"


@pytest.fixture(scope="session")
def hostile_site(hostile_folder: Path) -> Path:
    return hostile_folder / "site"


@pytest.fixture(scope="session")
def server(hostile_site: Path) -> Iterator[str]:
    yield from serve(hostile_site)


class Visit:
    """One tab under watch: every __xss call and dialog, and no navigation away once a
    page has loaded (a clicked link must not take the test elsewhere).  A test opens its
    pages one after the other in the same tab, as a reader does (a new tab is a new
    renderer process each time)."""

    def __init__(self, browser: Any, url: str, document: str | None = None) -> None:
        """Open ``url``; or, given ``document``, answer every request of the tab with it
        from the browser's own router (no network), the page at ``url`` included, so that
        the recorder is installed as on any page (set_content would replace it)."""
        self.context = browser.new_context(viewport={"width": 1400, "height": 900})
        self.context.add_init_script(RECORDER)
        self.document = document
        self.page = self.context.new_page()
        self.page.on("dialog", self._dialog)
        self.page.route("**/*", self._route)
        self.open(url)

    def open(self, url: str) -> None:
        """Load another page in the tab; what the last one recorded is forgotten."""
        self.dialogs: list[str] = []
        self.loaded = False
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
        elif self.document is not None:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=self.document)
        else:
            route.continue_()

    def calls(self) -> list[str]:
        return [str(call) for call in self.page.evaluate("window.__xss_calls || []")]

    def close(self) -> None:
        self.context.close()


def _fired(visit: Visit) -> list[str]:
    return sorted(set(visit.calls())) + [f"dialog: {message}" for message in visit.dialogs]


def _hover_and_focus(visit: Visit) -> int:
    """Every element that has a title or may get a tooltip or a preview: the real mouse
    moved onto each visible one whose own title or text holds a payload, once for each
    distinct title and text, scrolled to first (what a tooltip shows; Material shows its
    tooltips on mouse enter and answers no event sent from the page); then the pointer's
    events for every element and the focus for all of those, hidden ones included (a
    rule's preview opens on focus and shows its target's title and text, the same for
    every link to it)."""
    page = visit.page
    count = int(page.evaluate("""(selector) => {
        const seen = new Set();
        window.__xss_hovered = [];
        for (const element of document.querySelectorAll(selector)) {
            if (element.getClientRects().length === 0) continue;
            const shown = (element.getAttribute("title") || "") + "\u0000" + (element.textContent || "");
            // A tooltip shows the element's own title and text: the same twice is the same tooltip.
            if (shown.includes("__xss") && !seen.has(shown)) window.__xss_hovered.push(element);
            seen.add(shown);
        }
        return window.__xss_hovered.length;
    }""", "[title], article a, .md-ellipsis"))
    for index in range(count):
        # Scrolled to, then the mouse moved onto its middle.
        x, y = page.evaluate("""(index) => {
            const element = window.__xss_hovered[index];
            element.scrollIntoView({block: "center", inline: "center"});
            const box = element.getBoundingClientRect();
            return [box.x + box.width / 2, box.y + box.height / 2];
        }""", index)
        page.mouse.move(x, y)
        page.wait_for_timeout(10)
    page.evaluate("""(selector) => {
        // Every element gets the pointer's events (an attribute a payload broke into may be
        // any element's); those that may get a tooltip or a preview get the focus too.
        for (const element of document.body.querySelectorAll("*")) {
            for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter", "mousemove"]) {
                element.dispatchEvent(new MouseEvent(type, {bubbles: type.endsWith("over") || type === "mousemove"}));
            }
            if (element.matches(selector) && typeof element.focus === "function") element.focus();
        }
    }""", HOVERED)
    page.wait_for_timeout(400)
    return count


def _open_every_box(visit: Visit) -> None:
    """Open every closed box of the article (worked examples and notes start closed),
    as a reader opens them to read their texts."""
    visit.page.evaluate("() => document.querySelectorAll('article details').forEach((box) => { box.open = true; })")


def _click_every_link(visit: Visit) -> int:
    """Click every link (navigation is stopped; a javascript: address or an onclick
    runs all the same).  Returns how many were clicked."""
    page = visit.page
    # A script address runs as a task of its own, which the next link's navigation (even
    # to an anchor) may cancel: after one (or any element but an HTML link, whose
    # address the page cannot read as simply), its task is let run.  The recorder stops
    # every other link's navigation, and an onclick runs within the click itself.
    count = int(page.evaluate("""async () => {
        const links = [...document.querySelectorAll("a, [onclick], [href]")];
        for (const link of links) {
            if (typeof link.click === "function") link.click();
            else link.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));  // an SVG element
            if (!(link instanceof HTMLAnchorElement) || link.protocol === "javascript:") {
                await new Promise((resolve) => setTimeout(resolve, 5));
            }
        }
        return links.length;
    }"""))
    page.wait_for_timeout(300)
    return count


@needs_chromium
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_payload_runs_on_load_hover_focus_or_click(server: str, browser: Any, language: str) -> None:
    fired: dict[str, list[str]] = {}
    visit = Visit(browser, "about:blank")
    try:
        for name in PAGES:
            visit.open(f"{server}/{language}/{name}")
            loaded = _fired(visit)
            assert _hover_and_focus(visit) > 0, f"nothing to hover on {name}"
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
    # Markdown in a text is shown as written too: no bold, no link, no attribute list.
    for kind in ("script", "attrlist", "mdlink", "autolink"):
        assert KINDS[kind].format(id=f"{origin}-{short('chariots#intro')}:{kind}") in text, kind
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
    visit = Visit(browser, "about:blank")
    try:
        for name in ("faq.html", FAQ_UNDER_RULE):
            visit.open(f"{server}/{language}/{name}")
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
    mouse: dict[str, bool] = {}
    fired: dict[str, list[str]] = {}
    visit = Visit(browser, "about:blank")
    try:
        for name in ("index.html", "chariots.html", "parallel-chariots.html", "discrepancies.html"):
            visit.open(f"{server}/{language}/{name}")
            # Worked examples and notes start closed: opened, as a reader opens them.
            _open_every_box(visit)
            links = visit.page.locator(PREVIEW_LINK)
            shown[name] = 0
            hovered = False
            for index in range(links.count()):
                link = links.nth(index)
                link.focus()
                previews = [visit.page.evaluate(PREVIEW_TEXT)]
                visit.page.keyboard.press("Escape")
                # Every link to the rule shows the same preview: the mouse takes the first one seen.
                if not hovered and link.is_visible():
                    hovered = True
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
            mouse[name] = hovered
            if _fired(visit):
                fired[name] = _fired(visit)
    finally:
        visit.close()
    assert all(count > 0 for count in shown.values()), shown
    assert all(mouse.values()), mouse
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


def _fired_on_rendered_chapter(browser: Any, text: str) -> list[str]:
    """The Spanish chapter page's Markdown rendered to HTML by Python-Markdown (as MkDocs
    does, without the theme), then watched by the same sweep as the sites: the payloads
    that ran."""
    import markdown as python_markdown

    body = python_markdown.markdown(text, extensions=["admonition", "attr_list", "md_in_html", "tables", "toc"])
    visit = Visit(browser, "http://page.invalid/es/chariots.html",
                  document=f"<!doctype html><meta charset=utf-8><title>x</title><body>{body}</body>")
    try:
        _hover_and_focus(visit)
        _click_every_link(visit)
        return _fired(visit)
    finally:
        visit.close()


@needs_chromium
def test_the_test_fails_when_text_is_not_escaped(browser: Any, hostile_project: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The browser sees what the escaping stops: with it, nothing runs on the page;
    with the escaping replaced by the identity, payloads of every origin run."""
    from markupsafe import Markup

    from validator.checks.run import check_workspace
    from validator.site import markdown
    from validator.site.pages import iter_pages
    from validator.workspace import load_workspace

    def chapter() -> str:
        # Loaded anew each time: what a workspace renders once is kept with it.
        workspace = load_workspace(hostile_project)
        return dict(iter_pages(workspace, check_workspace(workspace), "es"))["chariots.md"]

    assert _fired_on_rendered_chapter(browser, chapter()) == []
    monkeypatch.setattr(markdown, "escape", lambda text: Markup(text))
    monkeypatch.setattr(markdown, "inert", lambda text: str(text))
    fired = _fired_on_rendered_chapter(browser, chapter())
    assert any(call.startswith("es-chariots-intro:") for call in fired), fired
    assert any(call.startswith("es-labels-") for call in fired), fired
    assert {call.rsplit(":", 1)[1] for call in fired} >= {"img", "svg", "attrlist"}, fired


@needs_chromium
def test_the_sweep_sees_what_runs_on_a_pointer_or_a_click(browser: Any) -> None:
    """What Python-Markdown never makes of the payloads, written by hand: script
    addresses one after the other (each click lets the one before run), in HTML and in
    SVG, an onmouseover on an element that shows no tooltip, an onclick on bold text."""
    document = ("<!doctype html><meta charset=utf-8><title>x</title><body><p>"
                "<a href=\"javascript:__xss('first')\">1</a><a href=\" javascript:__xss('second')\">2</a>"
                "<svg width=40 height=40><a href=\"javascript:__xss('svg')\"><text y=20>3</text></a></svg>"
                "<span onmouseover=\"__xss('pointer')\">4</span><b onclick=\"__xss('click')\">5</b></p>")
    visit = Visit(browser, "http://page.invalid/hand-made.html", document=document)
    try:
        _hover_and_focus(visit)
        _click_every_link(visit)
        fired = _fired(visit)
    finally:
        visit.close()
    assert fired == ["click", "first", "pointer", "second", "svg"]
