"""A catalogue read again after a translator changed a few entries: only those parsed.

Parsing a whole catalogue (Babel's reader and the checks that msgfmt makes) is
pure Python and takes most of a second on a 1,000-rule book; the live preview
reads one again after every save.  When the new text has the same entries, in the
same order, with the same header, and only some entries' lines differ, the
catalogue read before is copied and those entries alone are parsed (each with the
header, as a catalogue of one entry, through the same checks) and put in place,
at their lines in the file.  Anything else returns ``None`` and the caller parses
the whole text.  The result is what a whole parse gives (a test compares them).
"""

from __future__ import annotations

import bisect
import copy
import functools
import re
from collections import OrderedDict

from babel.messages.catalog import Catalog

from validator.content.catalogs import parse_catalog

_SEPARATOR = re.compile(r"(\n[ \t]*\n)")
"""A blank line between two entries (kept by :meth:`re.Pattern.split`, for the lines it spans)."""


class _Entries:
    """A catalogue's text cut into its entries (blank-line separated), in C: a
    catalogue of a 1,000-rule book has 5,000 entries, and only an edited few are
    looked at (each entry's first line is counted only when asked for)."""

    def __init__(self, text: str) -> None:
        self.parts = _SEPARATOR.split(text)
        self.blocks = self.parts[0::2]
        self.separators = self.parts[1::2]

    @functools.cached_property
    def lines(self) -> list[int]:
        """The first line of each entry."""
        lines, line = [], 1
        for block, separator in zip(self.blocks, [*self.separators, ""], strict=True):
            lines.append(line)
            line += block.count("\n") + separator.count("\n")
        return lines


def patched_catalog(before: Catalog, before_text: str, text: str, shown_as: str) -> Catalog | None:
    """``text`` read as a catalogue by parsing only the entries that differ from
    ``before_text`` (which ``before`` was read from); ``None`` when it cannot be."""
    old_entries, new_entries = _Entries(before_text), _Entries(text)
    old, new = old_entries.blocks, new_entries.blocks
    if len(old) != len(new) or len(new) < 2 or old[0] != new[0] or old_entries.separators != new_entries.separators:
        return None
    changed = [index for index, (old_block, new_block) in enumerate(zip(old, new, strict=True))
               if old_block != new_block]
    if len(changed) > 20 or any("#~" in new[index] or "#~" in old[index] for index in changed):
        return None
    header = new[0]
    header_lines = header.count("\n") + 2  # the header and the blank line after it
    result = copy.copy(before)
    result._messages = OrderedDict(before._messages)
    for index in changed:
        line, block = new_entries.lines[index], new[index]
        single = parse_catalog(f"{header}\n\n{block}\n", shown_as)
        messages = [message for message in single if message.id]
        earlier = [message for message in parse_catalog(f"{header}\n\n{old[index]}\n", shown_as) if message.id]
        if len(messages) != 1 or len(earlier) != 1:
            return None
        message, previous = messages[0], earlier[0]
        key = result._key_for(message.id, message.context)
        if key != result._key_for(previous.id, previous.context) or key not in result._messages:
            return None
        if message.lineno is not None:
            message.lineno += line - 1 - header_lines
        result._messages[key] = message
    if any(old[index].count("\n") != new[index].count("\n") for index in changed):
        _shift_lines(result, before, old_entries.lines, new_entries.lines, set(changed))
    return result


def _shift_lines(result: Catalog, before: Catalog, old: list[int], new: list[int], changed: set[int]) -> None:
    """Entries after one that grew or shrank moved in the file: copies of them, at their new lines
    (the earlier reading keeps its own)."""
    for key, message in before._messages.items():
        if message.lineno is None:
            continue
        index = bisect.bisect_right(old, message.lineno) - 1
        shift = new[index] - old[index]
        if index in changed or shift == 0 or result._messages.get(key) is not message:
            continue
        moved = copy.copy(message)
        moved.lineno = message.lineno + shift
        result._messages[key] = moved
