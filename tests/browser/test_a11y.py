"""Accessibility of the built sites: axe-core in Chromium, and the keyboard alone.

axe-core comes from the npm registry as a pinned tarball, checked against the
sha512 the registry publishes for it and kept under ``.cache/axe-core/`` in the
project (see the manual, developers/tests.md), so a fresh machine needs no Node.js.  Every
rule that axe runs by default runs on every page (WCAG 2 A and AA, best
practice), in Material's default palette; the colour rules run again in its dark
palette (``slate``), switched on with the header's button.  A serious or
critical finding fails the test, naming the rule, the element and the help."""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_support import needs_chromium

ROOT = Path(__file__).resolve().parents[2]
AXE_VERSION = "4.14.1"
AXE_URL = f"https://registry.npmjs.org/axe-core/-/axe-core-{AXE_VERSION}.tgz"
# dist.integrity of the version in the registry's metadata (`npm view axe-core@4.14.1 dist.integrity`).
AXE_SHA512 = "FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
AXE_CACHE = ROOT / ".cache" / "axe-core" / f"axe-core-{AXE_VERSION}.tgz"

LANGUAGES = ("en", "es", "pl")
# Every kind of page: home, a chapter (one with an example given nothing), its
# parallel text, glossary, official answers, register, sources, status, the
# translator's guide.
PAGES = ("index.html", "monstrous-mounts.html", "characters-in-units.html", "parallel-monstrous-mounts.html",
         "glossary.html", "faq.html", "discrepancies.html", "sources.html", "status.html", "translators.html")
# A desktop and a phone: on a phone tables scroll sideways and the navigation folds.
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
BLOCKING = ("serious", "critical")
COLOUR_RULES = ["color-contrast", "link-in-text-block"]

# The header's light/dark switch, pressed on a page in the light palette; transitions
# are off (STILL), so colours are final when axe measures them.
DARK = """() => {
  document.querySelector("button.validator-scheme").click();
  return [document.body.dataset.mdColorScheme, getComputedStyle(document.body).backgroundColor];
}"""
# The switch keeps the reader's choice for the next pages: forgotten after a dark pass,
# so that the next page opens in the default palette, as a first visit does.
FORGET_THE_CHOICE = "() => localStorage.removeItem('validator.scheme')"
FIRST_PREVIEW = """() => {
  for (const link of document.querySelectorAll(".md-content a[href*='#']:not(.headerlink)")) {
    link.focus();
    const box = document.getElementById("rule-preview");
    if (box && !box.hidden) { return true; }
  }
  return false;
}"""
STILL = "*, *::before, *::after { transition: none !important; animation: none !important; }"


def _verified(data: bytes) -> bytes:
    digest = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if digest != AXE_SHA512:
        raise AssertionError(f"axe-core {AXE_VERSION}: sha512 {digest} is not the pinned {AXE_SHA512}")
    return data


def axe_tarball() -> bytes:
    """The pinned axe-core tarball: from the cache when it is there and intact, else
    from the registry (then cached)."""
    if AXE_CACHE.is_file():
        data = AXE_CACHE.read_bytes()
        if base64.b64encode(hashlib.sha512(data).digest()).decode() == AXE_SHA512:
            return data
    with urllib.request.urlopen(AXE_URL, timeout=60) as response:
        data = _verified(response.read())
    AXE_CACHE.parent.mkdir(parents=True, exist_ok=True)
    # A name of this process's own: the workers of a test run may fetch it at once.
    partial = AXE_CACHE.with_name(f"{AXE_CACHE.name}.{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(AXE_CACHE)
    return data


@pytest.fixture(scope="session")
def axe_script() -> str:
    with tarfile.open(fileobj=io.BytesIO(axe_tarball()), mode="r:gz") as archive:
        member = archive.extractfile("package/axe.min.js")
        assert member is not None
        return member.read().decode("utf-8")


def run_axe(page: Any, axe_script: str, options: dict[str, Any] | None = None,
            context: Any = None) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now (axe is injected once per document)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_script)
    found: list[dict[str, Any]] = page.evaluate(
        "async ([context, options]) => (await axe.run(context || document, options)).violations",
        [context, {"resultTypes": ["violations"], **(options or {})}])
    return found


