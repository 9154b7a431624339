"""The glossary's TBX writer: a small glossary in, the parsed XML out.

Each term is a ``termEntry`` with one ``langSet`` per language (the language's code as
``xml:lang``), the term first and the declared forms after it, the definition as a
``descrip``; every text comes back from the parser exactly as it went in, markup
characters included, because ElementTree escaped them; and Translate Toolkit, through
which Weblate reads a glossary, finds the source and the target of each entry.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from translate.storage.tbx import tbxfile

from validator.content.model import Glossary
from validator.site.tbx import TbxEntry, TbxLanguage, TbxTerm, entries, tbx_bytes

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
HOSTILE = '<script>alert("x")</script> & co ]]> &amp;'

GLOSSARY = Glossary.model_validate({
    "grammar": {"pl": {"cases": ["mianownik", "dopełniacz"]}},
    "terms": [
        {"id": "rider", "term": "rider", "definition": "Who sits on a {term:mount}.",
         "forms": {"es": {"sg": "jinete", "pl": "jinetes"},
                   "pl": {"sg": ["jeździec", "jeźdźca"], "pl": ["jeźdźcy", "jeźdźców"]}}},
        {"id": "cavalry", "term": "cavalry", "definition": "Riders on steeds.",
         "forms": {"pl": {"sg": ["kawaleria", "kawalerii"], "pl": ["kawalerie", "kawalerii"],
                          "other": ["konnica"]}}},
        {"id": "tomb-king", "term": "Tomb King", "definition": "A name.", "keep": True},
        {"id": "new", "term": "new term", "definition": "Not translated yet."},
        {"id": "hostile", "term": HOSTILE, "definition": f"Defined as {HOSTILE}."},
    ],
})
"""Rider: translated in Spanish; cavalry: Polish forms in two numbers (``kawalerii``
in both) and another word; a kept name; a term no language has a word for; and a term
made of markup characters."""

TRANSLATIONS = {
    ("es", "glossary/rider#term"): "jinete",
    ("es", "glossary/rider#definition"): "Quien monta una montura.",
    ("es", "glossary/hostile#term"): f"{HOSTILE} (es)",
    ("pl", "glossary/rider#term"): "jeździec",
}


def plain(language: str, context: str, english: str) -> str | None:
    """The source language's text as it is, and the translations of the table above."""
    return english.replace("{term:mount}", "mount") if language == "en" else TRANSLATIONS.get((language, context))


def parsed(code: str, glossary: Glossary = GLOSSARY) -> ET.Element:
    return ET.fromstring(tbx_bytes("A book: glossary", "en", entries(glossary, "en", code, plain)))


def language_sets(root: ET.Element) -> dict[str, dict[str, ET.Element]]:
    """term id -> language -> its langSet."""
    return {entry.attrib["id"]: {group.attrib[XML_LANG]: group for group in entry.findall("langSet")}
            for entry in root.iter("termEntry")}


def terms(group: ET.Element) -> list[str]:
    return [str(term.text) for term in group.iter("term")]


def test_a_martif_document_of_tbx_basic_with_one_entry_per_term() -> None:
    root = parsed("es")
    assert (root.tag, root.attrib["type"], root.attrib[XML_LANG]) == ("martif", "TBX-Basic", "en")
    assert root.findtext("martifHeader/fileDesc/titleStmt/title") == "A book: glossary"
    assert [entry.attrib["id"] for entry in root.iter("termEntry")] == ["rider", "cavalry", "tomb-king", "new",
                                                                       "hostile"]


def test_each_term_in_english_and_in_the_language_with_its_definitions() -> None:
    rider = language_sets(parsed("es"))["rider"]
    assert list(rider) == ["en", "es"]
    assert terms(rider["en"]) == ["rider"]
    assert rider["en"].findtext("descrip[@type='definition']") == "Who sits on a mount."
    assert terms(rider["es"]) == ["jinete", "jinetes"]
    assert rider["es"].findtext("descrip[@type='definition']") == "Quien monta una montura."
    numbers = [tig.findtext("termNote[@type='grammaticalNumber']") for tig in rider["es"].iter("tig")]
    assert numbers == ["singular", "plural"]


