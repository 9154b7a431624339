"""Charts beside worked examples (validator/site/charts.py): drawn from the rules
core's exact numbers, labelled in the reader's language and locale, refused at
their line when declared wrong, hostile text kept as text, and readable in
Material's light and dark palettes."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path
from typing import Any

import markdown as python_markdown
import pytest
from babel.messages.pofile import read_po
from browser_support import needs_chromium
from conftest import ROOT
from whfb6.scenarios import RULESET

from validator.checks.charts import ChartError, Series, declared_series
from validator.content.model import Example
from validator.site.charts import Words, render

SVG = "{http://www.w3.org/2000/svg}"
RIDER_CHART = "chart-shooting-hit-allocation--three-hits-chance-1"
"""The chart the monstrous-mounts chapter declares: the rider's chance over 1-10 hits."""


def _figure(site: Path, language: str, page: str, chart_id: str) -> ET.Element:
    """The chart's <figure> in a built page, parsed as XML (so it must be well formed)."""
    html = (site / language / page).read_text(encoding="utf-8")
    match = re.search(rf'<figure class="example-chart" id="{chart_id}">.*?</figure>', html, re.S)
    assert match, f"no chart {chart_id} in {language}/{page}"
    text = match.group(0).replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1)
    return ET.fromstring(text)


def _bars(figure: ET.Element) -> list[float]:
    return [float(rect.attrib["height"]) for rect in figure.iter(f"{SVG}rect") if rect.get("class") == "chart-bar"]


def _texts(figure: ET.Element, css_class: str) -> list[str]:
    """The texts of one kind, a tick label wrapped over lines read as one line."""
    return [" ".join(part.strip() for part in element.itertext() if part.strip())
            for element in figure.iter(f"{SVG}text") if element.get("class") == css_class]


def _label(language: str, identifier: str) -> str:
    with (ROOT / "locales" / language / "LC_MESSAGES" / "labels.po").open("rb") as handle:
        catalog = read_po(handle)
    message = catalog.get(identifier.replace("_", " ").replace("-", " "), context=f"labels/{identifier}")
    assert message is not None and message.string, identifier
    return str(message.string)


def _assert_proportional(heights: list[float], probabilities: list[Fraction]) -> None:
    assert len(heights) == len(probabilities)
    highest = max(range(len(heights)), key=lambda index: probabilities[index])
    scale = heights[highest] / float(probabilities[highest])
    for height, probability in zip(heights, probabilities, strict=True):
        assert height == pytest.approx(float(probability) * scale, abs=0.02)


def test_bars_follow_the_cores_probabilities(built_site: Path) -> None:
    figure = _figure(built_site, "en", "monstrous-mounts.html", RIDER_CHART)
    expected = [RULESET.run("mount-rider-hit-chance", {"hits": hits})["probability"] for hits in range(1, 11)]
    _assert_proportional(_bars(figure), expected)
    assert _texts(figure, "chart-tick") == [str(hits) for hits in range(1, 11)]


def test_a_distribution_gets_a_chart_without_asking(built_site: Path) -> None:
    figure = _figure(built_site, "en", "chariots.html", "chart-shooting-hit-allocation--three-hits-distribution-1")
    distribution = RULESET.run("chariot-character-hits-distribution", {"hits": 3})["distribution"]
    _assert_proportional(_bars(figure), list(distribution.values()))
    assert _texts(figure, "chart-tick") == list(distribution)


def test_a_roll_chart_counts_each_face_of_the_die(built_site: Path) -> None:
    figure = _figure(built_site, "es", "monstrous-mounts.html", "chart-monster-reaction--reaction-guard-1")
    reactions = [RULESET.run("monster-reaction", {"die": die})["reaction"] for die in range(1, 7)]
    shown = list(dict.fromkeys(reactions))
    _assert_proportional(_bars(figure), [Fraction(reactions.count(reaction), 6) for reaction in shown])
    assert _texts(figure, "chart-tick") == [_label("es", reaction) for reaction in shown]


@pytest.mark.parametrize(("language", "percent"), [("en", "70.4%"), ("es", "70,4\u00a0%"), ("pl", "70,4%")])
def test_labels_and_numbers_are_the_readers(built_site: Path, language: str, percent: str) -> None:
    figure = _figure(built_site, language, "monstrous-mounts.html", RIDER_CHART)
    assert _texts(figure, "chart-value")[2] == percent  # 3 hits: 19/27
    titles = _texts(figure, "chart-axis-title")
    if language == "en":
        assert titles == ["hits", "probability"]
    else:
        assert titles == [_label(language, "hits"), _label(language, "probability")]
        assert titles != ["hits", "probability"]
    svg = next(figure.iter(f"{SVG}svg"))
    assert svg.get("role") == "img"
    assert svg.get("aria-labelledby") == f"{RIDER_CHART}-title"
    title, desc = next(svg.iter(f"{SVG}title")).text or "", next(svg.iter(f"{SVG}desc")).text or ""
    assert titles[0] in title and percent.replace("70,4", "98,3").replace("70.4", "98.3") in desc
    rows = [["".join(cell.itertext()) for cell in row] for row in figure.iter("tr")]
    assert rows[0][:2] == titles
    assert rows[3] == ["3", percent, "19/27"]


PAYLOAD = '<script>alert(1)</script>*x* [a](javascript:alert(2)) "&amp;'


