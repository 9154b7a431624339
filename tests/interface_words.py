"""The English words of the site's interface, and where a translated page still shows
them: the engine's interface catalogue, the book's labels and Material's own words,
each English text that its translation changes (an English text kept as it is, a
name or a word both languages share, may stand on the page)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po
from conftest import ROOT
from mkdocs.utils import get_theme_dir

from validator.catalogs.interface import ENGINE_LOCALES
from validator.site.material import material_language

PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]|\{[a-z_]+\}|#")
"""Where an interface text takes a value (Python's, the lint's tokens, Material's "#")."""
MIN_LETTERS = 3
"""Texts with fewer letters than this are not looked for: a unit, a letter of a die."""


@dataclass(frozen=True)
class Word:
    """An English interface text that the page's language translates otherwise."""

    english: str
    source: str
    """The catalogue it comes from, to say what to fix."""
    pattern: re.Pattern[str]


def phrase_pattern(english: str) -> re.Pattern[str] | None:
    """The text as it would stand on a page: whole words, any case, any value in place
    of a placeholder, any run of spaces for a space; None for a text with too few
    letters of its own to be told from other words."""
    parts = PLACEHOLDER.split(english)
    if sum(len(re.findall(r"[^\W\d_]", part)) for part in parts) < MIN_LETTERS:
        return None
    body = ".+?".join(r"\s+".join(map(re.escape, part.split())) for part in parts)
    return re.compile(rf"(?<![\w-]){body}(?![\w-])", re.IGNORECASE)


def _catalogue(path: Path) -> Iterable[tuple[str, str]]:
    with path.open("rb") as handle:
        for message in read_po(handle):
            if message.id and isinstance(message.id, str):
                yield message.id, str(message.string or "")


def _material(language: str) -> dict[str, str]:
    text = (Path(get_theme_dir("material")) / "partials" / "languages" / f"{language}.html").read_text("utf-8")
    return dict(re.findall(r'^\s*"([a-z.]+)": "([^"]*)"', text, re.MULTILINE))


def interface_words(language: str, root: Path = ROOT, engine: Path = ENGINE_LOCALES) -> list[Word]:
    """Every English interface text that ``language``'s pages must not show, with where
    it comes from: its translation differs from it, or it has none (then the page
    shows the English, which is what this finds)."""
    found: dict[str, Word] = {}
    sources = [(engine / language / "LC_MESSAGES" / "ui.po", "the engine's ui catalogue"),
               (root / "locales" / language / "LC_MESSAGES" / "labels.po", "the book's labels catalogue")]
    pairs: list[tuple[str, str, str]] = []
    for path, source in sources:
        pairs += [(english, translated, f"{source} ({path.name})") for english, translated in _catalogue(path)]
    english_words, own = _material("en"), _material(material_language(language))
    pairs += [(text, own.get(key, ""), f"Material's words ({key})") for key, text in english_words.items()
              if key not in ("language", "direction", "search.config.lang", "search.config.pipeline",
                             "search.config.separator")]
    kept = {english.casefold() for english, translated, _source in pairs if translated.casefold() == english.casefold()}
    for english, translated, source in pairs:
        pattern = phrase_pattern(english)
        if pattern is None or english.casefold() in kept or translated.casefold() == english.casefold():
            continue
        found.setdefault(english.casefold(), Word(english, source, pattern))
    return list(found.values())


NAMES = ("Material for MkDocs", "MkDocs")
"""Names that stand in English on every site."""
SHARED_WORDS = {
    "es": ("dice",),  # "says", in the register's and the answers' own Spanish
    "pl": ("online",),  # as Polish writes it ("indeks online")
}
"""Words of the page's own language spelt as an English interface text is."""
QUOTED_SECTION = re.compile("\u00ab[^\u00bb]*\u00bb")
"""A citation's section, «as the cited document titles it», in that document's words."""


def kept_names(language: str, root: Path = ROOT) -> list[str]:
    """The glossary's terms that ``language`` keeps in the source language (a rule's
    name players say in English): the page may name them in any text."""
    path = root / "locales" / language / "LC_MESSAGES" / "rules.po"
    with path.open("rb") as handle:
        return [str(message.id) for message in read_po(handle)
                if str(message.context or "").startswith("glossary/") and str(message.context).endswith("#term")
                and message.string == message.id]


def _name_pattern(name: str) -> re.Pattern[str]:
    """A name as any punctuation writes it ("Look out, Sir!", "look out sir")."""
    body = r"[\W_]+".join(map(re.escape, re.findall(r"\w+", name)))
    return re.compile(rf"(?<![\w-]){body}(?![\w-])", re.IGNORECASE)


def leftovers(strings: Iterable[str], words: Iterable[Word], allowed: Iterable[str] = ()) -> list[str]:
    """Each English interface text found in ``strings`` (the page's texts in its own
    language), as one line naming the text, where it comes from and the string it
    stands in; ``allowed``: names and words of the page's language that may stand
    as they are (:data:`NAMES`, :func:`kept_names`, :data:`SHARED_WORDS`); a cited
    section, quoted in its document's words, is not read."""
    names = [_name_pattern(name) for name in (*NAMES, *allowed)]
    words = list(words)
    # One search for any of the words first: most texts hold none, and only those that
    # hold one are read word by word (the patterns are alike, case-blind, without groups).
    any_word = re.compile("|".join(f"(?:{word.pattern.pattern})" for word in words), re.IGNORECASE)
    problems: dict[str, None] = {}
    texts = list(dict.fromkeys(" ".join(text.split()) for text in strings if text.strip()))
    for text in texts:
        if not any_word.search(text):
            continue
        text = QUOTED_SECTION.sub("\u2026", text)
        for name in names:
            text = name.sub("\u2026", text)
        for word in words:
            if word.pattern.search(text):
                problems.setdefault(f"{word.english!r} ({word.source}) in {text[:160]!r}", None)
    return list(problems)
