"""Worked examples as readers read them: values shown by the kinds the rules core
declares, the steps it took, the editors' part and the try-it data."""

from __future__ import annotations

import base64
import html
import json
import re
from fractions import Fraction
from typing import Annotated, Any

import pytest
from annotated_types import Interval
from conftest import ROOT
from whfb6.scenarios.types import D6, Count, Leadership, Save

from validator.api.labels import meaning_context
from validator.api.shown import DIE, ROLL, Shown, kind_of
from validator.checks.run import CheckReport
from validator.content.model import Example
from validator.content.project import load_project
from validator.site import text
from validator.site.charts import Words
from validator.workspace import Workspace


@pytest.mark.parametrize(("language", "shown"), [("en", "70.4%"), ("es", "70,4\u00a0%"), ("pl", "70,4%"),
                                              ("de", "70,4\u00a0%"), ("tr", "%70,4")])
def test_a_fraction_shows_its_percentage_in_the_readers_locale(language: str, shown: str) -> None:
    """Any locale writes its percentage as CLDR says (Turkish puts the sign first):
    no language has a pattern of its own in the engine."""
    assert text.percent(Fraction(19, 27), language) == shown


@pytest.mark.parametrize("language", ["en", "es", "pl", "fr"])
def test_charts_and_results_write_a_percentage_alike(language: str) -> None:
    words = Words(language, str, lambda identifier: (identifier, language))
    for value in (Fraction(19, 27), Fraction(1, 3), Fraction(1)):
        assert words.percent(value) == text.percent(value, language)


def test_rolls_and_modifiers_read_as_players_write_them() -> None:
    assert text.roll_text(4) == "4+"
    assert (text.modifier_text(1), text.modifier_text(-2), text.modifier_text(0)) == ("+1", "\u22122", "0")


def test_a_value_with_a_meaning_of_its_own_is_shown_as_words() -> None:
    """The core declares what its values mean; the engine knows none of them."""
    save = kind_of(Save)
    assert isinstance(save, Shown) and save.kind == "roll"
    assert [save.meaning(value) for value in (4, 6, 7, 9)] == [None, None, "no save", "no save"]
    hit = Shown("roll", meanings=((1, "automatic hit"),))
    assert (hit.meaning(1), hit.meaning(2), hit.meaning(True)) == ("automatic hit", None, None)
    assert kind_of(Annotated[int, ROLL]) == "roll"  # a kind without meanings stays its name
    with pytest.raises(ValueError, match="is words"):
        Shown("roll", at_least=(7, " "))


def test_kinds_come_from_declared_types_not_names() -> None:
    assert kind_of(D6) == "die"
    assert kind_of(Annotated[int | None, ROLL]) == "roll"
    # The same range without a declared kind is a plain number: nothing is guessed.
    assert kind_of(Annotated[int, Interval(ge=1, le=7)]) == "number"
    assert kind_of(tuple[D6, D6]) == ("list", "die")
    assert (kind_of(Count), kind_of(Leadership)) == ("count", "characteristic")
    with pytest.raises(ValueError, match="unknown kind"):
        Shown("dice")
    assert DIE.kind == "die"


@pytest.mark.parametrize("language", ["en", "es", "pl"])
def test_no_save_shows_as_the_words_the_core_declares_translated(pages: dict[str, dict[str, str]],
                                                                 workspace: Workspace, language: str) -> None:
    words = workspace.label_catalogs[language].translate(meaning_context("no save"), "no save")
    assert words.language == language  # translated in the labels catalogue
    assert re.search(rf'<span class="worked-value">{re.escape(words.text)}</span>', pages[language]["chariots.md"])


def test_polish_writes_the_dice_with_the_books_letter(pages: dict[str, dict[str, str]]) -> None:
    """rulebook.yml gives Polish the K of its players: {dice:D6} reads K6 there, D6 elsewhere."""
    assert "Rzuć K6" in html.unescape(pages["pl"]["chariots.md"])
    assert "Roll a D6" in html.unescape(pages["en"]["chariots.md"])


