"""Catalogues as XLIFF 1.2 for translation tools, and the tools' work merged back.

Translate Toolkit's own ``po2xliff`` and ``xliff2po`` drop the msgctxt of every entry,
the previous English, every flag but ``fuzzy`` and the obsolete entries, and the
project finds an entry by its msgctxt alone: what comes back of them is no catalogue.
Here the XLIFF file is only a view of the catalogues.  Each entry is a ``trans-unit``
named by its msgctxt (its ``id`` and ``resname``; an entry without one, an interface
word, by its English, as :mod:`validator.catalogs.merge` knows it), in the dialect that
Translate Toolkit's ``xliff`` and ``poxliff`` storage reads: the English as
``<source>``, the translation as ``<target>``, the state as ``approved`` and the
target's ``state``, the automatic comments as a developer's note and the translator's
as a translator's, the locations as ``po-reference`` context groups and the previous
English as an ``<alt-trans origin="previous">``.

The import takes from each unit its target, its state and its translator's notes, and
changes in the catalogue's text the lines of those alone (``msgstr``, the ``#,`` line
when the fuzzy mark comes or goes, the ``#`` lines): every other byte of the file,
the msgctxt, the previous English, the other flags, the automatic comments, the
obsolete entries and the header, stays as it was, and an unchanged export changes
nothing.  A unit whose English is no longer the catalogue's, or whose entry is gone,
is refused: its translation was made for another text, and only a fresh export shows
the translator the text it now has.  Nothing is written while anything is refused.

A tool may leave out the ``<target>`` of a unit it did not touch, or write it empty,
and may drop the notes it does not show: what a unit does not say is never read as
"empty this".  A unit without a translation leaves its entry as it was (a plural
form without one, that form), and a unit without a translator's note leaves the
entry's comments; only ``clear_empty`` (the command's ``--clear-empty``) empties the
translations the file leaves empty.

What a translation says is not judged here: a token or a placeholder broken in the
tool is the lint's to report (``validator lint``), as it is when the catalogue is
edited in a PO editor.
"""

from __future__ import annotations

import copy
import io
import re
import xml.etree.ElementTree as ET
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import unescape

from validator.catalogs.merge import translator_comments
from validator.catalogs.po import catalog_from_bytes
from validator.catalogs.powrap import write_po
from validator.content.yamlsource import SizeLimit, decode_utf8, read_input
from validator.problems import Problem, ProblemsFound

