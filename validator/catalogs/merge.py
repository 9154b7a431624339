"""Bring catalogues up to date with the template without ever losing a translation.

Matching is by msgctxt (``<id>#<field>``), never by similarity of the English
text, because two rules can share a sentence while meaning different things.
``pybabel update`` matches fuzzily across contexts and can drop or misattach a
translation, so it is not used here.

- same msgctxt, same English: the entry is kept as it is;
- same msgctxt, changed English: the translation is kept, marked fuzzy, with the
  previous English text (``#|``) so the translator sees what changed;
- a rule renamed with ``aliases:``: the entry of the old id is carried over;
- a new msgctxt whose exact English is that of one entry whose msgctxt left the
  template (a moved function's step, a renamed field): that translation is carried
  over, marked fuzzy, since only the translator can say the meaning moved with it;
- an interface string that gains a msgctxt (one English word found to stand for
  two things, told apart with ``pgettext``): the translation of the same English
  without a msgctxt is carried over as it is, not fuzzy, since it is what the page
  showed in that very place until then; the translator may now make it differ;
- a msgctxt no longer in the template: the entry is kept as obsolete (``#~``).

The automatic comments (``#.``) are the template's, followed by any the caller gives
for this catalogue's language alone (the glossary's forms of a term, see
:func:`validator.catalogs.extract.term_notes`); the translator's own comments (``#``) are kept.
"""

from __future__ import annotations

import copy
import io
import os
import re
import stat
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog, Message

from validator.catalogs.powrap import normalize, write_po
from validator.content.yamlsource import read_input

FORMAT_FLAGS = frozenset({"python-format", "python-brace-format"})
"""Babel guesses these from braces and percent signs; rule texts and labels are not
format strings (their tokens are checked by the lint), and the flag would make msgfmt
misread every {term:id|form}: their templates are made without them.  An interface
string's flag is kept, so that msgfmt --check-format and editors check its placeholders."""


def kept_flags(message: Message) -> set[str]:
    """The flags of a catalogue's entry that an update keeps: a translator's or a tool's
    own (``no-wrap``, a placeholder declaration, a length limit).  Whether the entry is
    out of date, and whether it is a format string, are the template's to say."""
    return {flag for flag in message.flags if flag != "fuzzy" and not flag.endswith("-format")}


_FRAGMENT = re.compile(r'^(?:[^"]|\\")*(?<!\\)"$')
"""A comment that is the tail of a quoted string, and nothing else: an unmatched closing
quote at its end (``character"``, ``"``)."""


def translator_comments(message: Message) -> list[str]:
    """The entry's translator comments, without the pieces of a wrapped ``#|`` line.

    Earlier updates let Babel read a previous msgid as a translator comment and wrap it
    when writing: the first piece (``| msgid ...``) was recognised on the next read, the
    following ones (``# character"``) stayed as comments of their own.  No translator
    writes a comment whose only quote closes it."""
    return [comment for comment in message.user_comments if not _FRAGMENT.match(comment.strip())]


def _context_key(message: Message) -> str:
    """The identity of an entry: its msgctxt, or for an entry without one (the
    interface strings) its exact English text."""
    return str(message.context) if message.context else f"\x00{message.id}"


def merge_catalog(template: Catalog, existing: Catalog, renamed: Mapping[str, str] | None = None,
                  notes: Mapping[str, Sequence[str]] | None = None) -> Catalog:
    """A new catalogue holding the template's messages with the existing translations.

    ``renamed`` maps a current id to its former ids' prefix: ``{"new/id": "old/id"}``
    lets ``new/id#title`` inherit the translation of ``old/id#title``.  ``notes`` maps
    a msgctxt to automatic comments for this language only, written after the
    template's: the template is the same for every language, and what a comment says
    of one language (the forms its glossary lists) belongs in that catalogue alone.
    """
    by_context: dict[str, Message] = {}
    for message in [*existing.obsolete.values(), *existing]:  # active entries win over obsolete ones
        if message.id:
            by_context[_context_key(message)] = message
    merged = copy.deepcopy(existing)
    for message in list(merged):
        if message.id:
            merged.delete(message.id, message.context)
    merged.obsolete.clear()
    used: set[str] = set()
    moved = _orphans_by_english(template, by_context)
    for message in template:
        if not message.id:
            continue
        context = _context_key(message)
        old = by_context.get(context) or by_context.get(_former_context(context, renamed or {}))
        if old is None and (orphan := moved.get(str(message.id))) is not None:
            old = copy.copy(orphan)
            old.flags = {*orphan.flags, "fuzzy"}
            used.add(_context_key(orphan))
        if old is None and message.context:
            old = by_context.get(f"\x00{message.id}")  # an interface string that gained a msgctxt
        own = list((notes or {}).get(str(message.context), ())) if message.context else []
        entry = Message(message.id, "", locations=message.locations, auto_comments=[*message.auto_comments, *own],
                        context=message.context)
        entry.flags = set(message.flags) - {"fuzzy"}  # the template's: see FORMAT_FLAGS
        if old is not None:
            used.add(_context_key(old))
            entry.string = old.string
            entry.user_comments = translator_comments(old)
            entry.flags |= kept_flags(old)
            changed = old.id != message.id
            if (changed or old.fuzzy) and old.string:
                entry.flags.add("fuzzy")
                # The English the translation was made for; a reviewed entry has no use for it.
                entry.previous_id = [str(old.id)] if changed else list(old.previous_id or [])
        merged[message.id] = entry
    for context, old in by_context.items():
        if context not in used and old.string:
            key: str | tuple[str, str] = (str(old.id), str(old.context)) if old.context else str(old.id)
            old.user_comments = translator_comments(old)
            merged.obsolete[key] = old
    merged.creation_date = template.creation_date
    return merged


