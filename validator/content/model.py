"""The immutable, typed rulebook model.

The models double as the schema of the YAML files: unknown keys and wrong types
are rejected by validation, and the loader maps each error back to its file and
line.  Every node keeps its :class:`Position` so later checks can point at it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)

ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
RULE_ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*/[a-z0-9]+(?:-[a-z0-9]+)*$"

Id = Annotated[StrictStr, StringConstraints(pattern=ID_PATTERN)]
RuleId = Annotated[StrictStr, StringConstraints(pattern=RULE_ID_PATTERN)]
Text = Annotated[StrictStr, StringConstraints(min_length=1, strip_whitespace=True)]

POSITION_KEY = "position"


class Position(BaseModel):
    """Where a mapping starts, and the line of each of its keys."""

    model_config = ConfigDict(frozen=True)

    file: str
    line: int
    key_lines: dict[str, int] = Field(default_factory=dict)

    def of(self, key: str) -> Position:
        """The position of ``key`` in this mapping (the mapping's own when absent)."""
        return Position(file=self.file, line=self.key_lines.get(key, self.line))


class Node(BaseModel):
    """A YAML mapping: no unknown keys, and where it came from.

    Scalars use strict types (``StrictStr``, ``StrictInt``) so ``order: "1"`` is an
    error, while sequences may be given as YAML lists for tuple fields.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    position: Position = Field(default=Position(file="", line=0), exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _attach_position(cls, data: Any, info: ValidationInfo) -> Any:
        """Read the line of the mapping from ruamel's annotations, before the
        mapping becomes a plain dict and loses them."""
        line_info = getattr(data, "lc", None)
        context = info.context or {}
        if line_info is None or not isinstance(data, dict):
            return data
        if POSITION_KEY in data:
            raise ValueError(f"'{POSITION_KEY}' is a reserved key")
        key_lines = {str(key): line_info.key(key)[0] + 1 for key in data}
        # One level deeper too, so a stated outcome can point at the line of each of its fields.
        for key, value in data.items():
            nested = getattr(value, "lc", None)
            if nested is not None and isinstance(value, dict):
                key_lines.update({f"{key}.{inner}": nested.key(inner)[0] + 1 for inner in value})
        position = Position(file=context.get("file", ""), line=line_info.line + 1, key_lines=key_lines)
        return {**data, POSITION_KEY: position}


class Citation(Node):
    source: Id
    section: Text | None = None
    pages: Text | None = None


class Example(Node):
    id: Id
    scenario: Text
    given: dict[str, Any]
    expect: dict[str, Any] = Field(min_length=1)
    variant: Id | None = None
    text: Text


class CaseExample(Example):
    """An example kept outside the rulebook (a club's own test case): the same keys,
    with the rule it exercises named explicitly and the text optional."""

    rule: RuleId | None = None
    text: str = ""


class CaseFile(Node):
    examples: tuple[CaseExample, ...] = Field(min_length=1)


class Rule(Node):
    id: RuleId
    title: Text
    text: Text
    cite: tuple[Citation, ...] = Field(min_length=1)
    aliases: tuple[RuleId, ...] = ()
    examples: tuple[Example, ...] = ()

    def example(self, example_id: str) -> Example:
        return next(example for example in self.examples if example.id == example_id)


class ChapterHeader(Node):
    id: Id
    order: StrictInt
    title: Text
    intro: Text


class Chapter(Node):
    chapter: ChapterHeader
    rules: tuple[Rule, ...] = Field(min_length=1)

    @property
    def id(self) -> str:
        return self.chapter.id


CASES: dict[str, tuple[str, ...]] = {
    "pl": ("mianownik", "dopełniacz", "celownik", "biernik", "narzędnik", "miejscownik", "wołacz"),
}
"""The grammatical cases a language declines its nouns in, in the order the glossary
lists them.  A language not named here lists one form per number, or a few where
the form changes otherwise (Spanish "trabado", "trabada": gender)."""


def _as_forms(value: Any) -> Any:
    """One form may be written as a plain string instead of a one-item list."""
    return [value] if isinstance(value, str) else value


Forms = Annotated[tuple[Text, ...], BeforeValidator(_as_forms), Field(min_length=1)]


class Inflection(Node):
    """A term's forms in one language: ``sg`` and ``pl`` (the numbers), each a list
    with one form per case of the language (see :data:`CASES`), or, where the
    language has no cases, its form (a plain string) or forms.  A multi-word term
    is declined as a phrase.

    >>> Inflection(sg=("jinete",), pl=("jinetes",)).all()
    ('jinete', 'jinetes')
    """

    sg: Forms
    pl: Forms | None = None
    """Absent for a term that has no plural (or no singular: then ``sg`` holds the
    only number there is)."""
    other: tuple[Text, ...] = ()
    """Words of the term's family that the rules also use for it where a sentence
    needs them: a verb ("atakować" for "attack"), a participle, a set phrase."""

    def all(self) -> tuple[str, ...]:
        """Every form, singular first, then the other words, each once."""
        return tuple(dict.fromkeys((*self.sg, *(self.pl or ()), *self.other)))


class Term(Node):
    """A glossary entry.  ``keep``: the term is a name that stays in English in every
    language; ``forbidden``: per language, words translators must not use for it;
    ``forms``: per language, its inflected forms, which the lint accepts as uses of
    the term and which ``{term:id|form}`` must choose from; ``defined_elsewhere``:
    the term belongs to the main rulebook, and the glossary only recalls it."""

    id: Id
    term: Text
    definition: Text
    keep: bool = False
    defined_elsewhere: bool = False
    forbidden: dict[Id, tuple[Text, ...]] = Field(default_factory=dict)
    forms: dict[Id, Inflection] = Field(default_factory=dict)

    @field_validator("forms")
    @classmethod
    def _one_form_per_case(cls, forms: dict[str, Inflection]) -> dict[str, Inflection]:
        """Each number lists exactly one form per case of its language."""
        for language, inflection in forms.items():
            cases = CASES.get(language)
            for number, listed in (("sg", inflection.sg), ("pl", inflection.pl)):
                if cases and listed is not None and len(listed) != len(cases):
                    raise ValueError(
                        f"{language}.{number} lists {len(listed)} forms; {language} needs exactly "
                        f"{len(cases)} ({', '.join(cases)}), in that order")
        return forms

    def declined(self, language: str) -> tuple[str, ...]:
        """Every form the glossary lists for ``language`` (none when it lists none)."""
        inflection = self.forms.get(language)
        return inflection.all() if inflection else ()


class Glossary(Node):
    terms: tuple[Term, ...]


class Source(Node):
    id: Id
    language: Id
    name: Text
    title: Text
    pages: Text | None = None


class Sources(Node):
    sources: tuple[Source, ...]


class Reading(Node):
    id: Id
    source: Id
    says: Text
    variant: Id | None = None


class Discrepancy(Node):
    id: Id
    title: Text
    kind: Literal["translation-error", "edition-difference", "source-erratum", "ambiguity"]
    status: Literal["adopted", "open"]
    rules: tuple[RuleId, ...] = Field(min_length=1)
    summary: Text
    readings: tuple[Reading, ...] = Field(min_length=2)
    adopted: Id | None = None
    rationale: Text


class Discrepancies(Node):
    discrepancies: tuple[Discrepancy, ...]


class Message(BaseModel):
    """One translatable text: its catalogue context, English text and position."""

    model_config = ConfigDict(frozen=True)

    context: str
    text: str
    position: Position


def chapter_messages(chapter: Chapter) -> Iterator[Message]:
    header = chapter.chapter
    yield Message(context=f"{header.id}#title", text=header.title, position=header.position.of("title"))
    yield Message(context=f"{header.id}#intro", text=header.intro, position=header.position.of("intro"))
    for rule in chapter.rules:
        yield Message(context=f"{rule.id}#title", text=rule.title, position=rule.position.of("title"))
        yield Message(context=f"{rule.id}#text", text=rule.text, position=rule.position.of("text"))
        for example in rule.examples:
            yield Message(
                context=f"{rule.id}#example.{example.id}",
                text=example.text,
                position=example.position.of("text"),
            )


def glossary_messages(glossary: Glossary) -> Iterator[Message]:
    for term in glossary.terms:
        yield Message(context=f"glossary/{term.id}#term", text=term.term, position=term.position.of("term"))
        yield Message(
            context=f"glossary/{term.id}#definition", text=term.definition, position=term.position.of("definition")
        )


def source_messages(sources: Sources) -> Iterator[Message]:
    for source in sources.sources:
        yield Message(context=f"sources/{source.id}#name", text=source.name, position=source.position.of("name"))
        yield Message(context=f"sources/{source.id}#title", text=source.title, position=source.position.of("title"))


def discrepancy_messages(register: Discrepancies) -> Iterator[Message]:
    for entry in register.discrepancies:
        base = f"discrepancies/{entry.id}"
        yield Message(context=f"{base}#title", text=entry.title, position=entry.position.of("title"))
        yield Message(context=f"{base}#summary", text=entry.summary, position=entry.position.of("summary"))
        for reading in entry.readings:
            yield Message(
                context=f"{base}#reading.{reading.id}", text=reading.says, position=reading.position.of("says")
            )
        yield Message(context=f"{base}#rationale", text=entry.rationale, position=entry.position.of("rationale"))
