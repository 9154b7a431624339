"""Characters no text of a book may hold, wherever it is written.

Every text of a book is shown as written: on its pages, in the menus, in page titles
and tooltips, in a terminal's messages.  A control character (an escape, a NUL) does
nothing a reader can see, or something a terminal acts on, and a bidirectional
embedding, override or isolate (U+202A-U+202E, U+2066-U+2069) reorders the characters
around it, so that a name can show one thing and hold another.  The bidirectional
marks (U+200E, U+200F, U+061C), which only settle the direction of the character
beside them, are left to the writers of right-to-left languages.
"""

from __future__ import annotations

import re

HIDDEN = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""The characters of the module's docstring; a line break is the one control a text may
hold, between its paragraphs."""


def hidden_characters(text: str) -> list[str]:
    """The characters of :data:`HIDDEN` that ``text`` holds, each once, as ``U+XXXX``.

    >>> hidden_characters("Gran\u202eogaM"), hidden_characters("two\\n\\nparagraphs")
    (['U+202E'], [])
    """
    return sorted({f"U+{ord(character):04X}" for character in HIDDEN.findall(text)})
