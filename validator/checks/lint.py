"""The translation lint: small checks over every translated message, Babel-style.

Each check is a function that looks at one message (or one catalogue) and yields
findings; the list :data:`MESSAGE_CHECKS` is the whole lint.  A translator can
silence one check for one message with a translator comment

    # lint-ignore: <check>: <reason>

and the reason is required: a silence without one is itself a finding.

Each message's findings are kept between runs (see :mod:`validator.resultcache`)
by the message and the :class:`LintContext`, all that the checks consult: a run
after an edit checks again only the messages whose text, English or terms changed.
The lint of a whole workspace, in parts on every core, is :mod:`validator.checks.lintparts`.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cached_property, partial
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from pydantic import BaseModel

from validator import resultcache
from validator.catalogs.headers import equivalent_plurals
from validator.checks.said import said
from validator.checks.terminology import forbidden_variants, unlinked_terms
from validator.content.characters import hidden_characters
from validator.content.loader import Rulebook
from validator.content.model import Glossary, Node, Position, Term
from validator.content.tokens import Literal, Token, split, tokens
from validator.content.yamlsource import read_input
from validator.derived import derived, kept_function
from validator.problems import Problem, ProblemsFound


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Finding:
    file: str
    line: int
    context: str
    check: str
    severity: Severity
    message: str
    fix: str

    def __str__(self) -> str:
        subject = f" [{self.context}]" if self.context else ""
        return f"{self.file}:{self.line}:{subject} {self.check} ({self.severity}): {self.message}. Fix: {self.fix}"

    def as_problem(self) -> Problem:
        return Problem(self.file, self.line, self.context, f"{self.check}: {self.message}", self.fix)


@dataclass(frozen=True)
class LintContext:
    """All that the checks may consult besides the message itself.

    Every field is part of the key each message's findings are kept under between
    runs (see :attr:`key`): a check that needs one more fact gets it as a field,
    and the key follows by itself."""

    terms: Glossary
    """The rulebook's glossary: its terms, their forms, the names it keeps consistent."""
    source_language: str
    language: str
    glossary: dict[str, str]
    """English glossary term -> its translation in this language (rule catalogues only)."""
    current_english: dict[str, str]
    """msgctxt -> the English text in force (rule catalogues only); only a message's
    own entry is part of its key."""

    @classmethod
    def of(cls, rulebook: Rulebook, language: str, glossary: dict[str, str],
           current_english: dict[str, str]) -> LintContext:
        return cls(rulebook.glossary, rulebook.project.source_language, language, glossary, current_english)

    @cached_property
    def key(self) -> bytes:
        """Every field, by name and value, but the per-message English text (only a
        message's own entry of it is part of that message's key)."""
        return resultcache.digest(*((item.name, _keyed(getattr(self, item.name))) for item in fields(self)
                                    if item.name != "current_english"))


def _keyed(value: object) -> object:
    """A field's value in a form :func:`validator.resultcache.digest` takes as it is."""
    if isinstance(value, BaseModel):
        return value.model_dump()
    if isinstance(value, Mapping):
        return sorted(value.items())
    return value


MessageCheck = Callable[[Message, LintContext], Iterator[tuple[str, Severity, str, str]]]
"""A check yields (check name, severity, what is wrong, how to fix it)."""

NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
DICE = re.compile(r"\b\d*[DdKk]\d+\b")
WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
ENDINGS = ".!?:…;"
SILENCE = re.compile(r"^lint-ignore:\s*(?P<check>[\w-]+)\s*(?::\s*(?P<reason>.*))?$")


def _plain(text: str) -> str:
    """The text without its tokens (a token's words are not the translator's)."""
    return "".join(piece.text if isinstance(piece, Literal) else " " for piece in split(text))


def _numbers(text: str) -> Counter[str]:
    plain = _plain(text)
    dice = DICE.findall(plain)
    without_dice = DICE.sub(" ", plain)
    return Counter([d.upper().replace("K", "D") for d in dice]
                   + [n.replace(",", ".") for n in NUMBER.findall(without_dice)])


def _difference(source: Counter[str], translated: Counter[str]) -> str:
    """What a translation lacks of the English's placeholders and what it adds, in a few words."""
    missing = ", ".join(sorted((source - translated).elements()))
    extra = ", ".join(sorted((translated - source).elements()))
    if missing and extra:
        # Translators: A part of a finding (after 'differ from the English text'): %(missing)s
        # lists the tokens or placeholders the translation lacks, %(extra)s those
        # it has and the English has not.
        return said("missing %(missing)s; not in the English %(extra)s", missing=missing, extra=extra)
    if missing:
        # Translators: A part of a finding (after 'differ from the English text'): %(missing)s
        # lists the tokens or placeholders the translation lacks.
        return said("missing %(missing)s", missing=missing)
    # Translators: A part of a finding (after 'differ from the English text'): %(extra)s
    # lists the tokens or placeholders the translation has and the English has
    # not.
    return said("not in the English %(extra)s", extra=extra)


