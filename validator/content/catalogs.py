"""Gettext catalogues, read with Babel: rule texts and the site's interface strings.

Translations are looked up by msgctxt and checked against the current English
text: a translation made for an older English text is shown as out of date
rather than silently passed off as current.
"""

from __future__ import annotations

import gettext
import io
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po, unescape
from babel.support import Translations

from validator.problems import Problem, ProblemsFound

RULES_DOMAIN = "rules"
UI_DOMAIN = "ui"


class State(StrEnum):
    TRANSLATED = "translated"
    FUZZY = "fuzzy"
    UNTRANSLATED = "untranslated"


@dataclass(frozen=True)
class Translation:
    """The text to show, its language and whether it is a current translation."""

    text: str
    language: str
    state: State


def catalog_path(locales_dir: Path, language: str, domain: str) -> Path:
    return locales_dir / language / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(path: Path, shown_as: str) -> Catalog:
    """Parse a .po file; syntax errors become one positioned :class:`Problem`."""
    try:
        data = path.read_bytes()
        unterminated = _unterminated_string_lines(data.decode("utf-8"))
        if unterminated:
            raise ProblemsFound([Problem(shown_as, line, "", "catalogue syntax error: a string has no closing quote",
                                         'end the string with " (msgfmt --check reports the same)')
                                 for line in unterminated])
        return restore_previous_ids(read_po(io.BytesIO(data), abort_invalid=True), data.decode("utf-8"))
    except PoFileError as error:
        line = getattr(error, "lineno", 0) or 0
        raise ProblemsFound([Problem(shown_as, line, "", f"catalogue syntax error: {error}",
                                     "correct the entry (msgfmt --check shows the same place)")]) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ProblemsFound([Problem(shown_as, 0, "", f"cannot read the catalogue ({error})",
                                     "check that it exists and is UTF-8")]) from None


def restore_previous_ids(catalog: Catalog, text: str) -> Catalog:
    """Babel reads ``#| msgid ...`` lines as translator comments (and merges equal
    lines, losing repeated ``"\\n"`` pieces); read them from the file's text instead
    and give each entry back its previous msgid, so it survives the next update."""
    previous_by_context: dict[str, str] = {}
    pending: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#|"):
            pending.append(line[2:].strip())
            continue
        if line.startswith("msgctxt ") and pending:
            context = unescape(line.removeprefix("msgctxt ").strip())
            parts = [part.removeprefix("msgid ").strip() for part in pending
                     if part.startswith(("msgid ", '"'))]
            previous_by_context[context] = "".join(unescape(part) for part in parts)
        if not line.startswith("#"):
            pending = []
    for message in [*catalog, *catalog.obsolete.values()]:
        message.user_comments = [comment for comment in message.user_comments if not comment.startswith("|")]
        if message.context and str(message.context) in previous_by_context:
            message.previous_id = [previous_by_context[str(message.context)]]
    return catalog


def _unterminated_string_lines(text: str) -> list[int]:
    """Lines whose string is not closed: Babel's parser accepts them, msgfmt does not."""
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith(("msgctxt", "msgid", "msgstr", '"')) and '"' in stripped:
            string = stripped[stripped.index('"'):]
            body = string[1:-1] if len(string) >= 2 and string.endswith('"') else None
            escaped_end = body is not None and (len(body) - len(body.rstrip("\\"))) % 2 == 1
            if body is None or escaped_end:
                lines.append(number)
    return lines


@dataclass(frozen=True)
class RuleCatalog:
    """Translations of rule texts for one language, keyed by msgctxt."""

    language: str
    source_language: str
    entries: dict[str, tuple[str, str, bool]]
    """msgctxt -> (English msgid, translation, fuzzy)."""

    @classmethod
    def from_catalog(cls, catalog: Catalog, language: str, source_language: str) -> RuleCatalog:
        entries = {
            str(message.context): (str(message.id), str(message.string or ""), message.fuzzy)
            for message in catalog
            if message.id and message.context and isinstance(message.id, str)
        }
        return cls(language, source_language, entries)

    @classmethod
    def source(cls, language: str) -> RuleCatalog:
        """The identity catalogue of the source language."""
        return cls(language, language, {})

    def translate(self, context: str, english: str) -> Translation:
        if self.language == self.source_language:
            return Translation(english, self.language, State.TRANSLATED)
        msgid, text, fuzzy = self.entries.get(context, ("", "", False))
        if not text:
            return Translation(english, self.source_language, State.UNTRANSLATED)
        if fuzzy or msgid != english:
            return Translation(english, self.source_language, State.FUZZY)
        return Translation(text, self.language, State.TRANSLATED)


def interface_translations(catalog: Catalog | None) -> gettext.NullTranslations:
    """The site's own words (headings, labels) as a standard translations object.

    The catalogue is compiled in memory with Babel's ``write_mo`` so that plural
    forms follow the catalogue's ``Plural-Forms`` header and fuzzy entries are left
    out, exactly as ``msgfmt`` would do, without .mo files in the tree.
    """
    if catalog is None:
        return gettext.NullTranslations()
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer)
