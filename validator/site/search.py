"""The search index of one language, computed from the model at build time.

Material's search (lunr) has no Polish, folds no accents and needs a web worker,
which a page opened from disk cannot start without fetching a shim from the
internet.  This index is built here instead, in Python, and written as a
JavaScript file that assigns a global, so that a plain ``<script>`` tag loads it
from ``file://`` as well as from a server; ``assets/search.js`` answers queries
from it in the page.

Every word of a rule (title, text, worked examples, chapter title) becomes one or
more *keys*: the word folded (lower case, no accents or diacritics, ``ł`` as
``l``) after it was reduced to its stem and to its lemma:

- **stems** come from Snowball (``snowballstemmer``, pure Python): Spanish plurals
  and verb forms (``carros``, ``carro`` -> ``carr``), and since Snowball 3.1 Polish
  suffixes too;
- **lemmas** come from simplemma (pure Python, dictionary based, lemmas for Polish
  and Spanish among 50 languages): it joins the forms Polish changes inside the
  word, which no suffix stripping can (``jeźdźca``, ``jeźdźcem`` -> ``jeździec``).

pystempel (a Polish stemmer) was tried and left out: loading its tables slows
every build, and lemmatises no better than simplemma on the
rulebook's words.  morfeusz2 (the reference Polish analyser) gives the best
lemmas but installs a native library built for one platform; simplemma's
misses on the rulebook (``potwora``) are caught by the Snowball stem.
The lemmas found are kept between builds (:mod:`validator.site.lemmas`), so
simplemma's dictionaries are read only for words not met before.

The query side cannot run these stemmers, so the index carries what it needs:
``forms``, every word form seen (folded) with its keys, so that ``zolnierzy``
finds ``żołnierzy`` by looking it up; and ``suffixes``, the endings that
separate forms from their keys, so that a form the rulebook never uses is cut
back to a key it does.  Glossary terms add their translations in every language
and their declined forms: those used in ``{term:id|form}`` tokens of the
catalogues, and those listed under ``forms:`` (per language) in the glossary when
the glossary has them.

A rule adds its title in the other languages, the headings of the sources it cites
(in the source's language), and the names players use for it (``also_called:``, per
language: nicknames have no translation); a glossary term adds its names the same way.
Weights say where a word stands: the title most, then the names players use, then the
text; the page's script ranks by them (see ``assets/search.js``).

Rule ids (``mounts/cavalry``), dice (``3D8``, and as every language writes them:
``3K8``) and rolls (``5+``, ``1-4``) are kept whole as keys.  One entry per rule (its
id, the page and anchor, its title and chapter title, its keys with weights, and the
share of its score, 1 for a rule), one per glossary term and one per official answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TypeVar, cast

import snowballstemmer  # type: ignore[import-untyped]
from babel import Locale

from validator.catalogs.po import interface_translations
from validator.content.loader import Rulebook
from validator.content.model import Chapter, Inflection, Rule
from validator.content.tokens import Token, split
from validator.derived import kept_function
from validator.site.faq import group_title
from validator.site.incremental import ReadMemo
from validator.site.lemmas import Lemmas, lemmatizes
from validator.site.markdown import html_page
from validator.site.reads import read_workspace
from validator.site.scriptdata import write_global
from validator.site.text import GLOSSARY_PAGE, TextRenderer, anchor, chapter_page
from validator.store import Store
from validator.workspace import Workspace

INDEX_FILE = "search-index.js"
"""Written beside ``search.js`` in the site's assets; loaded by a plain script tag."""
GLOBAL = "validatorSearchIndex"