def test_hostile_text_in_a_label_stays_text() -> None:
    words = Words("es", lambda message: PAYLOAD + message, lambda identifier: (PAYLOAD, "es"))
    series = Series("over", "hits", "probability", ((1, Fraction(1, 3)), (2, Fraction(5, 9))))
    drawn = str(render(words, series, "chart-x"))
    assert "\n" not in drawn  # one line: read as one piece of inline HTML inside the example's Markdown
    figure = ET.fromstring(drawn.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))
    assert not [element for element in figure.iter() if element.tag.endswith(("script", "a"))]
    assert _texts(figure, "chart-axis-title") == [PAYLOAD, PAYLOAD]
    assert PAYLOAD in (next(figure.iter(f"{SVG}title")).text or "")
    # Through Markdown, inside the example's box, no markup comes of it either.
    html = python_markdown.markdown("!!! example\n\n    " + drawn, extensions=["admonition", "md_in_html"])
    assert "<script" not in html and "<em>" not in html and "<a " not in html


def _example(scenario: str, given: dict[str, Any], **chart: Any) -> Example:
    return Example.model_validate({"id": "x", "scenario": scenario, "given": given, "expect": {"x": 1},
                                   "text": "t", "chart": chart})


@pytest.mark.parametrize(("scenario", "given", "chart", "error"), [
    ("mount-rider-hit-chance", {"hits": 3}, {"over": "hits", "roll": "hits"}, "either 'over'"),
    ("mount-rider-hit-chance", {"hits": 3}, {"over": "hits"}, "hits from 0 to 200 makes 201 points"),
    ("mount-rider-hit-chance", {"hits": 3}, {"over": "hits", "from": 5, "to": 2}, "'from: 5' is above 'to: 2'"),
    ("mount-rider-hit-chance", {"hits": 3}, {"over": "hits", "from": 1, "to": 3, "field": "hits"},
     "field 'hits' is not a probability"),
    ("monster-reaction", {"die": 6}, {"over": "die"}, "has no probability fields"),
    ("monster-reaction", {"die": 6}, {"roll": "die", "field": "reactoin"}, "no outcome field 'reactoin'"),
    ("mount-classify", {"mount_wounds": 4}, {"over": "mount_wounds", "from": 1}, "no highest value"),
])
def test_a_declaration_the_scenario_cannot_honour_is_refused(scenario: str, given: dict[str, Any],
                                                             chart: dict[str, Any], error: str) -> None:
    with pytest.raises(ChartError, match=re.escape(error)):
        declared_series(RULESET, _example(scenario, given, **chart))


def test_a_good_declaration_runs_the_core_for_each_value() -> None:
    series = declared_series(RULESET, _example("table-leadership-chance", {"leadership": 9}, over="leadership"))
    assert [x for x, _ in series.points] == list(range(2, 11))
    assert [p for _, p in series.points] == [RULESET.run("table-leadership-chance", {"leadership": ld})["probability"]
                                             for ld in range(2, 11)]


# ---- in the browser ---------------------------------------------------------------------------

CONTRAST = """(selector) => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const page = rgb(getComputedStyle(document.body).backgroundColor);
  const over = (colour) => colour.length > 3
    ? colour.slice(0, 3).map((c, i) => c * colour[3] + page[i] * (1 - colour[3])) : colour;
  const luminance = (c) => { const [r, g, b] = c.map((v) => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const element = document.querySelector(selector);
  return {background: page, ratio: ratio(over(rgb(getComputedStyle(element).fill)), page.slice(0, 3))};
}"""
SLATE = """() => {
  const main = [...document.querySelectorAll('link[rel=stylesheet]')].find((l) => /main\\.[^/]*\\.css$/.test(l.href));
  if (!document.querySelector('link[href*="palette."]')) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = main.href.replace(/main\\.[^/]*\\.css$/, '') + PALETTE;
    document.head.appendChild(link);
  }
  document.body.setAttribute('data-md-color-scheme', 'slate');
}"""


@needs_chromium
def test_the_chart_is_visible_named_and_readable_in_both_palettes(built_site: Path, browser: Any) -> None:
    palette = next((built_site / "es" / "assets" / "stylesheets").glob("palette.*.css")).name
    page = browser.new_page()
    try:
        # The example starts closed; a link to it opens it.
        example = RIDER_CHART.removeprefix("chart-").rsplit("-", 1)[0]
        page.goto((built_site / "es" / "monstrous-mounts.html").as_uri() + f"#{example}")
        figure = _figure(built_site, "es", "monstrous-mounts.html", RIDER_CHART)
        name = next(figure.iter(f"{SVG}title")).text
        chart = page.get_by_role("img", name=name, exact=True)
        chart.scroll_into_view_if_needed()
        assert chart.is_visible() and chart.bounding_box()["height"] > 100
        seen = []
        for scheme in ("default", "slate"):
            if scheme == "slate":
                page.evaluate(SLATE.replace("PALETTE", repr(palette)))
                page.wait_for_function("getComputedStyle(document.body).backgroundColor !== 'rgb(255, 255, 255)'")
            for selector in (f"#{RIDER_CHART} .chart-bar", f"#{RIDER_CHART} .chart-axis-title"):
                measured = page.evaluate(CONTRAST, selector)
                assert measured["ratio"] >= 3, (scheme, selector, measured)
            seen.append(tuple(measured["background"][:3]))
        assert seen[0] != seen[1]  # the palette did change
    finally:
        page.close()