def test_every_declared_form_once_with_its_number_and_cases() -> None:
    found = language_sets(parsed("pl"))
    rider = [(tig.findtext("term"), tig.findtext("termNote"), tig.findtext("note")) for tig in found["rider"]["pl"]]
    assert rider == [("jeździec", "singular", "sg: mianownik"), ("jeźdźca", "singular", "sg: dopełniacz"),
                     ("jeźdźcy", "plural", "pl: mianownik"), ("jeźdźców", "plural", "pl: dopełniacz")]
    cavalry = [(tig.findtext("term"), tig.findtext("termNote"), tig.findtext("note")) for tig in found["cavalry"]["pl"]]
    # No current translation: the glossary's first form is the term; a form of both numbers names neither.
    assert cavalry == [("kawaleria", "singular", "sg: mianownik"),
                       ("kawalerii", None, "sg: dopełniacz; pl: dopełniacz"),
                       ("kawalerie", "plural", "pl: mianownik"), ("konnica", None, None)]
    assert found["rider"]["pl"].find("descrip") is None, "an untranslated definition is not offered as Polish"


def test_a_kept_name_is_its_english_word_and_an_untranslated_term_has_no_language_set() -> None:
    found = language_sets(parsed("es"))
    assert terms(found["tomb-king"]["es"]) == ["Tomb King"]
    assert list(found["new"]) == ["en"]
    assert list(found["cavalry"]) == ["en"], "Spanish has neither a translation nor forms of it"


def test_markup_characters_are_escaped_and_come_back_as_written() -> None:
    raw = tbx_bytes("A book & <co>", "en", entries(GLOSSARY, "en", "es", plain))
    assert b"<script>" not in raw and b"]]>" not in raw
    assert b"&lt;script&gt;" in raw and b"&amp; co" in raw and b"&amp;amp;" in raw
    root = ET.fromstring(raw)
    assert root.findtext("martifHeader/fileDesc/titleStmt/title") == "A book & <co>"
    hostile = language_sets(root)["hostile"]
    assert terms(hostile["en"]) == [HOSTILE]
    assert hostile["en"].findtext("descrip") == f"Defined as {HOSTILE}."
    assert terms(hostile["es"]) == [f"{HOSTILE} (es)"]


def test_a_character_xml_cannot_hold_is_replaced_and_the_file_still_parses() -> None:
    entry = TbxEntry('a"\x01', (TbxLanguage("en", (TbxTerm("bell\x07 and\ttab"),), "form\x0cfeed"),))
    root = ET.fromstring(tbx_bytes("t", "en", [entry]))
    element = next(root.iter("termEntry"))
    assert element.attrib["id"] == 'a"\ufffd'
    assert element.findtext("langSet/tig/term") == "bell\ufffd and\ttab"
    assert element.findtext("langSet/descrip") == "form\ufffdfeed"


def test_language_codes_are_written_as_xml_lang_tags() -> None:
    entry = TbxEntry("rider", (TbxLanguage("en", (TbxTerm("rider"),)), TbxLanguage("pt_BR", (TbxTerm("cavaleiro"),))))
    root = ET.fromstring(tbx_bytes("t", "en", [entry]))
    assert [group.attrib[XML_LANG] for group in root.iter("langSet")] == ["en", "pt-BR"]


def test_the_source_language_alone_is_a_monolingual_glossary() -> None:
    found = language_sets(parsed("en"))
    assert all(list(groups) == ["en"] for groups in found.values())


def test_translate_toolkit_reads_source_target_and_definitions() -> None:
    """Weblate reads a TBX glossary through Translate Toolkit's ``tbxfile``."""
    raw = tbx_bytes("A book: glossary", "en", entries(GLOSSARY, "en", "es", plain))
    store = tbxfile.parsestring(raw, sourcelanguage="en", targetlanguage="es")
    units = {unit.getid(): unit for unit in store.units}
    assert list(units) == ["rider", "cavalry", "tomb-king", "new", "hostile"]
    assert (units["rider"].source, units["rider"].target) == ("rider", "jinete")
    assert [term.text for term in units["rider"].get_target_terms()] == ["jinete", "jinetes"]
    assert "Quien monta una montura." in units["rider"].getnotes("definition")
    assert (units["hostile"].source, units["hostile"].target) == (HOSTILE, f"{HOSTILE} (es)")
    assert not units["new"].target