NAMESPACE = "urn:oasis:names:tc:xliff:document:1.2"
READ_NAMESPACES = (NAMESPACE, "urn:oasis:names:tc:xliff:document:1.1")
"""A tool may write the file back in the version 1.1 namespace (Translate Toolkit's own)."""
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
PLURALS = "x-gettext-plurals"
"""The ``restype`` of the group that holds an entry with plural forms, one unit a form."""
_FINISHED = frozenset({"translated", "signed-off", "final"})
"""Target states of a reviewed translation, for a tool that writes no ``approved``."""
_NOT_IN_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Characters XML 1.0 cannot hold, written or escaped."""


@dataclass(frozen=True)
class Exported:
    """One catalogue to put into the file: its domain, the name the file gives it
    (``original``, which the import reads to find it again) and its entries."""

    domain: str
    original: str
    catalog: Catalog


@dataclass(frozen=True)
class Change:
    """A catalogue the import changes: where, what it now holds, how many entries changed."""

    path: Path
    shown: str
    data: bytes
    entries: int


def _key(context: str | None, english: str) -> str:
    """An entry's identity: its msgctxt, or for an entry without one its English text
    (the keys of :func:`validator.catalogs.merge.merge_catalog`)."""
    return context if context else f"\x00{english}"


def _texts(value: object) -> list[str]:
    """A msgid or msgstr as its forms: one for a plain entry, one per plural form."""
    if isinstance(value, (list, tuple)):
        return [str(text or "") for text in value]
    return [str(value or "")]


# Export


def export_xliff(catalogues: Sequence[Exported], source_language: str, target_language: str) -> bytes:
    """The XLIFF 1.2 text of ``catalogues``, one ``<file>`` each, in their entries'
    order; the same catalogues give the same bytes (no date, no path of this machine).

    Raises :class:`ProblemsFound` for a text XML cannot carry (a control character)."""
    problems = [problem for exported in catalogues for problem in _unwritable(exported)]
    if problems:
        raise ProblemsFound(problems)
    root = ET.Element("xliff", {"version": "1.2", "xmlns": NAMESPACE})
    for exported in catalogues:
        file = ET.SubElement(root, "file", {"original": exported.original, "source-language": source_language,
                                            "target-language": target_language, "datatype": "po"})
        body = ET.SubElement(file, "body")
        for message in exported.catalog:
            if message.id:
                _add_entry(body, message)
    ET.indent(root)
    text = ET.tostring(root, encoding="unicode")
    # ElementTree escapes a carriage return in an attribute, not in a text, where a
    # reader would take it for a line end: written as a reference, it stays itself.
    text = text.replace("\r", "&#13;")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{text}\n'.encode()


def _unwritable(exported: Exported) -> Iterator[Problem]:
    for message in exported.catalog:
        texts = [*_texts(message.id), *_texts(message.string), str(message.context or ""),
                 *message.user_comments, *message.auto_comments, *(message.previous_id or [])]
        found = next((match for text in texts if (match := _NOT_IN_XML.search(text))), None)
        if message.id and found is not None:
            yield Problem(exported.original, message.lineno or 0, str(message.context or ""),
                          f"the entry holds the control character U+{ord(found.group()):04X}, which XLIFF cannot "
                          "carry", "remove it from the catalogue (it is invisible in most editors), then export again")


def _add_entry(body: ET.Element, message: Message) -> None:
    context = str(message.context) if message.context else None
    sources, targets = _texts(message.id), _texts(message.string)
    name = context if context is not None else sources[0]
    translated = any(targets)
    approved = "yes" if translated and not message.fuzzy else "no"
    attributes = {"id": name, **({"resname": context} if context is not None else {})}
    if len(sources) == 1:
        unit = ET.SubElement(body, "trans-unit", {**attributes, "approved": approved, XML_SPACE: "preserve"})
        _add_texts(unit, sources[0], targets[0], approved)
        _add_about(unit, message, context, targets[0])
        return
    group = ET.SubElement(body, "group", {**attributes, "restype": PLURALS, XML_SPACE: "preserve"})
    for index, target in enumerate(targets):
        unit = ET.SubElement(group, "trans-unit", {"id": f"{name}[{index}]", "approved": approved,
                                                   XML_SPACE: "preserve"})
        _add_texts(unit, sources[min(index, 1)], target, approved)
        _add_about(unit, message, context, target)


def _add_texts(unit: ET.Element, source: str, target: str, approved: str) -> None:
    ET.SubElement(unit, "source").text = source
    if target:
        state = "translated" if approved == "yes" else "needs-review-translation"
        ET.SubElement(unit, "target", {"state": state}).text = target


def _add_about(unit: ET.Element, message: Message, context: str | None, target: str) -> None:
    """What a translator reads beside the text: the English it was translated from,
    where the text comes from, its msgctxt and the comments."""
    if message.previous_id:
        previous = ET.SubElement(unit, "alt-trans", {"origin": "previous"})
        ET.SubElement(previous, "source").text = str(message.previous_id[0])
        ET.SubElement(previous, "target").text = target
    for filename, line in message.locations:
        group = ET.SubElement(unit, "context-group", {"name": "po-reference", "purpose": "location"})
        ET.SubElement(group, "context", {"context-type": "sourcefile"}).text = filename
        if line:
            ET.SubElement(group, "context", {"context-type": "linenumber"}).text = str(line)
    if context is not None:
        group = ET.SubElement(unit, "context-group", {"name": "po-entry", "purpose": "information"})
        ET.SubElement(group, "context", {"context-type": "x-po-msgctxt"}).text = context
    if message.auto_comments:
        ET.SubElement(unit, "note", {"from": "developer"}).text = "\n".join(message.auto_comments)
    if comments := translator_comments(message):
        ET.SubElement(unit, "note", {"from": "translator"}).text = "\n".join(comments)


# Reading the file


@dataclass
class _Unit:
    """A unit of the file as the import reads it (a plural group gives one, of its forms)."""

    line: int
    key: str
    name: str
    sources: list[str] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    fuzzy: bool = False
    notes: list[str] | None = None
    """The translator's notes, line by line; ``None`` where the unit has none."""


