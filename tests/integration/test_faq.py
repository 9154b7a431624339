"""Official answers (docs/faq.yml): the loader's checks, the core readings they settled,
their messages, their place on the pages in every language, the search index and the
open data.  File-level breakage (unknown rule or source, no page, bad address, wrong
outcome) is in tests/broken_inputs/cases.yml."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import ROOT
from whfb6 import characters as chars
from whfb6.rulings import ADOPTED, VARIANTS
from whfb6.scenarios import RULESET

from validator.api.ruleset import ScenarioError
from validator.catalogs.extract import messages_of_file
from validator.checks.run import CheckReport
from validator.content.faq import Faq, FaqEntry, faq_problems
from validator.content.yamlsource import read_yaml
from validator.site import markdown
from validator.site.pages import iter_pages, navigation
from validator.site.text import TextRenderer
from validator.workspace import Workspace, load_workspace

LANGUAGES = ("en", "es", "pl")
ANY_SIZE = VARIANTS["polish-summary-look-out-sir-any-size"]


# --- the core follows the answers ------------------------------------------------------


@pytest.mark.parametrize("die", range(1, 7))
def test_no_look_out_sir_for_a_character_bigger_than_his_unit(die: int) -> None:
    """Warhammer Chronicles 2004, page 113: the roll is only for similar-sized models."""
    assert chars.look_out_sir(die, similar_size=False) == chars.LookOutSir(character_hit=True,
                                                                            ordinary_model_hit=False)
    assert chars.look_out_sir(die, ANY_SIZE, similar_size=False) == chars.look_out_sir(die)


def test_look_out_sir_chance_for_a_bigger_character() -> None:
    assert chars.look_out_sir_hit_chance(3, similar_size=False) == 1
    assert chars.look_out_sir_hit_chance(0, similar_size=False) == 0
    assert chars.look_out_sir_hit_chance(2, ANY_SIZE, similar_size=False) == chars.look_out_sir_hit_chance(2)


def test_the_size_reading_is_consulted_only_for_a_bigger_character() -> None:
    """The earlier reading changes nothing for a character of his unit's size, so an
    example may not claim to show it there."""
    with pytest.raises(ScenarioError, match="does not use ruling variant"):
        RULESET.run("shooting-look-out-sir", {"die": 3}, "polish-summary-look-out-sir-any-size")
    assert RULESET.run("shooting-look-out-sir", {"die": 3, "similar_size": False},
                       "polish-summary-look-out-sir-any-size") == {"character_hit": False,
                                                                  "ordinary_model_hit": True}
    assert ADOPTED.look_out_sir_similar_size_only and ADOPTED.chariot_unit_joiners == "chariot-characters-only"


# --- the loader ------------------------------------------------------------------------


def _with(workspace: Workspace, *entries: FaqEntry) -> list[str]:
    rulebook = replace(workspace.rulebook, faq=Faq(faq=entries))
    return [str(problem) for problem in faq_problems(rulebook)]


def test_the_bundled_answers_have_no_problem(workspace: Workspace, report: CheckReport) -> None:
    assert len(workspace.rulebook.faq.faq) >= 8
    assert _with(workspace, *workspace.rulebook.faq.faq) == []
    assert not [problem for problem in report.problems if problem.file == "docs/faq.yml"]
    ran = {(run.rule_id, run.example.id) for run in report.runs}
    for entry in workspace.rulebook.faq.faq:
        assert entry.page or entry.url
        for example in entry.examples:
            assert (f"faq/{entry.id}", example.id) in ran


def test_duplicate_ids_and_chapter_ids_are_refused(workspace: Workspace) -> None:
    first = workspace.rulebook.faq.faq[0]
    twice = _with(workspace, first, first)
    assert any(f"duplicate official answer id '{first.id}'" in line for line in twice)
    clash = _with(workspace, first.model_copy(update={"id": "chariots"}))
    assert any("is the id of a chapter" in line and line.startswith("docs/faq.yml:") for line in clash)


def test_a_source_without_a_copy_needs_an_address_or_evidence(workspace: Workspace,
                                                               pages: dict[str, dict[str, str]]) -> None:
    """As for a reading of the register: an answer reported at second hand says where
    a reader can check it, and the page says it."""
    entry = next(entry for entry in workspace.rulebook.faq.faq if entry.evidence)
    assert entry.url is None
    bare = _with(workspace, entry.model_copy(update={"evidence": ()}))
    assert any("a document the project holds no copy of" in line for line in bare)
    assert _with(workspace, entry) == []
    page = pages["es"]["faq.md"]
    section = page[page.index(f"{{ #{entry.id} }}"):]
    assert f"(sources.md#{entry.evidence[0].source}" in section[:section.index("</small>")]


def test_an_answer_needs_a_page_or_an_address() -> None:
    base = {"id": "x", "question": "Q?", "answer": "A.", "source": "en-faq", "rules": ["chariots/challenges"]}
    with pytest.raises(ValueError, match="needs 'page'"):
        FaqEntry.model_validate(base)
    with pytest.raises(ValueError, match="web address"):
        FaqEntry.model_validate({**base, "url": 'https://example.org/a"onmouseover="x'})
    assert FaqEntry.model_validate({**base, "page": "12"}).subject == "faq/x"


def test_messages_reach_the_catalogue_template_both_ways(workspace: Workspace) -> None:
    """`validator i18n update` (rulebook.messages) and `pybabel extract` (the registered
    extractor) see the same FAQ texts with the same msgctxt."""
    from_rulebook = {m.context: m.text for m in workspace.rulebook.messages() if m.context.startswith("faq/")}
    extracted = {m.context: m.text for m in messages_of_file(read_yaml(ROOT / "docs/faq.yml", "docs/faq.yml"),
                                                               "docs/faq.yml")}
    assert from_rulebook == extracted
    entry = workspace.rulebook.faq.faq[0]
    assert {f"faq/{entry.id}#question", f"faq/{entry.id}#answer"} <= set(from_rulebook)
    assert all(f"faq/{entry.id}#example.{example.id}" in from_rulebook for example in entry.examples)


# --- pages -----------------------------------------------------------------------------


def _section(page: str, anchor: str) -> str:
    """The Markdown of one rule, from its heading to the next."""
    start = page.index(f"{{ #{anchor} }}")
    following = page.find("\n## ", start)
    return page[start:following if following > 0 else None]


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_answer_is_under_each_rule_it_touches(workspace: Workspace, pages: dict[str, dict[str, str]],
                                                    code: str) -> None:
    catalog = workspace.rule_catalogs[code]
    for entry in workspace.rulebook.faq.faq:
        answer = catalog.translate(f"faq/{entry.id}#answer", entry.answer)
        assert answer.language == code, (code, entry.id)  # translated, not the English shown instead
        words = re.escape(answer.text.split(" ")[1])
        for rule_id in entry.rules:
            chapter = workspace.rulebook.chapter_of(rule_id).id
            section = _section(pages[code][f"{chapter}.md"], rule_id.split("/")[1])
            assert '<details class="official-answers" markdown>' in section
            assert f"(faq.md#{entry.id})" in section
            assert re.search(words, section), (code, entry.id, rule_id)
    untouched = {rule.id for rule in workspace.rulebook.rules} - {r for e in workspace.rulebook.faq.faq
                                                                  for r in e.rules}
    some = sorted(untouched)[0]
    chapter = workspace.rulebook.chapter_of(some).id
    assert "official-answers" not in _section(pages[code][f"{chapter}.md"], some.split("/")[1])


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_faq_page_has_a_section_per_chapter(workspace: Workspace, report: CheckReport,
                                                pages: dict[str, dict[str, str]], code: str) -> None:
    page = pages[code]["faq.md"]
    catalog = workspace.rule_catalogs[code]
    renderer = TextRenderer(workspace.rulebook, catalog, workspace.project.language(code))
    for entry in workspace.rulebook.faq.faq:
        home = workspace.rulebook.chapter_of(entry.rules[0]).id
        assert page.index(f"{{ #{home} }}") < page.index(f"{{ #{entry.id} }}")
        question = markdown.escape(renderer.plain(f"faq/{entry.id}#question", entry.question))
        assert f"### {question} {{ #{entry.id} }}" in page
        assert catalog.translate(f"faq/{entry.id}#question", entry.question).language == code
        for example in entry.examples:
            assert f'<a id="{entry.id}--{example.id}"></a>' in page
            computed = report.computed(f"faq/{entry.id}", example.id)
            assert computed and set(example.expect) <= set(computed)
    listed = [name for _, items in navigation(workspace, code) if isinstance(items, list) for _, name in items]
    assert "faq.md" in listed


def test_the_faq_page_shows_the_outcome_the_core_computed(workspace: Workspace, report: CheckReport,
                                                          pages: dict[str, dict[str, str]]) -> None:
    """A wrong stated outcome fails the check (broken_inputs); here the page shows the
    computed value, so a core that answered otherwise would change the page."""
    def outcome_of(page: str) -> str:
        block = page[page.index('<a id="chariots-and-chariot-units--hero-on-foot-and-chariots">'):]
        block = block[:block.index("<a id=", 10)]
        # Shown as a worked example, in the reader's words: the refusal and its reason.
        assert 'class="example worked-example"' in block and 'class="worked-trace"' in block
        return block[block.index('class="worked-outcome"'):block.index('class="worked-steps"')]

    outcome = outcome_of(pages["en"]["faq.md"])
    assert 'may join</span> <span class="worked-value">no</span>' in outcome
    assert 'worked-value">chariots take only chariot characters</span>' in outcome
    runs = tuple(replace(run, computed={**run.computed, "may_join": True})
                 if run.rule_id == "faq/chariots-and-chariot-units" and run.computed is not None else run
                 for run in report.runs)
    other = dict(iter_pages(workspace, CheckReport(runs, report.problems, report.warnings), "en"))["faq.md"]
    assert 'may join</span> <span class="worked-value">yes</span>' in outcome_of(other)


# --- search and open data --------------------------------------------------------------


@pytest.mark.parametrize("code", ("es", "pl"))
def test_search_finds_the_answers(workspace: Workspace, built_site: Path, code: str) -> None:
    script = (built_site / code / "assets" / "validator" / "search-index.js").read_text(encoding="utf-8")
    index = json.loads(script[script.index("=") + 1:].rstrip().rstrip(";"))
    renderer = TextRenderer(workspace.rulebook, workspace.rule_catalogs[code], workspace.project.language(code))
    entries = {entry[0]: entry for entry in index["entries"]}
    for answer in workspace.rulebook.faq.faq:
        found = entries[f"faq/{answer.id}"]
        assert found[1] == f"faq.html#{answer.id}"
        assert f'id="{answer.id}"' in (built_site / code / "faq.html").read_text(encoding="utf-8")
        assert found[2] == renderer.plain(f"faq/{answer.id}#question", answer.question)
        assert found[3] != "Official answers"  # the section name in the reader's language
        assert f"faq/{answer.id}:" in found[4]  # found by its id, typed in full


def test_open_data_lists_the_answers(workspace: Workspace, built_site: Path) -> None:
    data = json.loads((built_site / "api" / "pl" / "faq.json").read_text(encoding="utf-8"))
    assert [entry["id"] for entry in data["faq"]] == [entry.id for entry in workspace.rulebook.faq.faq]
    first = data["faq"][0]
    assert first["question"]["language"] == "pl" and "{" not in first["question"]["plain"]
    examples = [example for entry in data["faq"] for example in entry["examples"]]
    assert examples and all(example["url"].startswith("faq.html#") for example in examples)
    chance = next(example for example in examples if example["id"] == "bigger-than-his-unit-chance")
    assert chance["outcome"] == {"probability": {"fraction": "1", "float": 1.0}}


def test_no_faq_file_means_no_answers(tmp_path: Path) -> None:
    from conftest import copy_project

    root = copy_project(tmp_path / "project")
    (root / "docs" / "faq.yml").unlink()
    assert load_workspace(root).rulebook.faq.faq == ()