def blocking(violations: list[dict[str, Any]], where: str) -> list[str]:
    """One line per element of each serious or critical violation: rule, target, help."""
    return [f"{where}: {violation['id']} ({violation['impact']}) at {node['target']}: {violation['help']} "
            f"<{violation['helpUrl']}>"
            for violation in violations if violation["impact"] in BLOCKING
            for node in violation["nodes"]]


def dark(page: Any) -> None:
    """Switch the open page to the dark scheme with the site's own switch."""
    scheme, background = page.evaluate(DARK)
    assert scheme == "slate" and background != "rgb(255, 255, 255)", "the dark scheme did not apply"


def audit(page: Any, axe_script: str, language: str, name: str, palettes: str = "light") -> list[str]:
    """Every default rule in the light palette; the colour rules in the dark one."""
    page.add_style_tag(content=STILL)
    problems: list[str] = []
    if "light" in palettes:
        assert page.evaluate("document.body.dataset.mdColorScheme") == "default", f"{language}/{name} is not light"
        problems += blocking(run_axe(page, axe_script), f"{language}/{name}")
    if "dark" in palettes:
        dark(page)
        problems += blocking(run_axe(page, axe_script, {"runOnly": {"type": "rule", "values": COLOUR_RULES}}),
                             f"{language}/{name} (dark)")
        page.evaluate(FORGET_THE_CHOICE)
    return problems


def audited(language: str, viewport: str) -> tuple[str, ...]:
    """The pages audited in ``language`` at ``viewport``: every kind of page at the
    desktop's width in every language (the texts, names and labels are each language's
    own); on the phone, every kind of page once, the languages taking turns (the phone
    changes the layout, which is the same in every language: a longer word that breaks
    it is the sideways-scroll test's to find, in every language)."""
    if viewport == "desktop":
        return PAGES
    return PAGES[LANGUAGES.index(language)::len(LANGUAGES)]


DARK_LANGUAGE = "en"
"""Colours are the same in every language: the dark pass runs over one language's
pages at the desktop's width, on each page after its light pass."""


@needs_chromium
@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_serious_violation_on_any_kind_of_page(server: str, browser: Any,
                                                  axe_script: str, language: str, viewport: str) -> None:
    page = browser.new_page(viewport=VIEWPORTS[viewport])
    palettes = "light dark" if (language, viewport) == (DARK_LANGUAGE, "desktop") else "light"
    problems: list[str] = []
    for name in audited(language, viewport):
        page.goto(f"{server}/{language}/{name}")
        problems += audit(page, axe_script, language, name, palettes)
    page.close()
    assert not problems, "\n".join(problems)


def test_every_kind_of_page_is_audited_on_the_phone_and_in_every_language() -> None:
    assert sorted(name for language in LANGUAGES for name in audited(language, "phone")) == sorted(PAGES)
    assert all(audited(language, "desktop") == PAGES for language in LANGUAGES)


@needs_chromium
def test_an_open_preview_and_search_results_have_no_serious_violation(server: str, browser: Any,
                                                                       axe_script: str) -> None:
    """What a reader opens: a rule's preview, and the search box with its results."""
    page = browser.new_page()
    problems: list[str] = []
    for language in LANGUAGES:
        page.goto(f"{server}/{language}/monstrous-mounts.html")
        page.add_style_tag(content=STILL)
        assert page.evaluate(FIRST_PREVIEW), "no link on the chapter shows a preview"
        page.fill(".md-search__input", "monstrous-mounts/cavalry")
        page.wait_for_selector(".md-search-result__link", timeout=5000)
        problems += blocking(run_axe(page, axe_script, context={"include": [[".md-header"], ["#rule-preview"]]}),
                             f"{language}/monstrous-mounts.html (preview, search)")
    page.close()
    assert not problems, "\n".join(problems)


@needs_chromium
def test_the_audit_finds_what_is_planted(server: str, browser: Any, axe_script: str) -> None:
    """The harness can fail: an image without a text alternative, grey text on white
    and a link told from its text by colour alone are reported, and a colour that is
    fine in the light palette but not in the dark one is caught by the dark pass."""
    page = browser.new_page()
    page.goto(f"{server}/en/glossary.html")
    page.evaluate("""() => {
      const content = document.querySelector(".md-content__inner");
      content.insertAdjacentHTML("beforeend",
        '<p><img src="assets/images/favicon.png" width="16" height="16"></p>' +
        '<p style="color:#bbbbbb">Barely readable</p>' +
        '<p>Running text with <a href="#x" style="text-decoration:none;color:#333">a hidden link</a> in it.</p>' +
        '<p class="planted-dark">Dark on dark</p>');
      const style = document.createElement("style");
      style.textContent = '[data-md-color-scheme="slate"] .planted-dark { color: #202020; }';
      document.head.append(style);
    }""")
    problems = audit(page, axe_script, "en", "glossary.html", palettes="light dark")
    page.close()
    report = "\n".join(problems)
    assert "en/glossary.html: image-alt (critical)" in report
    assert "en/glossary.html: color-contrast (serious)" in report
    assert any(line.startswith("en/glossary.html: link-in-text-block") for line in problems)
    dark_lines = [line for line in problems if "(dark)" in line]
    assert any("color-contrast" in line and "planted-dark" in line for line in dark_lines), report
    assert not any("planted-dark" in line for line in problems if "(dark)" not in line), report


