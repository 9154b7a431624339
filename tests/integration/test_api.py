"""The open data beside the sites: valid against its schemas, the pages' ids and anchors,
plain text with tokens kept as references, exact outcomes, and stable bytes."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from babel.messages.pofile import read_po, write_po
from conftest import ROOT, ProjectCopy
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from validator.checks.run import CheckReport, check_workspace
from validator.content.tokens import tokens
from validator.site.opendata import KINDS, SCHEMAS, documents, dumps, glossary_tbx
from validator.site.tbx import FILE_NAME as TBX_FILE
from validator.workspace import Workspace, load_workspace

LANGUAGES = ("en", "es", "pl")
PAYLOAD = "<script>alert(1)</script> &amp; <b onmouseover=alert(2)>"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def schema(kind: str) -> dict[str, Any]:
    return dict(json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8")))


def errors(kind: str, data: object) -> list[str]:
    return [error.message for error in Draft202012Validator(schema(kind)).iter_errors(data)]


def load(site: Path, code: str, kind: str) -> dict[str, Any]:
    return dict(json.loads((site / "api" / code / f"{kind}.json").read_text(encoding="utf-8")))


class Ids(HTMLParser):
    """Every ``id`` attribute of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(value for name, value in attrs if name == "id" and value)


def page_ids(site: Path, code: str, page: str) -> set[str]:
    parser = Ids()
    parser.feed((site / code / page).read_text(encoding="utf-8"))
    return parser.ids


def texts(value: object) -> Iterator[dict[str, Any]]:
    """Every text object (segments and plain) inside a document."""
    if isinstance(value, dict):
        if "segments" in value and "plain" in value:
            yield value
        for item in value.values():
            yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)


def fractions(value: object) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if set(value) == {"fraction", "float"}:
            yield value
        for item in value.values():
            yield from fractions(item)
    elif isinstance(value, list):
        for item in value:
            yield from fractions(item)


def test_the_schemas_are_draft_2020_12_and_published_beside_the_data(built_site: Path) -> None:
    published = sorted(path.name for path in (built_site / "api" / "schema").iterdir())
    assert published == sorted(f"{kind}.schema.json" for kind in KINDS)
    for kind in KINDS:
        Draft202012Validator.check_schema(schema(kind))
        assert (built_site / "api" / "schema" / f"{kind}.schema.json").read_bytes() == \
            (SCHEMAS / f"{kind}.schema.json").read_bytes()


def test_the_schemas_share_one_definition_of_text_and_ids() -> None:
    definitions = [schema(kind)["$defs"] for kind in KINDS]
    assert all(found == definitions[0] for found in definitions)


