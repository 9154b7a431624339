"""What the engine guarantees of any book, not only of the bundled one: a citation
shows the pages it cites, and a value with decimals survives from the core's outcome
and steps to the page and the open data.  (An example under a rule its scenario does
not implement is in tests/broken_inputs/lengths.yml.)"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from decimal import Decimal

import pytest

from validator.api import Ruleset, Scenario, implements
from validator.checks.examples import same_value
from validator.content.loader import Rulebook
from validator.plain import to_json, to_plain
from validator.site.opendata import outcome
from validator.site.text import TextRenderer
from validator.workspace import Workspace

# ---- citations ---------------------------------------------------------------------------


def _meta_line(page: str, rule_id: str) -> str:
    """The line under a rule naming its sources, as a reader sees it (entities decoded):
    the one above the editor view's line that names the rule."""
    meta = ""
    for line in page.splitlines():
        if 'class="rule-meta"' in line:
            meta = line
        elif line.startswith(f"<p>Rule <code>{rule_id}</code>"):
            return html.unescape(meta)
    raise AssertionError(f"no source line above the editor's line of {rule_id}")


def test_a_citation_shows_the_pages_it_cites_not_the_whole_source(workspace: Workspace,
                                                                  pages: dict[str, dict[str, str]]) -> None:
    rulebook: Rulebook = workspace.rulebook
    narrowed = 0
    for rule in rulebook.rules:
        chapter = rulebook.chapter_of(rule.id).id
        cited = _meta_line(pages["en"][f"{chapter}.md"], rule.id).split("Source: ", 1)[1].split("; ")
        assert len(cited) == len(rule.cite), rule.id
        for shown, cite in zip(cited, rule.cite, strict=True):
            whole = next(source.pages for source in rulebook.sources.sources if source.id == cite.source)
            expected = cite.pages or whole
            shown = shown.removesuffix("</small></p>")
            assert shown.endswith(f", pages {expected}") if expected else "pages" not in shown, shown
            narrowed += bool(cite.pages and cite.pages != whole)
    assert narrowed, "no citation of the bundled book narrows its source's pages"


# ---- decimal values ----------------------------------------------------------------------

@implements("combat/range")
def extended_range(base: float, factor: Decimal) -> Decimal:
    """The range once a factor with decimals is applied."""
    return Decimal(str(base)) * factor


@dataclass(frozen=True)
class Shot:
    base: float
    factor: Decimal


@dataclass(frozen=True)
class Reach:
    exact: Decimal
    rough: float


def reach(given: Shot, rulings: object) -> Reach:
    exact = extended_range(given.base, given.factor)
    return Reach(exact, float(exact) / 2)


RULESET = Ruleset(scenarios=(Scenario("reach", "How far a shot reaches", Shot, reach, extended_range),),
                  variants={}, adopted=object())


def test_decimals_survive_in_the_outcome_and_in_the_steps() -> None:
    computed, steps = RULESET.run_traced("reach", {"base": 2.5, "factor": "1.25"})
    assert computed == {"exact": Decimal("3.125"), "rough": Decimal("1.5625")}
    (step,) = steps
    assert step.params == {"base": Decimal("2.5"), "factor": Decimal("1.25")}
    assert step.result == Decimal("3.125")
    assert json.loads(json.dumps(step.as_json()))["params"] == {"base": 2.5, "factor": 1.25}
    assert json.loads(json.dumps(outcome(computed))) == {"exact": 3.125, "rough": 1.5625}
    assert to_json(computed) == {"exact": 3.125, "rough": 1.5625}


def test_a_stated_decimal_is_compared_exactly() -> None:
    assert same_value(3.125, Decimal("3.125")) and same_value("3.125", Decimal("3.125"))
    assert not same_value(3.12, Decimal("3.125")) and not same_value(True, Decimal("1"))
    assert not same_value("three", Decimal("3"))


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), Decimal("NaN")])
def test_a_value_without_a_decimal_spelling_is_refused(bad: object) -> None:
    with pytest.raises(TypeError, match="cannot express"):
        to_plain({"x": bad})


@pytest.mark.parametrize(("code", "shown"), [("en", "3.125"), ("es", "3,125"), ("pl", "3,125")])
def test_a_decimal_is_written_as_the_language_writes_it(workspace: Workspace, code: str, shown: str) -> None:
    renderer = TextRenderer(workspace.rulebook, workspace.rule_catalogs[code], workspace.project.language(code))
    assert renderer.number(Decimal("3.125")) == shown
    assert renderer.number([Decimal("3.125"), 2]) == f"{shown}, 2"
