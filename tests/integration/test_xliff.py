"""Every shipped catalogue through Translate Toolkit's XLIFF converters, ``po2xliff`` and
then ``xliff2po``, in a temporary folder, read with Babel before and after.

Each catalogue goes through as shipped, with three states added so that they go through
too: its first entry marked fuzzy with a previous msgid and given a translator comment,
and one obsolete entry.

What survives, compared for every entry whose English is its own (no other entry of the
catalogue has the same msgid): the msgid, the msgstr, the fuzzy flag, the translator
comments (word for word, whatever their lines) and the locations; and every msgid of
the catalogue comes back.

What is lost, each loss asserted below so that the tools page
(``manual/docs/translators/tools.md``) stays true when the toolkit changes:

- the msgctxt of every entry: po2xliff writes none into the XLIFF, so xliff2po has none
  to bring back; entries that share an msgid come back merged into one, or each under a
  msgctxt that xliff2po makes of its file's name;
- the previous msgid (``#| msgid``) of a fuzzy entry;
- every flag but ``fuzzy`` (the ``python-format`` of an interface string);
- an obsolete entry comes back as a current one, and the header comes back fuzzy.

The project matches entries by msgctxt alone, so what comes back is not a catalogue to
commit: the page says to use ``validator i18n xliff-export`` and ``xliff-import``
instead, whose round trip loses none of these (``tests/unit/test_xliff_export.py``).
"""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from conftest import ROOT, program

from validator.catalogs.merge import catalog_bytes

CATALOGUES = sorted([*(ROOT / "locales").glob("*/LC_MESSAGES/*.po"),
                     *(ROOT / "validator" / "locale").glob("*/LC_MESSAGES/*.po")])
CONVERTERS = ("po2xliff", "xliff2po")


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def prepared(catalog: Path, folder: Path) -> Path:
    """A copy of ``catalog`` with a fuzzy entry (a previous msgid, a translator comment)
    and an obsolete entry, written as the project writes catalogues (Babel alone folds
    a long previous msgid into a comment the toolkit refuses)."""
    shipped = read(catalog)
    # An entry with a msgctxt where there is one: the project writes a previous msgid there.
    texts = [message for message in shipped if message.id]
    first = next((message for message in texts if message.context), texts[0])
    first.flags.add("fuzzy")
    first.previous_id = [f"Earlier English of {first.id}"]
    first.user_comments.append("a translator's note: keep the register formal")
    shipped.obsolete["gone#text"] = Message("A text no longer in the book", "Un texto que ya no está",
                                            context="gone#text")
    copy = folder / catalog.name
    copy.write_bytes(catalog_bytes(shipped))  # as validator i18n update writes a catalogue
    return copy


def round_trip(catalog: Path, folder: Path) -> Path:
    xliff, back = folder / f"{catalog.stem}.xlf", folder / f"{catalog.stem}.back.po"
    for name, source, target in (("po2xliff", catalog, xliff), ("xliff2po", xliff, back)):
        done = subprocess.run([program(name), "--progress=none", "-i", str(source), "-o", str(target)],
                              capture_output=True, text=True, timeout=120)
        # A file the toolkit cannot read is a warning, an empty output and exit status 0.
        assert done.returncode == 0 and target.stat().st_size and "Error" not in done.stderr, done.stderr
    return back


def entries(catalog: Catalog) -> list[Message]:
    return [message for message in catalog if message.id]


def words(message: Message) -> list[str]:
    """The translator comments, word for word (Babel reads a ``#|`` line as one too)."""
    return " ".join(comment for comment in message.user_comments if not comment.startswith("|")).split()


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def flag_lines(path: Path) -> set[str]:
    """The ``#,`` lines of a file as written (Babel adds the format flags it guesses)."""
    return {line for line in lines(path) if line.startswith("#,")}


def pair(path: Path, tmp_path: Path) -> tuple[Catalog, Catalog]:
    """The catalogue prepared from ``path`` and what comes back of it."""
    before = prepared(path, tmp_path)
    return read(before), read(round_trip(before, tmp_path))


@pytest.mark.parametrize("catalog", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_text_its_translation_state_and_comments_come_back(catalog: Path, tmp_path: Path) -> None:
    before, after = pair(catalog, tmp_path)
    shared = Counter(message.id for message in entries(before))
    back = {message.id: message for message in entries(after)}
    assert set(shared) <= set(back), "an English text did not come back"
    compared = 0
    for message in entries(before):
        if shared[message.id] > 1:
            continue
        returned = back[message.id]
        assert (returned.string, returned.fuzzy, words(returned), returned.locations) == \
            (message.string, message.fuzzy, words(message), message.locations), message.context
        compared += 1
    assert compared and any(message.fuzzy for message in entries(after))


@pytest.mark.parametrize("catalog", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_what_the_round_trip_loses_is_what_the_tools_page_says(catalog: Path, tmp_path: Path) -> None:
    before, after = pair(catalog, tmp_path)
    sent, back = tmp_path / catalog.name, tmp_path / f"{catalog.stem}.back.po"
    contexts = {message.context for message in entries(before)} - {None}
    assert not contexts & {message.context for message in entries(after)}, "a msgctxt came back"
    if contexts:  # a previous msgid is written above a msgctxt
        assert any(line.startswith("#| msgid") for line in lines(sent))
    assert not any(line.startswith("#|") for line in lines(back)) and not any(
        "Earlier English of" in line for line in lines(back)), "a previous msgid came back"
    assert flag_lines(back) == {"#, fuzzy"}, "a flag other than fuzzy came back"
    assert not any(line.startswith("#~") for line in lines(back)) and "A text no longer in the book" in {
        message.id for message in entries(after)}, "the obsolete entry did not come back as a current one"
    assert after.fuzzy and not before.fuzzy
    shared = Counter(message.id for message in entries(before))
    for text in (text for text, count in shared.items() if count > 1):
        returned = [message for message in entries(after) if message.id == text]
        # Merged into fewer entries, or each with a msgctxt made of its locations (the
        # file's name, or the names of every place it comes from): whose it was is lost.
        assert len(returned) < shared[text] or all(
            str(message.context) in {*(places := [location for location, _line in message.locations]),
                                     " ".join(places)}
            for message in returned), text