@dataclass
class _File:
    line: int
    original: str
    language: str
    units: list[_Unit]


class _Tree:
    """The file's elements with the line each starts at: ElementTree keeps no lines,
    and a refusal names the unit's."""

    def __init__(self, data: bytes, shown_as: str) -> None:
        self.lines: dict[ET.Element, int] = {}
        builder = ET.TreeBuilder()
        parser = expat.ParserCreate(namespace_separator="}")

        def start(name: str, attributes: dict[str, str]) -> None:
            qualified = {_qualified(key): value for key, value in attributes.items()}
            self.lines[builder.start(_qualified(name), qualified)] = parser.CurrentLineNumber

        def doctype(*_arguments: object) -> None:
            raise _Refused(parser.CurrentLineNumber, "the file declares a DOCTYPE, which an XLIFF file has not")

        parser.StartElementHandler = start
        parser.EndElementHandler = lambda name: builder.end(_qualified(name))
        parser.CharacterDataHandler = builder.data
        parser.StartDoctypeDeclHandler = doctype
        fix = "give the file the tool saved, whole; or export again (validator i18n xliff-export)"
        try:
            parser.Parse(data, True)
        except expat.ExpatError as error:
            raise ProblemsFound([Problem(shown_as, error.lineno, "", "the file is not well-formed XML "
                                         f"({expat.ErrorString(error.code)})", fix)]) from None
        except _Refused as refused:
            raise ProblemsFound([Problem(shown_as, refused.line, "", refused.what, fix)]) from None
        self.root = builder.close()


class _Refused(Exception):
    def __init__(self, line: int, what: str) -> None:
        super().__init__(what)
        self.line, self.what = line, what


def _qualified(name: str) -> str:
    return f"{{{name}" if "}" in name else name


def _read_files(data: bytes, shown_as: str) -> list[_File]:
    decode_utf8(data, shown_as)  # a file in another encoding is named as such, not as bad XML
    tree = _Tree(data, shown_as)
    root = tree.root
    namespace = root.tag[1:].partition("}")[0] if root.tag.startswith("{") else ""
    if namespace not in READ_NAMESPACES or not root.tag.endswith("}xliff"):
        raise ProblemsFound([Problem(shown_as, tree.lines[root], "", f"the file is no XLIFF 1.2 file (its root "
                                     f"is {root.tag!r})", "give the file validator i18n xliff-export wrote, "
                                     "as the tool saved it")])
    ns = f"{{{namespace}}}"
    files = []
    for file in root.iter(f"{ns}file"):
        units = []
        forms: set[ET.Element] = set()  # the units of a plural group, read with it
        for element in file.iter():
            if element.tag == f"{ns}group" and element.get("restype") == PLURALS:
                units.append(_plural_unit(element, ns, tree.lines))
                forms.update(element.iter(f"{ns}trans-unit"))
            elif element.tag == f"{ns}trans-unit" and element not in forms:
                units.append(_unit(element, ns, tree.lines[element]))
        files.append(_File(tree.lines[file], file.get("original", ""), file.get("target-language", ""), units))
    return files


def _unit(element: ET.Element, ns: str, line: int) -> _Unit:
    name = element.get("id", "")
    context = element.get("resname")
    source = _text(element.find(f"{ns}source"))
    target = element.find(f"{ns}target")
    unit = _Unit(line, _key(context, name), name, [source], [_text(target)])
    unit.fuzzy = _is_fuzzy(element, target)
    notes = [_text(note) for note in element.findall(f"{ns}note") if "translator" in note.get("from", "")]
    unit.notes = [line for note in notes for line in note.split("\n")] if notes else None
    return unit


