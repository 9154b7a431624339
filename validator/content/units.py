"""Distances as each edition prints them: ``docs/units.yml``.

The rules give every distance in inches (``{dist:2}``).  A language whose
``rulebook.yml`` entry says ``distance_unit: cm`` shows it in centimetres, but not
by the exact 2.54: an edition converts by its own table (the Spanish one prints
5 cm for 2"), and a reader comparing the site with his book must find the same
numbers.  So each such language lists here the conversions its edition prints,
each with its citation, and says what a distance the table lacks becomes:

``missing: rule``
    converted by the rule the edition's table follows (``per_inch``, cited), and
    marked on the site's sources page as derived rather than printed;
``missing: error``
    refused by ``validator check`` at the text that uses it, asking for the table
    entry: for an edition whose table is complete enough to demand one.

The file is optional for a project whose languages all show inches.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from validator.content.model import Citation, Id, Message, Node
from validator.content.project import Project
from validator.content.tokens import tokens
from validator.content.yamlsource import read_yaml, validate
from validator.problems import Problem

UNITS_FILE = "units.yml"


def _as_decimal(value: Any) -> Any:
    """A YAML number as an exact decimal (1.5 stays 1.5, never 1.4999...)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return value
    try:
        return Decimal(str(value))
    except ArithmeticError:
        return value


MAX_AMOUNT = 10_000
"""No distance of a game, in inches or in centimetres, nor a rate between the two,
comes near this; a larger value (``1e308``) is a slip, and would overflow the exact
arithmetic that turns a distance into the edition's."""
MAX_DECIMALS = 4
"""Finer than any printed conversion (2.54 has two); more cannot be printed on a page."""

Amount = Annotated[Decimal, BeforeValidator(_as_decimal),
                   Field(gt=0, le=MAX_AMOUNT, decimal_places=MAX_DECIMALS, allow_inf_nan=False)]


class Conversion(Node):
    """One distance as the edition prints it: ``inches`` in the rules, ``shows``
    in the language's unit, and where the edition prints it."""

    inches: Amount
    shows: Amount
    cite: Citation


class Ratio(Node):
    """The rule the edition's conversions follow, for a distance it does not print."""

    per_inch: Amount
    cite: tuple[Citation, ...] = Field(min_length=1)


class LanguageUnits(Node):
    language: Id
    unit: Literal["cm"]
    table: tuple[Conversion, ...] = ()
    missing: Literal["rule", "error"]
    rule: Ratio | None = None


class Units(Node):
    units: tuple[LanguageUnits, ...] = ()

    def of(self, language: str) -> LanguageUnits | None:
        return next((entry for entry in self.units if entry.language == language), None)


NO_UNITS = Units()
"""A project whose languages all show inches needs no docs/units.yml."""


def convert(units: LanguageUnits, inches: Decimal) -> tuple[Decimal, bool]:
    """The distance in the edition's unit, and whether the edition prints it
    (False: derived by its rule).

    >>> spanish = LanguageUnits(language="es", unit="cm", missing="rule",
    ...     table=(Conversion(inches=Decimal(2), shows=Decimal(5), cite=Citation(source="s")),),
    ...     rule=Ratio(per_inch=Decimal("2.5"), cite=(Citation(source="s"),)))
    >>> convert(spanish, Decimal(2)), convert(spanish, Decimal("1.5"))
    ((Decimal('5'), True), (Decimal('3.75'), False))
    """
    for entry in units.table:
        if entry.inches == inches:
            return entry.shows, True
    if units.rule is None:
        raise KeyError(f"no conversion of {inches} inches for '{units.language}'")
    return (inches * units.rule.per_inch).normalize(), False


def load_units(root: Path, content_dir: str) -> Units:
    """``docs/units.yml``, or no conversions when the file is absent."""
    path = root / content_dir / UNITS_FILE
    if not path.exists():
        return NO_UNITS
    shown = path.relative_to(root).as_posix()
    units = validate(Units, read_yaml(path, shown), shown)
    assert isinstance(units, Units)
    return units


def units_problems(project: Project, units: Units, source_ids: set[str],
                   messages: list[Message]) -> Iterator[Problem]:
    """Every centimetre language has its conversions; every entry fits its language;
    under ``missing: error`` every distance the texts use has its table entry."""
    for entry in units.units:
        where = entry.position
        language = next((language for language in project.languages if language.code == entry.language), None)
        if language is None or language.distance_unit != entry.unit:
            yield Problem(where.file, where.of("language").line, entry.language,
                          f"conversions for '{entry.language}', which rulebook.yml does not show in {entry.unit}",
                          f"set 'distance_unit: {entry.unit}' for it in rulebook.yml, or remove the entry")
        if entry.missing == "rule" and entry.rule is None:
            yield Problem(where.file, where.of("missing").line, entry.language,
                          "'missing: rule' without a 'rule' to convert by",
                          "add 'rule: {per_inch: ..., cite: [...]}', or say 'missing: error'")
        seen: dict[Decimal, int] = {}
        for conversion in entry.table:
            line = conversion.position.of("inches").line
            if conversion.inches in seen:
                yield Problem(where.file, line, entry.language,
                              f"{conversion.inches} inches is listed twice (first at line {seen[conversion.inches]})",
                              "list each distance once")
            seen.setdefault(conversion.inches, line)
        cites = [conversion.cite for conversion in entry.table] + list(entry.rule.cite if entry.rule else ())
        for cite in cites:
            if cite.source not in source_ids:
                yield Problem(where.file, cite.position.of("source").line, entry.language,
                              f"cites unknown source '{cite.source}'", "add it to docs/sources.yml")
        if entry.missing == "error":
            yield from _unlisted(entry, messages, where.file)
    for language in project.languages:
        if language.distance_unit == "cm" and units.of(language.code) is None:
            yield Problem(f"{project.content_dir}/{UNITS_FILE}", 0, language.code,
                          f"'{language.code}' shows distances in cm but has no conversions",
                          f"add an entry for '{language.code}' to {project.content_dir}/{UNITS_FILE} with the "
                          "edition's printed conversions and its rule")


def _unlisted(entry: LanguageUnits, messages: list[Message], units_file: str) -> Iterator[Problem]:
    listed = {conversion.inches for conversion in entry.table}
    for message in messages:
        for token in tokens(message.text):
            if token.kind != "dist" or token.problem():
                continue
            inches = Decimal(token.argument)
            if inches not in listed:
                yield Problem(message.position.file, message.position.line, message.context.split("#", 1)[0],
                              f"{token.source} has no entry in the '{entry.language}' conversions, which ask "
                              "for one for every distance",
                              f"add the edition's printed value for {token.argument} inches, with its citation, "
                              f"to the '{entry.language}' table of {units_file}")
