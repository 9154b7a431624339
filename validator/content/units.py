"""Distances as each edition prints them: ``docs/units.yml``.

The rules give every distance in the book's unit of length (``length_unit`` in
``rulebook.yml``, any CLDR length unit: ``{dist:2}`` is two of them).  A language
whose entry names another ``length_unit`` shows it in that one, but not by the
exact ratio of the two units: an edition converts by its own table (the Spanish
one prints 5 cm for 2"), and a reader comparing the site with his book must find
the same numbers.  So each such language lists here the conversions its edition
prints, each with its citation, and says what a distance the table lacks becomes:

``missing: rule``
    converted by the rule the edition's table follows (``per_unit``: how many of
    its units to one of the book's, cited), and marked on the site's sources page
    as derived rather than printed;
``missing: error``
    refused by ``validator check`` at the text that uses it, asking for the table
    entry: for an edition whose table is complete enough to demand one.

The file is optional for a project whose languages all show the book's unit.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from validator.content.model import Citation, Id, Message, Node
from validator.content.project import Project
from validator.content.tokens import Token, is_rolled, tokens
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
"""No distance of a game, in whatever unit, nor a rate between two units, comes near
this; a larger value (``1e308``) is a slip, and would overflow the exact arithmetic
that turns a distance into the edition's."""
MAX_DECIMALS = 4
"""Finer than any printed conversion (2.54 has two); more cannot be printed on a page."""

Amount = Annotated[Decimal, BeforeValidator(_as_decimal),
                   Field(gt=0, le=MAX_AMOUNT, decimal_places=MAX_DECIMALS, allow_inf_nan=False)]


class Conversion(Node):
    """One distance as the edition prints it: ``book`` in the rules' unit, ``shows``
    in the language's unit, and where the edition prints it."""

    book: Amount
    shows: Amount
    cite: Citation


class Ratio(Node):
    """The rule the edition's conversions follow, for a distance it does not print."""

    per_unit: Amount
    cite: tuple[Citation, ...] = Field(min_length=1)


class LanguageUnits(Node):
    language: Id
    unit: Id
    table: tuple[Conversion, ...] = ()
    missing: Literal["rule", "error"]
    rule: Ratio | None = None


class Units(Node):
    units: tuple[LanguageUnits, ...] = ()

    def of(self, language: str) -> LanguageUnits | None:
        return next((entry for entry in self.units if entry.language == language), None)


NO_UNITS = Units()
"""A project whose languages all show the book's unit needs no docs/units.yml."""


def convert(units: LanguageUnits, distance: Decimal) -> tuple[Decimal, bool]:
    """The distance in the edition's unit, and whether the edition prints it
    (False: derived by its rule).

    >>> spanish = LanguageUnits(language="es", unit="centimeter", missing="rule",
    ...     table=(Conversion(book=Decimal(2), shows=Decimal(5), cite=Citation(source="s")),),
    ...     rule=Ratio(per_unit=Decimal("2.5"), cite=(Citation(source="s"),)))
    >>> convert(spanish, Decimal(2)), convert(spanish, Decimal("1.5"))
    ((Decimal('5'), True), (Decimal('3.75'), False))
    """
    for entry in units.table:
        if entry.book == distance:
            return entry.shows, True
    if units.rule is None:
        raise KeyError(f"no conversion of {distance} for '{units.language}'")
    return (distance * units.rule.per_unit).normalize(), False


def units_problems(project: Project, units: Units, source_ids: set[str],
                   messages: list[Message]) -> Iterator[Problem]:
    """Every language shown in another unit than the book's has its conversions; every
    entry fits its language; under ``missing: error`` every distance the texts use has
    its table entry; a book whose texts give distances declares its unit."""
    book_unit = project.length_unit
    for entry in units.units:
        where = entry.position
        language = next((language for language in project.languages if language.code == entry.language), None)
        shown = project.shown_unit(language) if language is not None else None
        if language is None or shown != entry.unit or shown == book_unit:
            yield Problem(where.file, where.of("language").line, entry.language,
                          f"conversions for '{entry.language}' to {entry.unit}, which rulebook.yml does not show "
                          f"instead of the book's unit ({book_unit or 'none declared'})",
                          f"set 'length_unit: {entry.unit}' for it in rulebook.yml, or remove the entry")
        if entry.missing == "rule" and entry.rule is None:
            yield Problem(where.file, where.of("missing").line, entry.language,
                          "'missing: rule' without a 'rule' to convert by",
                          "add 'rule: {per_unit: ..., cite: [...]}', or say 'missing: error'")
        seen: dict[Decimal, int] = {}
        for conversion in entry.table:
            line = conversion.position.of("book").line
            if conversion.book in seen:
                yield Problem(where.file, line, entry.language,
                              f"{conversion.book} is listed twice (first at line {seen[conversion.book]})",
                              "list each distance once")
            seen.setdefault(conversion.book, line)
        cites = [conversion.cite for conversion in entry.table] + list(entry.rule.cite if entry.rule else ())
        for cite in cites:
            if cite.source not in source_ids:
                yield Problem(where.file, cite.position.of("source").line, entry.language,
                              f"cites unknown source '{cite.source}'", "add it to docs/sources.yml")
        if entry.missing == "error":
            yield from _unlisted(entry, messages, where.file)
    for language in project.languages:
        shown = project.shown_unit(language)
        if book_unit is not None and shown != book_unit and units.of(language.code) is None:
            yield Problem(f"{project.content_dir}/{UNITS_FILE}", 0, language.code,
                          f"'{language.code}' shows distances in {shown}, not in the book's unit "
                          f"({book_unit or 'none declared'}), but has no conversions",
                          f"add an entry for '{language.code}' to {project.content_dir}/{UNITS_FILE} with the "
                          "edition's printed conversions and its rule")
    if book_unit is None:
        yield from _undeclared(messages)


def _distance_tokens(messages: list[Message]) -> Iterator[tuple[Message, Token]]:
    for message in messages:
        for token in tokens(message.text):
            if token.kind == "dist" and not token.problem():
                yield message, token


def _undeclared(messages: list[Message]) -> Iterator[Problem]:
    """The first distance of a book that has not said what unit its distances are in."""
    for message, token in _distance_tokens(messages):
        yield Problem(message.position.file, message.position.line, message.context.split("#", 1)[0],
                      f"{token.source} gives a distance, but rulebook.yml names no unit of length",
                      "add 'length_unit: ...' to rulebook.yml, the CLDR name of the unit the rules measure in "
                      "(such as 'inch' or 'centimeter')")
        return


def _unlisted(entry: LanguageUnits, messages: list[Message], units_file: str) -> Iterator[Problem]:
    """Distances the edition's table lacks; a rolled one can only be converted by the rule."""
    listed = {conversion.book for conversion in entry.table}
    for message, token in _distance_tokens(messages):
        rolled = is_rolled(token.argument)
        if (rolled and entry.rule is not None) or (not rolled and Decimal(token.argument) in listed):
            continue
        where = (message.position.file, message.position.line, message.context.split("#", 1)[0])
        if rolled:
            yield Problem(*where, f"{token.source} is a rolled distance, which the '{entry.language}' "
                                  "conversions cannot convert without a rule",
                          f"add 'rule: {{per_unit: ..., cite: [...]}}' to the '{entry.language}' entry of "
                          f"{units_file}, the rule the edition's printed conversions follow")
        else:
            yield Problem(*where, f"{token.source} has no entry in the '{entry.language}' conversions, which ask "
                                  "for one for every distance",
                          f"add the edition's printed value for {token.argument}, with its citation, "
                          f"to the '{entry.language}' table of {units_file}")
