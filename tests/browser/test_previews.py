"""Cross-references that help: the rules that refer to a rule, and previews of a
linked rule (title and first paragraph, in the reader's language) shown on hover,
focus and a first tap, from disk as well as served; glossary terms show their
definition on hover and focus (Material's tooltip of the link's title) and on a
first tap (the preview's box, as a touch screen shows no title)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_support import needs_chromium
from conftest import ROOT, ProjectCopy

from validator.content.tokens import tokens
from validator.site.pages import iter_pages
from validator.site.previews import GLOBAL, PREVIEWS_FILE, preview_key, previews, referrers
from validator.site.text import TextRenderer
from validator.workspace import Workspace, load_workspace

TARGET = "monstrous-mounts/death-of-the-rider"
SOURCE = "monstrous-mounts/extra-wounds"
"""A rule whose text links to TARGET."""


@pytest.fixture(scope="module")
def workspace() -> Workspace:
    return load_workspace(ROOT)


def _renderer(workspace: Workspace, code: str) -> TextRenderer:
    return TextRenderer(workspace.rulebook, workspace.rule_catalogs[code], workspace.project.language(code))


def test_every_rule_token_makes_its_source_a_referrer(workspace: Workspace) -> None:
    rulebook = workspace.rulebook
    found = referrers(rulebook)
    expected: dict[str, set[str]] = {}
    for rule in rulebook.rules:
        for text in (rule.text, *(example.text for example in rule.examples)):
            for token in tokens(text):
                if token.kind == "rule" and rulebook.rule(token.argument).id != rule.id:
                    expected.setdefault(rulebook.rule(token.argument).id, set()).add(rule.id)
    assert expected, "the bundled rulebook has rule links"
    assert {target: set(sources) for target, sources in found.items()} == expected
    assert SOURCE in found[TARGET]
    order = [rule.id for rule in rulebook.rules]
    for sources in found.values():
        assert list(sources) == sorted(sources, key=order.index)


def test_a_new_link_adds_a_referrer_and_a_removed_one_takes_it_away(project: ProjectCopy) -> None:
    before = referrers(load_workspace(project.root).rulebook)
    assert "challenges/splitting-attacks" not in before.get("chariots/destruction", ())
    project.replace("docs/rules/challenges.yml", "text: >-\n", "text: >-\n      See {rule:chariots/destruction}.\n")
    after = referrers(load_workspace(project.root).rulebook)
    assert "challenges/splitting-attacks" in after["chariots/destruction"]
    text = project.read("docs/rules/monstrous-mounts.yml")
    project.write("docs/rules/monstrous-mounts.yml", text.replace(f"{{rule:{TARGET}}}", "the rider's death"))
    assert SOURCE not in referrers(load_workspace(project.root).rulebook).get(TARGET, ())


@pytest.mark.parametrize("code", ["en", "es", "pl"])
def test_previews_are_the_title_and_first_paragraph_as_plain_text(workspace: Workspace, code: str) -> None:
    renderer = _renderer(workspace, code)
    data = previews(renderer)
    assert len(data) == len(workspace.rulebook.rules) + len(workspace.rulebook.glossary.terms)
    for rule in workspace.rulebook.rules:
        entry = data[preview_key(workspace.rulebook, rule.id)]
        assert entry["t"] == renderer.plain(f"{rule.id}#title", rule.title)
        translated = renderer.translate(f"{rule.id}#text", rule.text).text
        first = translated.split("\n\n")[0]
        assert entry["p"] and "\n\n" not in entry["p"] and "{" not in entry["p"]
        # Every literal piece of the first paragraph is there, and nothing of the next one.
        for word in re.findall(r"[^\W\d_]{6,}", re.sub(r"\{[^}]*\}", " ", first))[:5]:
            assert word in entry["p"]
        if "\n\n" in translated:
            assert translated.split("\n\n")[1][:40] not in entry["p"]
        assert "l" not in entry


def test_an_untranslated_preview_says_its_language(project: ProjectCopy) -> None:
    path = "locales/es/LC_MESSAGES/rules.po"
    text = project.read(path)
    start = text.index(f'msgctxt "{TARGET}#text"')
    msgstr = text.index("msgstr", start)
    end = text.index("\n\n", msgstr)
    project.write(path, text[:msgstr] + 'msgstr ""' + text[end:])
    workspace = load_workspace(project.root)
    entry = previews(_renderer(workspace, "es"))[preview_key(workspace.rulebook, TARGET)]
    assert entry["l"] == "en"
    english = workspace.rulebook.rule(TARGET).text
    shown = re.sub(r"\{term:[^|{}]*\|([^{}]*)\}", r"\1", english)  # a term link shows its form
    assert entry["p"].startswith(shown.split(" ")[0])


def test_the_chapter_lists_the_rules_that_refer_to_each_rule(workspace: Workspace) -> None:
    from validator.checks.run import check_workspace

    report = check_workspace(workspace)
    for code, words in (("en", "Referred to by"), ("es", "Remiten a esta regla"),
                        ("pl", "Odwołują się do tej zasady")):
        page = dict(iter_pages(workspace, report, code))["monstrous-mounts.md"]
        section = page.split("{ #death-of-the-rider }", 1)[1].split("\n## ", 1)[0]
        line = next(line for line in section.splitlines() if line.startswith(f"<p>{words}: "))
        assert 'href="monstrous-mounts.html#extra-wounds"' in line
        title = _renderer(workspace, code).plain(f"{SOURCE}#title", workspace.rulebook.rule(SOURCE).title)
        assert title.split(" ")[0] in line
    unreferred = next(rule for rule in workspace.rulebook.chapters[0].rules
                      if rule.id not in referrers(workspace.rulebook))
    page = dict(iter_pages(workspace, report, "en"))[f"{workspace.rulebook.chapters[0].id}.md"]
    anchor = unreferred.id.rsplit("/", 1)[1]
    assert "Referred to by" not in page.split(f"{{ #{anchor} }}", 1)[1].split("\n## ", 1)[0]


def test_the_data_file_is_a_script_that_cannot_end_early(workspace: Workspace, tmp_path: Path) -> None:
    from validator.site.previews import write_previews

    path = write_previews(workspace, "pl", tmp_path)
    assert path.name == PREVIEWS_FILE
    text = path.read_text(encoding="utf-8")
    assert text.startswith(f"window.{GLOBAL}=") and text.endswith(";\n")
    assert "</" not in text
    data = json.loads(text[len(f"window.{GLOBAL}="):-2])
    assert data == previews(_renderer(workspace, "pl"))


# In the browser -----------------------------------------------------------------------------

PREVIEW = """() => { const box = document.querySelector('.rule-preview');
    return box && !box.hidden ? {title: box.firstChild.textContent, text: box.lastChild.textContent,
                                 lang: box.getAttribute('lang'), right: box.getBoundingClientRect().right} : null; }"""
LINK = f"article a[href$='#{TARGET.rsplit('/', 1)[1]}']:not(.headerlink)"


def _expected(workspace: Workspace, code: str) -> dict[str, str]:
    return previews(_renderer(workspace, code))[preview_key(workspace.rulebook, TARGET)]


@needs_chromium
@pytest.mark.parametrize("code", ["en", "es", "pl"])
def test_hover_and_focus_show_the_preview_in_the_readers_language(built_site: Path, browser: Any,
                                                                 workspace: Workspace, code: str) -> None:
    expected = _expected(workspace, code)
    page = browser.new_page()
    try:
        # From disk: nothing is fetched.
        page.goto((built_site / code / "monstrous-mounts.html").as_uri())
        assert page.evaluate(PREVIEW) is None
        link = page.locator(LINK).first
        link.hover()
        page.wait_for_function(f"({PREVIEW})() !== null", timeout=2000)
        shown = page.evaluate(PREVIEW)
        assert shown["title"] == expected["t"] and shown["text"] == expected["p"]
        page.mouse.move(1, 1)
        page.wait_for_function(f"({PREVIEW})() === null", timeout=2000)
        link.focus()
        assert page.evaluate(PREVIEW)["title"] == expected["t"]
        assert link.get_attribute("aria-describedby") == "rule-preview"
        page.keyboard.press("Escape")
        assert page.evaluate(PREVIEW) is None
        assert link.get_attribute("aria-describedby") is None
        # Other links (a glossary term, a heading's permalink) get no preview.
        page.locator("article a[href*='glossary.html']").first.focus()
        assert page.evaluate(PREVIEW) is None
    finally:
        page.close()


@needs_chromium
def test_keyboard_reaches_the_preview_by_tabbing(server: str, browser: Any, workspace: Workspace) -> None:
    page = browser.new_page()
    try:
        page.goto(f"{server}/es/monstrous-mounts.html")
        for _ in range(300):
            page.keyboard.press("Tab")
            if page.evaluate(f"document.activeElement.matches({json.dumps(LINK)})"):
                break
        else:
            pytest.fail("no rule link was reached with Tab")
        assert page.evaluate(PREVIEW)["title"] == _expected(workspace, "es")["t"]
    finally:
        page.close()


@needs_chromium
def test_a_first_tap_shows_the_preview_and_a_second_follows(server: str, browser: Any,
                                                            workspace: Workspace) -> None:
    context = browser.new_context(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        url = f"{server}/pl/monstrous-mounts.html"
        page.goto(url)
        link = page.locator(LINK).first
        link.scroll_into_view_if_needed()
        link.tap()
        page.wait_for_timeout(200)
        shown = page.evaluate(PREVIEW)
        assert page.url == url
        assert shown["title"] == _expected(workspace, "pl")["t"]
        assert shown["right"] <= 390
        link.tap()
        page.wait_for_timeout(200)
        assert page.url == f"{url}#{TARGET.rsplit('/', 1)[1]}"
        assert page.evaluate(PREVIEW) is None
    finally:
        context.close()


@needs_chromium
def test_without_the_data_no_preview_shows(server: str, browser: Any) -> None:
    """The previews come from the data file alone: served empty, none shows."""
    page = browser.new_page()
    try:
        page.route(f"**/{PREVIEWS_FILE}", lambda route: route.fulfill(
            status=200, content_type="text/javascript", body=f"window.{GLOBAL}={{}};"))
        page.goto(f"{server}/en/monstrous-mounts.html")
        page.locator(LINK).first.focus()
        page.locator(LINK).first.hover()
        page.wait_for_timeout(300)
        assert page.evaluate(PREVIEW) is None
    finally:
        page.close()


@needs_chromium
@pytest.mark.parametrize("how", ["hover", "focus"])
def test_a_glossary_term_shows_its_definition(built_site: Path, browser: Any, workspace: Workspace,
                                              how: str) -> None:
    page = browser.new_page()
    try:
        page.goto((built_site / "es" / "monstrous-mounts.html").as_uri())
        link = page.locator("article a[href*='glossary.html#'][title]").first
        term = (link.get_attribute("href") or "").rsplit("#", 1)[1]
        definition = _renderer(workspace, "es").plain(f"glossary/{term}#definition",
                                                      workspace.rulebook.term(term).definition)
        assert page.locator(".md-tooltip2--active").count() == 0
        link.hover() if how == "hover" else link.focus()
        tooltip = page.locator(".md-tooltip2--active")
        tooltip.wait_for(state="visible", timeout=3000)
        assert tooltip.inner_text().strip() == definition
    finally:
        page.close()


@pytest.mark.parametrize("code", ["en", "es", "pl"])
def test_a_terms_preview_is_its_word_and_definition_for_a_tap(workspace: Workspace, code: str) -> None:
    renderer = _renderer(workspace, code)
    data = previews(renderer)
    for term in workspace.rulebook.glossary.terms:
        entry = data[f"glossary.html#{term.id}"]
        assert entry["t"] == renderer.plain(f"glossary/{term.id}#term", term.term)
        assert entry["p"] == renderer.plain(f"glossary/{term.id}#definition", term.definition)
        assert entry["k"] == "term"
    assert not any("k" in data[preview_key(workspace.rulebook, rule.id)] for rule in workspace.rulebook.rules)


@needs_chromium
@pytest.mark.parametrize("from_disk", [False, True], ids=["served", "from-disk"])
def test_a_tap_on_a_term_shows_its_definition_and_a_second_follows(server: str, built_site: Path, browser: Any,
                                                                   workspace: Workspace, from_disk: bool) -> None:
    context = browser.new_context(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        chapter = built_site / "pl" / "monstrous-mounts.html"
        url = chapter.as_uri() if from_disk else f"{server}/pl/monstrous-mounts.html"
        page.goto(url)
        link = page.locator("article a[href^='glossary.html#']").first
        term = (link.get_attribute("href") or "").rsplit("#", 1)[1]
        renderer = _renderer(workspace, "pl")
        link.scroll_into_view_if_needed()
        link.tap()
        page.wait_for_timeout(200)
        assert page.url == url
        shown = page.evaluate(PREVIEW)
        assert shown is not None and shown["right"] <= 390
        assert shown["title"] == renderer.plain(f"glossary/{term}#term", workspace.rulebook.term(term).term)
        assert shown["text"] == renderer.plain(f"glossary/{term}#definition", workspace.rulebook.term(term).definition)
        # A tap elsewhere closes it; a first tap again shows it, and a second follows the link.
        page.locator("h1").tap()
        assert page.evaluate(PREVIEW) is None
        link.tap()
        page.wait_for_timeout(200)
        assert page.evaluate(PREVIEW) is not None and page.url == url
        link.tap()
        page.wait_for_timeout(300)
        assert page.url.endswith(f"glossary.html#{term}")
    finally:
        context.close()


@needs_chromium
def test_without_a_terms_preview_a_tap_leaves_the_page(server: str, browser: Any) -> None:
    """What the tap test catches: with the rules' previews alone (no term's), a first
    tap on a term goes to the glossary."""
    context = browser.new_context(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        def rules_only(route: Any) -> None:
            body = route.fetch().text()
            route.fulfill(status=200, content_type="text/javascript",
                          body=body + f'for (const key in window.{GLOBAL}) {{ if (window.{GLOBAL}[key].k === "term") '
                                      f'delete window.{GLOBAL}[key]; }}')
        page.route(f"**/{PREVIEWS_FILE}", rules_only)
        page.goto(f"{server}/pl/monstrous-mounts.html")
        link = page.locator("article a[href^='glossary.html#']").first
        link.scroll_into_view_if_needed()
        link.tap()
        page.wait_for_url("**/glossary.html#*", timeout=3000)
        assert page.evaluate(PREVIEW) is None
    finally:
        context.close()
