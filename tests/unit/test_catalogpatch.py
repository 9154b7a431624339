"""A catalogue with a few entries changed, read by parsing only those, is what a
whole parse of it gives; any other change is left to the whole parse."""

from __future__ import annotations

import random
import re

from babel.messages.catalog import Catalog
from conftest import ROOT

from validator.catalogs.patch import Patched
from validator.catalogs.patch import patched_catalog as patch
from validator.catalogs.po import parse_catalog

SHOWN = "locales/es/LC_MESSAGES/rules.po"
TEXT = (ROOT / SHOWN).read_text(encoding="utf-8")


def patched_catalog(before: Catalog, before_text: str, text: str, shown_as: str) -> Patched | None:
    return patch(before, before_text.encode("utf-8"), text.encode("utf-8"), shown_as)


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
    assert described(patched.catalog) == described(whole)
    assert described(patched.catalog) != described(before)
    earlier = {message.context: (message.string, message.fuzzy) for message in before if message.id}
    changed = {str(message.context) for message in whole
               if message.id and (message.string, message.fuzzy) != earlier[message.context]}
    assert patched.contexts == changed and len(changed) == 4  # three translations and the fuzzy one
    assert patched.lines_moved
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
    assert described(patched.catalog) == described(parse_catalog(spaced, SHOWN))
    assert described(patched.catalog) != described(before)
    assert patched.lines_moved
    indented = TEXT[:between] + "\n  " + TEXT[between + 1:]
    assert patched_catalog(before, TEXT, indented, SHOWN) is None


def test_a_catalogue_with_spaces_on_a_blank_line_is_cut_as_the_whole_parse_reads_it() -> None:
    """Where a blank line holds spaces or a tab, entries are cut by the pattern, not by
    bare blank lines: a translation changed after it still reads as the whole parse reads it."""
    between = TEXT.index("\n\n", len(TEXT) // 3)
    spaced = TEXT[:between] + "\n \t" + TEXT[between + 1:]
    before = parse_catalog(spaced, SHOWN)
    translations = list(re.finditer(r'^msgstr "(.+)"$', spaced, re.MULTILINE))
    late = translations[-2]
    text = spaced[:late.start(1)] + "Otra vez: " + spaced[late.start(1):]
    patched = patched_catalog(before, spaced, text, SHOWN)
    assert patched is not None and not patched.lines_moved and len(patched.contexts) == 1
    assert described(patched.catalog) == described(parse_catalog(text, SHOWN))


def test_random_edits_anywhere_read_as_the_whole_parse_reads_them() -> None:
    """Entries edited at random (the first, the last, neighbours, far apart; grown,
    shrunk, marked fuzzy, commented): the patched reading is the whole parse's, or
    None; the contexts it names are the edited entries'."""
    rng = random.Random(6)
    base = parse_catalog(TEXT, SHOWN)
    starts = [match.start() for match in re.finditer(r"^msgctxt ", TEXT, re.MULTILINE)]
    patched_count = 0
    for _ in range(40):
        picked = sorted(set(rng.sample(range(len(starts)), rng.randint(1, 3))
                            + ([0] if rng.random() < 0.2 else []) + ([len(starts) - 1] if rng.random() < 0.2 else [])))
        text = TEXT
        for index in reversed(picked):
            msgstr = text.index("\nmsgstr", starts[index]) + 1
            end = text.find("\n\n", msgstr)
            end = len(text.rstrip("\n")) if end < 0 else end
            way = rng.choice(["grow", "shrink", "fuzzy", "comment", "word"])
            if way == "grow":
                text = text[:msgstr] + 'msgstr ""\n"Uno "\n"dos"' + text[end:]
            elif way == "shrink":
                text = text[:msgstr] + 'msgstr "Uno"' + text[end:]
            elif way == "fuzzy":
                text = text[:starts[index]] + "#, fuzzy\n" + text[starts[index]:]
            elif way == "comment":
                text = text[:starts[index]] + "# Revisado\n" + text[starts[index]:]
            else:
                text = text[:msgstr] + 'msgstr "Otra"' + text[end:]
        patched = patched_catalog(base, TEXT, text, SHOWN)
        if patched is None:
            continue
        patched_count += 1
        whole = parse_catalog(text, SHOWN)
        assert described(patched.catalog) == described(whole), picked
        earlier = {message.context: (message.string, message.fuzzy, message.user_comments) for message in base}
        edited = {str(message.context) for message in whole
                  if message.id and (message.string, message.fuzzy, message.user_comments) != earlier[message.context]}
        assert edited <= patched.contexts
    assert patched_count >= 35
