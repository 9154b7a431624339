"""Official answers: the design team's questions and answers on the rules.

An answer is an entry of its own (``docs/faq.yml``), not a line of a rule's text:
it has its own source and page, touches one or more rules, is translated like any
text and may carry worked examples, run by the rules core like those of a rule.
The site shows each entry under every rule it touches and on the FAQ page, in the
section of the chapter of the first rule it touches.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal, Protocol

from pydantic import Field, model_validator

from validator.content.model import (
    Chapter,
    Evidence,
    Example,
    Id,
    Message,
    Node,
    Rule,
    RuleId,
    Sources,
    Text,
    address_problem,
)
from validator.problems import Problem

FAQ_FILE = "faq.yml"
CONTEXT_PREFIX = "faq/"

Standing = Literal["official", "community", "uncredited"]
"""Who gave an answer: the design team (``official``), a community body whose
interpretations players follow but the publisher never made (``community``), or
an author the page does not name or this reference could not confirm
(``uncredited``).  Readers are told which, so a community reading never passes for official."""


class FaqEntry(Node):
    """One official answer: the question and the answer in our words, where it was
    published (a source of ``docs/sources.yml`` with its page, or a public address
    that reproduces it), the rules it touches and optional worked examples."""

    id: Id
    question: Text
    answer: Text
    source: Id
    page: Text | None = None
    url: Text | None = None
    rules: tuple[RuleId, ...] = Field(min_length=1)
    evidence: tuple[Evidence, ...] = ()
    """Where a reader can check the answer when its source is a document the project
    holds no copy of and ``url`` gives no public copy (as for a reading of the register)."""
    examples: tuple[Example, ...] = ()
    standing: Standing = "official"
    """Who gave the answer: ``official`` (the design team, the default), ``community``
    (a players' council; required when ``source`` is a community body) or
    ``uncredited`` (the page that reproduces it names no author, or none this
    reference could confirm).  Readers are told
    which for every answer that is not official."""
    source_shown: bool = True
    """False when the page that reproduces the answer prints no source for it: the
    site then says so ("source not shown") instead of leaving the answer out."""

    @property
    def official(self) -> bool:
        """Shown to readers as an official answer (only the design team's are)."""
        return self.standing == "official"

    @model_validator(mode="after")
    def _page_or_url(self) -> FaqEntry:
        """An answer nobody can look up is not an official answer."""
        if self.page is None and self.url is None:
            raise ValueError("an official answer needs 'page' (in its source) or 'url' (a public copy), or both")
        problem = None if self.url is None else address_problem(self.url)
        if problem is not None:
            raise ValueError(f"'url' must be a web address starting with https:// or http://; it {problem}")
        return self

    @property
    def subject(self) -> str:
        """The id under which problems, catalogue contexts and example runs name it."""
        return f"{CONTEXT_PREFIX}{self.id}"


class Faq(Node):
    faq: tuple[FaqEntry, ...]


EMPTY = Faq(faq=())


def faq_messages(faq: Faq) -> Iterator[Message]:
    """The translatable texts of the official answers, with msgctxt ``faq/<id>#…``."""
    for entry in faq.faq:
        about = f"Official answers: {entry.question}"
        yield Message(context=f"{entry.subject}#question", text=entry.question,
                      owner=entry.position, key="question", about=about)
        yield Message(context=f"{entry.subject}#answer", text=entry.answer, owner=entry.position, key="answer",
                      about=about)
        for example in entry.examples:
            yield Message(context=f"{entry.subject}#example.{example.id}", text=example.text,
                          owner=example.position, key="text", about=f"{about}; its worked example '{example.id}'")


class Book(Protocol):
    """What the answers' checks and lookups read of a rulebook: the loader's
    :class:`~validator.content.loader.Rulebook`, which reads this module to load one."""

    @property
    def chapters(self) -> tuple[Chapter, ...]: ...

    @property
    def sources(self) -> Sources: ...

    @property
    def faq(self) -> Faq: ...

    @property
    def rules(self) -> tuple[Rule, ...]: ...

    def rule(self, rule_id: str) -> Rule: ...

    def chapter_of(self, rule_id: str) -> Chapter: ...


def faq_problems(rulebook: Book) -> Iterator[Problem]:
    """Each answer names rules and a source that exist, and ids are unique."""
    rule_ids = {name for rule in rulebook.rules for name in (rule.id, *rule.aliases)}
    sources = {source.id: source for source in rulebook.sources.sources}
    source_ids = set(sources)
    chapter_ids = {chapter.id for chapter in rulebook.chapters}
    first_seen: dict[str, int] = {}
    for entry in rulebook.faq.faq:
        where = entry.position
        if entry.id in chapter_ids:
            yield Problem(where.file, where.of("id").line, entry.subject,
                          f"official answer id '{entry.id}' is the id of a chapter, whose section of the FAQ "
                          "page has that anchor", "choose another id")
        if entry.id in first_seen:
            yield Problem(where.file, where.of("id").line, entry.subject,
                          f"duplicate official answer id '{entry.id}' (first used at line {first_seen[entry.id]})",
                          "give each answer a distinct id")
        else:
            first_seen[entry.id] = where.of("id").line
        if entry.source not in source_ids:
            yield Problem(where.file, where.of("source").line, entry.subject,
                          f"cites unknown source '{entry.source}'", "add it to docs/sources.yml or correct the id")
        elif getattr(sources[entry.source], "needs_evidence", False) and entry.url is None and not entry.evidence:
            yield Problem(where.file, where.of("source").line, entry.subject,
                          f"cites '{entry.source}', a document the project holds no copy of, and says neither "
                          "where a reader can check the answer",
                          "add 'url' (a public copy of the answer) or 'evidence:' (a source with its 'pages' "
                          "or 'url')")
        if entry.source in sources and sources[entry.source].community and entry.standing != "community":
            yield Problem(where.file, where.of("source").line, entry.subject,
                          f"cites '{entry.source}', a community body, but its standing is '{entry.standing}'",
                          "set 'standing: community' (a community body's readings are never official)")
        for item in entry.evidence:
            cited = sources.get(item.source)
            if cited is None or getattr(cited, "needs_evidence", False):
                yield Problem(item.position.file, item.position.of("source").line, entry.subject,
                              f"names as evidence '{item.source}', which is unknown or itself needs evidence",
                              "cite a source of docs/sources.yml that a reader can consult")
        for rule_id in entry.rules:
            if rule_id not in rule_ids:
                yield Problem(where.file, where.of("rules").line, entry.subject,
                              f"touches unknown rule '{rule_id}'", "use the id of an existing rule (or an alias)")
        seen_examples: set[str] = set()
        for example in entry.examples:
            if example.id in seen_examples:
                yield Problem(example.position.file, example.position.of("id").line, entry.subject,
                              f"duplicate example id '{example.id}'", "give each example a distinct id")
            seen_examples.add(example.id)


def answers_of(rulebook: Book, rule_id: str) -> tuple[FaqEntry, ...]:
    """The official answers that touch ``rule_id`` (named by its id or an alias)."""
    rule = rulebook.rule(rule_id)
    names = {rule.id, *rule.aliases}
    return tuple(entry for entry in rulebook.faq.faq if names & set(entry.rules))


def home_chapter(rulebook: Book, entry: FaqEntry) -> str:
    """The chapter whose FAQ section holds ``entry``: that of the first rule it touches."""
    return rulebook.chapter_of(entry.rules[0]).id
