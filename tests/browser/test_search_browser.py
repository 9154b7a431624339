"""Search, the language selector and the root page in a real browser (Debian's
Chromium driven by Playwright), from disk (file://) and served: queries without
accents or in another inflection find the right rule first, a result opens at the
rule, the selector keeps the rule, and no page logs an error or asks another host."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_support import (
    DESKTOP,
    LANGUAGES,
    dice_query,
    first_of_each_kind,
    needs_chromium,
    results,
    serve,
    watched,
)
from conftest import ROOT, ProjectCopy

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = [needs_chromium, pytest.mark.reuses_the_book]
ORIGINS = ("disk", "served")

# Expected first results, chosen by reading the rules: the rule whose title or text
# is about what the query names.
FIRST = [
    ("es", "lanzar desafio", "challenges/issuing"),  # "Lanzar un desafío": without the accent
    ("es", "cuidado senor", "shooting-at-characters/look-out-sir"),  # "¡Cuidado, Señor!"
    ("es", "rechazando", "challenges/refusing"),  # "Rechazar un desafío": a verb form no rule uses
    ("pl", "zolnierzy", "shooting-at-characters/larger-characters"),  # "... od swoich żołnierzy"
    ("pl", "jezdzca", "monstrous-mounts/death-of-the-rider"),  # "Śmierć jeźdźca"
    ("pl", "smierc jezdzca", "monstrous-mounts/death-of-the-rider"),
    ("pl", "smierc wierzchowca", "monstrous-mounts/death-of-the-mount"),  # "Śmierć wierzchowca"
    ("pl", "wspolny ruch", "characters-in-units/moving-together"),  # "Wspólny ruch"
    ("pl", "zniszczeniem rydwanu", "chariots/destruction"),  # "Zniszczenie rydwanu", another case
    ("pl", "monstrous-mounts/cavalry", "monstrous-mounts/cavalry"),
    ("es", "monstrous-mounts/cavalry", "monstrous-mounts/cavalry"),
    ("es", "2D6", "core-tables/leadership-tests"),  # "Tira 2D6" for a Leadership test
    ("pl", "2K6", "core-tables/leadership-tests"),  # Polish writes the dice with K (rulebook.yml)
    ("en", "2D6", "core-tables/leadership-tests"),
    ("es", "5+", "chariots/armour-save"),  # the save on 5+ in heavy armour, said over and over
    ("pl", "5+", "chariots/armour-save"),
    ("es", "1-4", "monstrous-mounts/shooting-hit-allocation"),  # "con 1-4 el monstruo"
    ("pl", "cavalry", "glossary/cavalry"),  # a glossary term in another language
    ("es", "pojedynek", "glossary/challenge"),
]
DEATHS = {"monstrous-mounts/death-of-the-rider", "monstrous-mounts/death-of-the-mount",
          "chariots/death-of-the-character"}  # "Śmierć ..." in the title
CHALLENGES = {"challenges/who-may-duel", "challenges/issuing", "challenges/accepting", "challenges/refusing",
              "chariots/challenges"}  # "... desafío" in the title


@pytest.fixture(params=ORIGINS)
def site(request: pytest.FixtureRequest, built_site: Path) -> str:
    """The site's root URL, opened from disk or served."""
    if request.param == "disk":
        return built_site.as_uri()
    return str(request.getfixturevalue("server"))


