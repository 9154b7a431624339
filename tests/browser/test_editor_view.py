"""The editor view and the phone-sized chapter, in Chromium: the editors' details are
hidden until a reader switches them on with the header's button (by keyboard, from
disk and served, in every language, remembered), worked examples start closed with
their question and answer in view, and every rule of a chapter is one tap from the
top of its page and reads within a few screens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import LAYOUT, PHONE, needs_chromium

pytestmark = needs_chromium

LABELS = {"en": "Editor view", "es": "Vista de editor", "pl": "Widok redaktora"}
LIST_WITHIN_SCREENS = 2
"""The chapter's list of rules ends within this many screens of the top of its page."""
RULE_WITHIN_SCREENS = 4
"""A rule, from its heading to the next one, with its examples and notes closed."""

SHOWN_EDITORS = "() => [...document.querySelectorAll('.editor-view')].filter((e) => e.getClientRects().length).length"


def _switch(page: Any) -> Any:
    return page.locator("button.validator-editor-switch")


ORIGINS_OF_LANGUAGES = {"en": "disk", "es": "served", "pl": "served"}
"""Where each language's switch is tried: the switch works alike in every language, and
what it keeps is kept per origin, so that both origins and every language's label are
tried without trying each pair."""


@pytest.mark.parametrize(("code", "origin"), sorted(ORIGINS_OF_LANGUAGES.items()))
def test_the_editor_view_is_off_until_switched_on_and_is_remembered(built_site: Path, server: str, browser: Any,
                                                                    code: str, origin: str) -> None:
    site = built_site.as_uri() if origin == "disk" else server
    start = f"{site}/{code}/monstrous-mounts.html"
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(start)
        switch = _switch(page)
        assert switch.get_attribute("aria-label") == LABELS[code]
        assert switch.get_attribute("aria-pressed") == "false"
        page.locator("details.worked-example > summary").first.click()
        assert page.evaluate(SHOWN_EDITORS) == 0
        assert "validator calc" not in page.locator("article").inner_text()
        # By keyboard: focus the button and press Enter; the editors' details show.
        switch.focus()
        page.keyboard.press("Enter")
        assert switch.get_attribute("aria-pressed") == "true"
        assert page.evaluate(SHOWN_EDITORS) > 0
        assert "validator calc" in page.locator("article").inner_text()
        # Kept for the next page, and switched off again with Space.
        page.goto(start.replace("monstrous-mounts", "chariots"))
        assert _switch(page).get_attribute("aria-pressed") == "true"
        assert page.evaluate("document.documentElement.classList.contains('validator-editor')")
        _switch(page).focus()
        page.keyboard.press("Space")
        assert page.evaluate(SHOWN_EDITORS) == 0
        page.reload()
        assert _switch(page).get_attribute("aria-pressed") == "false"
    finally:
        context.close()


def test_worked_examples_start_closed_with_question_and_answer_in_view(built_site: Path, browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto((built_site / "es" / "monstrous-mounts.html").as_uri())
        boxes = page.locator("details.worked-example")
        assert boxes.count() > 10
        assert page.evaluate("() => [...document.querySelectorAll('details.worked-example')].filter((b) => b.open)"
                             ".length") == 0
        first = boxes.first
        assert first.locator(".worked-question").is_visible() and first.locator(".worked-outcome").is_visible()
        assert "Respuesta" in first.locator("> summary").inner_text()
        assert not first.locator(".worked-trace").is_visible()
        first.locator("> summary").focus()
        page.keyboard.press("Enter")
        assert first.evaluate("(box) => box.open")
        # A link to an example opens it.
        page.goto((built_site / "es" / "monstrous-mounts.html").as_uri() + "#mount-kinds--griffon")
        assert page.locator("#mount-kinds--griffon").evaluate(
            "(anchor) => anchor.parentElement.nextElementSibling.open")
    finally:
        page.close()


def _tall(measured: dict[str, Any], screen: int) -> list[str]:
    """What keeps a reader from the rule he came for: a list of rules that is missing,
    too far down or incomplete, or a rule longer than a few screens."""
    faults = []
    if measured["list"] is None or measured["list"] > LIST_WITHIN_SCREENS * screen:
        faults.append(f"list of rules ends at {measured['list']}")
    faults += [f"not in the list: {rule['id']}" for rule in measured["rules"] if rule["id"] not in measured["links"]]
    faults += [f"{rule['id']}: {rule['height'] / screen:.1f} screens" for rule in measured["rules"]
               if rule["height"] > RULE_WITHIN_SCREENS * screen]
    return faults


def test_every_rule_is_near_the_top_of_its_chapter_on_a_phone(phone_tour: dict[str, Any], built_site: Path,
                                                              browser: Any, workspace: Any) -> None:
    """Every chapter in every language, as the tour of every page laid it out on a phone
    (conftest's ``phone_tour``)."""
    faults: dict[str, list[str]] = {}
    for language in workspace.project.languages:
        for chapter in workspace.rulebook.chapters:
            measured = phone_tour["layout"][f"{language.code}/{chapter.id}.html"]
            assert len(measured["rules"]) == len(chapter.rules)
            if found := _tall(measured, PHONE["height"]):
                faults[f"{language.code}/{chapter.id}"] = found
    assert faults == {}
    # The measure can fail: with every example and note open, rules are too long.
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto((built_site / "es" / "characters-in-units.html").as_uri())
        page.evaluate("() => document.querySelectorAll('details').forEach((box) => { box.open = true; })")
        assert any(": " in fault and "screens" in fault for fault in _tall(page.evaluate(LAYOUT), PHONE["height"]))
    finally:
        page.close()