def _plural_unit(group: ET.Element, ns: str, lines: Mapping[ET.Element, int]) -> _Unit:
    name = group.get("id", "")
    forms = [_unit(element, ns, lines[element]) for element in group.findall(f"{ns}trans-unit")]
    unit = _Unit(lines[group], _key(group.get("resname"), name), name)
    unit.sources = [source for form in forms[:2] for source in form.sources]
    unit.targets = [target for form in forms for target in form.targets]
    unit.fuzzy = any(form.fuzzy for form in forms)
    unit.notes = forms[0].notes if forms else None
    return unit


def _text(element: ET.Element | None) -> str:
    return "" if element is None else "".join(element.itertext())


def _is_fuzzy(unit: ET.Element, target: ET.Element | None) -> bool:
    """Whether the translation awaits review: ``approved`` says so, as Translate Toolkit
    reads it; a tool that writes no ``approved`` says it by the target's state."""
    approved = unit.get("approved")
    if approved is not None:
        return approved != "yes"
    return target is None or target.get("state") not in _FINISHED


# Import


CHANGED, KEPT, REFUSED = "changed", "kept", "refused"


@dataclass(frozen=True)
class Outcome:
    """What the import did with one unit of the file: ``fate`` is one of
    :data:`CHANGED`, :data:`KEPT` or :data:`REFUSED`, ``why`` says what changed, why
    the entry was kept, or why the unit was refused."""

    catalogue: str
    line: int
    name: str
    fate: str
    why: str


@dataclass(frozen=True)
class Imported:
    """What an XLIFF file changes: the catalogues to write (none while anything is
    refused), every unit's outcome in the file's order, and the refusals as problems."""

    changes: list[Change]
    outcomes: list[Outcome]
    problems: list[Problem]

    def count(self, fate: str, catalogue: str | None = None) -> int:
        return sum(1 for outcome in self.outcomes
                   if outcome.fate == fate and catalogue in (None, outcome.catalogue))


def import_xliff(data: bytes, shown_as: str, language: str, catalogues: Mapping[str, Path],
                 clear_empty: bool = False, limit: SizeLimit | None = None) -> Imported:
    """The catalogues changed by the XLIFF file ``data``: each ``<file>`` names its
    catalogue by ``original``, one of ``catalogues`` (a name the export gave -> the
    catalogue's path). Only catalogues an entry of which changes are returned, and
    none when a unit is refused; nothing is written here.  ``clear_empty``: a unit
    without a translation empties its entry's (by default it leaves it as it was).
    ``limit``: how large a catalogue may be (the book's, see :mod:`validator.content.limits`).

    Raises :class:`ProblemsFound` for a file that cannot be read as an export."""
    problems: list[Problem] = []
    outcomes: list[Outcome] = []
    changes = []
    for file in _read_files(data, shown_as):
        where = catalogues.get(file.original)
        if where is None:
            known = ", ".join(sorted(catalogues)) or "none"
            problems.append(Problem(shown_as, file.line, file.original, "the file names no catalogue of "
                                    f"'{language}' (original=\"{file.original}\")",
                                    f"export again: the catalogues of '{language}' are {known}"))
            outcomes.extend(Outcome(file.original, unit.line, unit.name, REFUSED, "no such catalogue")
                            for unit in file.units)
            continue
        if file.language != language:
            problems.append(Problem(shown_as, file.line, file.original, f"the file is for the language "
                                    f"'{file.language}', not '{language}'",
                                    f"import it as {file.language or 'its language'}, or export '{language}'"))
            outcomes.extend(Outcome(file.original, unit.line, unit.name, REFUSED, "another language")
                            for unit in file.units)
            continue
        shown = file.original
        text = decode_utf8(read_input(where, shown, limit), shown)
        edited = _changed(text, catalog_from_bytes(text.encode("utf-8"), shown), file, shown_as, clear_empty,
                          problems, outcomes)
        if edited is not None:
            changes.append(Change(where, shown, edited[0].encode("utf-8"), edited[1]))
    if problems:
        return Imported([], outcomes, problems)
    for change in changes:
        catalog_from_bytes(change.data, change.shown)  # what is written reads back, as any catalogue must
    return Imported(changes, outcomes, [])


