"""Inline tokens in rule text: ``{rule:id}``, ``{term:id}``, ``{term:id|form}``,
``{roll:5+}``, ``{roll:1-4}``, ``{dice:3D8}``, ``{dist:2}`` and ``{dist:2D8}`` (a distance
rolled on dice, ``{dist:D8+2}`` with a number added).

Text is split into literal pieces and tokens once, here; checks and renderers
work on the pieces, so no renderer ever pastes raw text into markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from validator.derived import kept_function

TOKEN = re.compile(r"\{(?P<kind>[a-z]+):(?P<argument>[^{}|]*)(?:\|(?P<form>[^{}]*))?\}")
KINDS = ("rule", "term", "roll", "dice", "dist")
ROLL = re.compile(r"^[1-9]\d{0,2}(?:\+|-[1-9]\d{0,2})?$")
DICE = re.compile(r"^(?:[1-9]\d?)?D[1-9]\d{0,2}$")
"""Dice of any size (``D8``, ``3D8``, ``D20``), always written with D here: each
language's own letter is the book's data (``rulebook.yml`` ``dice: notation``)."""
FIXED_DISTANCE = re.compile(r"^\d+(?:\.\d+)?$")
ROLLED_DISTANCE = re.compile(r"^(?:[1-9]\d?)?D[1-9]\d{0,2}(?:[+-][1-9]\d{0,2})?$")
DISTANCE = re.compile(f"{FIXED_DISTANCE.pattern}|{ROLLED_DISTANCE.pattern}")


def is_rolled(argument: str) -> bool:
    """Whether a distance token gives a roll of dice (``2D8``) rather than a number.

    >>> is_rolled("2D8"), is_rolled("D8+2"), is_rolled("1.5")
    (True, True, False)
    """
    return ROLLED_DISTANCE.match(argument) is not None


@dataclass(frozen=True)
class Literal:
    text: str


@dataclass(frozen=True)
class Token:
    kind: str
    argument: str
    form: str | None
    source: str

    def problem(self) -> str | None:
        """What is wrong with this token's syntax, or ``None``."""
        if self.kind not in KINDS:
            return f"unknown token kind '{self.kind}' in {self.source} (known: {', '.join(KINDS)})"
        if self.form is not None and self.kind != "term":
            return f"only term tokens take an inflected form: {self.source}"
        patterns = {"roll": ROLL, "dice": DICE, "dist": DISTANCE}
        pattern = patterns.get(self.kind)
        if pattern is not None and not pattern.match(self.argument):
            return f"malformed {self.kind} token {self.source}"
        return None


Piece = Literal | Token


@kept_function(4096)
def split(text: str) -> tuple[Piece, ...]:
    """Literal text and tokens, in order.  A brace outside a token stays literal
    (the reference check reports it).  The lint and the pages split the same
    text many times over: kept for the most recent texts (the pieces are frozen)."""
    pieces: list[Piece] = []
    position = 0
    for match in TOKEN.finditer(text):
        if match.start() > position:
            pieces.append(Literal(text[position:match.start()]))
        pieces.append(Token(match["kind"], match["argument"].strip(), match["form"], match.group(0)))
        position = match.end()
    if position < len(text):
        pieces.append(Literal(text[position:]))
    return tuple(pieces)


def tokens(text: str) -> list[Token]:
    return [piece for piece in split(text) if isinstance(piece, Token)]
