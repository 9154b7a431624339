"""What every browser test shares: Debian's Chromium driven by Playwright, a quiet
local server for a built site, the search box, and one tour of every page from disk
whose findings several tests read."""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on a free loopback port for as long as the generator lives."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, for as long as the generator lives."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


LANGUAGES = ("en", "es", "pl")
PHONE = {"width": 390, "height": 844}
"""A phone held upright: the layout Material folds for small screens."""
DESKTOP = {"width": 1300, "height": 900}
SINGLE_PAGES = frozenset({"index", "glossary", "discrepancies", "faq", "sources", "status", "translators", "404"})
"""The pages a site has one of; every other page is a chapter or its parallel text."""


def results(page: Any, query: str) -> list[str]:
    """Type a query in the search box; the ids of the results, in order."""
    page.fill("input.md-search__input", query)
    page.wait_for_function("document.querySelector('.md-search-result__meta').textContent.trim() !== ''")
    return list(page.locator(".md-search-result__link").evaluate_all("links => links.map(a => a.dataset.entry)"))


@functools.cache
def dice_query(language: str) -> str:
    """Two dice as the language's pages write them (``dice: notation`` in rulebook.yml)."""
    from conftest import ROOT

    from validator.content.project import load_project

    return load_project(ROOT).dice.written("2D6", language)


def overflow(page: Any) -> list[str]:
    """What sticks out to the right of the viewport, if the page scrolls sideways."""
    return list(page.evaluate("""() => {
        if (document.scrollingElement.scrollWidth <= innerWidth) return [];
        return [...document.querySelectorAll('body *')]
            .filter((element) => element.getBoundingClientRect().right > innerWidth + 1)
            .slice(-3).map((element) => element.tagName + '.' + element.className);
    }"""))


def watched(browser: Any, host: str, problems: list[str], viewport: dict[str, int]) -> Any:
    """A tab whose console errors and warnings, page errors, requests to another host
    than ``host`` and search workers are written into ``problems``."""
    page = browser.new_page(viewport=viewport)
    page.on("console", lambda message: message.type in ("error", "warning") and problems.append(
        f"{page.url}: console {message.type}: {message.text}"))
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
    page.on("request", lambda request: urlsplit(request.url).netloc != host and problems.append(
        f"{page.url}: asked {request.url}"))
    # Material's own search would start its worker: the site's search needs none.
    page.on("request", lambda request: "/workers/" in request.url and problems.append(
        f"{page.url}: started {request.url}"))
    return page


def kind_of(page: Path) -> str:
    """A page's kind: one of SINGLE_PAGES, a chapter or a chapter's parallel text
    (chapters and parallel texts are made alike)."""
    if page.name.startswith("parallel-"):
        return "parallel"
    return page.stem if page.stem in SINGLE_PAGES else "chapter"


def first_of_each_kind(site: Path) -> dict[tuple[str, str], Path]:
    """The first page of each kind in each language, by (language, kind)."""
    kinds: dict[tuple[str, str], Path] = {}
    for path in sorted(path for code in LANGUAGES for path in (site / code).glob("*.html")):
        kinds.setdefault((path.parent.name, kind_of(path)), path)
    return kinds


LAYOUT = """() => {
    const top = (element) => element.getBoundingClientRect().top + scrollY;
    const article = document.querySelector('article');
    const headings = [...article.querySelectorAll('h2[id]')];
    const list = document.querySelector('.chapter-rules');
    const links = list ? [...list.querySelectorAll('a[href]')].map((a) => a.getAttribute('href').split('#')[1]) : [];
    const end = article.getBoundingClientRect().bottom + scrollY;
    return {list: list ? list.getBoundingClientRect().bottom + scrollY : null, links,
            rules: headings.map((h, i) => ({id: h.id, height: (i + 1 < headings.length ? top(headings[i + 1]) : end)
                                           - top(h)}))};
}"""
"""Where a chapter's list of rules ends and how tall each rule is, as laid out now."""


def tour_every_page(browser: Any, site: Path) -> dict[str, Any]:
    """Every page of each language's site from disk, where a page's own relative
    addresses are what fails, in one tab on a phone.  What it finds, for the tests
    that read it: ``pages`` visited; ``wide``, what sticks out of each page;
    ``problems``, every console error or warning, page error, request to another host
    or search worker; ``layout``, each chapter's LAYOUT; ``found``, what the search
    (opened with the header's button, as on a phone) finds for the dice on the first
    page of each kind, whose index and scripts every page of a kind asks for alike."""
    pages = sorted(path for code in LANGUAGES for path in (site / code).glob("*.html"))
    searched = set(first_of_each_kind(site).values())
    tour: dict[str, Any] = {"pages": [], "wide": {}, "problems": [], "layout": {}, "found": {}}
    page = watched(browser, "", tour["problems"], PHONE)
    try:
        for path in pages:
            name = path.relative_to(site).as_posix()
            page.goto(path.as_uri())
            tour["pages"].append(name)
            if found := overflow(page):
                tour["wide"][name] = found
            if kind_of(path) == "chapter":
                tour["layout"][name] = page.evaluate(LAYOUT)
            if path in searched:
                page.click("label.md-header__button[for='__search']")
                tour["found"][name] = results(page, dice_query(path.parent.name))
                page.keyboard.press("Escape")
    finally:
        page.close()
    return tour


TOUR_FILE = "tour.json"


def write_tour(folder: Path, browser: Any, site: Path) -> None:
    """The tour of ``site``, kept as JSON in ``folder``, for every worker to read."""
    (folder / TOUR_FILE).write_text(json.dumps(tour_every_page(browser, site)), encoding="utf-8")


def read_tour(folder: Path) -> dict[str, Any]:
    """The tour :func:`write_tour` kept in ``folder``."""
    return dict(json.loads((folder / TOUR_FILE).read_text(encoding="utf-8")))
