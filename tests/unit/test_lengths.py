"""Units of length and rolled distances: the book names its unit, each language
shows it or another one, in CLDR's words for its locale, and a distance rolled on
dice reads as players write it.  (The broken inputs are in
tests/broken_inputs/lengths.yml.)"""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest
from babel.units import format_unit
from conftest import ProjectCopy

from validator.content.model import Message, Position
from validator.content.project import Language
from validator.content.tokens import is_rolled, tokens
from validator.content.units import units_problems
from validator.site.text import TextRenderer
from validator.workspace import Workspace, load_workspace


def renderer(workspace: Workspace, code: str) -> TextRenderer:
    return TextRenderer(workspace.rulebook, workspace.rule_catalogs[code], workspace.project.language(code))


def spanish_rule(workspace: Workspace) -> str:
    """What the Spanish edition's rule makes of one inch, as Spanish writes it."""
    units = workspace.rulebook.units.of("es")
    assert units is not None and units.rule is not None
    return str(format_unit(units.rule.per_unit, f"length-{units.unit}", length="short", locale="es"))


@pytest.mark.parametrize("roll", ["2D6", "D6", "D6+2", "3D6-1"])
def test_a_rolled_distance_is_a_well_formed_token(roll: str) -> None:
    (token,) = tokens(f"move {{dist:{roll}}} forward")
    assert token.problem() is None and is_rolled(roll)


@pytest.mark.parametrize("bad", ["2D", "D", "2D6+", "D6+2.5", "0D6", "2d6"])
def test_a_malformed_rolled_distance_is_refused(bad: str) -> None:
    (token,) = tokens(f"{{dist:{bad}}}")
    assert token.problem() == f"malformed dist token {{dist:{bad}}}"


def test_a_rolled_distance_reads_in_each_language_of_the_bundled_book(workspace: Workspace) -> None:
    for code, roll in (("en", "2D6"), ("pl", "2K6")):  # the book's unit, narrow, with the language's dice letter
        assert renderer(workspace, code).plain("x", "{dist:2D6}") == renderer(workspace, code).distance(
            Decimal(2)).replace("2", roll, 1)
    assert renderer(workspace, "es").plain("x", "{dist:2D6}") == f"2D6 \u00d7 {spanish_rule(workspace)}"
    assert renderer(workspace, "es").plain("x", "{dist:D6+2}") == f"D6+2 \u00d7 {spanish_rule(workspace)}"


def _language(workspace: Workspace, code: str, **fields: str) -> TextRenderer:
    """A renderer of the bundled book for a language it does not have (``fields``: its entry)."""
    language = Language(code=code, name=code, **fields)  # type: ignore[arg-type]
    project = workspace.project.model_copy(update={"languages": (*workspace.project.languages, language)})
    rulebook = dataclasses.replace(workspace.rulebook, project=project)
    return TextRenderer(rulebook, workspace.rule_catalogs["en"], language)


@pytest.mark.parametrize(("code", "width", "expected"), [
    ("de", "long", ("2 Zoll", "2D6 Zoll")),
    ("fr", "long", ("2\xa0pouces", "2D6\xa0pouces")),
    ("de", "short", ("2 in", "2D6 in")),
])
def test_any_locale_writes_the_books_unit_from_cldr(workspace: Workspace, code: str, width: str,
                                                    expected: tuple[str, str]) -> None:
    german = _language(workspace, code, length_width=width)
    assert (german.distance(Decimal(2)), german.plain("x", "{dist:2D6}")) == expected
    assert german.distance(Decimal(2)) == format_unit(2, "length-inch", length=width, locale=code)


def test_a_metric_book_shows_centimetres_without_conversions(project: ProjectCopy) -> None:
    project.write("rulebook.yml", project.read("rulebook.yml")
                  .replace("length_unit: inch\nlength_width: narrow\n", "length_unit: centimeter\n")
                  .replace(", length_unit: inch}", "}").replace(", length_unit: centimeter, length_width: short}", "}"))
    project.path("docs/units.yml").unlink()
    metric = load_workspace(project.root)
    assert [renderer(metric, code).distance(Decimal("1.5")) for code in ("en", "es", "pl")] == [
        "1.5 cm", "1,5 cm", "1,5 cm"]
    assert renderer(metric, "es").plain("x", "{dist:2D6}") == "2D6 cm"
    run = project.command("check")
    assert run.code == 0, run.err


def _message(text: str) -> Message:
    return Message(context="chariots/rule#text", text=text, owner=Position(file="docs/rules/x.yml", line=7),
                   key="text")


def test_a_rolled_distance_needs_the_editions_rule_where_every_distance_needs_a_table_entry(
        workspace: Workspace) -> None:
    units = workspace.rulebook.units
    spanish = units.of("es")
    assert spanish is not None
    strict = spanish.model_copy(update={"missing": "error", "rule": None})
    only = units.model_copy(update={"units": (strict,)})
    source_ids = {source.id for source in workspace.rulebook.sources.sources}
    found = [problem.message for problem in units_problems(workspace.project, only, source_ids,
                                                           [_message("Roll {dist:2D6} and {dist:2}.")])]
    assert found == ["{dist:2D6} is a rolled distance, which the 'es' conversions cannot convert without a rule"]