class Links(HTMLParser):
    """Every ``href`` of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links.update(value for name, value in attrs if name == "href" and value)


def test_the_api_folder_lists_its_files(built_site: Path) -> None:
    folder = built_site / "api"
    parser = Links()
    parser.feed((folder / "index.html").read_text(encoding="utf-8"))
    files = {path.relative_to(folder).as_posix() for path in (*folder.rglob("*.json"), *folder.rglob("*.tbx"))}
    assert len(files) == len(KINDS) * (len(LANGUAGES) + 1) + len(LANGUAGES)
    assert parser.links == files


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_file_validates_against_its_schema(built_site: Path, code: str) -> None:
    assert sorted(path.name for path in (built_site / "api" / code).iterdir()) == \
        sorted([*(f"{k}.json" for k in KINDS), TBX_FILE])
    for kind in KINDS:
        data = load(built_site, code, kind)
        assert errors(kind, data) == [], (code, kind)
        assert data["language"] == code


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_language_has_its_glossary_as_tbx_beside_the_data(built_site: Path, workspace: Workspace,
                                                               code: str) -> None:
    """Every term of the glossary, by id, in English and in the language, with the word
    the open data gives it; the bytes the command writes (``validator glossary-tbx``)."""
    written = (built_site / "api" / code / TBX_FILE).read_bytes()
    assert written == glossary_tbx(workspace, code)
    root = ElementTree.fromstring(written)
    assert root.tag == "martif"
    found = {entry.attrib["id"]: entry for entry in root.iter("termEntry")}
    glossary = load(built_site, code, "glossary")["terms"]
    assert list(found) == [term["id"] for term in glossary]
    for term in glossary:
        groups = {group.attrib[XML_LANG]: group for group in found[term["id"]].findall("langSet")}
        assert list(groups) == (["en"] if code == "en" else ["en", code]), term["id"]
        assert groups[code].findtext("tig/term") == term["term"]["plain"], term["id"]
        assert groups[code].findtext("descrip[@type='definition']") == term["definition"]["plain"], term["id"]
    done = subprocess.run([sys.executable, "-m", "validator", "glossary-tbx", "--language", code], cwd=ROOT,
                          capture_output=True, timeout=300)
    assert (done.returncode, done.stdout, done.stderr) == (0, written, b"")


@pytest.mark.parametrize(("kind", "break_it"), [
    ("rules", lambda d: d["rules"][0].pop("url")),
    ("rules", lambda d: d["rules"][0]["text"]["segments"].append({"html": "<b>bold</b>"})),
    ("rules", lambda d: d["rules"][0]["title"].update(state="machine")),
    ("rules", lambda d: d["rules"][0].update(id="No Chapter")),
    ("glossary", lambda d: d["terms"][0].update(keep="yes")),
    ("discrepancies", lambda d: d["discrepancies"][0].update(kind="Rumour!")),
    ("discrepancies", lambda d: d["discrepancies"][0].update(readings=[])),
    ("examples", lambda d: next(fractions(d)).update(fraction=0.5)),
    ("examples", lambda d: d["examples"][0].update(extra=1)),
    ("faq", lambda d: d["faq"][0].update(address="javascript:alert(1)")),
    ("faq", lambda d: d["faq"][0].update(rules=[])),
    ("faq", lambda d: d["faq"][0]["examples"][0].pop("outcome")),
])
def test_the_schema_rejects_a_broken_copy(built_site: Path, kind: str, break_it: Any) -> None:
    data = load(built_site, "es", kind)
    assert errors(kind, data) == []
    broken = copy.deepcopy(data)
    break_it(broken)
    assert errors(kind, broken), f"the {kind} schema accepted a broken file"


@pytest.mark.parametrize("code", LANGUAGES)
def test_ids_and_anchors_are_those_of_the_pages(built_site: Path, code: str) -> None:
    rules = load(built_site, code, "rules")
    examples = load(built_site, code, "examples")["examples"]
    for chapter in rules["chapters"]:
        headings = page_ids(built_site, code, chapter["url"])
        own = [rule for rule in rules["rules"] if rule["chapter"] == chapter["id"]]
        assert [rule["id"] for rule in own] == chapter["rules"]
        for rule in own:
            page, _, anchor = rule["url"].partition("#")
            assert page == chapter["url"] and anchor == rule["anchor"] == rule["id"].split("/")[1]
            assert anchor in headings, (code, rule["id"])
        for example in (example for example in examples if example["rule"] in chapter["rules"]):
            page, _, anchor = example["url"].partition("#")
            assert page == chapter["url"] and anchor == example["anchor"] and anchor in headings
    for kind, listing in (("glossary", "terms"), ("discrepancies", "discrepancies")):
        entries = load(built_site, code, kind)[listing]
        page = entries[0]["url"].partition("#")[0]
        assert {entry["url"] for entry in entries} == {f"{page}#{entry['anchor']}" for entry in entries}
        assert {entry["anchor"] for entry in entries} <= page_ids(built_site, code, page)


@pytest.mark.parametrize("code", LANGUAGES)
def test_official_answers_are_those_of_the_faq_page(built_site: Path, code: str) -> None:
    """Each answer and each of its worked examples has its anchor on the FAQ page, and each
    rule it names is a rule of the data."""
    answers = load(built_site, code, "faq")["faq"]
    rule_ids = {rule["id"] for rule in load(built_site, code, "rules")["rules"]}
    assert answers
    anchors = page_ids(built_site, code, "faq.html")
    for answer in answers:
        assert answer["url"] == f"faq.html#{answer['anchor']}" and answer["anchor"] in anchors
        assert set(answer["rules"]) <= rule_ids
        for example in answer["examples"]:
            assert example["url"] == f"faq.html#{example['anchor']}" and example["anchor"] in anchors


def test_every_rule_of_the_pages_is_in_the_data(built_site: Path) -> None:
    """The other way round: each rule heading on a chapter page has its entry."""
    rules = load(built_site, "pl", "rules")
    for chapter in rules["chapters"]:
        text = (built_site / "pl" / chapter["url"]).read_text(encoding="utf-8")
        parser = HeadingIds()
        parser.feed(text)
        assert parser.ids == {rule.split("/")[1] for rule in chapter["rules"]}


class HeadingIds(HTMLParser):
    """The ids of a page's ``h2`` headings (one per rule on a chapter page)."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "h2":
            self.ids.update(value for name, value in attrs if name == "id" and value)


