"""Render translated rule text, with its tokens, as safe Markdown for one language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from babel import Locale
from babel.numbers import format_decimal, parse_pattern
from babel.units import format_unit
from markupsafe import Markup

from validator.catalogs.po import RuleCatalog, State, Translation
from validator.content.loader import Rulebook
from validator.content.project import Language
from validator.content.tokens import Literal, Piece, Token, is_rolled, split
from validator.content.units import convert
from validator.site import markdown

GLOSSARY_PAGE = "glossary.md"

ROLL_STAND_IN = 10
"""A number standing for a roll while its unit's words are looked up: many of the unit,
so the words take the form a roll of several dice reads with."""


SENTENCE_ENDS = ("!", "?", "\u2026")
"""What ends a sentence in the title of a rule or the word of a term, so that the
text's own full stop after it is not written twice."""


def roll_text(value: int) -> str:
    """A roll needed, as players write it: ``4+``."""
    return f"{value}+"


def modifier_text(value: int) -> str:
    """A modifier with its sign: ``+1``, ``\u22121`` (a true minus sign), ``0``."""
    if value > 0:
        return f"+{value}"
    return f"\u2212{-value}" if value < 0 else "0"


def percent(value: Fraction, language: str, decimals: tuple[int, int] = (1, 1)) -> str:
    """A probability as a percentage, in the locale's own pattern from CLDR (``70.4%``
    in English, ``70,4\u00a0%`` in Spanish): the one way results, charts and the
    status page write a percentage, so that they agree.  ``decimals``: the least and
    most digits after the decimal sign.

    >>> percent(Fraction(19, 27), "en"), percent(Fraction(1, 2), "en", (0, 1))
    ('70.4%', '50%')
    """
    locale = Locale.parse(language)
    pattern = parse_pattern(locale.percent_formats[None].pattern)
    pattern.frac_prec = decimals
    return str(pattern.apply(Decimal(value.numerator) / Decimal(value.denominator), locale))


SHORT_FRACTION = 5
"""The longest fraction, in characters, that a player reads at a glance (``19/27``,
``5/36``): a longer one is exact but says nothing more than its percentage."""


def short_fraction(value: Fraction) -> str | None:
    """``value`` as a fraction when it is short enough to say, else None."""
    written = f"{value.numerator}/{value.denominator}"
    return written if value.denominator != 1 and len(written) <= SHORT_FRACTION else None


@dataclass(frozen=True)
class Chances:
    """The one way a page says a probability, in words where a percentage would
    mislead: results, try-it forms and charts all write through it, so that they agree.

    A percentage rounded to one decimal can read ``100,0 %`` for a chance that is not
    certain, or ``0,0 %`` for one that is possible: a player takes either as a
    certainty, so such a chance is said in words ("almost certain"), and the compact
    form (a chart's bar) writes ``> 99,9 %`` or ``< 0,1 %`` instead.  Certainty and
    impossibility themselves are words too.  The words arrive translated (see
    :meth:`of`), so that this module needs no catalogue.
    """

    language: str
    certain: str
    impossible: str
    almost_certain: str
    almost_impossible: str

    @classmethod
    def of(cls, language: str, gettext: Callable[[str], str]) -> Chances:
        _ = gettext
        return cls(
            language,
            # Translators: A probability of exactly 100 %, said in words in a worked example's outcome:
            # it always happens.
            _("certain"),
            # Translators: A probability of exactly 0 %, said in words in a worked example's outcome: it
            # never happens.
            _("impossible"),
            # Translators: A probability so close to 100 % that its percentage would round to it although
            # it can fail: %(percent)s is the percentage it stays above ("more than 99.9%").
            _("almost certain (more than %(percent)s)"),
            # Translators: A probability so close to 0 % that its percentage would round to it although it
            # can happen: %(percent)s is the percentage it stays below ("less than 0.1%").
            _("almost impossible (less than %(percent)s)"),
        )

    def _rounded_away(self, value: Fraction) -> str | None:
        """``>`` or ``<`` when the percentage of ``value`` rounds to a certainty or an
        impossibility that it is not, else None: the locale's own rounding decides."""
        shown = percent(value, self.language)
        if value < 1 and shown == percent(Fraction(1), self.language):
            return ">"
        if value > 0 and shown == percent(Fraction(0), self.language):
            return "<"
        return None

    def _nearest(self, side: str) -> str:
        """The percentage a near-certain (``>``) or near-impossible (``<``) chance stays beyond."""
        return percent(Fraction(999, 1000) if side == ">" else Fraction(1, 1000), self.language)

    def said(self, value: Fraction) -> str:
        """A chance as a player says it: ``70,4 % (19/27)``, ``certain``, ``almost
        certain (more than 99,9 %)``.

        >>> chances = Chances("en", "certain", "impossible", "almost certain (> %(percent)s)", "rare (< %(percent)s)")
        >>> [chances.said(Fraction(*pair)) for pair in ((19, 27), (1, 1), (0, 1), (1, 3 ** 20), (100, 101))]
        ['70.4% (19/27)', 'certain', 'impossible', 'rare (< 0.1%)', '99.0%']
        """
        if value >= 1:
            return self.certain
        if value <= 0:
            return self.impossible
        side = self._rounded_away(value)
        if side is not None:
            words = self.almost_certain if side == ">" else self.almost_impossible
            return words % {"percent": self._nearest(side)}
        fraction = short_fraction(value)
        shown = percent(value, self.language)
        return f"{shown} ({fraction})" if fraction else shown

    def compact(self, value: Fraction) -> str:
        """A chance in a few characters, for a chart: its percentage, or ``> 99,9 %``
        and ``< 0,1 %`` where the rounded percentage would read as a certainty."""
        side = self._rounded_away(value)
        return percent(value, self.language) if side is None else f"{side}\u00a0{self._nearest(side)}"


