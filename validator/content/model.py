"""The immutable, typed rulebook model.

The models double as the schema of the YAML files: unknown keys and wrong types
are rejected by validation, and the loader maps each error back to its file and
line.  Every node keeps its :class:`Position` so later checks can point at it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Self
from urllib.parse import quote, urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    StringConstraints,
    ValidationInfo,
    model_validator,
)

ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
RULE_ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*/[a-z0-9]+(?:-[a-z0-9]+)*$"

Id = Annotated[StrictStr, StringConstraints(pattern=ID_PATTERN)]
RuleId = Annotated[StrictStr, StringConstraints(pattern=RULE_ID_PATTERN)]
Text = Annotated[StrictStr, StringConstraints(min_length=1, strip_whitespace=True)]

POSITION_KEY = "position"


FIELDS_GIVEN = "fields given"
"""The key, in the validation context of one file (see
:func:`validator.content.yamlsource.validate`), of the sets of the names of the fields
given that the file's models share (see :func:`_fields_given_shared`)."""


def _fields_given_shared(model: BaseModel, info: ValidationInfo) -> None:
    """Make ``model`` hold the one set of the names of the fields given that every
    model of its file with the same names holds.  Pydantic makes one per instance, a
    large share of the rulebook's memory, held by a build and written by each of its
    jobs.  Every model here is frozen, so pydantic never adds to the set; ``model_copy``
    copies it.  A model validated without a file's context (in code) keeps its own."""
    shared_sets = info.context.get(FIELDS_GIVEN) if isinstance(info.context, dict) else None
    if shared_sets is None:
        return
    given = model.__pydantic_fields_set__
    shared = shared_sets.setdefault(frozenset(given), given)
    if shared is not given:
        object.__setattr__(model, "__pydantic_fields_set__", shared)


class Frozen(BaseModel):
    """An immutable model whose set of the fields given is shared (see :func:`_fields_given_shared`)."""

    model_config = ConfigDict(frozen=True)

    @model_validator(mode="after")
    def _share_fields_given(self, info: ValidationInfo) -> Self:
        _fields_given_shared(self, info)
        return self


class Position(Frozen):
    """Where a mapping starts, and the line of each of its keys."""

    file: str
    line: int
    key_lines: dict[str, int] = Field(default_factory=dict)

    def of(self, key: str) -> Position:
        """The position of ``key`` in this mapping (the mapping's own when absent);
        made from values already validated, so without validating them again."""
        return Position.model_construct(file=self.file, line=self.key_lines.get(key, self.line), key_lines={})


class Node(Frozen):
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
        key_lines = {str(key): _line_of(line_info, key) for key in data}
        # One level deeper too, so a stated outcome can point at the line of each of its fields.
        for key, value in data.items():
            nested = getattr(value, "lc", None)
            if nested is not None and isinstance(value, dict):
                key_lines.update({f"{key}.{inner}": _line_of(nested, inner) for inner in value})
        position = Position(file=context.get("file", ""), line=line_info.line + 1, key_lines=key_lines)
        return {**data, POSITION_KEY: position}


def _line_of(line_info: Any, key: Any) -> int:
    """The line of ``key`` in its mapping, or the mapping's own line where ruamel's
    record cannot give one (a key written with a tag, ``!x: 1``, is a new object each
    time it is read, found in no record; a mapping may have no record of its keys at
    all): the validation then refuses the key, at that line."""
    try:
        return int(line_info.key(key)[0]) + 1
    except (KeyError, TypeError):
        return int(line_info.line) + 1


class Citation(Node):
    source: Id
    section: Text | None = None
    pages: Text | None = None


class Chart(Node):
    """A chart beside a worked example: ``over`` a whole-number input (the example's
    outcome for each value ``from``..``to``) or ``roll`` one (the chance of each
    value of ``field`` when every value of the input is equally likely).  What the
    names mean for the scenario is checked by :mod:`validator.checks.charts`."""

    over: StrictStr | None = None
    roll: StrictStr | None = None
    first: StrictInt | None = Field(default=None, alias="from")
    to: StrictInt | None = None
    field: StrictStr | None = None


class Example(Node):
    id: Id
    scenario: Text
    given: dict[str, Any]
    expect: dict[str, Any] = Field(min_length=1)
    variant: Id | None = None
    chart: Chart | None = None
    text: Text


class CaseExample(Example):
    """An example kept outside the rulebook (a club's own test case): the same keys,
    with the rule it exercises named explicitly and the text optional."""

    rule: RuleId | None = None
    text: str = ""


class CaseFile(Node):
    examples: tuple[CaseExample, ...] = Field(min_length=1)


