"""Gettext catalogues, read with Babel: rule texts and the site's interface strings.

Translations are looked up by msgctxt and checked against the current English
text: a translation made for an older English text is shown as out of date
rather than silently passed off as current.
"""

from __future__ import annotations

import gettext
import io
import re
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from itertools import accumulate
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po, unescape
from babel.support import Translations

from validator.content.yamlsource import SizeLimit, decode_utf8, read_input
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


def read_catalog(path: Path, shown_as: str, limit: SizeLimit | None = None) -> Catalog:
    """Parse a .po file; syntax errors become positioned :class:`Problem` s.

    Babel's parser is lenient where ``msgfmt`` is not (an entry without msgid, the
    same entry twice, text after a closing quote): those are checked here first, so
    a catalogue that passes here also compiles with GNU gettext.  ``limit``: the
    book's (see :mod:`validator.content.limits`), else the default."""
    return catalog_from_bytes(read_input(path, shown_as, limit), shown_as)


PO_KIND = "po"
"""What a parsed catalogue is kept as (see :func:`validator.content.inputcache.made_from`)."""


def catalog_from_bytes(data: bytes, shown_as: str) -> Catalog:
    """The catalogue held in ``data``, the bytes of a .po file (see :func:`read_catalog`)."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise ProblemsFound([Problem(shown_as, 1, "", "the catalogue starts with a byte order mark (BOM)",
                                     "save it as UTF-8 without BOM (msgfmt rejects the BOM)")])
    text = decode_utf8(data, shown_as)
    return parse_catalog(text, shown_as)


def parse_catalog(text: str, shown_as: str) -> Catalog:
    """The catalogue held in ``text`` (see :func:`read_catalog`)."""
    problems = structure_problems(text, shown_as)
    if problems:
        raise ProblemsFound(problems)
    try:
        catalog = read_po(io.StringIO(text), abort_invalid=True)
        # A broken Plural-Forms header would raise only when a page is rendered: read it now,
        # the way Babel and gettext (which compile the expression) will.
        catalog.num_plurals  # noqa: B018
        plural = gettext.c2py(catalog.plural_expr)
        # Compiling does not run it: a division by zero would raise only when gettext
        # picks a form on a page.  Every count a page shows is well below 1,000.
        for count in range(1000):
            plural(count)
        # Compiling it as the site build will (see interface_translations) proves the
        # header's charset too, and refuses an entry Babel read but cannot write (a
        # msgid_plural with a single msgstr).
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        compiled.seek(0)
        Translations(compiled)
        return restore_previous_ids(catalog, text)
    except PoFileError as error:
        # Babel counts lines from 0 and says so in its message ("... on 76").
        lineno = getattr(error, "lineno", None)
        line = lineno + 1 if isinstance(lineno, int) else 0
        what = re.sub(r" on \d+$", "", str(error))
        raise ProblemsFound([Problem(shown_as, line, "", f"catalogue syntax error: {what}",
                                     "correct the entry (msgfmt --check shows the same place)")]) from None
    except (ValueError, TypeError, LookupError, AttributeError, RecursionError, OSError, ArithmeticError,
            SyntaxError) as error:  # gettext compiles Plural-Forms into Python: "n %!10" is no Python
        raise ProblemsFound([Problem(shown_as, _header_line(text), "",
                                     f"catalogue header cannot be read ({str(error)[:200]})",
                                     "correct the header entry (Language, Plural-Forms, Content-Type: "
                                     "text/plain; charset=utf-8)")]) from None


def _header_line(text: str) -> int:
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("msgid"):
            return number
    return 1


_CONTROL = re.compile("[\x00\x04]")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_KEYWORD = re.compile(r"^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(.*)$")
_WELL_FORMED = re.compile(r'(?:(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?("(?:[^"\\]|\\.)*")')
"""A line as nearly every line of a catalogue is: a keyword (or none: a continued
string) and one quoted string; one match instead of the keyword's and the string's."""
_KEYS = ("msgctxt", "msgid")
"""The keywords whose strings identify an entry (the rest are only counted)."""


_OBSOLETE = re.compile(r"^#~(?![|])[ \t]?", re.MULTILINE)
"""The mark of an obsolete entry's line (``#~ msgid ...``); ``#~|`` lines are its
previous msgid, a comment to msgfmt."""


def structure_problems(text: str, shown_as: str) -> list[Problem]:
    """What msgfmt rejects and Babel lets through, each with its line.

    Obsolete entries are read as msgfmt reads them, as entries: Babel keeps a broken
    one without a word, and msgfmt rejects the whole catalogue for it."""
    text = _OBSOLETE.sub("", text)
    problems: list[Problem] = []

    def problem(line: int, what: str, fix: str) -> None:
        problems.append(Problem(shown_as, line, "", f"catalogue syntax error: {what}", fix))

    for found in _CONTROL.finditer(text):
        number = text.count("\n", 0, found.start()) + 1
        problem(number, f"the control character U+{ord(found.group(0)):04X} cannot be in a catalogue",
                "remove it (it is invisible in most editors)")
    for unclosed in _unterminated_string_lines(text):
        problem(unclosed, "a string has no closing quote", 'end the string with " (msgfmt --check reports the same)')
    if problems:
        return problems
    seen: dict[tuple[str | None, str], int] = {}
    entry: dict[str, list[str]] = {}
    entry_line = 0

    def finish() -> None:
        if not entry or "orphan" in entry:
            return
        if "msgid" not in entry:
            problem(entry_line, "msgctxt without a msgid after it", 'add the msgid line (msgid "English text")')
            return
        indexed = any(keyword.startswith("msgstr[") for keyword in entry)
        if "msgid_plural" in entry and "msgstr" in entry:
            problem(entry_line, "an entry with msgid_plural has a plain msgstr",
                    "give one msgstr[0], msgstr[1], ... per plural form (msgfmt rejects a plain msgstr there)")
        elif "msgid_plural" not in entry and indexed:
            problem(entry_line, "msgstr[n] in an entry without msgid_plural",
                    "write msgstr without an index (msgfmt rejects msgstr[n] there)")
        key = ("".join(entry["msgctxt"]) if "msgctxt" in entry else None, "".join(entry["msgid"]))
        if key in seen:
            name = f"msgctxt {key[0]!r}" if key[0] is not None else f"msgid {key[1][:60]!r}"
            problem(entry_line, f"duplicate entry ({name}, first at line {seen[key]})",
                    "keep one of the two entries (msgfmt rejects duplicates)")
        else:
            seen[key] = entry_line

    current: list[str] | None = None
    identifies = False
    gap = False
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            gap = True
            continue
        well_formed = _WELL_FORMED.fullmatch(line)
        if well_formed is not None:
            keyword, rest = well_formed.groups()
        else:
            match = _KEYWORD.match(line)
            keyword, rest = match.groups() if match else (None, line)
        if keyword is not None:
            if gap and keyword.startswith("msgstr") and "msgstr" in entry:
                # A msgstr after a blank line or a comment starts an entry of its own.
                finish()
                entry, entry_line = {}, number
            gap = False
            starts_entry = keyword == "msgctxt" or (keyword == "msgid" and "msgid" in entry)
            if starts_entry:
                finish()
                entry, entry_line = {}, number
            elif keyword not in ("msgid", "msgctxt") and "msgid" not in entry and "orphan" not in entry:
                problem(number, f"{keyword} without a msgid before it",
                        'add the msgid line (msgid "English text") above it')
                entry = {"orphan": []}
            if keyword == "msgid" and not entry:
                entry_line = number
            if keyword in entry and keyword != "msgid":
                problem(number, f"a second {keyword} in one entry", "keep one (msgfmt rejects the entry)")
            current = entry.setdefault(keyword, [])
            identifies = keyword in _KEYS
        elif line.startswith('"'):
            if current is None:
                problem(number, "a string outside any entry", "put it under a msgid or msgstr, or remove it")
                continue
        else:
            problem(number, f"unknown keyword {line.split()[0][:40]!r}",
                    "use msgctxt, msgid, msgid_plural or msgstr, or start a comment with #")
            continue
        if well_formed is None:
            string = _STRING.match(rest)
            if string is None or rest[string.end():].strip():
                problem(number, "expected one quoted string", 'write the text as "..." with inner quotes as \\"')
                continue
            rest = string.group()
        if current is not None:
            current.append(unescape(rest) if identifies else rest)
    finish()
    return problems


def restore_previous_ids(catalog: Catalog, text: str) -> Catalog:
    """Babel reads ``#| msgid ...`` lines as translator comments (and merges equal
    lines, losing repeated ``"\\n"`` pieces); read them from the file's text instead
    and give each entry back its previous msgid, so it survives the next update."""
    previous_by_context: dict[str, str] = {}
    pending: list[str] = []
    for raw in text.split("\n"):
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
    """Lines whose string is not closed: Babel's parser accepts them, msgfmt does not.
    A line ends at a line feed alone, as both read it (U+2028 inside a string is text)."""
    lines = []
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if stripped.startswith(("msgctxt", "msgid", "msgstr", '"')) and '"' in stripped:
            string = stripped[stripped.index('"'):]
            body = string[1:-1] if len(string) >= 2 and string.endswith('"') else None
            escaped_end = body is not None and (len(body) - len(body.rstrip("\\"))) % 2 == 1
            if body is None or escaped_end:
                lines.append(number)
    return lines


def plural_problems(catalog: Catalog, shown_as: str) -> list[Problem]:
    """Entries with msgid_plural in a catalogue of texts that have no plural forms
    (rule texts, labels): the pages look texts up by msgctxt alone, and never use them."""
    return [Problem(shown_as, message.lineno or 0, str(message.context or ""),
                    "an entry with msgid_plural, which no text of this catalogue has: it is never used",
                    "remove the msgid_plural line and keep one msgstr (run validator i18n update to compare "
                    "with the template)")
            for message in catalog if message.id and message.pluralizable]


@dataclass(frozen=True)
class RuleCatalog:
    """Translations of rule texts for one language, keyed by msgctxt.

    Every English msgid and translation is held in one string, with the bounds of
    each: a build renders each language's pages in a process forked from the one that
    loaded the catalogues, and those pages read every language's texts (the parallel
    pages show them side by side).  A text held as a string object of its own is
    written to by every reader (its reference count), which gives that process its own
    copy of the memory page it lies on: one string is written to at its head alone,
    and the pages of its characters stay shared."""

    language: str
    source_language: str
    numbers: dict[str, int]
    """msgctxt -> the entry's number."""
    texts: str
    """Each entry's msgid, then its translation, end to end."""
    bounds: array[int]
    """Entry ``n``'s msgid is ``texts[bounds[2n]:bounds[2n + 1]]``, its translation
    ``texts[bounds[2n + 1]:bounds[2n + 2]]``."""
    fuzzy: bytes
    """1 at the entries marked fuzzy."""

    @classmethod
    def from_entries(cls, language: str, source_language: str,
                     entries: Iterable[tuple[str, str, str, bool]]) -> RuleCatalog:
        """From (msgctxt, English msgid, translation, fuzzy) entries; of a msgctxt
        given twice, the last entry holds."""
        numbers: dict[str, int] = {}
        texts: list[str] = []
        fuzzy = bytearray()
        for context, msgid, text, is_fuzzy in entries:
            numbers[context] = len(fuzzy)
            texts += (msgid, text)
            fuzzy.append(is_fuzzy)
        return cls(language, source_language, numbers, "".join(texts), array("q", [0, *accumulate(map(len, texts))]),
                   bytes(fuzzy))

    @classmethod
    def from_catalog(cls, catalog: Catalog, language: str, source_language: str) -> RuleCatalog:
        return cls.from_entries(language, source_language, (
            (str(message.context), str(message.id), str(message.string or ""), message.fuzzy)
            for message in catalog
            if message.id and message.context and isinstance(message.id, str)))

    @classmethod
    def source(cls, language: str) -> RuleCatalog:
        """The identity catalogue of the source language."""
        return cls.from_entries(language, language, ())

    def states(self) -> Iterator[tuple[str, State]]:
        """Each entry's msgctxt and state, judged by the catalogue alone (a labels
        catalogue's English is the core's, which an update brings in)."""
        bounds = self.bounds
        for context, number in self.numbers.items():
            if bounds[2 * number + 1] == bounds[2 * number + 2]:
                yield context, State.UNTRANSLATED
            else:
                yield context, State.FUZZY if self.fuzzy[number] else State.TRANSLATED

    def pairs(self) -> Iterator[tuple[str, str, str]]:
        """Each entry's msgctxt, English msgid and translation."""
        bounds, texts = self.bounds, self.texts
        for context, number in self.numbers.items():
            first = 2 * number
            yield context, texts[bounds[first]:bounds[first + 1]], texts[bounds[first + 1]:bounds[first + 2]]

    def entry(self, context: str) -> tuple[str, str, bool] | None:
        """The entry of ``context`` as (English msgid, translation, fuzzy), None when absent."""
        number = self.numbers.get(context)
        if number is None:
            return None
        bounds, texts, first = self.bounds, self.texts, 2 * number
        return (texts[bounds[first]:bounds[first + 1]], texts[bounds[first + 1]:bounds[first + 2]],
                bool(self.fuzzy[number]))

    def translate(self, context: str, english: str) -> Translation:
        if self.language == self.source_language:
            return Translation(english, self.language, State.TRANSLATED)
        number = self.numbers.get(context)
        if number is None:
            return Translation(english, self.source_language, State.UNTRANSLATED)
        bounds, first = self.bounds, 2 * number
        middle, end = bounds[first + 1], bounds[first + 2]
        if middle == end:
            return Translation(english, self.source_language, State.UNTRANSLATED)
        # The msgid compared where it lies, not cut out: the same length and the same characters.
        start = bounds[first]
        if self.fuzzy[number] or middle - start != len(english) or not self.texts.startswith(english, start, middle):
            return Translation(english, self.source_language, State.FUZZY)
        return Translation(self.texts[middle:end], self.language, State.TRANSLATED)


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