# One step of the keyboard walk: what has the focus, whether it shows a ring, whether
# it is on screen, and whether a rule's preview is open and names it.
STEP_OF = """(element) => {
  element.setAttribute("data-tab-seen", "");
  const style = getComputedStyle(element);
  const ring = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none";
  const rect = element.getBoundingClientRect();
  const onScreen = rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.top < innerHeight &&
    rect.right > 0 && rect.left < innerWidth;
  const box = document.getElementById("rule-preview");
  const preview = Boolean(box && !box.hidden && element.getAttribute("aria-describedby") === box.id);
  if (preview) { element.setAttribute("data-preview-on-focus", ""); }
  const name = element.tagName.toLowerCase() + " " + (element.getAttribute("href") || element.getAttribute("name") ||
    element.getAttribute("value") || element.textContent.trim().slice(0, 40));
  return {ring, onScreen, preview, name};
}"""
STEP = f"() => ({STEP_OF})(document.activeElement)"
# Records every step of the walk as the focus moves (after the page's own handlers,
# so an open preview is seen), until the focus comes round to an element again.
RECORD = f"""() => {{
  const step = {STEP_OF};
  window.tabWalk = {{steps: [], round: false}};
  document.addEventListener("focusin", (event) => {{
    const walk = window.tabWalk;
    if (walk.round) {{ return; }}
    if (event.target.hasAttribute("data-tab-seen")) {{ walk.round = true; return; }}
    walk.steps.push(step(event.target));
  }});
}}"""
ESCAPES = 5
# What the keyboard must reach: every control in the page's text (examples and their
# controls, links, the register's filters) and the search box; and the links that
# have a preview on focus (a rule's).
EXPECTED = """() => {
  // Controls count whatever their tabindex says (tabindex="-1" takes one out of reach);
  // other elements count when they ask for the focus.
  const controls = "a[href], button, input, select, textarea, summary, [role=button], [role=link], " +
    "[role=checkbox], [role=switch], [role=tab], [role=menuitem], [tabindex]:not([tabindex^='-'])";
  const shown = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== "hidden";
  // Inside a closed box only its own summary can take the focus (worked examples start
  // closed, and the steps' box inside one is out of reach until it opens).
  const enclosed = (element) => {
    let box = element.closest("details");
    if (element.tagName === "SUMMARY" && box && element.parentElement === box) {
      box = box.parentElement && box.parentElement.closest("details");
    }
    for (; box; box = box.parentElement && box.parentElement.closest("details")) {
      if (!box.open) { return true; }
    }
    return false;
  };
  const wanted = Array.from(document.querySelectorAll(".md-content :is(" + controls + "), .md-search__input"))
    .filter((element) => shown(element) && !element.disabled && element.getAttribute("type") !== "hidden" &&
      !enclosed(element));
  const data = window.validatorPreviews || {};
  const previews = wanted.filter((link) => {
    if (link.tagName !== "A" || link.classList.contains("headerlink") || !link.getAttribute("href").includes("#")) {
      return false;
    }
    const url = new URL(link.href, location.href);
    const key = decodeURIComponent(url.pathname.split("/").pop()) + url.hash;
    // A glossary term's box is for a tap: on focus its title (Material's tooltip) shows.
    return Object.prototype.hasOwnProperty.call(data, key) && data[key].k !== "term";
  });
  const describe = (element) => element.tagName.toLowerCase() + " " + (element.getAttribute("href") ||
    element.getAttribute("name") || element.getAttribute("value") || element.textContent.trim().slice(0, 40));
  return {
    missed: wanted.filter((element) => !element.hasAttribute("data-tab-seen")).map(describe),
    previews: previews.length,
    withoutPreview: previews.filter((link) => !link.hasAttribute("data-preview-on-focus")).map(describe),
    examples: document.querySelectorAll(".md-content .admonition.example, .md-content details.example").length,
  };
}"""


