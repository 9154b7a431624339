"""Problems found in the input, reported the same way everywhere.

Every message names the file and line, the id of the rule (or other entry) it
concerns, what is wrong and how to fix it, so that a reader can go straight to
the place without a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
"""Characters a terminal acts on or a reader cannot see: control characters (an escape
sequence could rewrite the screen), bidirectional controls (they reorder what is
shown) and the Unicode line breaks."""


def printable(text: str) -> str:
    r"""``text`` for one line of a terminal: each character of :data:`UNPRINTABLE` as its
    code, so that a name taken from an input shows what it holds.

    >>> print(printable("rules\u202eop.yml: a\nb\x1b[2J"))
    rules\u202eop.yml: a\nb\x1b[2J
    """
    return UNPRINTABLE.sub(lambda found: _escaped(found.group()), text)


def _escaped(character: str) -> str:
    code = ord(character)
    named = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(character)
    return named or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    subject: str
    message: str
    fix: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        subject = f" [{self.subject}]" if self.subject else ""
        fix = f" Fix: {self.fix}" if self.fix else ""
        return printable(f"{where}:{subject} {self.message}.{fix}")


class ProblemsFound(Exception):
    """Raised when input cannot be used; carries every problem found, sorted."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(sorted(set(problems)))
        super().__init__("\n".join(str(problem) for problem in self.problems))


def without_consequential_errors(details: list[Any]) -> list[Any]:
    """Drop a length error on a sequence whose items already failed: pydantic reports
    the emptied sequence too, which would only repeat the real problem."""
    locations = [tuple(detail["loc"]) for detail in details]
    return [
        detail for detail in details
        if not (detail["type"] == "too_short"
                and any(other[:len(detail["loc"])] == tuple(detail["loc"]) and len(other) > len(detail["loc"])
                        for other in locations))
    ]