TITLE_WEIGHT = 10
"""A word of the title counts as much as ten in the text."""
TERM_WEIGHT = 5
"""Below a rule's title: a query that names a term finds the rule about it first, then
the term's definition."""
OTHER_LANGUAGE_WEIGHT = 3
"""A glossary term as another language names it: a reader who knows the English term
finds it on the Polish site."""
RULE_ALIAS_WEIGHT = 8
"""A name players use for a rule (``also_called:``), in the reader's language: nearly
as much as the title, which is the name the book gives it."""
TERM_ALIAS_WEIGHT = 4
"""A name players use for a term, below the term itself."""
OTHER_TITLE_WEIGHT = 2
"""A rule's title and names in another language: below the glossary's terms in other
languages, so that "cavalry" on the Polish site finds the term before the rule named
after it."""
TERM_SHARE = 0.7
"""A glossary term's score against a rule's: a term's entry is short, so the same words
match it more closely, but the reader who asks wants the rule first."""
ANSWER_SHARE = 0.85
"""An official answer's score against a rule's: it is shown under the rules it answers."""
TEXT_CAP = 5
"""A word repeated in a long text stops adding weight after this many times."""
ID_WEIGHT = 30

_DASHES = MappingProxyType({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-"})
_LETTERS = MappingProxyType(str.maketrans({
    "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ø": "o", "Ø": "o", "ħ": "h", "\u0131": "i",
    "ß": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "þ": "th", **_DASHES}))
"""Letters that Unicode does not decompose into a base letter and a mark, and dashes."""
_DASH_TABLE = MappingProxyType(str.maketrans(dict(_DASHES)))

TOKEN = re.compile(
    r"[a-z0-9]+(?:-[a-z0-9]+)*/[a-z0-9]+(?:-[a-z0-9]+)*"  # a rule id
    r"|\d*d\d+(?![^\W_])"  # dice: 3d8, d8
    r"|\d+\+"  # a roll: 5+
    r"|\d+-\d+"  # a range of results: 1-4
    r"|[^\W_]+"  # a word or a number
)
"""The tokens of a text; ``assets/search.js`` splits folded queries with the same pattern
(folding turns letters into letters, so the words are the same)."""
_WHOLE = re.compile(r"^(?:[a-z0-9-]+/[a-z0-9-]+|\d*d\d+|\d+\+|\d+-\d+|\d+)$")


def fold(text: str) -> str:
    """Lower case without accents or diacritics, the way readers type on any keyboard.

    >>> fold("Żołnierz, łódź, desafío, JEŹDŹCA \u2013 1\u20134")
    'zolnierz, lodz, desafio, jezdzca - 1-4'
    """
    decomposed = unicodedata.normalize("NFKD", text.translate(_LETTERS))
    return "".join(char for char in decomposed if not unicodedata.combining(char)).lower().translate(_LETTERS)


def words(text: str) -> list[str]:
    """The tokens of ``text``, in lower case with their accents (stemmers need them).

    >>> words("Roll 3D8: on a 5+ or 1\u20134, see mounts/cavalry.")
    ['roll', '3d8', 'on', 'a', '5+', 'or', '1-4', 'see', 'mounts/cavalry']
    >>> words("Żołnierzy łodzi, Straße")
    ['żołnierzy', 'łodzi', 'straße']
    """
    return TOKEN.findall(unicodedata.normalize("NFC", text).lower().translate(_DASH_TABLE))


@kept_function(200_000)
def _folded(word: str) -> str:
    """:func:`fold`, once per word: a rulebook repeats its words."""
    return fold(word)


class Analyzer:
    """Reduces a word of one language to its keys (folded stem and lemma): one per
    language and index, which keeps the keys it found, and the lemmas it looked up
    until :meth:`save` adds them to the tool's cache (see :mod:`validator.site.lemmas`)."""

    def __init__(self, code: str, lemmas: Path | None = None) -> None:
        """``lemmas``: the folder of the lemmas kept between builds (see :class:`Lemmas`)."""
        self.code = code
        self._lemmas = Lemmas(code, lemmas) if lemmatizes(code) else None
        self._keys: dict[str, tuple[str, ...]] = {}

    def keys(self, word: str) -> tuple[str, ...]:
        """The keys of one token from :func:`words`.

        >>> Analyzer("es").keys("carros") == Analyzer("es").keys("carro")
        True
        >>> sorted(Analyzer("pl").keys("jeźdźca"))
        ['jezdzc', 'jezdziec']
        >>> Analyzer("pl").keys("3d8")
        ('3d8',)
        """
        known = self._keys.get(word)
        if known is None:
            known = self._keys[word] = self._made_keys(word)
        return known

    def _made_keys(self, word: str) -> tuple[str, ...]:
        if _WHOLE.match(fold(word)):
            return (fold(word),)
        keys = [fold(word)]
        stemmer = _stemmer(self.code)
        if stemmer is not None:
            keys = [fold(stemmer.stemWord(word))]  # type: ignore[attr-defined]
        if self._lemmas is not None:
            keys.append(fold(self._lemmas.lemma(word)))
        return tuple(dict.fromkeys(key for key in keys if key))

    def save(self) -> None:
        """Keep the lemmas looked up here for the next build."""
        if self._lemmas is not None:
            self._lemmas.save()


class Analyzers(dict[str, Analyzer]):
    """One :class:`Analyzer` per language, made when first asked for, with the lemmas of ``lemmas``."""

    def __init__(self, lemmas: Path | None) -> None:
        super().__init__()
        self.lemmas = lemmas

    def __missing__(self, code: str) -> Analyzer:
        analyzer = self[code] = Analyzer(code, self.lemmas)
        return analyzer


@kept_function(16)
def _stemmer(code: str) -> object | None:
    """Snowball's stemmer for the language, found by its English name; None when it has none."""
    try:
        name = str(Locale.parse(code).english_name or "").lower()
    except (ValueError, LookupError):
        return None
    return snowballstemmer.stemmer(name) if name in snowballstemmer.algorithms() else None


@dataclass
class Entry:
    """One search result: a rule or a glossary term."""

    id: str
    url: str
    title: str
    chapter: str
    weights: Counter[str] = field(default_factory=Counter)
    share: float = 1.0
    """What the entry's score is multiplied by: below 1 for a glossary term and an
    official answer, so that where a rule matches as well, the rule comes first."""

    def add(self, keys: Iterable[str], weight: int) -> None:
        for key in keys:
            self.weights[key] += weight

    def serialise(self) -> list[str | float]:
        tokens = " ".join(key if weight == 1 else f"{key}:{weight}" for key, weight in sorted(self.weights.items()))
        return [self.id, self.url, self.title, self.chapter, tokens, self.share]


@dataclass
class IndexBuilder:
    """Collects entries, and the word forms seen with their keys."""

    analyzer: Analyzer
    forms: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    rows: list[list[str | float]] = field(default_factory=list)
    """Each entry, serialised once complete."""

    def add_text(self, entry: Entry, text: str, weight: int = 1, cap: int | None = None,
                 analyzer: Analyzer | None = None) -> None:
        # Each distinct word is analysed once, its count carried to its keys: a rule's
        # text repeats its words.
        analyzer = analyzer or self.analyzer
        counts: Counter[str] = Counter()
        for word, times in Counter(words(text)).items():
            keys = analyzer.keys(word)
            self.forms[_folded(word)].update(keys)
            for key in keys:
                counts[key] += times
        for key, count in counts.items():
            entry.weights[key] += weight * (min(count, cap) if cap else count)

    def add_whole(self, entry: Entry, token: str, weight: int) -> None:
        """A key that is never stemmed: a rule id, found typed in full."""
        self.forms[token].add(token)
        entry.add([token], weight)

    def serialise(self) -> dict[str, object]:
        forms = {form: " ".join(sorted(keys)) for form, keys in sorted(self.forms.items()) if keys != {form}}
        endings: Counter[str] = Counter()
        for form, keys in self.forms.items():
            for key in keys:
                if form != key and form.startswith(key) and len(form) - len(key) <= 5:
                    endings[form[len(key):]] += 1
        suffixes = sorted((ending for ending, count in endings.items() if count >= 2), key=lambda s: (-len(s), s))
        return {"lang": self.analyzer.code, "entries": self.rows,
                "forms": forms, "suffixes": suffixes}


TermForms = dict[tuple[str, str], set[str]]
"""(glossary term id, language) -> the term's declined forms in that language."""


U = TypeVar("U")

IndexRow = tuple[list[str | float], dict[str, frozenset[str]]]
"""A rule's row of the index, and the word forms it adds (see :func:`build_index`)."""


def build_index(workspace: Workspace, code: str, forms: TermForms | None = None,
                store: Store | None = None, memo: ReadMemo[IndexRow] | None = None) -> dict[str, object]:
    """The search index of one language: rules first, then glossary terms; ``forms``,
    :func:`term_forms` of the workspace when made already (a build makes it once, before
    its page jobs: it walks every text of every language); the lemmas ``store`` keeps;
    each rule's row as ``memo`` keeps it from the last build, made again only when what
    it read changed (see :mod:`validator.site.incremental`)."""
    analyzers = Analyzers((store or Store()).lemmas)
    builder = IndexBuilder(analyzers[code])
    read = workspace
    if memo is not None:
        read = read_workspace(workspace, memo.reads)
    renderers = {language.code: TextRenderer(read.rulebook, read.rule_catalogs[language.code], language)
                 for language in workspace.project.languages}
    # Equal forms and keys of different rows made one object: the rows are kept between
    # builds, and a form shared by many rows is then pickled once.
    table: dict[object, object] = {}

    def shared(value: U) -> U:
        return cast(U, table.setdefault(value, value))

    for chapter in workspace.rulebook.chapters:
        for rule in chapter.rules:
            def make(chapter: Chapter = chapter, rule: Rule = rule) -> IndexRow:
                # The rule's own chapter is read through the stand-in too: its file is part of the key.
                rule_builder = IndexBuilder(builder.analyzer)
                entry = _rule_entry(rule_builder, read.rulebook.chapter_of(rule.id), rule, code, renderers,
                                    analyzers, read.rulebook)
                return entry.serialise(), {shared(form): shared(frozenset(keys))
                                           for form, keys in rule_builder.forms.items()}

            row, rule_forms = make() if memo is None else memo.value(rule.id, make)
            builder.rows.append(row)
            for form, keys in rule_forms.items():
                builder.forms[form].update(keys)
    rulebook = workspace.rulebook
    renderer = renderers[code]
    # Translators: The heading of the glossary's terms among the search results.
    glossary_title = interface_translations(workspace.ui_catalogs.get(code)).gettext("Glossary")
    used_forms = term_forms(workspace) if forms is None else forms
    for term in rulebook.glossary.terms:
        title = renderer.plain(f"glossary/{term.id}#term", term.term)
        entry = Entry(f"glossary/{term.id}", f"{html_page(GLOSSARY_PAGE)}#{anchor(term.id)}", title, glossary_title,
                      share=TERM_SHARE)
        builder.add_text(entry, title, TERM_WEIGHT)
        for other, other_renderer in renderers.items():
            analyzer = analyzers[other]
            names = " ".join(term.also_called.get(other, ()))
            builder.add_text(entry, names, TERM_ALIAS_WEIGHT if other == code else OTHER_TITLE_WEIGHT, cap=1,
                             analyzer=analyzer)
            if other != code:
                builder.add_text(entry, other_renderer.plain(f"glossary/{term.id}#term", term.term),
                                 OTHER_LANGUAGE_WEIGHT, cap=1, analyzer=analyzer)
            # All forms in one text, so each word counts once however many cases share it.
            declined = " ".join(sorted(used_forms.get((term.id, other), ())))
            builder.add_text(entry, declined, OTHER_LANGUAGE_WEIGHT, cap=1, analyzer=analyzer)
        builder.add_text(entry, renderer.plain(f"glossary/{term.id}#definition", term.definition), cap=TEXT_CAP)
        builder.rows.append(entry.serialise())
    # Official answers (docs/faq.yml), after the rules and terms they explain.
    interface = interface_translations(workspace.ui_catalogs.get(code))
    for answer in rulebook.faq.faq:
        question = renderer.plain(f"{answer.subject}#question", answer.question)
        entry = Entry(answer.subject, f"faq.html#{anchor(answer.id)}", question,
                      group_title(answer.standing, interface.gettext, interface.pgettext), share=ANSWER_SHARE)
        builder.add_text(entry, question, TERM_WEIGHT)
        builder.add_text(entry, " ".join([renderer.plain(f"{answer.subject}#answer", answer.answer),
                                          *(renderer.plain(f"{answer.subject}#example.{example.id}", example.text)
                                            for example in answer.examples)]), cap=TEXT_CAP)
        builder.add_whole(entry, answer.subject, ID_WEIGHT)
        builder.rows.append(entry.serialise())
    for analyzer in analyzers.values():
        analyzer.save()
    return builder.serialise()


def _rule_entry(builder: IndexBuilder, chapter: Chapter, rule: Rule, code: str,
                renderers: Mapping[str, TextRenderer], analyzers: Analyzers, rulebook: Rulebook) -> Entry:
    """A rule's entry of the index of ``code``, its word forms added to ``builder``."""
    renderer = renderers[code]
    source_languages = {source.id: source.language for source in rulebook.sources.sources}
    chapter_title = renderer.plain(f"{chapter.id}#title", chapter.chapter.title)
    title = renderer.plain(f"{rule.id}#title", rule.title)
    entry = Entry(rule.id, f"{html_page(chapter_page(chapter.id))}#{anchor(rule.id)}", title, chapter_title)
    builder.add_text(entry, title, TITLE_WEIGHT)
    body = " ".join([renderer.plain(f"{rule.id}#text", rule.text),
                     *(renderer.plain(f"{rule.id}#example.{example.id}", example.text)
                       for example in rule.examples)])
    builder.add_text(entry, body, cap=TEXT_CAP)
    builder.add_text(entry, chapter_title)
    # The headings of the sources it is written from, which the players of that
    # edition know it by, in the source's language.
    for citation in rule.cite:
        if citation.section and citation.source in source_languages:
            builder.add_text(entry, citation.section, OTHER_TITLE_WEIGHT, cap=1,
                             analyzer=analyzers[source_languages[citation.source]])
    for other, other_renderer in renderers.items():
        # All of a language's names in one text, so that a word they share counts once.
        names = " ".join(rule.also_called.get(other, ()))
        if other == code:
            builder.add_text(entry, names, RULE_ALIAS_WEIGHT, cap=1)
        else:
            builder.add_text(entry, f"{other_renderer.plain(f'{rule.id}#title', rule.title)} {names}",
                             OTHER_TITLE_WEIGHT, cap=1, analyzer=analyzers[other])
    for rule_id in (rule.id, *rule.aliases):
        builder.add_whole(entry, rule_id, ID_WEIGHT)
    # Dice as every language writes them (3d8 and 3k6 where a page shows 3W8): a
    # player types the letter of his own edition, or of the one he learnt first.
    for dice in sorted({piece.argument for text in (rule.text, *(e.text for e in rule.examples))
                        for piece in split(text) if isinstance(piece, Token) and piece.kind == "dice"}):
        for written in sorted({dice.lower(), *(rulebook.project.dice.written(dice, other).lower()
                                               for other in renderers)}):
            builder.add_whole(entry, written, 1)
    return entry


def term_forms(workspace: Workspace) -> TermForms:
    """Declined forms of each glossary term per language: (term id, language) -> forms.

    They come from the glossary's ``forms:`` (per language) when it has them, and
    from the ``{term:id|form}`` tokens of every translation."""
    forms: TermForms = defaultdict(set)
    for term in workspace.rulebook.glossary.terms:
        declared = getattr(term, "forms", None) or {}
        for language, listed in dict(declared).items():
            words = listed.all() if isinstance(listed, Inflection) else listed
            forms[(term.id, str(language))].update(str(form) for form in words)
    for code, catalog in workspace.rule_catalogs.items():
        for message in workspace.rulebook.messages():
            text = catalog.translate(message.context, message.text).text
            if "|" not in text:  # no token with a form: most texts, not split at all
                continue
            for piece in split(text):
                if isinstance(piece, Token) and piece.kind == "term" and piece.form:
                    forms[(piece.argument, code)].add(piece.form)
    return forms


def write_index(workspace: Workspace, code: str, folder: Path, forms: TermForms | None = None,
                store: Store | None = None, memo: ReadMemo[IndexRow] | None = None) -> Path:
    """Write the language's index as a script that assigns ``window.validatorSearchIndex``
    (``forms``, ``store`` and ``memo``: see :func:`build_index`)."""
    index = build_index(workspace, code, forms, store, memo)
    return write_global(folder / INDEX_FILE, GLOBAL, index)