def _changed(text: str, catalog: Catalog, file: _File, shown_as: str, clear_empty: bool,
             problems: list[Problem], outcomes: list[Outcome]) -> tuple[str, int] | None:
    """The catalogue's text with the file's changes in it and how many entries
    changed, or ``None`` when none did; what is refused goes to ``problems``, what
    became of each unit to ``outcomes``."""
    entries = {_key(str(message.context) if message.context else None, _texts(message.id)[0]): message
               for message in catalog if message.id}
    blocks = {block.key: block for block in _blocks(text)}
    seen: set[str] = set()
    edits: dict[str, _Block] = {}
    again = "export again (validator i18n xliff-export) and translate the unit in the new file"

    def refuse(unit: _Unit, what: str, fix: str) -> None:
        problems.append(Problem(shown_as, unit.line, unit.name, what, fix))
        outcomes.append(Outcome(file.original, unit.line, unit.name, REFUSED, what))

    for unit in file.units:
        message = entries.get(unit.key)
        if message is None:
            refuse(unit, f"no entry of {file.original} has this id: the text left the book, or its English "
                   "changed, since the export", again)
            continue
        if unit.key in seen:
            refuse(unit, "a second unit for the same entry", "keep one of the two units")
            continue
        seen.add(unit.key)
        if unit.sources != _texts(message.id):
            refuse(unit, f"the English (source) is no longer the catalogue's: {file.original} changed since the "
                   "export", again)
            continue
        if len(unit.targets) != len(_texts(message.string)):
            refuse(unit, f"{len(unit.targets)} forms where the catalogue has {len(_texts(message.string))}", again)
            continue
        if not any(unit.targets) and not clear_empty:
            outcomes.append(Outcome(file.original, unit.line, unit.name, KEPT, "no translation in the file"))
            continue
        edited = _edited(blocks[unit.key], message, unit, catalog, clear_empty)
        if edited is None:
            outcomes.append(Outcome(file.original, unit.line, unit.name, KEPT, "unchanged"))
            continue
        edits[unit.key], what = edited
        outcomes.append(Outcome(file.original, unit.line, unit.name, CHANGED, what))
    if not edits:
        return None
    lines = text.split("\n")
    for block in sorted(edits.values(), key=lambda block: block.start, reverse=True):
        lines[block.start:block.end] = block.lines
    return "\n".join(lines), len(edits)


@dataclass
class _Block:
    """An entry's lines in the catalogue's text: ``lines[start:end]``."""

    key: str
    start: int
    end: int
    lines: list[str]


def _blocks(text: str) -> Iterator[_Block]:
    """Every current entry's lines, from its first comment to its last ``msgstr`` line
    (the catalogue is one that :func:`catalog_from_bytes` read, so well formed)."""
    lines = text.split("\n")
    start: int | None = None
    keywords: dict[str, list[str]] = {}
    current = ""

    def block(end: int) -> Iterator[_Block]:
        if start is not None and "msgid" in keywords:
            context = "".join(keywords["msgctxt"]) if "msgctxt" in keywords else None
            yield _Block(_key(context, "".join(keywords["msgid"])), start, end, lines[start:end])

    for number, raw in enumerate([*lines, ""]):
        line = raw.strip()
        begins = not line or line.startswith("#") or line.startswith(("msgctxt", "msgid "))
        if begins and any(key.startswith("msgstr") for key in keywords):
            yield from block(number)
            start, keywords = None, {}
        if not line or line.startswith("#~"):
            continue
        if start is None:
            start = number
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ") if not line.startswith('"') else (current, "", line)
        current = keyword
        if keyword in ("msgctxt", "msgid"):
            keywords.setdefault(keyword, []).append(unescape(rest.strip()))
        else:
            keywords.setdefault(keyword, [])


