"""The header of a catalogue: what a new one starts with, what an update puts right,
and which plural rules count as the language's.

A catalogue Babel or ``msginit`` starts carries placeholders (``FULL NAME``,
``PROJECT VERSION``, a ``#, fuzzy`` header) that a translator is meant to fill in, and
that gettext tools and the lint then report; a book knows its title and the
language's name, so its catalogues start with them."""

from __future__ import annotations

import gettext
from datetime import datetime

from babel import Locale
from babel.core import UnknownLocaleError
from babel.messages.catalog import Catalog

PLACEHOLDERS = ("PROJECT", "VERSION", "FIRST AUTHOR", "EMAIL@ADDRESS", "ORGANIZATION", "FULL NAME")
"""The words of the templates' headers that stand for something to fill in."""
PLURAL_COUNTS = range(1000)
"""The counts a plural rule is tried on: every count a page shows is well below 1,000."""


def known_locale(code: str) -> Locale | None:
    """The language ``code`` names in Babel's data (CLDR), or None when it names none."""
    try:
        return Locale.parse(code)
    except (UnknownLocaleError, ValueError, TypeError):
        return None


ENGINE_TITLE = "Rules reference"
"""What the engine's own interface catalogues translate."""


def header_comment(title: str, language: str) -> str:
    """The comment above a catalogue: what it translates, into what, under which license."""
    locale = known_locale(language)
    name = locale.english_name if locale is not None else language
    owner = "the engine" if title == ENGINE_TITLE else "the book"
    return f"# {name} translations of {title}.\n# This file is distributed under the same license as {owner}.\n#"


def new_catalog(language: str, title: str, date: datetime) -> Catalog:
    """An empty catalogue of a book in ``language``, its header complete: the language,
    its team, the plural rule Babel gives for it (CLDR's), the dates (msgfmt wants them)."""
    catalog = Catalog(locale=language, project=title, version="", msgid_bugs_address="", creation_date=date,
                      revision_date=date, fuzzy=False)
    locale = known_locale(language)
    name = locale.english_name if locale is not None else language
    catalog.language_team = str(name)
    catalog.last_translator = f"{name} translators"
    catalog.header_comment = header_comment(title, language)
    return catalog


def tidy_header(catalog: Catalog, title: str, language: str) -> None:
    """Put right what a catalogue's header still holds of a template's placeholders:
    an update writes the title of what it translates (``title``) where ``PROJECT``
    stands, and the header is no longer fuzzy (msgfmt would ignore its plural rule)."""
    catalog.fuzzy = False
    if catalog.project in ("", "PROJECT"):
        catalog.project = title
    if catalog.version == "VERSION":
        catalog.version = ""
    if catalog.msgid_bugs_address == "EMAIL@ADDRESS":
        catalog.msgid_bugs_address = ""
    if any(placeholder in catalog.header_comment for placeholder in PLACEHOLDERS):
        catalog.header_comment = header_comment(title, language)


def equivalent_plurals(expression: str, expected: str) -> bool:
    """Whether two gettext plural expressions sort every count a page shows into the
    same groups: Spanish ``(n != 1)`` is CLDR's rule as far as pages count, although
    CLDR numbers the forms otherwise and adds one for millions."""
    try:
        first, second = gettext.c2py(expression), gettext.c2py(expected)
        pairs = {(first(count), second(count)) for count in PLURAL_COUNTS}
    except (ValueError, SyntaxError, ArithmeticError, RecursionError):
        return False
    return len({a for a, _b in pairs}) == len({b for _a, b in pairs}) == len(pairs)
