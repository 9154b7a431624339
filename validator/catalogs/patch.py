"""A catalogue read again after a translator changed a few entries: only those parsed.

Parsing a whole catalogue (Babel's reader and the checks that msgfmt makes) is
pure Python and grows with the book, and the live preview reads one again after
every save.  When the new text has the same entries, in the
same order, with the same header, and only some entries' lines differ, the
catalogue read before is copied and those entries alone are parsed (each with the
header, as a catalogue of one entry, through the same checks) and put in place,
at their lines in the file.  Anything else returns ``None`` and the caller parses
the whole text.  The result is what a whole parse gives (a test compares them).
"""

from __future__ import annotations

import bisect
import copy
import re
from collections import OrderedDict
from typing import NamedTuple

from babel.messages.catalog import Catalog

from validator.catalogs.po import parse_catalog

_SEPARATOR = re.compile(rb"(\n[ \t]*\n)")
"""A blank line between two entries (kept by :meth:`re.Pattern.split`, for the lines it spans)."""

_BLANK = b"\n \t"


class Patched(NamedTuple):
    """A catalogue read by :func:`patched_catalog`, with what differs from the one it was patched from."""

    catalog: Catalog
    contexts: frozenset[str]
    """The context of each entry that changed (a check of the others' texts holds)."""
    lines_moved: bool
    """Whether an entry grew or shrank, moving every later one to other lines."""


class _Region(NamedTuple):
    """The entries around the bytes where two texts of a catalogue differ (the rest
    of each text is the same bytes), cut as a cut of the whole text would cut them."""

    old: list[bytes]
    new: list[bytes]
    old_separators: list[bytes]
    new_separators: list[bytes]
    first_line: int
    """The line of the region's first entry (the same in both texts)."""

    def lines(self, blocks: list[bytes], separators: list[bytes]) -> list[int]:
        """The first line of each of the region's entries in one text, then the
        line after the region."""
        lines, line = [], self.first_line
        for block, separator in zip(blocks, [*separators, b""], strict=True):
            lines.append(line)
            line += block.count(b"\n") + separator.count(b"\n")
        return [*lines, line]


def patched_catalog(before: Catalog, before_data: bytes, data: bytes, shown_as: str) -> Patched | None:
    """The UTF-8 ``data`` read as a catalogue by parsing only the entries that differ
    from ``before_data`` (which ``before`` was read from); ``None`` when it cannot be.
    Only the bytes around the first and the last difference are cut into entries and
    decoded: a large book's catalogue has thousands of entries, and an edit touches few."""
    region = _edited_region(before_data, data)
    if region is None or len(region.old) != len(region.new) or region.old_separators != region.new_separators:
        return None
    old, new = region.old, region.new
    changed = [index for index, (old_block, new_block) in enumerate(zip(old, new, strict=True))
               if old_block != new_block]
    if len(changed) > 20 or any(b"#~" in new[index] or b"#~" in old[index] for index in changed):
        return None
    header = _SEPARATOR.split(data, 1)[0].decode("utf-8")  # unchanged: the region begins after it
    header_lines = header.count("\n") + 2  # the header and the blank line after it
    new_lines = region.lines(new, region.new_separators)
    result = copy.copy(before)
    result._messages = OrderedDict(before._messages)
    contexts = set()
    for index in changed:
        single = parse_catalog(f"{header}\n\n{new[index].decode('utf-8')}\n", shown_as)
        messages = [message for message in single if message.id]
        earlier = [message for message in parse_catalog(f"{header}\n\n{old[index].decode('utf-8')}\n", shown_as)
                   if message.id]
        if len(messages) != 1 or len(earlier) != 1:
            return None
        message, previous = messages[0], earlier[0]
        key = result._key_for(message.id, message.context)
        if key != result._key_for(previous.id, previous.context) or key not in result._messages:
            return None
        if message.lineno is not None:
            message.lineno += new_lines[index] - 1 - header_lines
        result._messages[key] = message
        contexts.add(str(message.context or ""))
    lines_moved = any(old[index].count(b"\n") != new[index].count(b"\n") for index in changed)
    if lines_moved:
        _shift_lines(result, before, region.lines(old, region.old_separators), new_lines, set(changed))
    return Patched(result, frozenset(contexts), lines_moved)


def _edited_region(old: bytes, new: bytes) -> _Region | None:
    """The entries of ``old`` and ``new`` around their differences, or None when the
    header differs (or nothing does).  The region is bounded by blank lines in the bytes
    both texts share, each a bare blank line after a byte that is no blank: there, a cut
    of the whole text from its start cuts too, whatever came before."""
    shared_start = _common_prefix(old, new)
    if shared_start == len(old) == len(new):
        return None
    shared_end = _common_suffix(old, new, min(len(old), len(new)) - shared_start)
    start = _boundary_before(old, shared_start)
    if start is None:
        return None
    end = _boundary_after(old, len(old) - shared_end)
    old_end = len(old) if end is None else end
    new_end = old_end + len(new) - len(old)
    old_parts, new_parts = _SEPARATOR.split(old[start:old_end]), _SEPARATOR.split(new[start:new_end])
    return _Region(old_parts[0::2], new_parts[0::2], old_parts[1::2], new_parts[1::2], old.count(b"\n", 0, start) + 1)


def _common_prefix(old: bytes, new: bytes) -> int:
    """How many bytes the two texts begin with alike (halving, compared in C)."""
    low, high = 0, min(len(old), len(new))
    while low < high:  # old[:low] == new[:low], and they differ before high, if at all
        middle = (low + high + 1) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(old: bytes, new: bytes, most: int) -> int:
    """How many bytes (``most`` at most) the two texts end with alike."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if old[len(old) - middle:len(old) - low] == new[len(new) - middle:len(new) - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _boundary_before(data: bytes, position: int) -> int | None:
    """Where the entry after the last bare blank line ending by ``position`` begins
    (the blank line after a byte that is no blank), or None."""
    end = position
    while True:
        index = data.rfind(b"\n\n", 0, end)
        if index <= 0:
            return None
        if data[index - 1] not in _BLANK:
            return index + 2
        end = index + 1


def _boundary_after(data: bytes, position: int) -> int | None:
    """Where the first bare blank line after a byte from ``position`` on, no blank, begins, or None."""
    start = position + 1
    while True:
        index = data.find(b"\n\n", start)
        if index < 0:
            return None
        if data[index - 1] not in _BLANK:
            return index
        start = index + 1


def _shift_lines(result: Catalog, before: Catalog, old: list[int], new: list[int], changed: set[int]) -> None:
    """Entries after one that grew or shrank moved in the file: copies of them, at their new lines
    (the earlier reading keeps its own).  ``old`` and ``new``: the first line of each entry
    of the edited region in each text, then of the rest of the text."""
    for key, message in before._messages.items():
        if message.lineno is None or message.lineno < old[0]:
            continue
        index = bisect.bisect_right(old, message.lineno) - 1
        shift = new[index] - old[index]
        if index in changed or shift == 0 or result._messages.get(key) is not message:
            continue
        moved = copy.copy(message)
        moved.lineno = message.lineno + shift
        result._messages[key] = moved