def walk(page: Any, limit: int = 1500) -> list[dict[str, Any]]:
    """Tab from the top of the page until the focus comes round again; then, on the
    first links whose preview opened, Escape must close it."""
    page.evaluate(RECORD)
    for count in range(1, limit + 1):
        page.keyboard.press("Tab")
        if count % 25 == 0 and page.evaluate("() => window.tabWalk.round"):
            break
    steps: list[dict[str, Any]] = page.evaluate("() => window.tabWalk.steps")
    previews = page.locator("[data-preview-on-focus]")
    for number in range(min(ESCAPES, previews.count())):
        previews.nth(number).focus()
        page.keyboard.press("Escape")
        closed = page.evaluate("() => document.getElementById('rule-preview').hidden")
        [step for step in steps if step["preview"]][number]["closed"] = closed
    return steps


@needs_chromium
@pytest.mark.parametrize("name", ["monstrous-mounts.html", "discrepancies.html"])
def test_the_keyboard_alone_reaches_everything(server: str, browser: Any, name: str) -> None:
    """Tab reaches every example's controls, link and filter and the search box, each
    with a visible focus ring and on screen; a rule's preview opens on focus and
    Escape closes it."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/en/{name}")
    page.add_style_tag(content=STILL)
    # The worked examples start closed: opened, as a reader opens one with Enter, so that
    # the walk goes through every example's controls.
    page.evaluate("document.querySelectorAll('details.worked-example').forEach((box) => { box.open = true; })")
    steps = walk(page)
    found = page.evaluate(EXPECTED)
    assert len(steps) > 20, steps
    assert not found["missed"], f"Tab never reaches: {found['missed']}"
    assert not [step["name"] for step in steps if not step["ring"]], "no visible focus ring"
    assert not [step["name"] for step in steps if not step["onScreen"]], "focused but off screen"
    assert not found["withoutPreview"], f"no preview on focus: {found['withoutPreview']}"
    assert all(step.get("closed", True) for step in steps if step["preview"]), "Escape left a preview open"
    if name == "monstrous-mounts.html":
        assert found["examples"] > 0 and found["previews"] > 0
    if name == "discrepancies.html":
        # A filter works from the keyboard: Space on a ticked kind hides its entries.
        page.focus(".register-filter input[name='kind']")
        shown = page.locator(".discrepancy-entry:not([hidden])").count()
        page.keyboard.press("Space")
        assert page.locator(".discrepancy-entry:not([hidden])").count() < shown
    page.close()


@needs_chromium
def test_the_walk_fails_where_the_keyboard_is_stuck(server: str, browser: Any) -> None:
    """The keyboard test can fail: a control taken out of the tab order, a ring
    removed, a preview that Escape does not close, and previews that open on hover
    only are all reported."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/en/discrepancies.html")
    page.add_style_tag(content=STILL + " .md-content a { outline: none !important; box-shadow: none !important; }")
    page.evaluate("""() => {
      const link = document.querySelector(".md-content p a[href]");
      link.insertAdjacentHTML("afterend", ' <span class="planted" tabindex="-1" role="button">x</span>' +
        '<button type="button" tabindex="-1">Show</button>');
      document.addEventListener("keydown", (event) => {
        if (event.key === "Escape") { event.stopImmediatePropagation(); }
      }, true);
    }""")
    steps = walk(page)
    found = page.evaluate(EXPECTED)
    assert any("Show" in name for name in found["missed"]), found["missed"]
    assert any(name.startswith("span x") for name in found["missed"]), found["missed"]
    assert any(not step["ring"] for step in steps if step["name"].startswith("a "))
    assert found["previews"] > 0 and any(step.get("closed") is False for step in steps if step["preview"])

    page.goto(f"{server}/en/discrepancies.html")
    page.evaluate("() => document.addEventListener('focusin', (event) => event.stopImmediatePropagation(), true)")
    page.focus(".md-content a[href*='.html#']:not([href^='glossary'])")
    assert page.evaluate(STEP)["preview"] is False
    found = page.evaluate(EXPECTED)
    assert found["previews"] > 0 and len(found["withoutPreview"]) == found["previews"]
    page.close()