@pytest.mark.parametrize("code", LANGUAGES)
def test_references_both_ways_and_tokens_kept_as_references(workspace: Workspace, report: CheckReport,
                                                             code: str) -> None:
    data = documents(workspace, report, code)
    rules = {rule["id"]: rule for rule in data["rules"]["rules"]}
    titles = {rule_id: rule["title"]["plain"] for rule_id, rule in rules.items()}
    for rule_id, rule in rules.items():
        for target in rule["refers_to"]:
            assert rule_id in rules[target]["referred_by"]
        for source in rule["referred_by"]:
            assert rule_id in rules[source]["refers_to"]
        english = workspace.rulebook.rule(rule_id).text
        linked = [workspace.rulebook.rule(token.argument).id for token in tokens(english) if token.kind == "rule"]
        segments = [segment["rule"] for segment in rule["text"]["segments"] if "rule" in segment]
        assert sorted(segments) == sorted(linked)
        assert {discrepancy.id for discrepancy in workspace.rulebook.discrepancies_of(rule_id)} == \
            set(rule["discrepancies"])
    for text in texts(data):
        assert text["plain"] == "".join(segment["text"] for segment in text["segments"])
        for segment in text["segments"]:
            if "rule" in segment:
                assert segment["text"] == titles[segment["rule"]]
                assert segment["url"] == rules[segment["rule"]]["url"]


def test_outcomes_are_the_computed_ones_with_exact_fractions(workspace: Workspace, report: CheckReport) -> None:
    examples = documents(workspace, report, "es")["examples"]["examples"]
    assert len(examples) == sum(len(rule.examples) for rule in workspace.rulebook.rules)
    found = list(fractions(examples))
    assert found, "no probability among the examples"
    for value in found:
        assert float(Fraction(value["fraction"])) == value["float"]
    for example in examples:
        computed = report.computed(example["rule"], example["id"])
        assert set(example["outcome"]) == set(computed)
        for key, exact in computed.items():
            if isinstance(exact, Fraction):
                assert example["outcome"][key] == {"fraction": str(exact), "float": float(exact)}


def test_output_is_stable_with_sorted_keys(workspace: Workspace, report: CheckReport) -> None:
    first = {kind: dumps(data) for kind, data in documents(workspace, report, "pl").items()}
    second = {kind: dumps(data) for kind, data in documents(workspace, report, "pl").items()}
    assert first == second
    for kind, text in first.items():
        assert text == dumps(json.loads(text)) and text.endswith("}\n")
        assert json.loads(text) == json.loads(json.dumps(json.loads(text), sort_keys=True))
        # One whole record per line (a rule, a term...), so two builds' data compare line by line.
        records = [line.strip().removesuffix(",") for line in text.splitlines()
                   if line.startswith("  ") and not line.startswith("   ")]
        assert records, kind
        assert all(isinstance(json.loads(record), dict) for record in records), kind
        assert len(text.splitlines()) < 60 + len(records), kind


class Held(dict[str, Any]):
    """A document whose lifetime a test can watch (a plain dict cannot be weakly referenced)."""