def check_tokens(message: Message, _context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    source = Counter(f"{{{t.kind}:{t.argument}}}" for t in tokens(str(message.id)))
    translated = Counter(f"{{{t.kind}:{t.argument}}}" for t in tokens(str(message.string)))
    if source != translated:
        yield ("tokens", Severity.ERROR,
               # Translators: What the lint says is wrong (check 'tokens'): the {kind:id} tokens of the
               # translation are not those of the English; %(difference)s says which are
               # missing or added.
               said("the tokens differ from the English text (%(difference)s)",
                    difference=_difference(source, translated)),
               # Translators: The lint's fix, said after 'Fix:' of the check 'tokens'. Keep {...} and |
               # as they are: they show the token's form.
               said("keep every {...} token of the msgid, in any order; only the form after | may change"))


_CONVERSION = re.compile(r"%(?:%|(?:\((?P<name>[^()]*)\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?"
                         r"(?P<type>[diouxXeEfFgGcrsa]))")
"""One ``%`` directive of a Python format string: ``%%``, ``%(name)s``, ``%5.2f``..."""
_NAMED = re.compile(r"%\([^()]*\)")
TEMPLATE_SUFFIX = ".j2"
"""The site's templates format every interface string they translate (Jinja's
``newstyle`` gettext applies ``%`` even without arguments)."""


def _placeholders(text: str) -> Counter[str] | str:
    """The placeholders of a Python ``%`` format string (``%(name)s``, or ``%s`` in
    order), or why the text is not one."""
    found: Counter[str] = Counter()
    position = text.find("%")
    while position >= 0:
        directive = _CONVERSION.match(text, position)
        if directive is None:
            # Translators: Why a translation is no format string: %(sign)s is a percent sign and the
            # character after it, quoted, which make no placeholder such as %(name)s.
            return said("%(sign)s is not a placeholder", sign=repr(text[position:position + 2]))
        if directive.group(0) != "%%":
            name = directive.group("name")
            found[f"%({name}){directive.group('type')}" if name is not None else f"%{directive.group('type')}"] += 1
        position = text.find("%", directive.end())
    if len({key.startswith("%(") for key in found}) > 1:
        # Translators: Why a translation is no format string: it has both %(name)s placeholders
        # and %s ones.
        return said("named and positional placeholders are mixed")
    return found


def is_format_string(message: Message) -> bool:
    """Whether the site fills the message's placeholders with ``%``: flagged so by the
    template, used by a template, or holding a named placeholder (no prose does)."""
    return ("python-format" in message.flags or _NAMED.search(str(message.id)) is not None
            or any(str(location).endswith(TEMPLATE_SUFFIX) for location, _line in message.locations))


def check_placeholders(message: Message, _context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    """The ``%`` placeholders of an interface string: the page fails to render when a
    translation names one the code does not give, or holds a lone ``%``."""
    if not is_format_string(message):
        return
    source = _placeholders(str(message.id))
    if isinstance(source, str):
        return  # the English is no format string itself: nothing to hold the translation to
    translated = _placeholders(str(message.string))
    # Translators: Said in place of the list of placeholders when the English has none.
    none = said("none")
    # Translators: The lint's fix, said after 'Fix:' of the check 'placeholders':
    # %(placeholders)s lists the English's placeholders (or says 'none'). Keep
    # %%%% as it is: it shows a percent sign written twice.
    fix = said("write the placeholders of the msgid unchanged (%(placeholders)s), and a percent sign as %%%%",
               placeholders=", ".join(sorted(source)) or none)
    entry = _excerpt(str(message.id))
    if isinstance(translated, str):
        yield ("placeholders", Severity.ERROR,
               # Translators: What the lint says is wrong (check 'placeholders'): %(entry)s is the
               # start of the English text, quoted; %(why)s says why the translation is no
               # format string.
               said("the translation of %(entry)s is no format string: %(why)s", entry=entry, why=translated), fix)
    elif translated != source:
        yield ("placeholders", Severity.ERROR,
               # Translators: What the lint says is wrong (check 'placeholders'): %(entry)s is the
               # start of the English text, quoted; %(difference)s says which placeholders
               # are missing or added.
               said("the translation of %(entry)s has other placeholders than the English (%(difference)s)",
                    entry=entry, difference=_difference(source, translated)), fix)


def _excerpt(text: str) -> str:
    """A msgid as a message names it: an interface string has no msgctxt to name it by."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= 60 else flat[:59] + "…")


def check_numbers(message: Message, _context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    source, translated = _numbers(str(message.id)), _numbers(str(message.string))
    if source != translated:
        yield ("numbers", Severity.ERROR,
               # Translators: What the lint says is wrong (check 'numbers'): %(english)s and
               # %(translation)s list the numbers and dice (such as 3d8) of each text.
               said("numbers or dice differ: English %(english)s, translation %(translation)s",
                    english=sorted(source.elements()), translation=sorted(translated.elements())),
               # Translators: The lint's fix, said after 'Fix:' of the check 'numbers'.
               said("write the same numbers and dice notation as the English text"))


def check_paragraphs(message: Message, _context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    source, translated = str(message.id).count("\n\n"), str(message.string).count("\n\n")
    if source != translated:
        yield ("paragraphs", Severity.ERROR,
               # Translators: What the lint says is wrong (check 'paragraphs'): %(translation)s and
               # %(english)s are the counts of paragraphs of each text.
               said("%(translation)s paragraphs where the English has %(english)s", translation=translated + 1,
                    english=source + 1),
               # Translators: The lint's fix, said after 'Fix:' of the check 'paragraphs'.
               said("separate paragraphs with one blank line, as in the msgid"))


def check_blank(message: Message, _context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    if message.string and not str(message.string).strip():
        # Translators: What the lint says is wrong (check 'blank'): the msgstr holds spaces and
        # nothing else.
        yield ("blank", Severity.ERROR, said("the translation is only spaces"),
               # Translators: The lint's fix, said after 'Fix:' of the check 'blank'. Keep the word
               # msgstr: it is the catalogue's keyword.
               said("translate the text, or leave the msgstr empty"))


def check_unchanged(message: Message, _context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    if str(message.string) == str(message.id) and len(WORD.findall(_plain(str(message.id)))) > 1:
        # Translators: What the lint says is wrong (check 'unchanged'): the translation is word
        # for word the English.
        yield ("unchanged", Severity.WARNING, said("the translation is the English text"),
               # Translators: The lint's fix, said after 'Fix:' of the check 'unchanged': a '#
               # lint-ignore: unchanged: <reason>' comment silences it.
               said("translate it, or silence this check with a reason if it is meant to stay English"))


DOUBLED = re.compile(r"\b([^\W\d_]+)\s+\1\b", re.IGNORECASE)


def check_doubled_words(message: Message, _context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    """The same word twice with only space between, within one stretch of text (a
    token in between, as in "un {term:x} un", is not a repetition)."""
    literals = [piece.text for piece in split(str(message.string)) if isinstance(piece, Literal)]
    doubled = sorted({match.group(1).lower() for text in literals for match in DOUBLED.finditer(text)})
    if doubled:
        yield ("doubled-words", Severity.WARNING,
               # Translators: What the lint says is wrong (check 'doubled-words'): %(words)s lists the
               # words written twice in a row.
               said("word written twice in a row: %(words)s", words=", ".join(doubled)),
               # Translators: The lint's fix, said after 'Fix:' of the check 'doubled-words'.
               said("remove the repeated word"))


STOP_AFTER_MARK = re.compile(r"[!?](?:[»”\"')]*)\.(?!\.)")


def check_stop_after_mark(message: Message, _context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    """A full stop after an exclamation or a question mark ("¡Cuidado, Señor!."): the
    mark already ends the sentence.  An ellipsis after one ("?...") is left alone."""
    literals = [piece.text for piece in split(str(message.string)) if isinstance(piece, Literal)]
    if any(STOP_AFTER_MARK.search(text) for text in literals):
        yield ("stop-after-mark", Severity.WARNING,
               # Translators: What the lint says is wrong (check 'stop-after-mark'): a full stop
               # written after ! or ?, which already end the sentence.
               said("a full stop after an exclamation or a question mark"),
               # Translators: The lint's fix, said after 'Fix:' of the check 'stop-after-mark'.
               said("remove the full stop: the mark ends the sentence"))


def check_punctuation(message: Message, _context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    def ending(text: str) -> str:
        stripped = text.rstrip().rstrip(")»”\"'")
        return stripped[-1] if stripped and stripped[-1] in ENDINGS else ""
    source, translated = ending(str(message.id)), ending(str(message.string))
    if source != translated:
        # Translators: Said in place of a punctuation mark, in the finding of the check
        # 'punctuation', when a text ends with none.
        nothing = said("no punctuation")
        yield ("punctuation", Severity.WARNING,
               # Translators: What the lint says is wrong (check 'punctuation'): %(english)s and
               # %(translation)s are the last marks of each text, quoted, or 'no
               # punctuation'.
               said("the English ends with %(english)s, the translation with %(translation)s",
                    english=repr(source) if source else nothing,
                    translation=repr(translated) if translated else nothing),
               # Translators: The lint's fix, said after 'Fix:' of the check 'punctuation'.
               said("end the translation the way the English ends"))


def _uses(form: str, text: str) -> bool:
    """Whether ``text`` (lower case) holds ``form`` as whole words."""
    return re.search(rf"(?<!\w){re.escape(form.lower())}(?!\w)", text) is not None


def _translated_words(text: str) -> str:
    """The translation's own words and the forms its ``{term:id|form}`` tokens show,
    lower case: both are the translator's choice of words."""
    shown = [piece.form for piece in split(text) if isinstance(piece, Token) and piece.kind == "term" and piece.form]
    return " \n ".join([_plain(text), *shown]).lower()


def _longest_first(terms: tuple[Term, ...]) -> tuple[Term, ...]:
    """The glossary's terms, longest first, sorted once per glossary (not per message)."""
    return derived("terms longest first", terms, lambda: tuple(sorted(terms, key=lambda term: -len(term.term))))


@kept_function(4096)
def _english_use(term: str) -> re.Pattern[str]:
    """Where the English text uses ``term``: as whole words, not inside a hyphenated
    word ("rank" is not in "rank-and-file").  A term written with a capital is a
    name (a characteristic, a special rule, a phase) and is matched with its capital,
    so "Strength" is the characteristic and "strength" is not; others match in any case."""
    flags = 0 if term[:1].isupper() else re.IGNORECASE
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])", flags)