def open_page(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(url)
    page.click("input.md-search__input")
    return page


# What a query finds is the same from disk and served (the index is one script, which
# every page loads from both: the tour of every page from disk and the served pages
# below prove it): the queries run from disk, as at the table without a network.
@pytest.mark.parametrize("language", ["es", "pl", "en"])
def test_queries_find_the_right_rule_first(built_site: Path, browser: Any, language: str) -> None:
    page = open_page(browser, (built_site / language / "index.html").as_uri())
    for code, query, expected in FIRST:
        if code == language:
            found = results(page, query)
            assert found and found[0] == expected, f"{language}: {query!r} -> {found[:3]}"
    page.close()


def test_unaccented_and_declined_words_find_what_the_page_says(built_site: Path, browser: Any) -> None:
    site = built_site.as_uri()
    page = open_page(browser, f"{site}/es/index.html")
    desafio = results(page, "desafio")
    assert desafio[0] in CHALLENGES
    assert set(desafio) == set(results(page, "desafío"))
    carros, carro = results(page, "carros"), results(page, "carro")
    assert set(carros) == set(carro)
    assert {"chariots/destruction", "chariots/close-combat", "chariots/challenges"} <= set(carro)
    page.goto(f"{site}/pl/index.html")
    smierc = results(page, "smierc")
    assert smierc[0] in DEATHS and set(smierc[:3]) >= DEATHS
    rydwanem, rydwan = results(page, "rydwanem"), results(page, "rydwan")
    assert set(rydwanem) == set(rydwan)
    assert {"chariots/destruction", "chariots/close-combat", "glossary/chariot"} <= set(rydwan)
    assert results(page, "qwxz") == []
    assert page.locator(".md-search-result__meta").inner_text().strip()
    page.close()


def test_a_result_opens_at_the_rule_with_the_keyboard(site: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(f"{site}/pl/glossary.html")
    page.wait_for_timeout(200)
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.classList.contains('md-search__input')")
    page.keyboard.type("jezdzca")
    page.wait_for_selector(".md-search-result__link")
    second = page.locator(".md-search-result__link").nth(1)
    title = second.locator("h1").inner_text()
    chapter = second.locator(".validator-search__chapter").inner_text()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda address: "/pl/monstrous-mounts.html#" in address)
    url = urlsplit(page.url)
    assert url.path.endswith("/pl/monstrous-mounts.html") and url.fragment
    heading = page.locator(f"[id='{url.fragment}']")
    assert heading.inner_text().strip().rstrip("¶").strip() == title
    assert heading.is_visible()
    assert chapter == page.locator("article h1").first.inner_text().strip().rstrip("¶").strip()
    page.close()


@pytest.mark.parametrize("start", ["monstrous-mounts.html#death-of-the-rider",
                                   "parallel-monstrous-mounts.html#death-of-the-rider",
                                   "glossary.html#chariot"])
def test_the_language_selector_keeps_the_rule(site: str, browser: Any, start: str) -> None:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(f"{site}/en/{start}")
    page.hover(".md-header__option .md-select")
    page.click("a.md-select__link[hreflang='pl']")
    page.wait_for_load_state()
    assert page.url == f"{site}/pl/{start}"
    assert page.get_attribute("html", "lang") == "pl"
    anchor = start.partition("#")[2]
    assert page.evaluate("id => document.getElementById(id).getBoundingClientRect().top < innerHeight", anchor)
    page.close()


def test_the_selector_follows_the_anchor_the_reader_moves_to(site: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(f"{site}/es/chariots.html")
    assert page.get_attribute("a.md-select__link[hreflang='pl']", "href") == "./../pl/chariots.html"
    page.locator("nav.md-nav--secondary a[href='#challenges']:visible").first.click()
    page.wait_for_function("location.hash === '#challenges'")
    assert page.get_attribute("a.md-select__link[hreflang='pl']", "href") == "./../pl/chariots.html#challenges"
    page.close()


def test_the_root_page_sends_a_visitor_to_the_preferred_language(site: str, browser: Any) -> None:
    for locale, language in (("pl-PL", "pl"), ("es-AR", "es"), ("de-DE", "en")):
        context = browser.new_context(locale=locale)
        page = context.new_page()
        page.goto(f"{site}/index.html")
        page.wait_for_url(f"{site}/{language}/index.html")
        assert page.get_attribute("html", "lang") == language
        context.close()


def test_the_root_page_lists_the_languages_without_scripts(site: str, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site}/index.html")
    links = page.locator("a[hreflang]").evaluate_all("links => links.map(a => a.getAttribute('hreflang'))")
    assert links == list(LANGUAGES)
    context.close()


def test_the_404_page_works_in_each_language(site: str, browser: Any, built_site: Path) -> None:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    for language in LANGUAGES:
        page.goto(f"{site}/{language}/404.html")
        assert page.get_attribute("html", "lang") == language
        # Material's stylesheet applied: the header is a fixed bar, not an unstyled block.
        assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") == "sticky"
        home = page.locator(".md-nav--primary a.md-nav__link[href$='index.html']").first
        assert (built_site / language / "index.html").resolve() == \
            (built_site / language / home.get_attribute("href")).resolve()  # type: ignore[operator]
        page.click("input.md-search__input")
        assert results(page, dice_query(language))[0] == "core-tables/leadership-tests"
        page.locator(".md-search-result__link").first.click()
        page.wait_for_url(f"{site}/{language}/core-tables.html#leadership-tests")
    page.close()


def search_finds_the_dice(page: Any, language: str) -> None:
    """The search, opened on the page: its index loads and the dice find a rule."""
    page.click("input.md-search__input")
    assert results(page, dice_query(language)), page.url
    page.keyboard.press("Escape")


def test_no_page_from_disk_logs_an_error_or_asks_another_host(phone_tour: dict[str, Any]) -> None:
    """Every page of each language's site from disk, on a phone (conftest's
    ``phone_tour``): none logs an error or a warning or asks another host, and the
    search, opened on the first page of each kind, finds the dice.  (api/ holds the
    open data, with a plain list page.)"""
    assert len(phone_tour["pages"]) > 3 * 20
    assert phone_tour["problems"] == []
    assert len(phone_tour["found"]) >= 3 * 10
    assert {page: found for page, found in phone_tour["found"].items() if not found} == {}


def test_served_pages_log_no_error_and_ask_no_other_host(server: str, browser: Any, built_site: Path) -> None:
    """Served, at a desktop's width (which runs what a page does for a wide screen), the
    first page of each kind, the languages taking turns, the search opened on each: a
    server changes how addresses resolve, not what a page asks for, and the pages of a
    kind ask for the same in every language (the tour from disk opens every page)."""
    problems: list[str] = []
    kinds = first_of_each_kind(built_site)
    names = sorted({kind for _language, kind in kinds})
    chosen = [kinds[(LANGUAGES[number % len(LANGUAGES)], kind)] for number, kind in enumerate(names)]
    assert {path.parent.name for path in chosen} == set(LANGUAGES) and len(chosen) >= 10
    page = watched(browser, urlsplit(server).netloc, problems, DESKTOP)
    try:
        for html_file in chosen:
            page.goto(f"{server}/{html_file.relative_to(built_site).as_posix()}")
            search_finds_the_dice(page, html_file.parent.name)
    finally:
        page.close()
    assert problems == []


def test_the_watch_sees_an_error_a_warning_and_another_host(built_site: Path, browser: Any) -> None:
    """The two tests above can fail: a page that logs an error and a warning and asks
    another host for an image has each written down."""
    problems: list[str] = []
    page = watched(browser, "", problems, DESKTOP)
    try:
        page.goto((built_site / "es" / "index.html").as_uri())
        page.evaluate("""() => { console.error("planted error"); console.warn("planted warning");
            const image = document.createElement("img"); image.src = "https://other.invalid/x.png";
            document.body.append(image); }""")
        page.wait_for_timeout(200)
    finally:
        page.close()
    assert any("console error: planted error" in problem for problem in problems), problems
    assert any("console warning: planted warning" in problem for problem in problems), problems
    assert any("asked https://other.invalid/x.png" in problem for problem in problems), problems


def test_a_search_index_without_folding_misses_unaccented_queries(built_site: Path, browser: Any,
                                                                 tmp_path: Path) -> None:
    """The unaccented queries above can fail: with an index built without folding,
    "zolnierzy" and "jezdzca" no longer find the rules that say "żołnierzy" and "jeźdźca"."""
    from validator.derived import Kept
    from validator.site import search
    from validator.workspace import load_workspace

    copy = tmp_path / "site"
    shutil.copytree(built_site, copy)
    index_file = copy / "pl" / "assets" / "validator" / search.INDEX_FILE
    workspace = load_workspace(ROOT)
    original = search.fold
    search.fold = str.lower  # type: ignore[assignment]
    try:
        with Kept().current():  # none of the words folded before
            unfolded = search.build_index(workspace, "pl")
    finally:
        search.fold = original
    folded = index_file.read_text(encoding="utf-8")
    index_file.write_text(f"window.{search.GLOBAL}={json.dumps(unfolded, ensure_ascii=False)};", encoding="utf-8")
    page = open_page(browser, (copy / "pl" / "index.html").as_uri())
    assert "shooting-at-characters/larger-characters" not in results(page, "zolnierzy")
    assert "monstrous-mounts/death-of-the-rider" not in results(page, "jezdzca")
    index_file.write_text(folded, encoding="utf-8")
    page.reload()
    page.click("input.md-search__input")
    assert results(page, "zolnierzy")[0] == "shooting-at-characters/larger-characters"
    page.close()


def test_the_worker_check_can_fail(built_site: Path, browser: Any, tmp_path: Path) -> None:
    """The check above can fail: Material's search markup (a form named "search" in a
    search component) makes Material start its worker, which the site's own avoids."""
    copy = tmp_path / "site"
    shutil.copytree(built_site, copy)
    page_file = copy / "es" / "index.html"
    text = page_file.read_text(encoding="utf-8")
    assert 'name="validator-search"' in text
    page_file.write_text(text.replace('name="validator-search"', 'name="search"')
                         .replace("data-validator-search", 'data-md-component="search"'), encoding="utf-8")
    workers: list[str] = []
    for site in serve(copy):
        page = browser.new_page()
        page.on("request", lambda request: "/workers/" in request.url and workers.append(request.url))
        page.goto(f"{site}/es/index.html")
        page.wait_for_timeout(500)
        page.close()
    assert workers


def test_the_page_folds_queries_as_the_build_folds_the_index(built_site: Path, browser: Any) -> None:
    from validator.site.search import fold

    samples = ["Żołnierz", "ŁÓDŹ", "desafío", "Señor", "jeźdźca", "Straße", "Æsir", "1\u20134", "e\u0301"]
    page = browser.new_page()
    page.goto((built_site / "pl" / "index.html").as_uri())
    assert page.evaluate("samples => samples.map(window.validatorSearch.fold)", samples) == [
        fold(sample) for sample in samples]
    page.close()


def test_a_site_with_a_site_url_asks_no_other_host_when_served_elsewhere(project: ProjectCopy, browser: Any) -> None:
    """Absolute alternates name the real host; a copy served elsewhere does not ask it."""
    project.write("mkdocs.yml", project.read("mkdocs.yml") + "site_url: https://rules.example.org/wfb/\n")
    assert project.command("build", "--language", "es", "--site-dir", "out").code == 0
    asked: list[str] = []
    for site in serve(project.root / "out"):
        page = browser.new_page()
        page.on("request", lambda request: "example.org" in request.url and asked.append(request.url))
        page.goto(f"{site}/es/chariots.html")
        page.wait_for_timeout(500)
        assert page.locator("link[rel='alternate']").count() == 0  # taken out for this origin
        page.close()
    html = (project.root / "out" / "es" / "chariots.html").read_text(encoding="utf-8")
    assert 'href="https://rules.example.org/wfb/pl/chariots.html" hreflang="pl"' in html
    assert asked == []
