"""The header's light/dark switch (validator/site/scheme.py), in Debian's Chromium:
reached and worked with the keyboard alone, in every language, from disk and served,
on a phone; the choice kept across pages and languages; the system's preference
followed until the reader chooses; a project that sets its own palette keeps it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browser_support import needs_chromium
from conftest import copy_project

pytestmark = needs_chromium

LABELS = {"en": "Dark theme", "es": "Tema oscuro", "pl": "Ciemny motyw"}
SWITCH = "button.validator-scheme"
SCHEME = "document.body.dataset.mdColorScheme"
FOCUSED = "document.activeElement !== null && document.activeElement.matches('button.validator-scheme')"


def tab_to_switch(page: Any) -> int:
    """Press Tab until the switch has focus; how many presses it took."""
    for presses in range(1, 60):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED):
            return presses
    raise AssertionError(f"the switch is not reached with Tab on {page.url}")


# Each language's label once, from disk and served by turns: the switch's script is
# the same in every language, and where the choice is kept differs from disk to served.
@pytest.mark.parametrize(("language", "where"), [("en", "disk"), ("es", "served"), ("pl", "disk")])
def test_the_keyboard_switches_to_dark_and_the_choice_stays(built_site: Path, server: str, browser: Any,
                                                             language: str, where: str) -> None:
    base = built_site.as_uri() if where == "disk" else server
    context = browser.new_context(viewport={"width": 375, "height": 740}, color_scheme="light")
    page = context.new_page()
    page.goto(f"{base}/{language}/monstrous-mounts.html")
    switch = page.locator(SWITCH)
    assert switch.is_visible()
    assert switch.get_attribute("aria-label") == LABELS[language]
    assert (page.evaluate(SCHEME), switch.get_attribute("aria-pressed")) == ("default", "false")
    light = page.evaluate("getComputedStyle(document.body).backgroundColor")
    tab_to_switch(page)
    # Focus is seen: the browser draws the site's focus ring on it.
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Enter")
    assert (page.evaluate(SCHEME), switch.get_attribute("aria-pressed")) == ("slate", "true")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != light
    # Another page, in another language: the choice holds, from the first paint.
    other = next(code for code in LABELS if code != language)
    page.goto(f"{base}/{other}/glossary.html")
    assert (page.evaluate(SCHEME), page.get_attribute(SWITCH, "aria-pressed")) == ("slate", "true")
    tab_to_switch(page)
    page.keyboard.press("Space")
    assert (page.evaluate(SCHEME), page.get_attribute(SWITCH, "aria-pressed")) == ("default", "false")
    page.reload()
    assert page.evaluate(SCHEME) == "default"
    context.close()


def test_the_system_preference_holds_until_the_reader_chooses(server: str, browser: Any) -> None:
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(f"{server}/en/index.html")
    assert (page.evaluate(SCHEME), page.get_attribute(SWITCH, "aria-pressed")) == ("slate", "true")
    page.click(SWITCH)
    page.reload()
    assert page.evaluate(SCHEME) == "default"  # the reader's choice beats the system's
    context.close()


def test_without_scripts_there_is_no_switch_that_does_nothing(server: str, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{server}/es/index.html")
    assert page.locator(SWITCH).count() == 1 and not page.locator(SWITCH).is_visible()
    context.close()


def test_a_project_with_its_own_palette_keeps_it(tmp_path: Path, browser: Any) -> None:
    """mkdocs.yml's palette wins: Material's own switch, and no second one."""
    root = copy_project(tmp_path / "project")
    config = root / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        "  font: false\n",
        "  font: false\n  palette:\n    - scheme: default\n      toggle: {icon: material/brightness-7, name: Dark}\n"
        "    - scheme: slate\n      toggle: {icon: material/brightness-4, name: Light}\n", 1), encoding="utf-8")
    assert "palette:" in config.read_text(encoding="utf-8")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "validator", "--project", str(root), "build", "--language", "en",
                           "--site-dir", str(site)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    page = browser.new_page()
    page.goto((site / "en" / "index.html").as_uri())
    assert page.locator(SWITCH).count() == 0
    assert page.locator("form[data-md-component='palette']").count() == 1
    page.close()