def accepted_forms(term: Term, language: str, translation: str) -> tuple[str, ...]:
    """The forms that count as a use of ``term`` in ``language``: the glossary's
    declared forms and the term's translation itself."""
    return tuple(dict.fromkeys((*term.declined(language), *([translation] if translation else []))))


def check_glossary(message: Message, context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    """A message whose English uses a glossary term must use one of the term's forms
    in the language (any case and number the glossary lists under ``forms:``).
    Rule catalogues only (the context's ``glossary`` is empty for the others)."""
    if not context.glossary:
        return
    source = _plain(str(message.id))
    folded_source = source.lower()
    translated = _translated_words(str(message.string))
    linked = {token.argument for token in tokens(str(message.string)) if token.kind == "term"}
    for term in _longest_first(context.terms.terms):
        if term.term.lower() not in folded_source:
            continue  # the cheap test first: most terms are in no given message
        english = _english_use(term.term)
        if not english.search(source):
            continue
        # A longer term has its own check: "unit" in "flying unit" is not a use of "unit".
        source = english.sub(" ", source)
        if term.id in linked:
            continue  # a link shows the glossary's own word for the term
        translation = context.glossary.get(term.term, "")
        forms = accepted_forms(term, context.language, translation)
        if not forms:
            continue
        if not any(_uses(form, translated) for form in forms):
            shown = ", ".join(forms[:4]) + (", …" if len(forms) > 4 else "")
            yield ("glossary", Severity.WARNING,
                   # Translators: What the lint says is wrong (check 'glossary'): %(term)s is the English
                   # term, quoted; %(forms)s lists the forms the glossary gives it in the
                   # language.
                   said("the English uses the term %(term)s; the translation uses none of its forms (%(forms)s)",
                        term=repr(term.term), forms=shown),
                   # Translators: The lint's fix, said after 'Fix:' of the check 'glossary': %(language)s
                   # is the language's code and %(id)s the term's id. Keep 'forms:' as it is:
                   # it is a key of docs/glossary.yml.
                   said("use the glossary's translation of the term in the case the sentence needs; a form missing "
                        "from the list goes under forms: %(language)s of '%(id)s' in the glossary",
                        language=context.language, id=term.id))


def check_term_forms(message: Message, context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    """The form a ``{term:id|form}`` token shows must be one the glossary declares
    for the language, when it declares any (capitals aside, for a sentence start)."""
    for piece in split(str(message.string)):
        if not (isinstance(piece, Token) and piece.kind == "term" and piece.form):
            continue
        term = next((term for term in context.terms.terms if term.id == piece.argument), None)
        declared = term.declined(context.language) if term else ()
        if declared and piece.form.lower() not in {form.lower() for form in declared}:
            token = "{term:%s|%s}" % (piece.argument, piece.form)  # noqa: UP031 (said() takes no f-string)
            yield ("term-form", Severity.ERROR,
                   # Translators: What the lint says is wrong (check 'term-form'): %(token)s is the token
                   # as written, %(id)s the term's id and %(forms)s the forms the glossary
                   # lists for it.
                   said("%(token)s shows a form the glossary does not list for '%(id)s' (%(forms)s)",
                        token=token, id=piece.argument, forms=", ".join(declared)),
                   # Translators: The lint's fix, said after 'Fix:' of the check 'term-form': %(language)s
                   # is the language's code and %(id)s the term's id. Keep 'forms:' and
                   # docs/glossary.yml as they are.
                   said("write one of the listed forms after |, or add the form under forms: %(language)s of "
                        "'%(id)s' in docs/glossary.yml", language=context.language, id=piece.argument))


def terminology_problems(text: str, glossary: Glossary, language: str) -> Iterator[tuple[str, Severity, str, str]]:
    """One word for one thing: a variant the glossary forbids in ``language`` (for a
    term, or for one of its ``names:``), found in any form of its words."""
    for variant in forbidden_variants(text, glossary, language):
        yield ("terminology", Severity.ERROR,
               # Translators: What the lint says is wrong (check 'terminology'): %(found)s is the word
               # found, quoted, and %(entry)s the glossary entry that forbids it.
               said("%(found)s is a variant the glossary forbids for %(entry)s", found=repr(variant.found),
                    entry=repr(variant.entry)),
               # Translators: The lint's fix, said after 'Fix:' of the check 'terminology':
               # %(preferred)s is the glossary's word, quoted, and %(language)s the
               # language's code.
               said("write %(preferred)s (in the form the sentence needs), the one word %(language)s uses for it",
                    preferred=repr(variant.preferred), language=language))


def check_terminology(message: Message, context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    yield from terminology_problems(str(message.string), context.terms, context.language)


LINKED_TEXT = re.compile(r"^[a-z0-9-]+/[a-z0-9-]+#(?:text|example\.[a-z0-9-]+)$")
"""The msgctxt of a rule's text or of a worked example's, under a rule or under an
official answer (``faq/<id>#example.<id>``): the texts that link every glossary term
at its first use.  A chapter's intro, a glossary entry, a discrepancy or an answer's
question and answer have other fields."""


def unlinked_problems(context_id: str, text: str, glossary: Glossary, language: str,
                      source_language: str) -> Iterator[tuple[str, Severity, str, str]]:
    """A glossary term used in a rule or example text without a link at its first use."""
    if not LINKED_TEXT.match(context_id) or context_id.startswith(("glossary/", "discrepancies/")):
        return
    for unlinked in unlinked_terms(text, glossary, language, source_language):
        token, plain = "{term:%s|%s}" % (unlinked.term, unlinked.shown), "{term:%s}" % unlinked.term  # noqa: UP031
        yield ("unlinked-term", Severity.WARNING,
               # Translators: What the lint says is wrong (check 'unlinked-term'): %(term)s is the
               # term's id and %(shown)s the words of the text that name it, quoted.
               said("the glossary term '%(term)s' is used (%(shown)s) without a link at its first use",
                    term=unlinked.term, shown=repr(unlinked.shown)),
               # Translators: The lint's fix, said after 'Fix:' of the check 'unlinked-term': %(token)s
               # and %(plain)s are tokens to write as they are.
               said("write %(token)s there, or %(plain)s for the glossary's own form", token=token, plain=plain))


def check_unlinked_terms(message: Message, context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    yield from unlinked_problems(str(message.context or ""), str(message.string), context.terms, context.language,
                                 context.source_language)


def check_glossary_rules(message: Message, context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    translated = _plain(str(message.string)).lower()
    source = _plain(str(message.id)).lower()
    for term in context.terms.terms:
        if term.keep and term.term.lower() in source and term.term.lower() not in translated:
            # Translators: What the lint says is wrong (check 'keep'): %(term)s is a name the
            # glossary keeps in English, quoted.
            yield ("keep", Severity.ERROR, said("%(term)s must stay as it is in every language", term=repr(term.term)),
                   # Translators: The lint's fix, said after 'Fix:' of the check 'keep': %(term)s is the
                   # name, quoted.
                   said("write %(term)s unchanged in the translation", term=repr(term.term)))


def is_out_of_date(message: Message, context: LintContext) -> bool:
    """Whether the translation was made for another English text (marked fuzzy, or a
    msgid that is no longer the text in force): no page shows it."""
    english = context.current_english.get(str(message.context or ""))
    return bool(message.fuzzy) or (english is not None and english != message.id)


def check_current(message: Message, context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    if is_out_of_date(message, context):
        # Translators: What the lint says is wrong (check 'fuzzy'): the entry is marked fuzzy,
        # its English changed since it was translated.
        yield ("fuzzy", Severity.WARNING, said("the translation was made for an older English text"),
               # Translators: The lint's fix, said after 'Fix:' of the check 'fuzzy'. Keep #| as it is:
               # it marks the previous English in the catalogue.
               said("compare with the previous text (#|), update the translation and clear the fuzzy flag"))


MARKUP = re.compile(r"[<>]|&(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#[xX][0-9a-fA-F]+);")
UNSAFE_SCHEME = re.compile(r"\b(?:(?:javascript|vbscript)\s*:|data\s*:\s*(?:[a-z]+/[a-z0-9.+-]+|,))",
                           re.IGNORECASE)
"""A script address.  ``data:`` counts only with a media type or a comma after it, since
"data:" is also an ordinary word (Polish for "date")."""
MARKUP_SIGNS = frozenset("<>&:")
"""A character that every match of :data:`MARKUP` or :data:`UNSAFE_SCHEME` holds."""


def markup_problems(text: str) -> Iterator[tuple[str, Severity, str, str]]:
    """Markup or a script address in a text that the site shows.

    Every text is shown as written, never read as HTML or Markdown, so a translator
    or an editor never needs ``<``, ``>`` or an HTML entity such as ``&lt;``; where
    they appear they are a paste from a web page, or an attempt to slip markup into
    the site.  The same goes for an address that runs a script (``javascript:``,
    ``vbscript:``, ``data:``), which the site would never link to."""
    if not MARKUP_SIGNS.intersection(text):
        return  # the usual text: neither expression can match, so neither is run
    found = sorted({match.group(0) for match in MARKUP.finditer(text)})
    if found:
        yield ("markup", Severity.ERROR,
               # Translators: What the lint says is wrong (check 'markup'): %(markup)s lists the
               # characters or HTML entities found.
               said("the text contains markup (%(markup)s); the site shows text as written, never as HTML",
                    markup=" ".join(found)),
               # Translators: The lint's fix, said after 'Fix:' of the check 'markup'. Keep <, > and «
               # » as they are.
               said("write plain text without <, > or HTML entities (quotes as in the rest of the text, such as « »)"))
    schemes = sorted({match.group(0).split(":")[0].strip().lower() + ":" for match in UNSAFE_SCHEME.finditer(text)})
    if schemes:
        yield ("url-scheme", Severity.ERROR,
               # Translators: What the lint says is wrong (check 'url-scheme'): %(address)s lists the
               # schemes found, such as javascript:.
               said("the text contains the script address %(address)s", address=", ".join(schemes)),
               # Translators: The lint's fix, said after 'Fix:' of the check 'url-scheme'.
               said("remove it: the site links only to its own pages"))


def hidden_problems(text: str) -> Iterator[tuple[str, Severity, str, str]]:
    """A control character or a bidirectional override in a text the site shows (see
    :mod:`validator.content.characters`): it hides or reorders what a reader sees."""
    found = hidden_characters(text)
    if found:
        yield ("invisible", Severity.ERROR,
               # Translators: What the lint says is wrong (check 'invisible'): %(characters)s lists the
               # characters found by their Unicode numbers, such as U+202E.
               said("the text holds invisible controls (%(characters)s) that hide or reorder what readers see",
                    characters=" ".join(found)),
               # Translators: The lint's fix, said after 'Fix:' of the check 'invisible'.
               said("delete each character listed (most editors do not show them)"))


def shown_text_problems(text: str) -> Iterator[tuple[str, Severity, str, str]]:
    """What no text the site shows as written may hold: markup, a script address, an
    invisible control character."""
    yield from markup_problems(text)
    yield from hidden_problems(text)


def check_markup(message: Message, _context: LintContext) -> Iterator[tuple[str, Severity, str, str]]:
    yield from shown_text_problems(str(message.string))


MESSAGE_CHECKS: tuple[MessageCheck, ...] = (
    check_tokens, check_placeholders, check_numbers, check_paragraphs, check_blank, check_markup, check_glossary_rules,
    check_terminology, check_unlinked_terms, check_glossary, check_term_forms, check_unchanged, check_doubled_words,
    check_stop_after_mark, check_punctuation, check_current,
)


BLOCKING_CHECKS: tuple[MessageCheck, ...] = (check_tokens, check_placeholders)
"""Checks whose findings stop a page from rendering (an unknown term, a placeholder the
code does not give): a build runs them before any page."""
UNSILENCEABLE = ("markup", "url-scheme", "invisible", "tokens", "placeholders")
"""Checks no comment silences: markup, a script address or an invisible control is
never wanted in a text the site shows, a broken token or placeholder stops its page from rendering, and a
silence would only let either reach the rendering."""


def _unsilenceable(silenced: Mapping[str, str]) -> list[tuple[str, Severity, str, str]]:
    """A silence of a check of :data:`UNSILENCEABLE` is itself an error."""
    # Translators: What the lint says is wrong (check 'lint-ignore'): %(check)s is the name
    # of a check, quoted, that no comment may silence.
    return [("lint-ignore", Severity.ERROR, said("silences %(check)s, which cannot be silenced", check=repr(check)),
             # Translators: The lint's fix, said after 'Fix:' of the check 'lint-ignore': %(check)s
             # is the check's name. Keep the comment '# lint-ignore: ...' as it is
             # written in the catalogue.
             said("remove the comment '# lint-ignore: %(check)s' and correct what that check finds", check=check))
            for check in UNSILENCEABLE if check in silenced]


def _silences(message: Message) -> tuple[dict[str, str], list[str]]:
    silenced: dict[str, str] = {}
    without_reason = []
    for comment in message.user_comments:
        match = SILENCE.match(comment.strip())
        if match:
            if (match["reason"] or "").strip():
                silenced[match["check"]] = match["reason"].strip()
            else:
                without_reason.append(match["check"])
    return silenced, without_reason


Found = tuple[tuple[str, Severity, str, str], ...]
"""A message's findings without their place: (check, severity, what, fix)."""


def lint_catalog(catalog: Catalog, shown_as: str, context: LintContext,
                 kept: resultcache.Bucket | None = None) -> list[Finding]:
    """Every finding in one catalogue: its header, then each message (``kept``: the
    findings of earlier runs, by message and context)."""
    findings = list(_header_findings(catalog, shown_as, context.language))
    for message in catalog:
        if not message.id:
            continue
        ctx = str(message.context or "")
        make = partial(message_findings, message, catalog.num_plurals, context)
        found = make() if kept is None else kept.made_from(
            (shown_as, ctx, message.id),
            (context.key, message.string, tuple(message.user_comments), tuple(sorted(message.flags)),
             catalog.num_plurals, context.current_english.get(ctx)), make)
        line = message.lineno or 0
        findings.extend(Finding(shown_as, line, ctx, *finding) for finding in found)
    return sorted(findings)


def message_findings(message: Message, plural_forms: int, context: LintContext) -> Found:
    """One message's findings, silenced ones left out, in a catalogue whose language
    has ``plural_forms`` forms."""
    silenced, without_reason = _silences(message)
    found: list[tuple[str, Severity, str, str]] = [
        # Translators: What the lint says is wrong (check 'lint-ignore'): %(check)s is the name
        # of the silenced check, quoted.
        ("lint-ignore", Severity.ERROR, said("silences %(check)s without a reason", check=repr(unexplained)),
         # Translators: The lint's fix, said after 'Fix:' of the check 'lint-ignore': %(check)s
         # is the check's name. Keep '# lint-ignore:' as it is; translate <why>, the
         # place of the reason.
         said("write the reason: # lint-ignore: %(check)s: <why>", check=unexplained))
        for unexplained in without_reason]
    found.extend(_unsilenceable(silenced))
    for unsilenceable in UNSILENCEABLE:
        silenced.pop(unsilenceable, None)
    if not message.string or (isinstance(message.string, tuple) and not any(message.string)):
        if "untranslated" not in silenced:
            found.append(("untranslated", Severity.WARNING,
                          # Translators: What the lint says is wrong (check 'untranslated'): the msgstr is empty.
                          said("no translation yet (the page shows the English text)"),
                          # Translators: The lint's fix, said after 'Fix:' of the check 'untranslated'.
                          said("translate the message")))
        return tuple(found)
    if is_out_of_date(message, context):
        # The page shows the English text: the translation is judged when it is
        # reviewed, and an English edit never blocks the site.
        found.extend(finding for finding in check_current(message, context) if finding[0] not in silenced)
        return tuple(found)
    if message.pluralizable:
        forms = len(message.string) if isinstance(message.string, (list, tuple)) else 1
        if forms != plural_forms:
            found.append(("plural-forms", Severity.ERROR,
                          # Translators: What the lint says is wrong (check 'plural-forms'): %(forms)s and
                          # %(expected)s are counts of plural forms, the entry's and the language's.
                          said("%(forms)s plural forms where the language has %(expected)s", forms=forms,
                               expected=plural_forms),
                          # Translators: The lint's fix, said after 'Fix:' of the check 'plural-forms'. Keep
                          # msgstr[n] as it is: it is the catalogue's keyword.
                          said("give one msgstr[n] for each plural form of the language")))
        return tuple(found)
    for check in MESSAGE_CHECKS:
        found.extend(finding for finding in check(message, context)
                     if finding[0] not in silenced)
    return tuple(found)


def blocking_findings(message: Message, context: LintContext) -> Found:
    """The findings of a translated message that would stop its page from rendering
    (see :data:`BLOCKING_CHECKS`): what a build looks for before it renders."""
    if not message.string or message.pluralizable or is_out_of_date(message, context):
        return ()
    return tuple(finding for check in BLOCKING_CHECKS for finding in check(message, context))


def _header_findings(catalog: Catalog, shown_as: str, language: str) -> Iterator[Finding]:
    expected = Catalog(locale=language)
    if str(catalog.locale or "") != language:
        yield Finding(shown_as, 1, "", "header", Severity.ERROR,
                      # Translators: What the lint says is wrong (check 'header'): %(header)s is the Language
                      # header of the catalogue, %(folder)s the language of the folder it is in.
                      said("the Language header says %(header)s, the folder says %(folder)s", header=catalog.locale,
                           folder=language),
                      # Translators: The lint's fix, said after 'Fix:' of the check 'header': %(language)s is
                      # the language's code. Keep the quoted header as it is.
                      said('set "Language: %(language)s\\n" in the header', language=language))
    if not equivalent_plurals(catalog.plural_expr, expected.plural_expr):
        yield Finding(shown_as, 1, "", "plural-forms", Severity.ERROR,
                      # Translators: What the lint says is wrong (check 'plural-forms'): %(header)s is the
                      # catalogue's Plural-Forms header, quoted, %(language)s the language's
                      # code, %(expected)s the header Babel defines for it.
                      said("Plural-Forms is %(header)s, which does not sort counts into the forms of the plural "
                           "rule of %(language)s, %(expected)s", header=repr(catalog.plural_forms), language=language,
                           expected=repr(expected.plural_forms)),
                      # Translators: The lint's fix, said after 'Fix:' of the check 'plural-forms'. Keep
                      # Plural- Forms as it is: it is the name of the header.
                      said("copy the Plural-Forms header that Babel defines for the language (or one that picks "
                           "the same form for the same counts)"))
    if (catalog.charset or "").lower() != "utf-8":
        yield Finding(shown_as, 1, "", "header", Severity.ERROR,
                      # Translators: What the lint says is wrong (check 'header'): %(charset)s is the
                      # catalogue's character set.
                      said("the charset is %(charset)s, not utf-8", charset=catalog.charset),
                      # Translators: The lint's fix, said after 'Fix:' of the check 'header'. Keep the quoted
                      # header as it is.
                      said('set "Content-Type: text/plain; charset=utf-8\\n"'))
    for field, value in (("Last-Translator", catalog.last_translator), ("Language-Team", catalog.language_team)):
        if not value or "EMAIL@ADDRESS" in value or ("LL@li.org" in value and value.startswith("LANGUAGE")):
            yield Finding(shown_as, 1, "", "header", Severity.WARNING,
                          # Translators: What the lint says is wrong (check 'header'): %(field)s is the name of a
                          # header (Last-Translator, Language-Team) that still says what a new
                          # catalogue says.
                          said("%(field)s still has its placeholder value", field=field),
                          # Translators: The lint's fix, said after 'Fix:' of the check 'header': %(field)s is the
                          # name of the header.
                          said("fill in %(field)s", field=field))


def source_findings(rulebook: Rulebook, root: Path | None = None, kept: resultcache.Bucket | None = None,
                    digests: Mapping[str, bytes] | None = None) -> list[Finding]:
    """The checks that apply to the English text too (in the YAML, at its line):
    every translatable text, and the citations' sections and pages, shown as written;
    terminology and unlinked terms in every text (silenced per text by a comment in
    the YAML when ``root`` is given).  ``kept`` and ``digests`` (each input file's, as
    the load read it): a file read with the bytes of an earlier run has that run's findings."""
    shown: dict[str, list[tuple[Position, str, str, str, bool]]] = {}
    for message in rulebook.messages():
        shown.setdefault(message.file, []).append((message.owner, message.key, message.context, message.text, True))
    for rule in rulebook.rules:
        for cite in rule.cite:
            for key, value in (("section", cite.section), ("pages", cite.pages)):
                if value:
                    shown.setdefault(cite.position.file, []).append((cite.position, key, rule.id, value, False))
        if rule.not_executable_because:
            shown.setdefault(rule.position.file, []).append(
                (rule.position, "not_executable_because", rule.id, rule.not_executable_because, False))
    messages = {(message.owner.file, message.owner.line, message.key) for message in rulebook.messages()}
    for owner, key, subject, value in _other_texts(rulebook):
        if (owner.file, owner.line, key.split(".")[0]) not in messages:
            shown.setdefault(owner.file, []).append((owner, key, subject, value, False))
    english = LintContext.of(rulebook, rulebook.project.source_language, {}, {})
    findings: list[Finding] = []
    for file, texts in shown.items():
        make = partial(_file_findings, file, texts, english, root)
        digest = (digests or {}).get(file)
        findings.extend(make() if kept is None or digest is None else
                        kept.made_from(file, (english.key, digest, root is not None), make))
    return findings


NOT_TEXT = frozenset({"position", "url"})
"""Fields that are not text shown as written: where a node is, and an address (the
loader accepts only a public web address there, see ``validator.content.model.Address``)."""


def _other_texts(rulebook: Rulebook) -> Iterator[tuple[Position, str, str, str]]:
    """Every text of the YAML besides the rules' (whose texts and citations are walked
    above): the project's, the glossary's, the sources', the register's, the official
    answers' and the units', each as (the position of its mapping, its key there,
    the entry it belongs to, the text).  Walked field by field, so that a field added
    to a model is checked without being named here."""
    parts: list[tuple[str, Node]] = [("rulebook", rulebook.project), ("glossary", rulebook.glossary),
                                     ("sources", rulebook.sources), ("discrepancies", rulebook.discrepancies),
                                     ("faq", rulebook.faq), ("units", rulebook.units)]
    for prefix, node in parts:
        yield from _node_texts(node, prefix)


def _node_texts(node: Node, subject: str) -> Iterator[tuple[Position, str, str, str]]:
    entry = getattr(node, "id", None) or getattr(node, "language", None)
    if isinstance(entry, str) and "/" not in subject:
        subject = f"{subject}/{entry}"
    for name, value in node:
        if name not in NOT_TEXT:
            yield from _value_texts(node.position, name, value, subject)


def _value_texts(owner: Position, key: str, value: object, subject: str) -> Iterator[tuple[Position, str, str, str]]:
    if isinstance(value, str):
        yield owner, key, subject, value
    elif isinstance(value, Node):
        yield from _node_texts(value, subject)
    elif isinstance(value, tuple):
        for item in value:
            yield from _value_texts(owner, key, item, subject)
    elif isinstance(value, dict):
        for inner, item in value.items():
            yield from _value_texts(owner, f"{key}.{inner}", item, subject)


def _file_findings(file: str, held: list[tuple[Position, str, str, str, bool]], english: LintContext,
                   root: Path | None) -> tuple[Finding, ...]:
    """The findings of one YAML file's texts: (the position of the mapping that holds
    it and its key there, context, text, whether it is translated, or shown as written
    such as a citation's pages).  Each text's line is looked up here, for a file whose
    findings were not kept."""
    texts = [(owner.of(key).line, context, text, translated) for owner, key, context, text, translated in held]
    lines: list[str] = []
    if root is not None:
        with contextlib.suppress(ProblemsFound):
            lines = read_input(root / file, file).decode("utf-8", "replace").splitlines()
    found = [Finding(file, line, context, *finding)
             for line, context, text, _translated in texts for finding in shown_text_problems(text)]
    for line, context, text, translated in texts:
        silenced = _yaml_silences(lines, line)
        found.extend(Finding(file, line, context, *finding) for finding in _unsilenceable(silenced))
        if translated:
            found.extend(Finding(file, line, context, *finding) for finding in _text_findings(context, text, english)
                         if finding[0] not in silenced)
    return tuple(found)


def _text_findings(context_id: str, text: str, context: LintContext) -> Found:
    """The checks of an English text (its terminology, its unlinked terms)."""
    return (*terminology_problems(text, context.terms, context.language),
            *unlinked_problems(context_id, text, context.terms, context.language, context.source_language))


def _yaml_silences(lines: list[str], line: int) -> dict[str, str]:
    """The YAML equivalent of a translator comment: ``# lint-ignore: <check>: <reason>``
    on the lines just above a text's key (``line``, counted from 1) silences that
    check for that text."""
    silenced: dict[str, str] = {}
    index = line - 2
    while 0 <= index < len(lines) and lines[index].strip().startswith("#"):
        match = SILENCE.match(lines[index].strip().lstrip("#").strip())
        if match and (match["reason"] or "").strip():
            silenced[match["check"]] = match["reason"].strip()
        index -= 1
    return silenced