def _as_names(value: Any) -> Any:
    """A language's names may be one plain string instead of a list: a mapping whose
    values are not strings or lists is left for validation to refuse."""
    if isinstance(value, dict):
        return {key: [names] if isinstance(names, str) else names for key, names in value.items()}
    return value


AlsoCalled = Annotated[dict[Id, tuple[Text, ...]], BeforeValidator(_as_names)]
"""Per language code, the names players use for a rule or a term that its text does not:
other spellings, nicknames, the names other editions or languages give it.  Declared
per language, not translated: a nickname belongs to the players of one language, and
has no counterpart in another.  The search finds the entry by them; no page shows them."""


class Rule(Node):
    id: RuleId
    title: Text
    text: Text
    cite: tuple[Citation, ...] = Field(min_length=1)
    aliases: tuple[RuleId, ...] = ()
    also_called: AlsoCalled = Field(default_factory=dict)
    """Per language, the names players use for the rule that its title does not ("lookout",
    "miradlo señor", "uwaga panie"): the search of each language finds the rule by them,
    and by those of the other languages a little less."""
    examples: tuple[Example, ...] = ()
    executable: bool = True
    """Every rule states a consequence that a worked example runs through the rules
    core, except the few marked ``executable: false`` (a definition, a pointer to other
    rules), which say why in ``not_executable_because`` and have no examples."""
    not_executable_because: Text | None = None

    @model_validator(mode="after")
    def _executable_or_explained(self) -> Rule:
        if self.executable and self.not_executable_because is not None:
            raise ValueError("not_executable_because goes only with executable: false")
        if not self.executable and self.not_executable_because is None:
            raise ValueError("a rule marked executable: false says why in not_executable_because")
        if not self.executable and self.examples:
            raise ValueError("a rule marked executable: false has no worked examples; remove the mark")
        return self

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


Number = Literal["sg", "du", "pl"]
"""A grammatical number a term's forms are given for: singular, dual (Slovene,
Sorbian, Arabic: two of a thing), plural."""


class Grammar(Node):
    """What the glossary's forms of one language are: ``cases``, the grammatical cases
    the language declines its nouns in, in the order each number lists its forms (none:
    one form per number, or a few where the form changes otherwise, for gender); and
    the ``numbers`` it has.  Declared by the book (``grammar:`` in docs/glossary.yml),
    since only the book knows its languages."""

    cases: tuple[Text, ...] = ()
    numbers: tuple[Number, ...] = Field(default=("sg", "pl"), min_length=1)


def _as_forms(value: Any) -> Any:
    """One form may be written as a plain string instead of a one-item list."""
    return [value] if isinstance(value, str) else value


Forms = Annotated[tuple[Text, ...], BeforeValidator(_as_forms), Field(min_length=1)]


class Inflection(Node):
    """A term's forms in one language: ``sg``, ``du`` and ``pl`` (the numbers), each a list
    with one form per case of the language (see :class:`Grammar`), or, where the
    language has no cases, its form (a plain string) or forms.  A multi-word term
    is declined as a phrase.

    >>> Inflection(sg=("jinete",), pl=("jinetes",)).all()
    ('jinete', 'jinetes')
    """

    sg: Forms
    du: Forms | None = None
    """Only for a language whose grammar in the glossary declares the dual."""
    pl: Forms | None = None
    """Absent for a term that has no plural (or no singular: then ``sg`` holds the
    only number there is)."""
    other: tuple[Text, ...] = ()
    """Words of the term's family that the rules also use for it where a sentence
    needs them: a verb ("atakować" for "attack"), a participle, a set phrase."""

    def all(self) -> tuple[str, ...]:
        """Every form, singular first, then the other words, each once."""
        return tuple(dict.fromkeys((*self.sg, *(self.du or ()), *(self.pl or ()), *self.other)))


class Term(Node):
    """A glossary entry.  ``keep``: the term is a name that stays in English in every
    language; ``forbidden``: per language, words translators must not use for it;
    ``forms``: per language, its inflected forms, which the lint accepts as uses of
    the term and which ``{term:id|form}`` must choose from; ``defined_elsewhere``:
    the term is defined in another document (the game's own rules), and the
    glossary only recalls it."""

    id: Id
    term: Text
    definition: Text
    keep: bool = False
    defined_elsewhere: bool = False
    forbidden: dict[Id, tuple[Text, ...]] = Field(default_factory=dict)
    preferred: dict[Id, Text] = Field(default_factory=dict)
    """Per language, the one word the texts use for the term (the terminology check
    names it in its Fix); without it, the first form listed under ``forms:``."""
    forms: dict[Id, Inflection] = Field(default_factory=dict)
    also_called: AlsoCalled = Field(default_factory=dict)
    """Per language, the names players use for the term that the glossary does not give
    (a nickname, an older translation): found by the search like the term itself."""

    def declined(self, language: str) -> tuple[str, ...]:
        """Every form the glossary lists for ``language`` (none when it lists none)."""
        inflection = self.forms.get(language)
        return inflection.all() if inflection else ()

    def preferred_form(self, language: str) -> str:
        """The word the texts of ``language`` use for the term."""
        declined = self.declined(language)
        return self.preferred.get(language) or (declined[0] if declined else self.term)