def _orphans_by_english(template: Catalog, by_context: Mapping[str, Message]) -> dict[str, Message]:
    """Translated entries whose msgctxt left the template, by their English text, where
    that text belongs to one of them alone (two candidates leave the choice to no one)."""
    current = {_context_key(message) for message in template if message.id}
    found: dict[str, list[Message]] = {}
    for context, message in by_context.items():
        if context not in current and message.string and not context.startswith("\x00"):
            found.setdefault(str(message.id), []).append(message)
    return {english: messages[0] for english, messages in found.items() if len(messages) == 1}


def _former_context(context: str, renamed: Mapping[str, str]) -> str:
    if context.startswith("\x00"):
        return ""
    entry_id, _, field = context.partition("#")
    former = renamed.get(entry_id)
    return f"{former}#{field}" if former else ""


def catalog_bytes(catalog: Catalog) -> bytes:
    """The .po text of ``catalog``, with each previous msgid as ``#|`` lines.

    Babel folds a multi-line previous msgid into one comment that msgfmt rejects,
    so the catalogue is written without them and they are inserted here, in the
    layout GNU gettext uses, just before the entry's msgctxt.
    """
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=76, include_previous=False)
    # Babel joins project and version with a space, also when a book gives no version.
    text = _UNVERSIONED.sub(r"\1\\n", buffer.getvalue().decode("utf-8"), count=1)
    for message in catalog:
        if not (message.id and message.context and message.previous_id):
            continue
        anchor = f"msgctxt {normalize(str(message.context), width=0)}\n"
        previous = normalize(str(message.previous_id[0]), width=76).split("\n")
        lines = [f"#| msgid {previous[0]}", *(f"#| {line}" for line in previous[1:])]
        text = text.replace(anchor, "\n".join(lines) + "\n" + anchor, 1)
    return text.encode("utf-8")


_UNVERSIONED = re.compile(r'^("Project-Id-Version: [^"\n]*?) \\n', re.MULTILINE)
_DATES = re.compile(rb'^"(?:POT-Creation-Date|PO-Revision-Date): [^"\\]*\\n"$', re.MULTILINE)
_YEARS = re.compile(rb"^(#[^\n]*?)\b\d{4}\b", re.MULTILINE)


def _without_dates(data: bytes) -> bytes:
    """A catalogue's text without what changes by the clock alone: the header dates and
    the year in the header comment."""
    return _YEARS.sub(rb"\1YEAR", _DATES.sub(b"DATE", data))


def write_catalog_if_changed(catalog: Catalog, path: Path) -> bool:
    """Write ``catalog`` unless the file already says the same apart from its dates.

    A merge dates its output with the time of the run; writing that alone would turn
    every ``i18n update`` on a clean tree into nine changed files. Returns whether
    the file was written."""
    data = catalog_bytes(catalog)
    if os.path.lexists(path) and _without_dates(read_input(path, str(path))) == _without_dates(data):
        return False
    write_bytes_atomically(data, path)
    return True


def _mode_of(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def write_bytes_atomically(data: bytes, path: Path) -> None:
    """Write ``data`` so that a crash leaves either the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as output:
            output.write(data)
        # mkstemp makes the file private (0600); a catalogue keeps the mode it had, or
        # gets the one a new file would.
        os.chmod(temporary, _mode_of(path))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
