"""The glossary as TBX, for the terminology tools translators work with: one file per
language, written beside the open data (``api/<lang>/glossary.tbx``) by every build
and on demand by ``validator glossary-tbx``.

The file is TBX-Basic in the TBX v2 ``martif`` form, the one Weblate's glossaries read
(through Translate Toolkit): one ``termEntry`` per glossary term, whose ``id`` is the
term's id; in it a ``langSet`` of the source language, with the English term (and its
English forms, where the glossary gives them) and the definition as a ``descrip``; and a
``langSet`` of the language, with its term first, then every other form the glossary
declares for it, each with its grammatical number and, in a language with cases, a
note naming the cases it serves.  A tool that reads one term per language takes the
first; the forms after it are what ``{term:id|form}`` may choose from.

The language's term is the catalogue's translation when it is current, else the word
the glossary prefers for the language; a term kept in English (``keep: true``) is its
English word.  A term the language has no word for yet gets no ``langSet`` of its own
(TBX-Basic wants a term in each), so a tool shows it as untranslated rather than
offer the English as if it were the translation.  The same goes for a definition:
only a current translation is written.

Every text is plain text, its tokens reduced to the words the pages show, and is
escaped as XML by ElementTree; no text is pasted into markup.  A character XML 1.0
cannot hold (a control character) is written as U+FFFD, so that the file always parses.
The file is deterministic (the glossary's order, no dates), as the open data is.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import MappingProxyType

from validator.content.model import Glossary, Inflection, Term

FILE_NAME = "glossary.tbx"
"""The file's name in each language's folder of the open data."""

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
NUMBERS = MappingProxyType({"sg": "singular", "du": "dual", "pl": "plural"})
"""The glossary's numbers and the values of TBX-Basic's ``grammaticalNumber``."""
NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""What XML 1.0 cannot hold, even escaped."""

Plain = Callable[[str, str, str], str | None]
"""(language, msgctxt, English) -> the text in that language as plain words, or None
when the language has no current translation of it."""


@dataclass(frozen=True)
class TbxTerm:
    """One term of a language: a word and, for a declared form, what it is."""

    text: str
    number: str | None = None
    """``sg``, ``du`` or ``pl`` when the form belongs to one number alone."""
    note: str | None = None
    """The cases the form serves, per number, by the names the glossary's ``grammar:`` gives
    them (``sg: genitive, accusative``)."""


@dataclass(frozen=True)
class TbxLanguage:
    code: str
    terms: tuple[TbxTerm, ...]
    """The term first, then its other forms and words."""
    definition: str | None = None


@dataclass(frozen=True)
class TbxEntry:
    id: str
    languages: tuple[TbxLanguage, ...]


def entries(glossary: Glossary, source_language: str, code: str, plain: Plain) -> list[TbxEntry]:
    """Every term of ``glossary`` as an entry of the TBX of ``code`` (the source language
    alone when ``code`` is the source language)."""
    found = []
    for term in glossary.terms:
        english = plain(source_language, f"glossary/{term.id}#term", term.term) or term.term
        languages = [TbxLanguage(source_language, _terms(english, term.forms.get(source_language), ()),
                                 plain(source_language, f"glossary/{term.id}#definition", term.definition))]
        if code != source_language:
            shown = _word(term, code, plain(code, f"glossary/{term.id}#term", term.term))
            if shown is not None:
                cases = glossary.grammar[code].cases if code in glossary.grammar else ()
                languages.append(TbxLanguage(code, _terms(shown, term.forms.get(code), cases),
                                             plain(code, f"glossary/{term.id}#definition", term.definition)))
        found.append(TbxEntry(term.id, tuple(languages)))
    return found


def _word(term: Term, code: str, translated: str | None) -> str | None:
    """The language's term: its current translation, else the word the glossary gives."""
    if translated:
        return translated
    if term.keep:
        return term.term
    if term.preferred.get(code) or term.declined(code):
        return term.preferred_form(code)
    return None


def _terms(first: str, inflection: Inflection | None, cases: tuple[str, ...]) -> tuple[TbxTerm, ...]:
    """``first``, then every form of ``inflection`` once, each with its number (when it
    belongs to one) and the cases it serves."""
    numbers: dict[str, dict[str, list[str]]] = {}
    if inflection is not None:
        for number in NUMBERS:
            forms = getattr(inflection, number) or ()
            for position, form in enumerate(forms):
                served = numbers.setdefault(form, {}).setdefault(number, [])
                if len(cases) == len(forms):
                    served.append(cases[position])
        for word in inflection.other:
            numbers.setdefault(word, {})

    def described(word: str) -> TbxTerm:
        served = numbers.get(word, {})
        note = "; ".join(f"{number}: {', '.join(names)}" for number, names in served.items() if names)
        return TbxTerm(word, next(iter(served)) if len(served) == 1 else None, note or None)

    return (described(first), *(described(word) for word in numbers if word != first))


def tbx_tree(title: str, source_language: str, found: Iterable[TbxEntry]) -> ET.ElementTree[ET.Element]:
    """The TBX document of ``found``."""
    root = ET.Element("martif", {"type": "TBX-Basic", XML_LANG: _language_tag(source_language)})
    header = ET.SubElement(root, "martifHeader")
    described = ET.SubElement(header, "fileDesc")
    ET.SubElement(ET.SubElement(described, "titleStmt"), "title").text = _xml_text(title)
    ET.SubElement(ET.SubElement(described, "sourceDesc"), "p").text = (
        "Written by validator from the book's glossary and its catalogues")
    ET.SubElement(ET.SubElement(header, "encodingDesc"), "p", {"type": "XCSURI"}).text = "TBXBasicXCSV02.xcs"
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    for entry in found:
        element = ET.SubElement(body, "termEntry", {"id": _xml_text(entry.id)})
        for language in entry.languages:
            group = ET.SubElement(element, "langSet", {XML_LANG: _language_tag(language.code)})
            if language.definition:
                ET.SubElement(group, "descrip", {"type": "definition"}).text = _xml_text(language.definition)
            for term in language.terms:
                tig = ET.SubElement(group, "tig")
                ET.SubElement(tig, "term").text = _xml_text(term.text)
                if term.number is not None:
                    ET.SubElement(tig, "termNote", {"type": "grammaticalNumber"}).text = NUMBERS[term.number]
                if term.note:
                    ET.SubElement(tig, "note").text = _xml_text(term.note)
    ET.indent(root)
    return ET.ElementTree(root)


def tbx_bytes(title: str, source_language: str, found: Iterable[TbxEntry]) -> bytes:
    """The file: UTF-8 with its XML declaration, one trailing newline."""
    written = io.BytesIO()
    tbx_tree(title, source_language, found).write(written, encoding="UTF-8", xml_declaration=True)
    return written.getvalue() + b"\n"


def _xml_text(value: str) -> str:
    return NOT_XML.sub("\ufffd", value)


def _language_tag(code: str) -> str:
    """A catalogue's language code as ``xml:lang`` writes it (BCP 47: ``pt-BR``)."""
    return _xml_text(code.replace("_", "-"))