class Name(Node):
    """Something the texts name that is not a game term (a unit, a creature, a
    piece of gear): it is not linked, but one language names it with one word.
    ``preferred``: that word per language; ``forbidden``: per language, the
    variants the texts must not use for it."""

    id: Id
    name: Text
    preferred: dict[Id, Text] = Field(default_factory=dict)
    forbidden: dict[Id, tuple[Text, ...]] = Field(default_factory=dict)

    def preferred_form(self, language: str) -> str:
        return self.preferred.get(language, self.name)


class Glossary(Node):
    grammar: dict[Id, Grammar] = Field(default_factory=dict)
    """Per language, its cases and numbers (a language not named: no cases, sg and pl)."""
    terms: tuple[Term, ...]
    names: tuple[Name, ...] = ()
    """Names kept consistent by the terminology check (not glossary entries)."""


ADDRESS_CHARACTERS = re.compile(r"[A-Za-z0-9._~:/?#@!$&*+,;=%-]")
"""What an address may hold as it is written: letters, digits and the punctuation of
an address, but no space, quote, bracket, brace or angle bracket.  The site never
pastes an address into Markdown, but a table cell, a tooltip or a copy of the text
elsewhere might read those characters as syntax; percent-encoded they stay the same
address for a browser."""


def address_problem(value: str) -> str | None:
    """Why ``value`` is not a public web address the site may link to (None when it is):
    http or https, a host, only the characters of :data:`ADDRESS_CHARACTERS`."""
    odd = sorted({char for char in value if not ADDRESS_CHARACTERS.match(char)})
    if odd:
        shown = ", ".join(f"{char!r} (write {quote(char, safe='')})" for char in odd[:4])
        return f"is not a web address the site can link to as written: it holds {shown}; percent-encode them"
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - reading the port is how urllib validates it
    except ValueError as error:
        return f"is not a web address ({error}): write it whole, starting with https:// (or http://)"
    if parts.scheme not in ("http", "https") or not parts.hostname or not value.startswith(f"{parts.scheme}://"):
        return "is not a web address: write it whole, starting with https:// (or http://)"
    return None


def _address(value: str) -> str:
    problem = address_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


Address = Annotated[StrictStr, AfterValidator(_address)]
"""A public web address a reader can open: http or https, nothing else (never a
script address), without spaces, quotes or brackets (see :func:`address_problem`)."""


class Source(Node):
    id: Id
    language: Id
    name: Text
    title: Text
    pages: Text | None = None
    url: Address | None = None
    """Where a reader can consult the document, when it is public."""
    needs_evidence: bool = False
    """The project holds no copy of this document (an original it reports at second
    hand): every reading that cites it must say where a reader can check the claim
    (``evidence:``) or own that it is unchecked (``verified: false``)."""
    community: bool = False
    """A community body's interpretations (a players' FAQ council), not the publisher's:
    an answer that cites it is never shown to readers as official."""


class Sources(Node):
    sources: tuple[Source, ...]


class Evidence(Node):
    """Where a reader can check what a reading says: a source with its pages, or a
    public address (a page of an online index)."""

    source: Id
    section: Text | None = None
    pages: Text | None = None
    url: Address | None = None

    @model_validator(mode="after")
    def _checkable(self) -> Evidence:
        if self.pages is None and self.url is None:
            raise ValueError("evidence names neither 'pages' nor 'url', so a reader cannot check it")
        return self


class Reading(Node):
    id: Id
    source: Id
    says: Text
    variant: Id | None = None
    evidence: tuple[Evidence, ...] = ()
    """Where the claim can be checked; required (or ``verified: false``) when the
    source is one the project holds no copy of (``needs_evidence``)."""
    verified: bool | None = None
    """``false``: nobody could check the claim; the page says so."""


class RegisterKind(Node):
    """A kind of entry the book's register keeps (declared under ``kinds:`` in
    docs/discrepancies.yml): its id, its English label (translated in the rules
    catalogue) and what its entries hold: ``readings`` where two readings disagree
    and the site adopts one, ``places`` for an editorial note on one document, place
    by place (an evident copy error, what a scan broke), so that nobody copies it."""

    id: Id
    label: Text
    holds: Literal["readings", "places"]