def _kind(line: str) -> str:
    """What a line of an entry is: ``comment`` (a translator's), ``flags``, ``msgstr``
    (with its continued lines, told by the caller), or ``other``."""
    if line.startswith("#,"):
        return "flags"
    if line.startswith("#") and (len(line) == 1 or line[1] in " \t"):
        return "comment"
    if line.startswith("msgstr"):
        return "msgstr"
    return "other"


def _edited(block: _Block, message: Message, unit: _Unit, catalog: Catalog,
            clear_empty: bool) -> tuple[_Block, str] | None:
    """The entry's lines with the unit's translation, state and notes, and what of them
    changed, or ``None`` when they are what the entry already has.  A form the unit
    leaves empty keeps the entry's (empties it with ``clear_empty``); a unit without
    a translator's note keeps the entry's comments.  Only the lines of what changed
    are written anew, the way the project writes a catalogue (Babel's writer)."""
    kinds: list[str] = []
    for line in block.lines:
        stripped = line.strip()
        continued = stripped.startswith('"') and kinds and kinds[-1] == "msgstr"
        kinds.append("msgstr" if continued else _kind(stripped))
    flags = [flag.strip() for line, kind in zip(block.lines, kinds, strict=True) if kind == "flags"
             for flag in line.strip()[2:].split(",") if flag.strip()]
    old_strings = _texts(message.string)
    strings = [new if new or clear_empty else old for new, old in zip(unit.targets, old_strings, strict=True)]
    # An empty translation's mark says nothing a page shows: it stays as it was.
    fuzzy = unit.fuzzy if any(strings) else "fuzzy" in flags
    comments = unit.notes if unit.notes is not None else translator_comments(message)
    changed = {"msgstr": strings != old_strings, "flags": fuzzy != ("fuzzy" in flags),
               "comment": comments != translator_comments(message)}
    if not any(changed.values()):
        return None
    new_flags = sorted({*flags, "fuzzy"} if fuzzy else set(flags) - {"fuzzy"})
    written = _written(message, strings, comments, new_flags, catalog)
    lines: list[str] = []
    placed = {kind for kind, differs in changed.items() if not differs}
    if "comment" not in placed and "comment" not in kinds:
        lines += written["comment"]  # a translator's comment comes first
        placed.add("comment")
    for line, kind in zip(block.lines, kinds, strict=True):
        if "flags" not in placed and (line.lstrip().startswith("#|") or not line.lstrip().startswith("#")):
            lines += written["flags"]  # an entry without flags: they stand before #| and msgctxt
            placed.add("flags")
        if changed.get(kind):
            if kind not in placed:
                lines += written[kind]
                placed.add(kind)
            continue
        lines.append(line)
    what = ", ".join(name for kind, name in (("msgstr", "translation emptied" if not any(strings) else "translation"),
                                             ("flags", "needs review" if fuzzy else "reviewed"),
                                             ("comment", "translator's comment")) if changed[kind])
    return _Block(block.key, block.start, block.end, lines), what


def _written(message: Message, strings: list[str], comments: list[str], flags: list[str],
             catalog: Catalog) -> dict[str, list[str]]:
    """The ``msgstr``, ``#,`` and ``#`` lines of the entry as Babel's writer gives them."""
    one = copy.copy(catalog)
    one._messages = OrderedDict()  # a catalogue of this entry alone, with the header's plural forms
    one.obsolete = OrderedDict()
    entry = Message(message.id, tuple(strings) if message.pluralizable else strings[0], context=message.context,
                    user_comments=comments)
    entry.flags = set(flags)
    one[message.id] = entry
    buffer = io.BytesIO()
    write_po(buffer, one, width=76, omit_header=True, include_previous=False, no_location=True)
    written: dict[str, list[str]] = {"msgstr": [], "flags": [], "comment": []}
    kind = ""
    for line in buffer.getvalue().decode("utf-8").split("\n"):
        stripped = line.strip()
        kind = kind if stripped.startswith('"') and kind == "msgstr" else _kind(stripped)
        if kind in written:
            written[kind].append(line)
    return written
