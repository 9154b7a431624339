"""A catalogue with a few entries changed, read by parsing only those, is what a
whole parse of it gives; any other change is left to the whole parse."""

from __future__ import annotations

import re

from conftest import ROOT

from validator.content.catalogpatch import patched_catalog
from validator.content.catalogs import parse_catalog

SHOWN = "locales/es/LC_MESSAGES/rules.po"
TEXT = (ROOT / SHOWN).read_text(encoding="utf-8")


def described(catalog: object) -> list[tuple[object, ...]]:
    return [(m.context, m.id, m.string, m.fuzzy, m.lineno, m.user_comments, m.auto_comments, m.locations,
             m.previous_id, sorted(m.flags)) for m in catalog]  # type: ignore[attr-defined]


def test_changed_translations_are_parsed_alone_and_alike() -> None:
    before = parse_catalog(TEXT, SHOWN)
    translations = list(re.finditer(r'^msgstr "(.+)"$', TEXT, re.MULTILINE))
    assert len(translations) > 100
    text = TEXT
    for match in reversed([translations[5], translations[60], translations[-1]]):
        text = text[:match.start(1)] + "Cambiado: " + text[match.start(1):]
    # A fuzzy mark added, and a translation spread over two lines (the entry grows a line).
    text = text.replace('\nmsgctxt "challenges#title"', '\n#, fuzzy\nmsgctxt "challenges#title"', 1)
    patched = patched_catalog(before, TEXT, text, SHOWN)
    assert patched is not None
    whole = parse_catalog(text, SHOWN)
    assert described(patched) == described(whole)
    assert described(patched) != described(before)
    assert described(before) == described(parse_catalog(TEXT, SHOWN))  # the earlier reading is left as it was


def test_other_changes_take_the_whole_parse() -> None:
    before = parse_catalog(TEXT, SHOWN)
    added = TEXT + '\nmsgctxt "new#title"\nmsgid "New"\nmsgstr "Nuevo"\n'
    assert patched_catalog(before, TEXT, added, SHOWN) is None
    header = TEXT.replace("Language-Team:", "Language-Team: Otro", 1)
    assert patched_catalog(before, TEXT, header, SHOWN) is None
    renamed = TEXT.replace('msgctxt "challenges#title"', 'msgctxt "challenges#other"', 1)
    assert patched_catalog(before, TEXT, renamed, SHOWN) is None


def test_blank_lines_added_between_entries_read_as_a_whole_parse_reads_them() -> None:
    """A blank line more between two entries moves every later entry a line down; a
    blank line that gains spaces is a change of the separators, left to the whole parse."""
    before = parse_catalog(TEXT, SHOWN)
    between = TEXT.index("\n\n", len(TEXT) // 2)  # two entries in the middle of the file
    spaced = TEXT[:between] + "\n" + TEXT[between:]
    patched = patched_catalog(before, TEXT, spaced, SHOWN)
    assert patched is not None
    assert described(patched) == described(parse_catalog(spaced, SHOWN))
    assert described(patched) != described(before)
    indented = TEXT[:between] + "\n  " + TEXT[between + 1:]
    assert patched_catalog(before, TEXT, indented, SHOWN) is None
