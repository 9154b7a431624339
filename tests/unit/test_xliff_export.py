"""Every shipped catalogue through ``validator.catalogs.xliff`` and back, the file read
and written in between by Translate Toolkit's XLIFF storage, as a translation tool
reads and writes it.

An untouched round trip leaves each catalogue byte for byte as it was; a round trip
in which the tool changes some targets, some states and a translator's note changes
those entries and no other byte; Translate Toolkit's own ``xliff2po`` reads the export
and gives back every text and translation; and a file the catalogues no longer match
(an English changed, an entry gone, broken XML) is refused, one line a unit, with
nothing written.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from conftest import ROOT
from translate.convert.xliff2po import xliff2po
from translate.storage import poxliff, xliff

from validator.catalogs.merge import catalog_bytes
from validator.catalogs.po import catalog_from_bytes, read_catalog
from validator.catalogs.xliff import Exported, export_xliff, import_xliff
from validator.problems import ProblemsFound

CATALOGUES = sorted([*(ROOT / "locales").glob("*/LC_MESSAGES/*.po"),
                     *(ROOT / "validator" / "locale").glob("*/LC_MESSAGES/*.po")])
NAME = "locales/xx/LC_MESSAGES/rules.po"
"""The name the file gives the catalogue under test (its copy is in a test's folder)."""


def prepared(catalog: Path, folder: Path) -> Path:
    """A copy of ``catalog`` with what an XLIFF round trip of Translate Toolkit's own
    converters loses: a fuzzy entry with a previous English and a translator's note,
    an obsolete entry, and a flag of the translator's (``no-wrap``)."""
    shipped = read_catalog(catalog, str(catalog))
    texts = [message for message in shipped if message.id and message.string]
    first = next((message for message in texts if message.context), texts[0])
    first.flags = {*first.flags, "fuzzy"}
    first.previous_id = [f"Earlier English of {first.id}"]
    first.user_comments.append("a translator's note: keep the register formal")
    texts[-1].flags = {*texts[-1].flags, "no-wrap"}
    shipped.obsolete["gone#text"] = Message("A text no longer in the book", "Un texto que ya no está",
                                            context="gone#text")
    copy = folder / catalog.name
    copy.write_bytes(catalog_bytes(shipped))
    return copy


def exported(path: Path) -> bytes:
    return export_xliff([Exported(path.stem, NAME, read_catalog(path, NAME))], "en", "xx")


def through_the_toolkit(data: bytes, edit: Callable[[list[Any]], None] = lambda _units: None) -> bytes:
    """The file as Translate Toolkit reads it, ``edit`` done to its units, and saves it."""
    store = poxliff.PoXliffFile.parsestring(data)
    edit(list(store.units))
    return bytes(store)


def imported(data: bytes, path: Path) -> bytes:
    """The catalogue at ``path`` with ``data`` imported (unchanged when nothing changes)."""
    changes = import_xliff(data, "es.xlf", "xx", {NAME: path}).changes
    assert len(changes) <= 1
    return changes[0].data if changes else path.read_bytes()


def blocks(data: bytes) -> list[bytes]:
    return data.split(b"\n\n")


@pytest.mark.parametrize("catalog", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_an_untouched_round_trip_changes_no_byte(catalog: Path, tmp_path: Path) -> None:
    path = prepared(catalog, tmp_path)
    data = exported(path)
    assert data == exported(path), "the export is not the same twice"
    assert imported(data, path) == path.read_bytes()
    assert imported(through_the_toolkit(data), path) == path.read_bytes()


@pytest.mark.parametrize("catalog", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_tools_changes_reach_those_entries_and_nothing_else(catalog: Path, tmp_path: Path) -> None:
    path = prepared(catalog, tmp_path)
    before = read_catalog(path, NAME)
    fuzzy = next(message for message in before if message.fuzzy)
    translated = [message for message in before if message.id and message.string and not message.fuzzy]
    retranslated, unapproved, annotated = translated[0], translated[1], translated[2]
    # Each entry's unit, by the msgctxt (resname) or, without one, the English.
    def unit(units: list[Any], message: Message) -> Any:
        name = str(message.context or message.id)
        return next(item for item in units if item.getid().rpartition("\x04")[2] == name)

    def edit(units: list[Any]) -> None:
        unit(units, retranslated).target = "Una traducción nueva, con <etiquetas> & \"comillas\""
        unit(units, unapproved).markfuzzy(True)
        unit(units, fuzzy).markfuzzy(False)
        unit(units, annotated).addnote("revisado con el editor", origin="translator")

    result = imported(through_the_toolkit(exported(path), edit), path)
    after = catalog_from_bytes(result, NAME)
    changed = {retranslated.context or retranslated.id, unapproved.context or unapproved.id,
               fuzzy.context or fuzzy.id, annotated.context or annotated.id}
    for message in (message for message in after if message.id):
        old = before.get(message.id, message.context)
        assert old is not None
        assert (message.previous_id, message.auto_comments, message.locations) == (
            old.previous_id, old.auto_comments, old.locations)
        if (message.context or message.id) not in changed:
            assert (message.string, message.flags, message.user_comments) == (
                old.string, old.flags, old.user_comments)
    new = after.get(retranslated.id, retranslated.context)
    assert new is not None and new.string == "Una traducción nueva, con <etiquetas> & \"comillas\""
    assert after.get(unapproved.id, unapproved.context).fuzzy  # type: ignore[union-attr]
    approved = after.get(fuzzy.id, fuzzy.context)
    assert approved is not None and not approved.fuzzy and approved.previous_id == fuzzy.previous_id
    assert after.get(annotated.id, annotated.context).user_comments == [  # type: ignore[union-attr]
        *annotated.user_comments, "revisado con el editor"]
    assert set(after.obsolete) == set(before.obsolete) and after.fuzzy == before.fuzzy
    # Byte for byte: the header, the obsolete entry and every other entry as they were.
    old_blocks, new_blocks = blocks(path.read_bytes()), blocks(result)
    assert len(old_blocks) == len(new_blocks)
    differ = [new for old, new in zip(old_blocks, new_blocks, strict=True) if old != new]
    assert len(differ) == len(changed)


@pytest.mark.parametrize("catalog", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_translate_toolkits_xliff2po_reads_every_text_and_translation(catalog: Path, tmp_path: Path) -> None:
    path = prepared(catalog, tmp_path)
    store = xliff2po().convertstore(io.BytesIO(exported(path)))
    back = {(str(unit.source), str(unit.target)) for unit in store.units if not unit.isheader()}
    shipped = read_catalog(path, NAME)
    shared = Counter(str(message.id) for message in shipped if message.id)
    assert {english for english, _translation in back} == set(shared)
    # A PO file without msgctxt holds one entry of an English text: xliff2po keeps one
    # of the entries that share theirs (the tools page names the loss).
    assert {(str(message.id), str(message.string)) for message in shipped
            if message.id and shared[str(message.id)] == 1} <= back
    assert any(unit.isfuzzy() for unit in store.units)
    units = xliff.xlifffile.parsestring(exported(path)).units
    contexts = {message.context for message in shipped if message.id} - {None}
    assert contexts <= {unit.xmlelement.get("resname") for unit in units}
    if contexts:  # the project writes a previous English above a msgctxt
        assert any(unit.getalttrans("previous") for unit in units), "the previous English is not in the file"


def catalog_of(tmp_path: Path, *messages: Message, locale: str = "es") -> Path:
    catalog = Catalog(locale=locale, fuzzy=False)
    for message in messages:
        catalog[message.id] = message
    path = tmp_path / "rules.po"
    path.write_bytes(catalog_bytes(catalog))
    return path


def refused(data: bytes, path: Path) -> list[str]:
    """The lines of the import's refusal; the catalogue is left as it was."""
    before = path.read_bytes()
    try:
        result = import_xliff(data, "es.xlf", "xx", {NAME: path})
    except ProblemsFound as found:  # the whole file
        problems = list(found.problems)
    else:  # units of it: nothing is to be written
        assert result.changes == []
        problems = result.problems
    assert problems and path.read_bytes() == before
    return [str(problem) for problem in problems]


def test_a_unit_whose_english_changed_since_the_export_is_refused(tmp_path: Path) -> None:
    path = catalog_of(tmp_path, Message("The old text.", "El texto.", context="a/b#text"),
                      Message("Other.", "Otro.", context="a/c#text"))
    data = exported(path)
    assert import_xliff(data.replace(b"El texto.", b"El texto nuevo."), "es.xlf", "xx", {NAME: path}).changes
    path.write_bytes(path.read_bytes().replace(b"The old text.", b"The new text."))
    edited = data.replace(b"Otro.", b"Otra cosa.")
    lines = refused(edited, path)
    line = edited.decode().splitlines().index(next(text for text in edited.decode().splitlines()
                                                   if 'id="a/b#text"' in text)) + 1
    assert lines == [f"es.xlf:{line}: [a/b#text] the English (source) is no longer the catalogue's: {NAME} "
                     "changed since the export. Fix: export again (validator i18n xliff-export) and translate "
                     "the unit in the new file"]


def test_a_unit_of_no_entry_is_refused(tmp_path: Path) -> None:
    path = catalog_of(tmp_path, Message("A text.", "Un texto.", context="a/b#text"))
    data = exported(path)
    assert not import_xliff(data, "es.xlf", "xx", {NAME: path}).changes
    [line] = refused(data.replace(b'id="a/b#text" resname="a/b#text"', b'id="a/z#text" resname="a/z#text"'), path)
    assert re.fullmatch(r"es\.xlf:5: \[a/z#text\] no entry of .* has this id: the text left the book, or its "
                        r"English changed, since the export\. Fix: export again .*", line), line


@pytest.mark.parametrize(("breaking", "expected"), [
    (lambda data: data[:-40], r"es\.xlf:\d+: the file is not well-formed XML \(.*\)\. Fix: give the file the tool "
                              r"saved, whole; .*"),
    (lambda data: data.replace(b"<xliff", b"<!DOCTYPE x [<!ENTITY a 'b'>]>\n<xliff"),
     r"es\.xlf:2: the file declares a DOCTYPE, which an XLIFF file has not\. Fix: .*"),
    (lambda data: data.replace(b"urn:oasis:names:tc:xliff:document:1.2", b"urn:example"),
     r"es\.xlf:2: the file is no XLIFF 1\.2 file .*"),
    (lambda data: data.replace(b'target-language="xx"', b'target-language="pl"'),
     r"es\.xlf:3: \[locales/xx/LC_MESSAGES/rules\.po\] the file is for the language 'pl', not 'xx'\. Fix: .*"),
    (lambda data: data.replace(NAME.encode(), b"locales/xx/LC_MESSAGES/other.po"),
     r"es\.xlf:3: \[locales/xx/LC_MESSAGES/other\.po\] the file names no catalogue of 'xx' .*Fix: export again.*"),
    (lambda data: data.replace(b"\xc3\xa1", b"\xe1"), r"es\.xlf:\d+: byte 0xe1 at column \d+ is not UTF-8.*"),
])
def test_a_file_that_is_no_export_is_one_line(tmp_path: Path, breaking: Callable[[bytes], bytes],
                                              expected: str) -> None:
    path = catalog_of(tmp_path, Message("A text.", "Un texto á.", context="a/b#text"))
    data = exported(path)
    assert not import_xliff(data, "es.xlf", "xx", {NAME: path}).changes
    [line] = refused(breaking(data), path)
    assert re.fullmatch(expected, line), line


def test_nothing_is_written_while_one_unit_is_refused(tmp_path: Path) -> None:
    path = catalog_of(tmp_path, Message("A text.", "Un texto.", context="a/b#text"),
                      Message("Other.", "Otro.", context="a/c#text"))
    data = exported(path).replace(b"Un texto.", b"Un texto nuevo.")
    [line] = refused(data.replace(b"<source>Other.</source>", b"<source>Changed.</source>"), path)
    assert "[a/c#text]" in line


def test_a_new_fuzzy_mark_stands_where_the_writer_puts_it(tmp_path: Path) -> None:
    plain = Message("A text.", "Un texto.", context="a/b#text")
    formatted = Message("%(count)s left", "quedan %(count)s", context="a/c#text", flags=["python-format"])
    previous = Message("Now.", "Ahora.", context="a/d#text", flags=["fuzzy"], previous_id=["Then."])
    path = catalog_of(tmp_path, plain, formatted, previous)

    def edit(units: list[Any]) -> None:
        for unit in units:
            unit.markfuzzy(not unit.isfuzzy())

    result = imported(through_the_toolkit(exported(path), edit), path)
    marked = catalog_bytes(catalog_from_bytes(result, NAME))
    assert result == marked, "not as the project writes the catalogue"
    assert b'#, fuzzy\nmsgctxt "a/b#text"' in result and b"#, fuzzy, python-format\n" in result
    assert b'#| msgid "Then."\nmsgctxt "a/d#text"' in result and b"#, fuzzy\n#| msgid" not in result


def test_plural_forms_go_out_and_come_back_by_form(tmp_path: Path) -> None:
    plural = Message(("%(count)s unit", "%(count)s units"), ("%(count)s unidad", "%(count)s unidades"),
                     flags=["python-format"])
    path = catalog_of(tmp_path, plural)
    data = exported(path)
    assert b'restype="x-gettext-plurals"' in data and imported(data, path) == path.read_bytes()

    def edit(units: list[Any]) -> None:
        [unit] = units
        assert unit.hasplural()
        unit.target = ["%(count)s unidad", "%(count)s unidades en total", "%(count)s de unidades"]

    after = catalog_from_bytes(imported(through_the_toolkit(data, edit), path), NAME)
    entry = after.get(("%(count)s unit", "%(count)s units"))
    assert entry is not None and list(entry.string) == ["%(count)s unidad", "%(count)s unidades en total",
                                                "%(count)s de unidades"]


def test_a_text_xml_cannot_carry_is_refused_at_the_export_and_a_carriage_return_is_kept(tmp_path: Path) -> None:
    path = catalog_of(tmp_path, Message("A\rtext.", "Un\rtexto.", context="a/b#text"))
    assert imported(through_the_toolkit(exported(path)), path) == path.read_bytes()
    bad = catalog_of(tmp_path, Message("A\x1btext.", "Un texto.", context="a/b#text"))
    with pytest.raises(ProblemsFound) as found:
        exported(bad)
    assert [str(problem) for problem in found.value.problems] == [
        f"{NAME}:{found.value.problems[0].line}: [a/b#text] the entry holds the control character U+001B, "
        "which XLIFF cannot carry. Fix: "
        "remove it from the catalogue (it is invisible in most editors), then export again"]


def test_a_unit_without_a_target_or_a_note_leaves_its_entry_as_it_was(tmp_path: Path) -> None:
    commented = Message("A text.", "Un texto.", context="a/b#text", user_comments=["keep it formal"])
    path = catalog_of(tmp_path, commented, Message("Other.", "Otro.", context="a/c#text", flags=["fuzzy"]))
    data = exported(path)
    for tool_output in (re.sub(rb"\s*<target[^>]*>[^<]*</target>", b"", data),  # targets left out
                        re.sub(rb"(<target[^>]*>)[^<]*(</target>)", rb"\1\2", data),  # left empty
                        re.sub(rb"\s*<note[^>]*>[^<]*</note>", b"", data)):  # notes dropped
        result = import_xliff(tool_output, "es.xlf", "xx", {NAME: path})
        assert (result.changes, result.problems) == ([], [])
        assert result.count("kept") == 2 and result.count("changed") == 0
    cleared = import_xliff(re.sub(rb"(<target[^>]*>)[^<]*(</target>)", rb"\1\2", data), "es.xlf", "xx",
                           {NAME: path}, clear_empty=True)
    assert [(outcome.name, outcome.fate, outcome.why) for outcome in cleared.outcomes] == [
        ("a/b#text", "changed", "translation emptied"), ("a/c#text", "changed", "translation emptied")]
    after = catalog_from_bytes(cleared.changes[0].data, NAME)
    assert [(message.string, message.user_comments) for message in after if message.id] == [
        ("", ["keep it formal"]), ("", [])]


def test_a_plural_form_left_empty_keeps_that_form(tmp_path: Path) -> None:
    plural = Message(("%(count)s unit", "%(count)s units"), ("%(count)s unidad", "%(count)s unidades"),
                     flags=["python-format"])
    path = catalog_of(tmp_path, plural)

    def edit(units: list[Any]) -> None:
        [unit] = units
        unit.target = ["", "%(count)s unidades en total"]

    result = import_xliff(through_the_toolkit(exported(path), edit), "es.xlf", "xx", {NAME: path})
    [change] = result.changes
    entry = catalog_from_bytes(change.data, NAME).get(("%(count)s unit", "%(count)s units"))
    assert entry is not None and list(entry.string) == ["%(count)s unidad", "%(count)s unidades en total", ""]


def test_a_word_without_spaces_is_wrapped_as_babel_wraps_it() -> None:
    """The catalogues' writer splits lines with an expression of its own, linear in the
    length of a word (see validator.catalogs.powrap): on random texts it finds what
    Babel's finds, and the comparison tells a wrong expression apart."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from validator.catalogs.powrap import BABEL_WORD_SEP, WORD_SEP

    alphabet = st.sampled_from(["a", "Z", "9", "_", "é", "ż", "-", "--", ".", "!", '"', "'", "&", ",", "?", " ",
                                "\n", "\t", "—", "ab-cd", "x.-y"])
    texts = st.lists(alphabet, max_size=40).map("".join)

    @settings(max_examples=3000, deadline=None, database=None)
    @given(texts)
    def same_split(text: str) -> None:
        assert WORD_SEP.split(text) == BABEL_WORD_SEP.split(text)

    same_split()
    # Without the branch for a hyphenated word starting at a run of letters, it differs.
    wrong = re.compile(WORD_SEP.pattern.replace(r"|(?<!\w))", ")"))
    assert wrong.split("a well-known rule") != BABEL_WORD_SEP.split("a well-known rule")
    # A word of three million letters is split at once (Babel's expression takes hours).
    assert WORD_SEP.split("a" * 3_000_000) == ["a" * 3_000_000]
