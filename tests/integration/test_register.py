"""The register's new kinds (errata and scan damage, place by place), the evidence
behind every claim about a document the project holds no copy of, and distances
as the Spanish edition prints them: in the data, the pages of three languages and
the open data."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from typing import Any

import pytest
from conftest import ProjectCopy
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from validator.checks.run import CheckReport, check_workspace
from validator.content.tokens import tokens
from validator.content.units import LanguageUnits, convert
from validator.site.markdown import escape
from validator.site.opendata import SCHEMAS, documents
from validator.site.pages import iter_pages
from validator.site.text import TextRenderer
from validator.workspace import Workspace, load_workspace

LANGUAGES = ("en", "es", "pl")


def renderer(workspace: Workspace, code: str) -> TextRenderer:
    return TextRenderer(workspace.rulebook, workspace.rule_catalogs[code], workspace.project.language(code))


def spanish_units(workspace: Workspace) -> LanguageUnits:
    units = workspace.rulebook.units.of("es")
    assert units is not None
    return units


def used_distances(workspace: Workspace) -> set[Decimal]:
    return {Decimal(token.argument) for message in workspace.rulebook.messages()
            for token in tokens(message.text) if token.kind == "dist"}


# ---- the register's data --------------------------------------------------------------

def test_both_new_kinds_are_recorded_place_by_place(workspace: Workspace) -> None:
    register = workspace.rulebook.discrepancies
    place_kinds = {kind.id for kind in register.kinds if kind.holds == "places"}
    assert place_kinds == {"erratum", "scan-damage"}
    assert place_kinds <= {entry.kind for entry in register.discrepancies}
    source_ids = {source.id for source in workspace.rulebook.sources.sources}
    for entry in register.discrepancies:
        if entry.kind in place_kinds:
            assert entry.places and not entry.readings and entry.adopted is None
            for place in entry.places:
                assert place.source in source_ids and place.pages
                assert place.printed != place.reads, entry.id


def test_every_claim_about_a_document_not_held_is_checkable_or_owned_unverified(workspace: Workspace) -> None:
    sources = {source.id: source for source in workspace.rulebook.sources.sources}
    needing = [reading for entry in workspace.rulebook.discrepancies.discrepancies for reading in entry.readings
               if sources[reading.source].needs_evidence]
    assert needing, "no reading reports the English originals"
    assert {reading.source for reading in needing} >= {"en-rulebook-index", "en-faq"}
    places = [place for entry in workspace.rulebook.discrepancies.discrepancies for place in entry.places]
    for reading in needing:
        assert reading.evidence or reading.verified is False, reading.id
    evidence = [item for holder in (*needing, *places) for item in holder.evidence]
    assert len(evidence) > len(needing)
    for item in evidence:
        assert item.url or item.pages
        assert not sources[item.source].needs_evidence
        assert item.url is None or item.url.startswith(("https://", "http://"))


# ---- distances ----------------------------------------------------------------------------

def test_every_distance_of_the_rulebook_shows_as_the_spanish_edition_converts_it(workspace: Workspace) -> None:
    units = spanish_units(workspace)
    table = {conversion.book: conversion.shows for conversion in units.table}
    assert units.rule is not None
    spanish = renderer(workspace, "es")
    distances = used_distances(workspace)
    assert Decimal(2) in distances and Decimal("1.5") in distances
    for distance in distances:
        expected = table.get(distance, distance * units.rule.per_unit)
        number = f"{expected.normalize():f}".replace(".", ",")
        assert spanish.distance(distance) == f"{number} cm", distance
    assert spanish.distance(Decimal(2)) == "5 cm"
    assert spanish.distance(Decimal("1.5")) == "3,75 cm"


def test_the_table_wins_over_the_rule(workspace: Workspace) -> None:
    units = spanish_units(workspace)
    assert units.rule is not None
    skewed = units.model_copy(update={"rule": units.rule.model_copy(update={"per_unit": Decimal(3)})})
    assert convert(skewed, Decimal(2)) == (Decimal(5), True)
    assert convert(skewed, Decimal("1.5")) == (Decimal("4.5"), False)
    without_rule = units.model_copy(update={"rule": None})
    with pytest.raises(KeyError):
        convert(without_rule, Decimal("1.5"))


def test_inch_languages_keep_inches(workspace: Workspace) -> None:
    assert renderer(workspace, "en").distance(Decimal("1.5")) == "1.5″"
    assert renderer(workspace, "pl").distance(Decimal("1.5")) == "1,5″"


def test_the_spanish_sources_page_cites_where_the_edition_prints_its_conversions(
        pages: dict[str, dict[str, str]], workspace: Workspace) -> None:
    sources = pages["es"]["sources.md"]
    section = sources[sources.index("{ #distances }"):]
    assert "Muerte del carro" in section and "(sources.md#es-characters" in section
    assert "en pulgadas" in section and "en centímetros" in section and "1 in &#61; 2,5 cm" in section
    rows = [line for line in section.splitlines() if line.startswith("| ") and " cm |" in line]
    assert len(rows) == len(used_distances(workspace))
    assert "| 2 in | 5 cm | impresa por la edición |" in rows
    assert "| 1,5 in | 3,75 cm | según la regla de la edición |" in rows
    for code in ("en", "pl"):
        assert "{ #distances }" not in pages[code]["sources.md"]


@pytest.mark.parametrize(("code", "online", "no_copy"), [
    ("en", "Online", "This project holds no copy of this document"),
    ("es", "En línea", "Este proyecto no tiene copia de este documento"),
    ("pl", "W sieci", "Projekt nie ma kopii tego dokumentu"),
])
def test_the_sources_page_gives_addresses_and_says_which_documents_are_not_held(
        pages: dict[str, dict[str, str]], workspace: Workspace, code: str, online: str, no_copy: str) -> None:
    sources = pages[code]["sources.md"]
    index = sources[sources.index("{ #whfb-6th-index }"):]
    index = index[:index.index("\n## ")]
    assert f'{online}: <a href="https&#58;//6th&#46;whfb&#46;app/">https&#58;//6th&#46;whfb&#46;app/</a>' in index
    not_held = [source.id for source in workspace.rulebook.sources.sources if source.needs_evidence]
    assert sources.count(no_copy) == len(not_held) >= 2
    faq = sources[sources.index("{ #en-faq }"):]
    assert no_copy in faq[:faq.index("\n## ")]


# ---- the pages, in three languages ---------------------------------------------------------

@pytest.mark.parametrize(("code", "header", "kind_label"), [
    ("en", "| Source | Page | Where | As printed | Should read |", "Damage in a scanned copy"),
    ("es", "| Fuente | Página | Dónde | Tal como aparece | Debería decir |", "Daño en una copia escaneada"),
    ("pl", "| Źródło | Strona | Miejsce | W oryginale | Powinno być |", "Uszkodzenie w zeskanowanej kopii"),
])
def test_the_register_shows_the_damaged_places_and_the_evidence(
        pages: dict[str, dict[str, str]], code: str, header: str, kind_label: str) -> None:
    register = pages[code]["discrepancies.md"]
    assert header in register
    assert f'value="scan-damage" checked> {kind_label}' in register
    entry = register[register.index("{ #scan-garbled-letter }"):]
    entry = entry[:entry.index("</div>")]
    assert '<q class="document-text" lang="pl">&#37;7ładne' in entry and "Żadne inne modele" in entry
    assert f'href="{escape("https://6th.whfb.app/characters/look-out-sir")}"' in register
    inch = register[register.index("{ #scan-lost-inch-marks }"):]
    inch = inch[:inch.index("</div>")]
    assert inch.count(f'href="{escape("https://6th.whfb.app/characters/proximity-to-friendly-troops")}"') == 2


def test_a_damaged_place_shows_under_the_rule_it_touches(pages: dict[str, dict[str, str]]) -> None:
    chapter = pages["pl"]["shooting-at-characters.md"]
    assert "Uszkodzenie w zeskanowanej kopii" in chapter
    assert "znajduje się dalej niż 5 od" in chapter


def test_an_unverified_claim_says_so_in_the_readers_language(project: ProjectCopy, report: CheckReport) -> None:
    project.replace("docs/discrepancies.yml",
                    "        evidence:\n          - source: whfb-6th-index\n            section: Independent "
                    "Characters Leaving Units\n            url: https://6th.whfb.app/characters/"
                    "independent-characters-leaving-units\n", "        verified: false\n")
    project.replace("docs/discrepancies.yml", 'printed: "el Engendro el Caos"',
                    "printed: '<script>alert(1)</script> [link](javascript:alert(2))'")
    planted = load_workspace(project.root)
    # Only the register changed, so the examples' outcomes are those of the bundled book.
    for code, word in (("es", "sin verificar"), ("pl", "niezweryfikowane")):
        register = dict(iter_pages(planted, report, code))["discrepancies.md"]
        entry = register[register.index("{ #charging-out-of-a-unit }"):]
        entry = entry[:entry.index("</div>")]
        assert f'<span class="reading-unverified">{word}</span>' in entry, code
        assert "independent-characters-leaving-units" not in entry
        quoted = register[register.index("{ #erratum-chaos-spawn }"):]
        quoted = quoted[:quoted.index("</div>")]
        assert "<script>" not in quoted and "](javascript:" not in quoted
        assert '<q class="document-text" lang="es">&#60;script&#62;alert&#40;1&#41;' in quoted


# ---- the open data ----------------------------------------------------------------------------

def schema_errors(data: object) -> list[str]:
    schema = json.loads((SCHEMAS / "discrepancies.schema.json").read_text(encoding="utf-8"))
    return [error.message for error in Draft202012Validator(schema).iter_errors(data)]


def test_the_open_data_carries_places_and_evidence(workspace: Workspace, report: CheckReport) -> None:
    data = documents(workspace, report, "es")["discrepancies"]
    assert schema_errors(data) == []
    by_id = {entry["id"]: entry for entry in data["discrepancies"]}
    inch = by_id["scan-lost-inch-marks"]
    assert inch["kind"] == "scan-damage" and inch["readings"] == [] and inch["rationale"] is None
    assert inch["places"][0]["reads"].startswith('znajduje się dalej niż 5" od')
    assert inch["places"][0]["evidence"][0]["url"] == "https://6th.whfb.app/characters/proximity-to-friendly-troops"
    look_out = next(reading for reading in by_id["look-out-sir-face"]["readings"] if reading["id"] == "rulebook")
    assert look_out["evidence"][0]["url"] == "https://6th.whfb.app/characters/look-out-sir"


@pytest.mark.parametrize("break_it", [
    lambda entries: entries["scan-lost-inch-marks"].update(places=[]),
    lambda entries: entries["scan-lost-inch-marks"]["places"][0].pop("reads"),
    lambda entries: entries["faq-mount-hit-allocation"].update(places=entries["scan-lost-inch-marks"]["places"]),
    lambda entries: entries["faq-mount-hit-allocation"].update(rationale=None),
    lambda entries: entries["look-out-sir-face"]["readings"][1]["evidence"][0].update(url="javascript:alert(1)"),
    lambda entries: entries["look-out-sir-face"]["readings"][1]["evidence"][0].update(url=None, pages=None),
])
def test_the_schema_refuses_a_broken_register(workspace: Workspace, report: CheckReport, break_it: Any) -> None:
    data = copy.deepcopy(documents(workspace, report, "pl")["discrepancies"])
    break_it({entry["id"]: entry for entry in data["discrepancies"]})
    assert schema_errors(data)


def test_a_kind_is_the_books_and_only_kinds_with_entries_get_a_filter(project: ProjectCopy) -> None:
    """The register's kinds come from docs/discrepancies.yml: a new one is usable at
    once, labelled as declared, and a declared kind without entries gets no filter."""
    project.replace("docs/discrepancies.yml", "  - {id: ambiguity, label: Ambiguity, holds: readings}\n",
                    "  - {id: ambiguity, label: Ambiguity, holds: readings}\n"
                    "  - {id: typo, label: Slip of the pen, holds: places}\n"
                    "  - {id: unused, label: Never used, holds: readings}\n")
    project.replace("docs/discrepancies.yml", "    kind: erratum\n", "    kind: typo\n")
    workspace = load_workspace(project.root)
    register = dict(iter_pages(workspace, check_workspace(workspace), "en"))["discrepancies.md"]
    assert 'value="typo" checked> Slip of the pen' in register
    assert 'value="unused"' not in register and "Never used" not in register
