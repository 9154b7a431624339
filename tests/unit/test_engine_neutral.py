"""The engine holds no game: no word of the bundled book's game is written into the
``validator`` package.  What one game needs (its dice, its "no save", its language's
cases, its register's kinds, its wording) is the book's data or its rules core's
declaration; a word of the game in the engine is a place where another book would
meet an assumption it cannot change.

Units of length are CLDR's: a book names its unit (``length_unit``) and CLDR writes
it, so the engine names a unit only as an example of a CLDR unit name, in its
documentation and messages.  What the bundled game alone says of distances (its
``per_inch`` rates, its ``inches``, the ``distance_unit`` it once declared) is in the
list like any other word of the game.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import validator

ENGINE = Path(validator.__file__).resolve().parent
SCANNED = (".py", ".j2", ".html", ".js", ".css")

GAME_WORDS = (
    "Warhammer", "whfb6", "Games Workshop",
    # the faces of a six-sided die, and its size written into the engine
    "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685", "D6", "2D6",
    # the armour save and what a 7 means for it
    "no save", "armour save", "armor save", "SaveRoll",
    # the grammatical cases of Polish
    "mianownik", "dopełniacz", "celownik", "biernik", "narzędnik", "miejscownik", "wołacz",
    # the bundled book's own wording and register kinds
    "main rulebook", "rulebook page", "rulebook pages", "scan-damage", "scanned copy", "translation-error",
    "edition-difference", "source-erratum",
    # the bundled game's own terms
    "Weapon Skill", "Leadership", "wounds", "chariot", "chariots", "monstrous", "monstrous-mounts",
    # the bundled game's distances: its unit and its rates of conversion
    "per_inch", "inches", "distance_unit",
)


def _pattern(word: str) -> re.Pattern[str]:
    """A word as a whole word (not inside another), in any case."""
    return re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.IGNORECASE)


def _engine_files() -> list[Path]:
    return sorted(path for path in ENGINE.rglob("*") if path.suffix in SCANNED and path.is_file())


def _occurrences(word: str) -> list[str]:
    pattern = _pattern(word)
    found = []
    for path in _engine_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ENGINE.parent)}:{number}: {line.strip()}")
    return found


def test_the_scan_reads_the_engine() -> None:
    """A scan that reads no file would pass whatever the engine holds."""
    names = {path.suffix for path in _engine_files()}
    assert {".py", ".j2"} <= names
    assert _pattern("D6").search("roll a D6 twice") and not _pattern("D6").search("2D6")


@pytest.mark.parametrize("word", GAME_WORDS)
def test_no_word_of_the_bundled_game_in_the_engine(word: str) -> None:
    assert _occurrences(word) == []
