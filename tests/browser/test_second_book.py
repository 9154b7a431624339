"""A second book, tests/roots/skirmish, checked, built and read in Chromium: a game of
ten-sided dice in centimetres, in English, German and Czech (seven cases, declared in
its glossary), with a rules core of its own, its own register kinds and no official
answers.  Whatever the engine still assumed of the bundled game would show here."""

from __future__ import annotations

import html
import importlib
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]
from babel.units import format_unit
from browser_support import needs_chromium, serve
from conftest import ProjectCopy
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from validator.site.collation import sort_key
from validator.site.opendata import KINDS, SCHEMAS

SKIRMISH = Path(__file__).resolve().parents[1] / "roots" / "skirmish"
LANGUAGES = ("en", "de", "cs")


@dataclass(frozen=True)
class Book:
    root: Path
    site: Path
    checked: str


def _validator(root: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "validator", *arguments], cwd=root, capture_output=True,
                          text=True, timeout=300)


def _copy(target: Path) -> ProjectCopy:
    """A private copy of the book, without what Python left beside its core."""
    shutil.copytree(SKIRMISH, target, ignore=shutil.ignore_patterns("__pycache__"))
    return ProjectCopy(target)


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Book:
    """The book checked and built once for the whole module, from a copy."""
    root = _copy(tmp_path_factory.mktemp("skirmish") / "book").root
    checked = _validator(root, "check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    site = root.parent / "site"
    built = _validator(root, "build", "--site-dir", str(site))
    assert built.returncode == 0, built.stderr
    return Book(root, site, checked.stdout + checked.stderr)


def _yaml(book: Book, relative: str) -> Any:
    return yaml.safe_load((book.root / relative).read_text(encoding="utf-8"))


def _text(book: Book, language: str, page: str) -> str:
    """A page's words as a reader sees them (tags dropped, entities read, spaces plain)."""
    markup = (book.site / language / page).read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup)).replace("\u00a0", " "))


def _length(value: int, language: str) -> str:
    """A length as CLDR writes it for ``language`` in the book's width, spaces plain."""
    width = yaml.safe_load((SKIRMISH / "rulebook.yml").read_text(encoding="utf-8"))["length_width"]
    return format_unit(value, "length-centimeter", width, locale=language).replace("\u00a0", " ")


def test_the_check_verifies_every_worked_example(book: Book) -> None:
    chapters = [_yaml(book, f"docs/rules/{path.name}") for path in sorted((book.root / "docs/rules").glob("*.yml"))]
    examples = sum(len(rule.get("examples", ())) for chapter in chapters for rule in chapter["rules"])
    assert examples >= 4
    assert f"{examples} worked examples verified" in book.checked


def test_a_die_without_faces_shows_its_number(book: Book) -> None:
    sides = _yaml(book, "rulebook.yml")["dice"]["sides"]
    for language in LANGUAGES:
        for page in ("actions.html", "morale.html"):
            assert not re.search("[\u2680-\u2685]", _text(book, language, page)), (language, page)
    form = (book.site / "en" / "actions.html").read_text(encoding="utf-8")
    select = re.search(r'<select id="try-dash--quick-dash-1">(.*?)</select>', form, re.S)
    assert select is not None
    assert re.findall(r">([^<]*)</option>", select.group(1)) == [str(face) for face in range(1, sides + 1)]


def test_german_pages_write_the_dice_with_their_own_letter(book: Book) -> None:
    letter = _yaml(book, "rulebook.yml")["dice"]["notation"]["de"]
    english, german, czech = (_text(book, code, "morale.html") for code in LANGUAGES)
    rolled = f"2{letter}10"
    unit = _length(1, "de").split(" ", 1)[1]
    assert f"Wirf {rolled}." in german and f"flieht {rolled} {unit}" in german
    assert "Roll 2D10." in english and rolled not in english
    assert "Hoď 2D10." in czech