def _example(page: str, example_anchor: str) -> str:
    start = page.index(f'<a id="{example_anchor}"></a>')
    end = page.find("<a id=", start + 10)
    return page[start:end if end > 0 else len(page)]


def test_a_save_shows_as_the_roll_it_needs(pages: dict[str, dict[str, str]]) -> None:
    box = _example(pages["en"]["monstrous-mounts.md"], "mount-kinds--griffon")
    assert re.search(r'rider save on foot</span> <span class="worked-value">4&#43;</span>', box), box[:2000]


def test_dice_show_their_faces_with_an_accessible_name(pages: dict[str, dict[str, str]]) -> None:
    page = pages["es"]["monstrous-mounts.md"]
    faces = re.findall(r'<span class="die" role="img" aria-label="(\d)" title="\1">(.)</span>', page)
    assert faces
    dice = load_project(ROOT).dice
    assert all(dice.face(int(number)) == face for number, face in faces)


@pytest.mark.parametrize(("language", "shown"), [("en", "70.4% (19/27)"), ("es", "70,4\u00a0% (19/27)"),
                                                  ("pl", "70,4% (19/27)")])
def test_the_page_shows_the_percentage_in_the_readers_locale(pages: dict[str, dict[str, str]], language: str,
                                                              shown: str) -> None:
    assert html.unescape(pages[language]["monstrous-mounts.md"]).count(shown) >= 1


def test_every_example_lists_its_steps_with_links_to_rules(pages: dict[str, dict[str, str]],
                                                           workspace: Workspace) -> None:
    for chapter in workspace.rulebook.chapters:
        page = pages["pl"][f"{chapter.id}.md"]
        for rule in chapter.rules:
            for example in rule.examples:
                box = _example(page, f"{rule.id.rsplit('/', 1)[-1]}--{example.id}")
                steps = re.findall(r'<li class="depth-\d">(.*?)</li>', box)
                assert steps, f"{rule.id}#{example.id} lists no step"
                links = re.findall(r'<a href="([a-z0-9-]+)\.html#([a-z0-9-]+)"', " ".join(steps))
                assert links, f"{rule.id}#{example.id}: no step links its rule"
                for chapter_id, rule_anchor in links:
                    assert any(r.id == f"{chapter_id}/{rule_anchor}" for r in workspace.rulebook.rules)


def test_implementation_names_are_only_in_the_editors_part(pages: dict[str, dict[str, str]]) -> None:
    for language in ("en", "es", "pl"):
        page = pages[language]["monstrous-mounts.md"]
        outside = re.sub(r'<div class="editors editor-view">.*?</div>', "", page, flags=re.DOTALL)
        assert "whfb6." not in outside
        assert "validator calc" not in outside
        assert len(re.findall(r'<div class="editors editor-view">', page)) >= 10
        assert "validator calc mount-classify --given" in page


def test_try_it_data_holds_the_cores_outcome_for_every_offered_value(pages: dict[str, dict[str, str]],
                                                                      workspace: Workspace) -> None:
    page = pages["en"]["monstrous-mounts.md"]
    form = re.search(r'<form class="try-it" id="try-death-of-the-rider--pass-chance" data-try="([^"]*)">', page)
    assert form is not None
    data = json.loads(base64.b64decode(form.group(1)).decode("utf-8"))
    for index, leadership in enumerate(range(2, 11)):
        chance = workspace.ruleset.run("rider-death-pass-chance", {"monster_leadership": leadership})["probability"]
        shown = data["outcomes"][data["table"][str(index)]][0]
        assert shown == text.Chances.of("en", str).said(chance)


def test_a_big_input_space_gets_the_calc_command_in_the_editor_view_only(pages: dict[str, dict[str, str]]) -> None:
    page = pages["en"]["monstrous-mounts.md"]
    box = _example(page, "shooting-hit-allocation--four-hits")
    assert '<form class="try-it"' not in box
    editors = re.findall(r'<div class="editors editor-view">.*?</div>', box, flags=re.DOTALL)
    assert len(editors) == 1 and "validator calc mount-allocate-hits --given" in editors[0]
    assert "validator calc" not in box.replace(editors[0], "")


