"""Where a text uses the glossary's words: terms left unlinked, and variants the
glossary forbids.

Both checks read one text in one language.  A term is recognised by any form the
glossary lists for the language (``forms:``; for the source language, the term
itself, its plural and any ``forms: en``), longest first, so that "unit" inside
"flying unit" is a use of the longer term only.  A form written with a capital (a
characteristic such as "Strength", a special rule) is matched only as written; the
others in any case.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from validator.content.model import Glossary, Name, Term
from validator.content.tokens import Literal, Token, split
from validator.derived import derived, kept_function

_WORD = re.compile(r"\w+")


def _plural(word: str) -> str:
    """The regular English plural of a word (enough for the glossary's nouns)."""
    if word.endswith("s"):
        return word
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    if re.search(r"(?:ch|sh|x)$", word):
        return word + "es"
    return word + "s"


def forms_of(term: Term, language: str, source_language: str) -> tuple[str, ...]:
    """Every form that counts as a use of ``term`` in a text of ``language``."""
    declared = term.declined(language)
    if language != source_language:
        return declared
    english = [term.term]
    if term.term[:1].isalpha() and term.term.replace(" ", "").isalpha():
        english.append(_plural(term.term))
    return tuple(dict.fromkeys((*english, *declared)))


class Recogniser:
    """Every form of every term of one language, longest form first, found in a text
    as one pass of one alternation of them all would find them (at any position the
    longest form that starts there wins: "flying unit" before "unit").  A form with
    a capital matches only as written; the others in any case."""

    def __init__(self, glossary: Glossary, language: str, source_language: str) -> None:
        pairs = [(term.id, form) for term in glossary.terms for form in forms_of(term, language, source_language)]
        pairs.sort(key=lambda pair: (-len(pair[1]), pair[1]))
        self.exact: dict[str, str] = {}
        self.folded: dict[str, str] = {}
        self._alternatives: list[str] = []
        for term_id, form in pairs:
            if form[:1].isupper():
                self.exact.setdefault(form, term_id)
                self._alternatives.append(re.escape(form))
            else:
                self.folded.setdefault(form.lower(), term_id)
                self._alternatives.append(f"(?i:{re.escape(form)})")
        # Each form under the lower case of its first word: a text is searched only for
        # the forms whose first word it contains, each form's pattern compiled when a
        # text first needs it (a check after an edit lints a few texts, not hundreds).
        self._forms_by_first_word: dict[str, list[str]] = {}
        for _term_id, form in pairs:
            first = _WORD.match(form.lower())
            self._forms_by_first_word.setdefault(first.group(0) if first else "", []).append(form)
        self._compiled: dict[str, list[re.Pattern[str]]] = {}

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        """Every form in one alternation: what :meth:`uses` must find, the slow way."""
        body = "|".join(self._alternatives) or "(?!)"
        return re.compile(rf"(?<![\w-])(?:{body})(?![\w-])")

    def _patterns(self, first_word: str) -> list[re.Pattern[str]]:
        """The patterns of the forms whose first word is ``first_word``, longest first."""
        compiled = self._compiled.get(first_word)
        if compiled is None:
            compiled = [re.compile(rf"(?<![\w-]){re.escape(form)}(?![\w-])", 0 if form[:1].isupper() else re.IGNORECASE)
                        for form in self._forms_by_first_word.get(first_word, ())]
            self._compiled[first_word] = compiled
        return compiled

    def uses(self, text: str) -> list[tuple[int, str]]:
        """Each use of a form in ``text`` as (start, words), as one pass of
        :attr:`pattern` finds them (at each position the longest form; no overlaps),
        but searching only for forms whose first word the text has: with hundreds of
        forms, one alternation tried at every word is the slow way."""
        words = set(_WORD.findall(text.lower()))
        found: list[tuple[int, int, str]] = []
        for key in (*words & self._forms_by_first_word.keys(), ""):
            for alone in self._patterns(key):
                found.extend((match.start(), -len(match.group(0)), match.group(0)) for match in alone.finditer(text))
        found.sort()
        uses, reached = [], 0
        for start, negative_length, shown in found:
            if start >= reached:
                uses.append((start, shown))
                reached = start - negative_length
        return uses

    def term_of(self, shown: str) -> str:
        return self.exact.get(shown) or self.folded[shown.lower()]


def _recogniser(glossary: Glossary, language: str, source_language: str) -> Recogniser:
    """Made once per glossary and language, since the lint asks for every message."""
    return derived("recogniser", glossary, lambda: Recogniser(glossary, language, source_language),
                   (language, source_language))


@dataclass(frozen=True)
class Unlinked:
    term: str
    """The glossary id of the term."""
    shown: str
    """The words of the text that use it."""


def unlinked_terms(text: str, glossary: Glossary, language: str, source_language: str) -> list[Unlinked]:
    """The terms whose first use in ``text`` is not a ``{term:…}`` link, in the order
    of the text.  Tokens are blanked out (a rule link's title and a term link's form
    are not the writer's loose words), and each stretch of text counts for the
    longest term it matches."""
    literal = []
    linked_at: dict[str, int] = {}
    position = 0
    for piece in split(text):
        if isinstance(piece, Token):
            if piece.kind == "term":
                linked_at.setdefault(piece.argument, position)
            literal.append(" " * len(piece.source))
            position += len(piece.source)
        else:
            assert isinstance(piece, Literal)
            literal.append(piece.text)
            position += len(piece.text)
    recogniser = _recogniser(glossary, language, source_language)
    used_at: dict[str, tuple[int, str]] = {}
    for start, shown in recogniser.uses("".join(literal)):
        used_at.setdefault(recogniser.term_of(shown), (start, shown))
    found = [(start, term_id, shown) for term_id, (start, shown) in used_at.items()
             if term_id not in linked_at or start < linked_at[term_id]]
    return [Unlinked(term_id, shown) for _, term_id, shown in sorted(found)]


@kept_function(4096)
def variant_pattern(variant: str) -> re.Pattern[str]:
    """Where a text uses a forbidden variant: each of its words starts a word of the
    text (so a stem, "rumak bojow", finds "rumaku bojowym" in every case), the
    words in order with only spaces between; any case."""
    words = variant.split()
    body = r"\s+".join(rf"{re.escape(word)}[\w]*" for word in words)
    return re.compile(rf"(?<![\w-]){body}", re.IGNORECASE)


@dataclass(frozen=True)
class Variant:
    entry: str
    """The glossary term or name (in English) that the variant stands for."""
    found: str
    """The words of the text."""
    preferred: str
    """The word the language uses instead."""


def forbidden_variants(text: str, glossary: Glossary, language: str) -> Iterator[Variant]:
    """Every use in ``text`` of a variant the glossary forbids in ``language``, for
    a term or for a name.  Tokens are left out except the form a term link shows,
    which is the writer's word as much as the rest."""
    shown = [piece.form if isinstance(piece, Token) and piece.kind == "term" and piece.form
             else piece.text if isinstance(piece, Literal) else " " for piece in split(text)]
    plain = "".join(shown)
    folded = plain.lower()
    seen: set[tuple[int, int]] = set()
    for first_word, pattern, english, entry in _forbidden(glossary, language):
        if first_word not in folded:
            continue  # the cheap test first
        for match in pattern.finditer(plain):
            if match.span() not in seen:
                seen.add(match.span())
                yield Variant(english, match.group(0), entry.preferred_form(language))


def _forbidden(glossary: Glossary, language: str) -> list[tuple[str, re.Pattern[str], str, Term | Name]]:
    """Each variant the glossary forbids in ``language``: its first word in lower case,
    its pattern, the entry's English and the entry; listed once per glossary, since the
    lint asks for every message."""
    def listed() -> list[tuple[str, re.Pattern[str], str, Term | Name]]:
        entries: Iterable[Term | Name] = (*glossary.terms, *glossary.names)
        return [(variant.split()[0].lower(), variant_pattern(variant),
                 entry.term if isinstance(entry, Term) else entry.name, entry)
                for entry in entries for variant in entry.forbidden.get(language, ()) if variant.split()]

    return derived("forbidden variants", glossary, listed, language)