def test_lengths_are_in_centimetres_in_each_languages_words(book: Book) -> None:
    for language in LANGUAGES:
        actions = _text(book, language, "actions.html")
        assert _length(60, language) in actions, language  # {dist:60} of the shooting rule
        assert _length(17, language) in actions, language  # the dash the core computed
        inches = format_unit(60, "length-inch", "short", locale=language).replace("\u00a0", " ")
        assert inches not in actions, language


def test_a_value_with_a_meaning_of_its_own_is_shown_as_its_words(book: Book) -> None:
    for language in ("de", "cs"):
        catalog = (book.root / "locales" / language / "LC_MESSAGES" / "labels.po").read_text(encoding="utf-8")
        words = re.search(r'msgctxt "labels/meaning/out of reach"\nmsgid "out of reach"\nmsgstr "([^"]+)"', catalog)
        assert words is not None
        assert words.group(1) in _text(book, language, "actions.html")


def test_czech_glossary_accepts_the_declared_cases(book: Book) -> None:
    glossary = _yaml(book, "docs/glossary.yml")
    cases = glossary["grammar"]["cs"]["cases"]
    assert len(cases) == 7
    for term in glossary["terms"]:
        assert all(len(forms) == len(cases) for forms in term["forms"]["cs"].values()), term["id"]
    catalog = (book.root / "locales/cs/LC_MESSAGES/rules.po").read_text(encoding="utf-8")
    used = set(re.findall(r"\{term:skill\|(\w+)\}", catalog))
    assert len(used) >= 2 and used <= set(glossary["terms"][1]["forms"]["cs"]["sg"])


def test_the_lint_refuses_a_czech_form_not_declared(tmp_path: Path) -> None:
    copy = _copy(tmp_path / "book")
    line = copy.replace("locales/cs/LC_MESSAGES/rules.po", "{term:skill|dovedností} 4", "{term:skill|dovednostmi} 4")
    done = _validator(copy.root, "check")
    assert done.returncode == 1
    output = done.stdout + done.stderr
    assert "term-form" in output or "dovednostmi" in output
    assert "locales/cs/LC_MESSAGES/rules.po:" in output and "Traceback" not in output
    assert line > 0


def test_the_glossary_refuses_a_czech_number_without_seven_forms(tmp_path: Path) -> None:
    copy = _copy(tmp_path / "book")
    line = copy.replace("docs/glossary.yml", "kryt, krytu, krytu, kryt, kryte, krytu, krytem", "kryt, krytu, krytem")
    done = _validator(copy.root, "check")
    assert done.returncode == 1
    output = done.stdout + done.stderr
    assert re.search(rf"^docs/glossary.yml:({line - 1}|{line}): \[cover\] cs\.sg .*Fix: ", output, re.M), output
    assert "Traceback" not in output


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_glossary_follows_each_languages_alphabet(book: Book, language: str) -> None:
    """German and Czech glossaries in their own order, each term with its English word."""
    page = (book.site / language / "glossary.html").read_text(encoding="utf-8")
    article = page[page.index("<article"):]
    headings = [html.unescape(re.sub(r"<[^>]+>", "", heading))
                for heading in re.findall(r'<h2 id="[^"]+">(.*?)<a class="headerlink"', article)]
    assert len(headings) == len(_yaml(book, "docs/glossary.yml")["terms"])
    assert headings == sorted(headings, key=sort_key(language))
    sources = re.findall(r'<p class="glossary-source">[^<]*<span lang="en">', article)
    assert len(sources) == (0 if language == "en" else len(headings))


def test_the_register_shows_only_this_books_kinds(book: Book) -> None:
    kinds = {kind["id"] for kind in _yaml(book, "docs/discrepancies.yml")["kinds"]}
    for language in LANGUAGES:
        page = (book.site / language / "discrepancies.html").read_text(encoding="utf-8")
        assert set(re.findall(r'data-kind="([^"]+)"', page)) == kinds
        assert set(re.findall(r'name="kind" value="([^"]+)"', page)) == kinds


