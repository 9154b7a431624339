"""Answers that are not the design team's: a community council's interpretations and
answers whose author is not named are never shown, exported or indexed as official."""

from __future__ import annotations

import json
from dataclasses import replace

import jsonschema
import pytest
from conftest import ROOT

from validator.checks.run import CheckReport
from validator.content.faq import Faq, faq_problems
from validator.site.faq import standing_label
from validator.site.opendata import documents
from validator.workspace import Workspace

LANGUAGES = ("en", "es", "pl")
OFFICIAL_WORDS = {"en": "Official answers", "es": "Respuestas oficiales", "pl": "Oficjalne odpowiedzi"}


def _community(workspace: Workspace) -> list[str]:
    sources = {source.id: source for source in workspace.rulebook.sources.sources}
    return [entry.id for entry in workspace.rulebook.faq.faq if sources[entry.source].community]


def test_every_answer_citing_a_community_body_is_marked_community(workspace: Workspace) -> None:
    community = _community(workspace)
    assert community, "the bundled book records the council's interpretations"
    for entry in workspace.rulebook.faq.faq:
        assert (entry.id in community) == (entry.standing == "community"), entry.id
        assert not (entry.id in community and entry.official)


def test_a_community_answer_labelled_official_is_refused(workspace: Workspace) -> None:
    entry = next(entry for entry in workspace.rulebook.faq.faq if entry.standing == "community")
    wrong = entry.model_copy(update={"standing": "official"})
    problems = [str(problem) for problem in faq_problems(replace(workspace.rulebook, faq=Faq(faq=(wrong,))))]
    assert any("a community body" in line and "standing: community" in line for line in problems), problems


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_pages_mark_every_answer_that_is_not_official(workspace: Workspace, pages: dict[str, dict[str, str]],
                                                          code: str) -> None:
    faq_page = pages[code]["faq.md"]
    for entry in workspace.rulebook.faq.faq:
        start = faq_page.index(f"{{ #{entry.id} }}")
        heading_end = faq_page.index("\n", start)
        following = faq_page.find("\n### ", heading_end)
        section = faq_page[heading_end:following if following > 0 else None]
        marked = f'class="faq-standing faq-standing--{entry.standing}"' in section
        assert marked == (not entry.official), (code, entry.id)
        for rule_id in entry.rules:
            chapter_page = pages[code][f"{workspace.rulebook.chapter_of(rule_id).id}.md"]
            rule_start = chapter_page.index(f"{{ #{rule_id.split('/')[1]} }}")
            rule_end = chapter_page.find("\n## ", rule_start)
            rule_section = chapter_page[rule_start:rule_end if rule_end > 0 else None]
            link = rule_section.index(f"(faq.md#{entry.id})")
            group = rule_section[rule_section.rindex("<summary>", 0, link):link]
            assert group.startswith(f"<summary>{OFFICIAL_WORDS[code]} (") == entry.official, (code, entry.id)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_open_data_says_who_gave_each_answer(workspace: Workspace, report: CheckReport, code: str) -> None:
    data = documents(workspace, report, code)["faq"]
    schema = json.loads((ROOT / "validator/site/schema/faq.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    standings = {entry["id"]: entry for entry in data["faq"]}
    for entry in workspace.rulebook.faq.faq:
        shown = standings[entry.id]
        assert shown["standing"] == entry.standing and shown["source_shown"] == entry.source_shown
        assert (shown["standing_label"] is None) == entry.official
    assert {"official", "community", "uncredited"} <= {entry["standing"] for entry in data["faq"]}
    broken = {**data, "faq": [{**data["faq"][0], "standing": "semi-official"}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def test_labels_name_no_answer_that_is_not_official_as_official() -> None:
    assert standing_label("official", str) is None
    for standing in ("community", "uncredited"):
        label = standing_label(standing, str)
        assert label is not None and "not" in label