def _listed_scenarios(page: str) -> list[str]:
    block = page.split("<!-- try-it scenarios -->", 1)[1].split("<!-- /try-it scenarios -->", 1)[0]
    return re.findall(r"`([a-z0-9-]+)`", block)


def tryable_scenarios(ruleset: Any, examples: list[Example]) -> list[str]:
    """The scenarios every one of whose ``examples`` can be tried on the page, by name."""
    from validator.site.worked import tryable

    names: dict[str, bool] = {}
    for example in examples:
        scenario = ruleset.scenario(example.scenario)
        names[scenario.name] = names.get(scenario.name, True) and tryable(scenario, example.given)
    return sorted(name for name, ok in names.items() if ok)


def test_the_manual_lists_the_scenarios_that_can_be_tried(workspace: Workspace) -> None:
    examples = [example for rule in workspace.rulebook.rules for example in rule.examples]
    expected = tryable_scenarios(workspace.ruleset, examples)
    page = (ROOT / "manual" / "docs" / "editors" / "examples.md").read_text(encoding="utf-8")
    assert _listed_scenarios(page) == expected
    # A page that forgets one, or names one that cannot be tried, no longer matches.
    assert _listed_scenarios(page.replace(f"`{expected[0]}`, ", "", 1)) != expected
    assert "mount-allocate-hits" not in expected


def test_an_example_becomes_tryable_only_within_the_budget(workspace: Workspace) -> None:
    from validator.site.worked import TRY_BUDGET, input_space

    leadership = workspace.ruleset.scenario("table-leadership-test")
    assert input_space(leadership, {"dice": [3, 4], "leadership": 7}) == 6 * 6 * 9 <= TRY_BUDGET
    volley = workspace.ruleset.scenario("mount-allocate-hits")
    assert input_space(volley, {"dice": [2, 5, 4, 6]}) == 6 ** 4 > TRY_BUDGET
    points = workspace.ruleset.scenario("mount-victory-points")
    assert input_space(points, {"rider_points": 250, "monster_points": 200, "rider_slain": True,
                                "monster_slain": False}) == 0


def test_every_question_and_step_shown_is_in_the_labels_template(workspace: Workspace, report: CheckReport) -> None:
    from babel.messages.pofile import read_po

    with (ROOT / "locales/labels.pot").open("rb") as handle:
        contexts = {message.context for message in read_po(handle) if message.id}
    for run in report.runs:
        if run.rule_id.startswith("faq/") or not run.trace:
            continue
        assert f"labels/scenario/{run.example.scenario}" in contexts
        assert {f"labels/step/{step.key}" for step in run.trace} <= contexts


SINKS = ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function(", "fetch(",
         "XMLHttpRequest")
"""Ways a script could write markup or request a file (none works from disk)."""


def _sinks(source: str) -> list[str]:
    code = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    return [sink for sink in SINKS if sink in code]


def test_the_try_it_script_writes_text_only() -> None:
    """The script sets textContent and requests nothing; a script that wrote markup is caught."""
    source = (ROOT / "validator/site/assets/tryit.js").read_text(encoding="utf-8")
    assert "textContent" in source
    assert _sinks(source) == []
    assert _sinks(source.replace(".textContent =", ".innerHTML =")) == ["innerHTML"]


def test_an_example_given_nothing_has_no_empty_list_of_given_values(pages: dict[str, dict[str, str]]) -> None:
    """A list of terms holding its heading alone is a list without definitions (axe's
    definition-list): an example given nothing has no list of given values at all."""
    examples = [example.split("</details>\n<!-- /prerendered -->", 1)[0]
                for language in pages for page in pages[language].values()
                for example in page.split('<details class="example worked-example">')[1:]]
    assert examples
    lists = [example.split('<dl class="worked-given">', 1)[1].split("</dl>", 1)[0]
             for example in examples if '<dl class="worked-given">' in example]
    assert lists and all("<dd" in given for given in lists), next(given for given in lists if "<dd" not in given)
    assert len(lists) < len(examples), "no example of the book is given nothing"
