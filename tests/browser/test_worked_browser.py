"""Try it, in Chromium: a reader changes a given value with the keyboard alone and
sees the outcome the rules core computes for it, from a page opened from disk (a
link to the example opens it: examples start closed)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from browser_support import needs_chromium
from whfb6.scenarios import RULESET

from validator.site.text import Chances

FORM = "try-death-of-the-rider--pass-chance"


def _expected(leadership: int) -> str:
    chance = RULESET.run("rider-death-pass-chance", {"monster_leadership": leadership})["probability"]
    assert isinstance(chance, Fraction)
    return Chances.of("en", str).said(chance)


def _tab_to(page: Any, element_id: str, limit: int = 60) -> None:
    """Tab, one press at a time, until the element has the focus (the page was opened
    at the example's anchor, where sequential focus navigation starts)."""
    for _press in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.id") == element_id:
            return
    raise AssertionError(f"Tab never reached #{element_id}")


@needs_chromium
def test_keyboard_changes_a_given_value_and_the_outcome_follows(built_site: Path, browser: Any) -> None:
    page = browser.new_page()
    page.goto((built_site / "en" / "monstrous-mounts.html").as_uri() + "#death-of-the-rider--pass-chance")
    select = f"{FORM}-0"
    outcome = page.locator(f"#{FORM} dd[data-field='0']")
    assert outcome.text_content() == _expected(8)
    _tab_to(page, select)
    page.keyboard.press("ArrowDown")
    assert page.locator(f"#{select}").input_value() != ""
    shown = page.evaluate(f"document.getElementById('{select}').selectedOptions[0].textContent")
    assert shown == "9"
    assert outcome.text_content() == _expected(9) != _expected(8)
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert outcome.text_content() == _expected(7)
    page.close()


@needs_chromium
def test_without_the_script_the_form_keeps_the_examples_outcome(built_site: Path, browser: Any) -> None:
    """The check above can fail: with the script blocked, changing the value changes nothing."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((built_site / "en" / "monstrous-mounts.html").as_uri())
    page.locator(f"#{FORM}").locator("xpath=ancestor::details[1]/summary").click()
    page.select_option(f"#{FORM}-0", index=7)
    assert page.locator(f"#{FORM} dd[data-field='0']").text_content() == _expected(8)
    context.close()
