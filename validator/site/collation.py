"""Alphabetical order as each language's readers expect it, for the glossary.

Neither Babel nor the standard library sorts words by a language's alphabet: Babel
carries no collation data, and :mod:`locale` orders by the locales the machine
happens to have installed, so two machines would build two different sites.  PyICU
would, but it compiles against the system's ICU, which a book's build should not
need.  This module is the part of the Unicode Collation Algorithm that a list of
terms needs, with the tailorings of CLDR that make a letter with a mark a letter of
its own in some alphabets (Spanish *ñ* after *n*; Polish *ą* after *a*, *ł* after
*l*, *ż* after *ź*; Czech *ch* after *h*).

A word is compared level by level, as the algorithm does:

1. the letters, with their marks taken off (so *á* sorts with *a*) unless the
   language makes the marked letter one of its own, and case folded (*ß* as *ss*);
   word by word (a space before any letter), punctuation left out (*¡Abran paso!*
   under *A*);
2. the marks, so that a word without them comes before the same word with them;
3. the case, lowercase first;

and last the text itself, so that the order is total and the same on every machine.
A language without a tailoring here (English, German, French...) gets the root order,
which is already right for it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TypeVar

T = TypeVar("T")

Tailoring = tuple[tuple[str, str], ...]
"""Letters that are letters of their own, in order: (letter, the letter it follows)."""

TAILORINGS: Mapping[str, Tailoring] = MappingProxyType({
    "es": (("ñ", "n"),),
    "pl": (("ą", "a"), ("ć", "c"), ("ę", "e"), ("ł", "l"), ("ń", "n"), ("ó", "o"), ("ś", "s"), ("ź", "z"),
           ("ż", "ź")),
    "cs": (("č", "c"), ("ch", "h"), ("ř", "r"), ("š", "s"), ("ž", "z")),
    "sk": (("ä", "a"), ("č", "c"), ("ch", "h"), ("ô", "o"), ("š", "s"), ("ž", "z")),
    "hr": (("č", "c"), ("ć", "č"), ("dž", "d"), ("đ", "dž"), ("lj", "l"), ("nj", "n"), ("š", "s"), ("ž", "z")),
    "sl": (("č", "c"), ("š", "s"), ("ž", "z")),
    "sv": (("å", "z"), ("ä", "å"), ("ö", "ä")),
    "fi": (("å", "z"), ("ä", "å"), ("ö", "ä")),
    "da": (("æ", "z"), ("ø", "æ"), ("å", "ø")),
    "nb": (("æ", "z"), ("ø", "æ"), ("å", "ø")),
    "nn": (("æ", "z"), ("ø", "æ"), ("å", "ø")),
})
"""CLDR's tailorings of the languages whose alphabets have letters of their own; a
language's code is looked up without its region (``es-MX`` as ``es``)."""

Weight = tuple[int, ...]


def _weights(tailoring: Tailoring) -> dict[str, Weight]:
    """Each tailored letter's primary weight: the weight of the letter it follows,
    with one more place, so that it sorts after that letter and everything that
    begins with it, and before the next letter of the alphabet."""
    weights: dict[str, Weight] = {}
    for letter, after in tailoring:
        base = weights.get(after, tuple(ord(character) for character in after))
        weights[letter] = (*base, 1 + sum(1 for known in weights.values() if known[:-1] == base))
    return weights


def _primary(character: str) -> Weight:
    """An untailored character's primary weight: a space before every letter, so
    that terms sort word by word ("fila", "fila de combate", "filas"); punctuation
    and symbols none at all, so that "¡Abran paso!" stands under A; anything else
    its code point, which orders the Latin letters and the digits as the root
    collation does."""
    category = unicodedata.category(character)
    if category.startswith("Z"):
        return (1,)
    if category[0] in "PS":
        return ()
    return (ord(character),)


def _language(code: str) -> str:
    return code.replace("_", "-").split("-", 1)[0].lower()


def sort_key(language: str) -> Callable[[str], tuple[object, ...]]:
    """The function that gives a text its place in ``language``'s alphabetical order.

    >>> sorted(["ñandú", "oca", "nube", "Nácar"], key=sort_key("es"))
    ['Nácar', 'nube', 'ñandú', 'oca']
    >>> sorted(["żaba", "zebra", "łuk", "lis", "źrebię", "mapa"], key=sort_key("pl"))
    ['lis', 'łuk', 'mapa', 'zebra', 'źrebię', 'żaba']
    """
    weights = _weights(TAILORINGS.get(_language(language), ()))
    longest = max((len(letter) for letter in weights), default=1)

    def key(text: str) -> tuple[object, ...]:
        folded = unicodedata.normalize("NFC", text).casefold()
        primary: list[Weight] = []
        secondary: list[str] = []
        index = 0
        while index < len(folded):
            for size in range(min(longest, len(folded) - index), 0, -1):
                piece = folded[index:index + size]
                if piece in weights:
                    primary.append(weights[piece])
                    secondary.append("")
                    index += size
                    break
            else:
                decomposed = unicodedata.normalize("NFD", folded[index])
                marks = "".join(character for character in decomposed if unicodedata.combining(character))
                primary.extend(_primary(character) for character in decomposed
                               if not unicodedata.combining(character) and _primary(character))
                secondary.append(marks)
                index += 1
        tertiary = tuple(character != character.lower() for character in text)
        return (tuple(primary), tuple(secondary), tertiary, text)

    return key


def sorted_by(items: Iterable[T], text: Callable[[T], str], language: str) -> list[T]:
    """``items`` in the alphabetical order of ``language``, each placed by its ``text``."""
    key = sort_key(language)
    return sorted(items, key=lambda item: key(text(item)))