def test_the_files_are_written_one_document_at_a_time(workspace: Workspace, report: CheckReport,
                                                      tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer holds one document at a time, and writes what dumps() makes, byte for byte."""
    import gc
    import weakref

    from validator.site import opendata as api

    made: list[weakref.ref[Held]] = []
    alive_when_next: list[int] = []
    expected: dict[tuple[str, str], str] = {}
    original = api.iter_documents

    def watched(*arguments: Any) -> Iterator[tuple[str, Held]]:
        code = arguments[2]
        for kind, data in original(*arguments):
            gc.collect()
            alive_when_next.append(sum(reference() is not None for reference in made))
            document = Held(data)
            expected[(code, kind)] = dumps(document)
            made.append(weakref.ref(document))
            yield kind, document
            del document, data

    monkeypatch.setattr(api, "iter_documents", watched)
    folder = api.write_open_data(workspace, report, tmp_path / "site")
    assert len(made) == len(LANGUAGES) * len(KINDS)
    assert alive_when_next == [0] * len(made), "the writer kept earlier documents while making the next"
    for (code, kind), text in expected.items():
        assert (folder / code / f"{kind}.json").read_text(encoding="utf-8") == text, (code, kind)


def _edit_catalog(path: Path, context: str, edit: Any) -> str:
    with path.open("rb") as handle:
        catalog = read_po(handle)
    message = next(message for message in catalog if message.context == context)
    edit(message)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=0)
    return str(message.string)


def test_hostile_text_stays_plain_text_and_states_are_named(project: ProjectCopy) -> None:
    """A translation holding markup is refused by ``validator check``; the data written
    anyway keeps it as the very string typed: no HTML made of it, none escaped in it."""
    catalog = project.path("locales/es/LC_MESSAGES/rules.po")
    book = load_workspace(project.root).rulebook
    linking = next(rule for rule in book.rules if any(token.kind == "rule" for token in tokens(rule.text)))
    others = [rule for rule in book.rules if rule.id != linking.id]

    def plant(message: Any) -> None:
        message.string = PAYLOAD + " " + str(message.string)

    def stale(message: Any) -> None:
        message.flags.add("fuzzy")

    def drop(message: Any) -> None:
        message.string = ""

    planted = _edit_catalog(catalog, f"{linking.id}#text", plant)
    _edit_catalog(catalog, f"{others[0].id}#text", stale)
    _edit_catalog(catalog, f"{others[1].id}#title", drop)
    workspace = load_workspace(project.root)
    report = check_workspace(workspace)
    assert not report.ok, "the planted markup should be refused by the check"
    data = documents(workspace, report, "es")
    rules = {rule["id"]: rule for rule in data["rules"]["rules"]}
    text = rules[linking.id]["text"]
    assert text["plain"].startswith(PAYLOAD)
    assert text["segments"][0]["text"].startswith(PAYLOAD)
    assert any("rule" in segment for segment in text["segments"])
    assert "{rule:" not in text["plain"] and "{rule:" in planted
    written = dumps(data["rules"])
    assert PAYLOAD in json.loads(written)["rules"][[r["id"] for r in data["rules"]["rules"]].index(linking.id)][
        "text"]["plain"]
    assert "&lt;" not in written and "\u2039" not in written
    assert "<a " not in written and "href" not in written
    assert (text["language"], text["state"]) == ("es", "translated")
    assert (rules[others[0].id]["text"]["language"], rules[others[0].id]["text"]["state"]) == ("en", "fuzzy")
    english = {rule["id"]: rule for rule in documents(workspace, report, "en")["rules"]["rules"]}
    assert rules[others[0].id]["text"]["plain"] == english[others[0].id]["text"]["plain"]
    assert (rules[others[1].id]["title"]["language"], rules[others[1].id]["title"]["state"]) == \
        ("en", "untranslated")
    assert errors("rules", json.loads(written)) == []


def test_each_example_says_how_the_core_worked_it_out(workspace: Workspace, report: CheckReport) -> None:
    """The steps of the open data are the trace the page shows: the core's own calls,
    with rules that exist, and texts in the reader's language where translated."""
    for code in ("en", "pl"):
        data = documents(workspace, report, code)
        examples = data["examples"]["examples"] + [example for entry in data["faq"]["faq"]
                                                   for example in entry["examples"]]
        assert examples and all(example["steps"] for example in examples)
        for example in examples[:40]:
            subject = example.get("rule") or next(f"faq/{entry['id']}" for entry in data["faq"]["faq"]
                                                  if example in entry["examples"])
            trace = report.trace(subject, example["id"])
            assert [step["function"] for step in example["steps"]] == [step.key for step in trace]
            assert [step["depth"] for step in example["steps"]] == [step.depth for step in trace]
            for step in example["steps"]:
                assert all(workspace.rulebook.rule(rule) for rule in step["rules"])
        languages = {step["text_language"] for example in examples for step in example["steps"]}
        assert languages == {code}, languages
    assert not errors("examples", documents(workspace, report, "pl")["examples"])
    broken = documents(workspace, report, "en")["examples"]
    broken["examples"][0]["steps"][0]["depth"] = 0
    assert errors("examples", broken)