def test_a_book_without_official_answers_shows_none(book: Book) -> None:
    """The FAQ page is still written for a book without docs/faq.yml: it lists no answer,
    and no rule shows an "Official answers" part."""
    assert not (book.root / "docs" / "faq.yml").exists()
    for language in LANGUAGES:
        data = json.loads((book.site / "api" / language / "faq.json").read_text(encoding="utf-8"))
        assert data["faq"] == []
        for page in ("actions.html", "morale.html"):
            assert 'class="faq' not in (book.site / language / page).read_text(encoding="utf-8")


def test_the_open_data_validates_against_the_shipped_schemas(book: Book) -> None:
    for language in LANGUAGES:
        for kind in KINDS:
            schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))
            data = json.loads((book.site / "api" / language / f"{kind}.json").read_text(encoding="utf-8"))
            assert [error.message for error in Draft202012Validator(schema).iter_errors(data)] == [], (language, kind)
            assert data["language"] == language
    rules = json.loads((book.site / "api" / "cs" / "rules.json").read_text(encoding="utf-8"))
    assert {rule["id"] for rule in rules["rules"]} >= {"actions/dash", "morale/fleeing"}


# In Chromium: search, the language selector, try-it and the register's filter.

@pytest.fixture(scope="module")
def skirmish_server(book: Book) -> Iterator[str]:
    yield from serve(book.site)


def _search(browser: Any, url: str, query: str) -> list[str]:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(url)
    page.click("input.md-search__input")
    page.fill("input.md-search__input", query)
    page.wait_for_function("document.querySelector('.md-search-result__meta').textContent.trim() !== ''")
    found = list(page.locator(".md-search-result__link").evaluate_all("links => links.map(a => a.dataset.entry)"))
    page.close()
    return found


@needs_chromium
@pytest.mark.parametrize(("language", "query", "expected"), [
    ("de", "Deckung", "actions/cover"),  # the rule's title and the glossary's word
    ("de", "Flucht", "morale/fleeing"),
    ("cs", "krytem", "actions/cover"),  # a case no text uses: the glossary declares it
    ("cs", "utek", "morale/fleeing"),  # "Útěk" without its accents
])
def test_search_finds_a_rule_by_a_word_of_its_language(skirmish_server: str, browser: Any, language: str,
                                                      query: str, expected: str) -> None:
    found = _search(browser, f"{skirmish_server}/{language}/index.html", query)
    assert expected in found[:2], (query, found[:3])


@needs_chromium
def test_the_language_selector_keeps_the_page(skirmish_server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(f"{skirmish_server}/de/morale.html#fleeing")
    page.hover(".md-header__option .md-select")
    page.click("a.md-select__link[hreflang='cs']")
    page.wait_for_load_state()
    assert page.url == f"{skirmish_server}/cs/morale.html#fleeing"
    assert page.get_attribute("html", "lang") == "cs"
    page.close()


@needs_chromium
def test_try_it_computes_the_dash_of_another_roll(book: Book, browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(book.root))
    core = importlib.import_module("skirmish_core")
    form = "try-dash--quick-dash"
    page = browser.new_page()
    page.goto((book.site / "cs" / "actions.html").as_uri())
    outcome = page.locator(f"#{form} dd[data-field='0']")
    assert outcome.text_content() == _length(17, "cs")
    page.locator(f"details.worked-example:has(#{form}) > summary").click()  # examples start closed
    page.select_option(f"#{form}-1", label="3")
    distance = core.RULESET.run("dash", {"pace": 10, "roll": 3})["distance"]
    assert outcome.text_content() == _length(distance, "cs") != _length(17, "cs")
    page.close()


@needs_chromium
def test_the_registers_filter_hides_a_kind(skirmish_server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"{skirmish_server}/cs/discrepancies.html")
    page.uncheck("input[name='kind'][value='misprint']")
    assert page.locator(".discrepancy-entry[data-kind='misprint']:visible").count() == 0
    assert page.locator(".discrepancy-entry[data-kind='reprint-change']:visible").count() == 1
    page.check("input[name='kind'][value='misprint']")
    assert page.locator(".discrepancy-entry[data-kind='misprint']:visible").count() == 1
    page.close()
