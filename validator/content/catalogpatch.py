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
import re
from collections import OrderedDict

from babel.messages.catalog import Catalog

from validator.content.catalogs import parse_catalog

_BLANK_LINES = re.compile(r"\n[ \t]*\n")


def _blocks(text: str) -> list[tuple[int, str]]:
    """Each entry of a catalogue's text (blank-line separated) with its first line."""
    blocks, position, line = [], 0, 1
    for separator in _BLANK_LINES.finditer(text):
        block = text[position:separator.start()]
        blocks.append((line, block))
        line += block.count("\n") + separator.group(0).count("\n")
        position = separator.end()
    blocks.append((line, text[position:]))
    return blocks


def patched_catalog(before: Catalog, before_text: str, text: str, shown_as: str) -> Catalog | None:
    """``text`` read as a catalogue by parsing only the entries that differ from
    ``before_text`` (which ``before`` was read from); ``None`` when it cannot be."""
    old, new = _blocks(before_text), _blocks(text)
    if len(old) != len(new) or len(new) < 2 or old[0][1] != new[0][1]:
        return None
    changed = [index for index, (old_block, new_block) in enumerate(zip(old, new, strict=True))
               if old_block[1] != new_block[1]]
    if len(changed) > 20 or any("#~" in new[index][1] or "#~" in old[index][1] for index in changed):
        return None
    header = new[0][1]
    header_lines = header.count("\n") + 2  # the header and the blank line after it
    result = copy.copy(before)
    result._messages = OrderedDict(before._messages)
    for index in changed:
        line, block = new[index]
        single = parse_catalog(f"{header}\n\n{block}\n", shown_as)
        messages = [message for message in single if message.id]
        earlier = [message for message in parse_catalog(f"{header}\n\n{old[index][1]}\n", shown_as) if message.id]
        if len(messages) != 1 or len(earlier) != 1:
            return None
        message, previous = messages[0], earlier[0]
        key = result._key_for(message.id, message.context)
        if key != result._key_for(previous.id, previous.context) or key not in result._messages:
            return None
        if message.lineno is not None:
            message.lineno += line - 1 - header_lines
        result._messages[key] = message
    _shift_lines(result, before, old, new, set(changed))
    return result


def _shift_lines(result: Catalog, before: Catalog, old: list[tuple[int, str]], new: list[tuple[int, str]],
                 changed: set[int]) -> None:
    """Entries after one that grew or shrank moved in the file: copies of them, at their new lines
    (the earlier reading keeps its own)."""
    if all(old_line == new_line for (old_line, _), (new_line, _) in zip(old, new, strict=True)):
        return
    starts = [line for line, _ in old]
    for key, message in before._messages.items():
        if message.lineno is None:
            continue
        index = bisect.bisect_right(starts, message.lineno) - 1
        shift = new[index][0] - old[index][0]
        if index in changed or shift == 0 or result._messages.get(key) is not message:
            continue
        moved = copy.copy(message)
        moved.lineno = message.lineno + shift
        result._messages[key] = moved