def chapter_page(chapter_id: str) -> str:
    return f"{chapter_id}.md"


def anchor(entry_id: str) -> str:
    """The anchor of a rule: the part of its id after the chapter, same in every language."""
    return entry_id.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class TextRenderer:
    rulebook: Rulebook
    catalog: RuleCatalog
    language: Language
    blocks: dict[tuple[str, str, int, bool], Markup] | None = field(default=None, kw_only=True, compare=False,
                                                                   repr=False)
    """The blocks rendered so far, for whoever renders a text twice (a rule's text is on
    its chapter page and in the chapter's parallel text); None keeps nothing."""

    def translate(self, context: str, english: str) -> Translation:
        return self.catalog.translate(context, english)

    def plain(self, context: str, english: str) -> str:
        """The translated text with tokens reduced to words: for titles and tooltips,
        so made :func:`markdown.inert` (Material decodes titles once more)."""
        translation = self.translate(context, english)
        fallback = translation.language != self.language.code
        return markdown.inert("".join(
            piece.text if isinstance(piece, Literal) else self._token_words(piece, fallback)
            for piece in self._pieces(translation.text, fallback)
        ))

    def inline(self, context: str, english: str) -> Markup:
        """One line of escaped Markdown (tokens become links)."""
        translation = self.translate(context, english)
        fallback = translation.language != self.language.code
        body = Markup(" ").join(self._paragraph(part, fallback) for part in translation.text.split("\n\n"))
        if fallback:
            return Markup(f'<span lang="{translation.language}" markdown>') + body + Markup("</span>")
        return body

    def block(self, context: str, english: str, indent: int = 0, html: bool = False) -> Markup:
        """Paragraphs of escaped Markdown; an untranslated text keeps its language tag.
        ``html``: the same as finished HTML, for a block MkDocs does not convert."""
        if self.blocks is None:
            return self._block(context, english, indent, html)
        key = (context, english, indent, html)
        found = self.blocks.get(key)
        if found is None:
            found = self.blocks[key] = self._block(context, english, indent, html)
        return found

    def _block(self, context: str, english: str, indent: int, html: bool) -> Markup:
        translation = self.translate(context, english)
        pad = " " * indent
        fallback = translation.language != self.language.code
        parts = translation.text.split("\n\n")
        if html:
            body = Markup("\n").join(Markup("<p>") + self._paragraph(part, fallback, html=True) + Markup("</p>")
                                      for part in parts)
        else:
            body = Markup("\n\n").join(pad + self._paragraph(part, fallback) for part in parts)
        if translation.state is State.TRANSLATED:
            return body
        if html:
            return Markup(f'<div class="untranslated" lang="{translation.language}">\n') + body + Markup("\n</div>")
        return (Markup(f'{pad}<div lang="{translation.language}" class="untranslated" markdown>\n\n')
                + body + Markup(f"\n\n{pad}</div>"))

    def _paragraph(self, text: str, fallback: bool = False, html: bool = False) -> Markup:
        """``fallback``: the text is the English source shown for want of a translation,
        so a term keeps its English word and the sentence stays in one language.
        ``html``: links as HTML rather than Markdown."""
        # Every piece is escaped or a link made of escaped parts: joined as plain strings
        # and marked safe once.
        return Markup("".join(
            markdown.escape(piece.text) if isinstance(piece, Literal) else self._token(piece, fallback, html)
            for piece in self._pieces(text, fallback)
        ))

    def _pieces(self, text: str, fallback: bool) -> tuple[Piece, ...]:
        """The text's pieces, with the full stop dropped that follows a token whose
        words already end a sentence: "see {rule:look-out-sir}." must not read
        "see ¡Cuidado, Señor!." where the title ends in an exclamation mark."""
        pieces = split(text)
        if not any(isinstance(piece, Token) for piece in pieces):
            return pieces
        shown: list[Piece] = []
        for piece in pieces:
            before = shown[-1] if shown else None
            if (isinstance(piece, Literal) and isinstance(before, Token) and piece.text.startswith(".")
                    and not piece.text.startswith("..")
                    and self._token_words(before, fallback).rstrip().endswith(SENTENCE_ENDS)):
                piece = Literal(piece.text[1:])
            shown.append(piece)
        return tuple(shown)

    def _token(self, token: Token, fallback: bool = False, html: bool = False) -> Markup:
        link = markdown.link_for(html)
        if token.kind == "rule":
            return self.rule_link(token.argument, html)
        if token.kind == "term":
            term = self.rulebook.term(token.argument)
            words = token.form or (term.term if fallback else self.plain(f"glossary/{term.id}#term", term.term))
            definition = self.plain(f"glossary/{term.id}#definition", term.definition)
            return link(words, f"{GLOSSARY_PAGE}#{term.id}", definition)
        return markdown.escape(self._token_words(token, fallback))

    def rule_link(self, rule_id: str, html: bool = False) -> Markup:
        """A link to a rule, its title as this language reads it (``html``: as HTML)."""
        rule = self.rulebook.rule(rule_id)
        target = f"{chapter_page(self.rulebook.chapter_of(rule.id).id)}#{anchor(rule.id)}"
        return markdown.link_for(html)(self.plain(f"{rule.id}#title", rule.title), target)

    def _token_words(self, token: Token, fallback: bool = False) -> str:
        if token.kind == "rule":
            rule = self.rulebook.rule(token.argument)
            return self.plain(f"{rule.id}#title", rule.title)
        if token.kind == "term":
            term = self.rulebook.term(token.argument)
            return token.form or (term.term if fallback else self.plain(f"glossary/{term.id}#term", term.term))
        if token.kind == "roll":
            return token.argument.replace("-", "\u2013")
        if token.kind == "dist":
            return self.distance_words(token.argument)
        if token.kind == "dice":
            return self.rulebook.project.dice.written(token.argument, self.language.code)
        return token.argument

    def die_face(self, value: int) -> str:
        """A die's result as players see it on the table: the book's face for it
        (``rulebook.yml`` ``dice: faces``), else the number."""
        return self.rulebook.project.dice.face(value) or str(value)

    def distance_words(self, argument: str) -> str:
        """A distance token's words: a number (``2``) or a roll of dice (``2D8``)."""
        return self.rolled_distance(argument) if is_rolled(argument) else self.distance(Decimal(argument))

    def distance(self, distance: Decimal) -> str:
        """A distance in the language's unit, as its edition prints it: by the
        edition's table, else by the rule the table follows (docs/units.yml; the
        loader refuses a language shown in another unit without them)."""
        value, unit = distance, self.rulebook.project.shown_unit(self.language)
        units = self.rulebook.units.of(self.language.code)
        if unit != self.rulebook.project.length_unit and units is not None:
            value, _printed = convert(units, distance)
        return self.length(value, unit)

    def length(self, value: Decimal | str, unit: str | None) -> str:
        """``value`` of ``unit`` written the language's way, from CLDR (a text ``value``,
        such as a roll of dice, stands where the number would)."""
        if unit is None:  # a book that declares no unit: refused by the check where it gives a distance
            return str(value)
        if isinstance(value, str):
            # CLDR's words for many of the unit, the roll set where the number stands.
            many = str(format_decimal(ROLL_STAND_IN, locale=self.language.code))
            return self.length(Decimal(ROLL_STAND_IN), unit).replace(many, value, 1)
        return str(format_unit(value, f"length-{unit}", length=self.rulebook.project.shown_width(self.language),
                               locale=self.language.code))

    def rolled_distance(self, roll: str) -> str:
        """A distance rolled on dice: the roll in the book's unit (``2D8″``), or, on a site
        shown in another unit, the roll times the edition's rule with a multiplication
        sign (``2D8 \u00d7 2,5 cm``): a player rolls, then multiplies, as the edition's
        own conversions do."""
        roll = self.rulebook.project.dice.written(roll, self.language.code)
        unit = self.rulebook.project.shown_unit(self.language)
        units = self.rulebook.units.of(self.language.code)
        if unit == self.rulebook.project.length_unit or units is None or units.rule is None:
            return self.length(roll, unit)
        return f"{roll} \u00d7 {self.length(units.rule.per_unit, unit)}"

    def number(self, value: object) -> str:
        """A computed value as a reader of this language writes it."""
        if isinstance(value, bool):
            return "✔" if value else "✘"
        if isinstance(value, Fraction):
            if value.denominator == 1:
                return format_decimal(value.numerator, locale=self.language.code)
            return f"{value.numerator}/{value.denominator} ({percent(value, self.language.code)})"
        if isinstance(value, int):
            return str(format_decimal(value, locale=self.language.code))
        if isinstance(value, Decimal):
            # Every decimal the core computed is shown: the locale's pattern would round to three.
            return str(format_decimal(value, locale=self.language.code, decimal_quantization=False))
        if isinstance(value, list):
            return ", ".join(self.number(item) for item in value)
        if isinstance(value, dict):
            return "; ".join(f"{key}: {self.number(item)}" for key, item in value.items())
        if value is None:
            return "—"
        return str(value)