class Place(Node):
    """One damaged spot: where it is, the text quoted briefly as the document has
    it, and what it should read (both quoted in the document's language)."""

    source: Id
    pages: Text
    section: Text | None = None
    printed: Text
    reads: Text
    evidence: tuple[Evidence, ...] = ()
    """Where a reader can check what it should read, when that rests on another
    document (the English rulebook's distance behind a lost inch mark)."""


class Discrepancy(Node):
    id: Id
    title: Text
    kind: Id
    status: Literal["adopted", "open"]
    rules: tuple[RuleId, ...] = ()
    summary: Text
    readings: tuple[Reading, ...] = ()
    places: tuple[Place, ...] = ()
    adopted: Id | None = None
    rationale: Text | None = None


class Discrepancies(Node):
    kinds: tuple[RegisterKind, ...] = ()
    """The kinds of entry this register keeps (see :class:`RegisterKind`)."""
    discrepancies: tuple[Discrepancy, ...]

    def kind(self, kind_id: str) -> RegisterKind | None:
        return next((kind for kind in self.kinds if kind.id == kind_id), None)


BOOK_TITLE = "The title of the book"
"""What the book's title is, for its translator (see :attr:`Message.about`)."""


@dataclass(frozen=True, slots=True)
class Message:
    """One translatable text: its catalogue context, English text and where it is
    (made from validated models, several per rule: not validated again)."""

    context: str
    text: str
    owner: Position
    """The position of the mapping that holds the text."""
    key: str
    """The text's key in that mapping."""
    about: str = ""
    """What the text belongs to, in the source language ("Rule: <title> (chapter:
    <title>)"): the catalogue's comment for its translator, who otherwise meets a
    rule's example or a definition with nothing around it but its msgctxt."""

    @property
    def file(self) -> str:
        return self.owner.file

    @property
    def position(self) -> Position:
        """The text's own position, made when asked for: a check after an edit asks
        for few (a text with a bad token, a text of a file whose lint findings were not kept)."""
        return self.owner.of(self.key)


def kind_context(kind_id: str) -> str:
    """The msgctxt of a register kind's label."""
    return f"discrepancies/kind.{kind_id}#label"


def chapter_messages(chapter: Chapter) -> Iterator[Message]:
    header = chapter.chapter
    about = f"Chapter: {header.title}"
    yield Message(context=f"{header.id}#title", text=header.title, owner=header.position, key="title", about=about)
    yield Message(context=f"{header.id}#intro", text=header.intro, owner=header.position, key="intro", about=about)
    for rule in chapter.rules:
        about = f"Rule: {rule.title} (chapter: {header.title})"
        yield Message(context=f"{rule.id}#title", text=rule.title, owner=rule.position, key="title", about=about)
        yield Message(context=f"{rule.id}#text", text=rule.text, owner=rule.position, key="text", about=about)
        for example in rule.examples:
            yield Message(
                context=f"{rule.id}#example.{example.id}",
                text=example.text,
                owner=example.position, key="text",
                about=f"{about}; its worked example '{example.id}'",
            )


def glossary_messages(glossary: Glossary) -> Iterator[Message]:
    for term in glossary.terms:
        about = f"Glossary: the term '{term.term}'"
        yield Message(context=f"glossary/{term.id}#term", text=term.term, owner=term.position, key="term",
                      about=about)
        yield Message(
            context=f"glossary/{term.id}#definition", text=term.definition, owner=term.position, key="definition",
            about=f"{about}, its definition",
        )


def source_messages(sources: Sources) -> Iterator[Message]:
    for source in sources.sources:
        yield Message(context=f"sources/{source.id}#name", text=source.name, owner=source.position, key="name",
                      about="Sources: the short name of a document the rules are written from")
        yield Message(context=f"sources/{source.id}#title", text=source.title, owner=source.position, key="title",
                      about=f"Sources: the full title of the document '{source.name}'")


def discrepancy_messages(register: Discrepancies) -> Iterator[Message]:
    for kind in register.kinds:
        yield Message(context=kind_context(kind.id), text=kind.label, owner=kind.position, key="label",
                      about="Register of discrepancies: the label of a kind of entry")
    for entry in register.discrepancies:
        base = f"discrepancies/{entry.id}"
        about = f"Register of discrepancies: {entry.title}"
        yield Message(context=f"{base}#title", text=entry.title, owner=entry.position, key="title", about=about)
        yield Message(context=f"{base}#summary", text=entry.summary, owner=entry.position, key="summary",
                      about=about)
        for reading in entry.readings:
            yield Message(
                context=f"{base}#reading.{reading.id}", text=reading.says, owner=reading.position, key="says",
                about=f"{about}; a reading of it",
            )
        if entry.rationale is not None:
            yield Message(context=f"{base}#rationale", text=entry.rationale,
                          owner=entry.position, key="rationale", about=f"{about}; why the site reads it so")
