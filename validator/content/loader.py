"""Load the whole rulebook once into an immutable :class:`Rulebook`.

Structural problems (syntax, unknown keys, wrong types) are reported per file;
problems between files (duplicate ids, references to nothing) are reported after
all files are read, so one run shows every problem at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from pathlib import Path

from validator.content.faq import EMPTY as NO_FAQ
from validator.content.faq import FAQ_FILE, Faq, faq_messages, faq_problems
from validator.content.inputcache import input_bytes, made_from
from validator.content.limits import BookLimits, book_limits
from validator.content.model import (
    BOOK_TITLE,
    Chapter,
    Discrepancies,
    Discrepancy,
    Glossary,
    Grammar,
    Message,
    Position,
    Rule,
    Sources,
    Term,
    chapter_messages,
    discrepancy_messages,
    glossary_messages,
    source_messages,
)
from validator.content.project import Project
from validator.content.register import register_problems
from validator.content.tokens import is_rolled, tokens
from validator.content.units import NO_UNITS, UNITS_FILE, Units, units_problems
from validator.content.yamlsource import decode_utf8, parse_yaml, present, validate
from validator.problems import Problem, ProblemsFound
from validator.store import Store

NO_REGISTER = Discrepancies(discrepancies=())
"""The register of a book without ``docs/discrepancies.yml``: a book whose sources
agree keeps none, and its site has no register page."""


@dataclass(frozen=True)
class Rulebook:
    """Every piece of content, in order, with lookups by id."""

    project: Project
    chapters: tuple[Chapter, ...]
    glossary: Glossary
    sources: Sources
    discrepancies: Discrepancies
    faq: Faq = NO_FAQ
    """The official answers (docs/faq.yml), see :mod:`validator.content.faq`."""
    units: Units = NO_UNITS
    """Distances as each edition prints them (docs/units.yml), see :mod:`validator.content.units`."""

    # The rulebook is immutable, so its lookups are built once, on first use: a linear
    # scan per lookup made rendering and checking quadratic in the number of rules.
    @cached_property
    def rules(self) -> tuple[Rule, ...]:
        return tuple(rule for chapter in self.chapters for rule in chapter.rules)

    @cached_property
    def _rules_by_name(self) -> dict[str, Rule]:
        """Each rule id and alias -> its rule (the first in rulebook order, as a scan finds it)."""
        found: dict[str, Rule] = {}
        for rule in self.rules:
            for name in (rule.id, *rule.aliases):
                found.setdefault(name, rule)
        return found

    @cached_property
    def _chapters_by_rule(self) -> dict[str, Chapter]:
        found: dict[str, Chapter] = {}
        for chapter in self.chapters:
            for rule in chapter.rules:
                found.setdefault(rule.id, chapter)
        return found

    @cached_property
    def _terms_by_id(self) -> dict[str, Term]:
        found: dict[str, Term] = {}
        for term in self.glossary.terms:
            found.setdefault(term.id, term)
        return found

    @cached_property
    def rule_names(self) -> frozenset[str]:
        """Every rule id and alias: what a ``{rule:...}`` token may name."""
        return frozenset(self._rules_by_name)

    @cached_property
    def term_ids(self) -> frozenset[str]:
        """Every glossary term id: what a ``{term:...}`` token may name."""
        return frozenset(self._terms_by_id)

    def rule(self, rule_id: str) -> Rule:
        """The rule with ``rule_id`` or with it among its aliases."""
        return self._rules_by_name[rule_id]

    def chapter_of(self, rule_id: str) -> Chapter:
        return self._chapters_by_rule[self.rule(rule_id).id]

    def term(self, term_id: str) -> Term:
        try:
            return self._terms_by_id[term_id]
        except KeyError:
            raise StopIteration(term_id) from None

    def discrepancies_of(self, rule_id: str) -> tuple[Discrepancy, ...]:
        return tuple(entry for entry in self.discrepancies.discrepancies if rule_id in entry.rules)

    @cached_property
    def distances(self) -> tuple[Decimal, ...]:
        """Every well-formed distance the texts give as a number (``{dist:N}``, not a
        rolled one), smallest first: the units table of a language shows each.  Made
        once (a build makes it before its page jobs, which then do not each walk every text)."""
        return tuple(sorted({Decimal(token.argument) for message in self.messages()
                             for token in tokens(message.text)
                             if token.kind == "dist" and not token.problem() and not is_rolled(token.argument)}))

    def messages(self) -> Iterator[Message]:
        """Every translatable text, in the order a translator should meet them."""
        return iter(self._messages)

    @cached_property
    def _messages(self) -> tuple[Message, ...]:
        """The texts, gathered once: the checks, the lint and the pages all walk them."""
        return tuple(self._gathered_messages())

    def _gathered_messages(self) -> Iterator[Message]:
        yield Message(context="rulebook#title", text=self.project.title,
                      owner=self.project.position, key="title", about=BOOK_TITLE)
        for chapter in self.chapters:
            yield from chapter_messages(chapter)
        yield from glossary_messages(self.glossary)
        yield from discrepancy_messages(self.discrepancies)
        yield from faq_messages(self.faq)
        yield from source_messages(self.sources)


def content_files(root: Path, project: Project) -> tuple[list[Path], dict[type, Path]]:
    """The chapter files, and the file of each other part read as one model."""
    content = root / project.content_dir
    return (sorted((content / "rules").glob("*.yml")),
            {Glossary: content / "glossary.yml", Sources: content / "sources.yml",
             Discrepancies: content / "discrepancies.yml", Faq: content / FAQ_FILE, Units: content / UNITS_FILE})


def model_kind(model: type) -> str:
    """The kind under which what is made of a file is kept (see :func:`made_from`)."""
    return f"yaml:{model.__name__}"


def parse_model(model: type, data: bytes, shown_as: str) -> object:
    """The validated ``model`` held in the bytes of a YAML file."""
    return validate(model, parse_yaml(decode_utf8(data, shown_as), shown_as), shown_as)


def load_rulebook(root: Path, project: Project, limits: BookLimits | None = None, store: Store | None = None
                  ) -> Rulebook:
    """Read and validate every content file under the project's content folder, each
    within the book's ``limits`` (see :mod:`validator.content.limits`); what was made of
    a file whose bytes ``store`` knows is taken from there."""
    problems: list[Problem] = []
    limit = (limits or book_limits(root, project)).input
    kept = store or Store()

    def load(model: type, path: Path) -> object | None:
        shown = path.relative_to(root).as_posix()
        try:
            data = input_bytes(kept, path, shown, limit)
            return made_from(kept, model_kind(model), shown, data, lambda: parse_model(model, data, shown))
        except ProblemsFound as found:
            problems.extend(found.problems)
            return None

    chapter_files, parts = content_files(root, project)
    if not chapter_files:
        problems.append(Problem(f"{project.content_dir}/rules", 0, "", "no chapter files (*.yml)",
                                "add at least one chapter file"))
    chapters = [load(Chapter, path) for path in chapter_files]
    glossary = load(Glossary, parts[Glossary])
    sources = load(Sources, parts[Sources])
    discrepancies = load(Discrepancies, parts[Discrepancies]) if present(parts[Discrepancies]) else NO_REGISTER
    # A book without official answers or conversions has no such file; a dangling link
    # in its place is reported, not taken for none.
    faq = load(Faq, parts[Faq]) if present(parts[Faq]) else NO_FAQ
    units = load(Units, parts[Units]) if present(parts[Units]) else NO_UNITS
    if problems:
        raise ProblemsFound(problems)
    assert isinstance(glossary, Glossary) and isinstance(sources, Sources)
    assert isinstance(discrepancies, Discrepancies) and isinstance(faq, Faq) and isinstance(units, Units)
    ordered = sorted((chapter for chapter in chapters if isinstance(chapter, Chapter)),
                     key=lambda chapter: (chapter.chapter.order, chapter.id))
    rulebook = Rulebook(project, tuple(ordered), glossary, sources, discrepancies, faq, units)
    problems.extend(_identity_problems(rulebook))
    problems.extend(grammar_problems(glossary))
    problems.extend(also_called_problems(rulebook))
    problems.extend(register_problems(sources, discrepancies))
    problems.extend(units_problems(project, units, {source.id for source in sources.sources},
                                   list(rulebook.messages())))
    problems.extend(faq_problems(rulebook))
    if problems:
        raise ProblemsFound(problems)
    return rulebook


def grammar_problems(glossary: Glossary) -> Iterator[Problem]:
    """Each term's forms follow the grammar the glossary declares for their language:
    one form per case, in each number the language has (see :class:`Grammar`)."""
    default = Grammar()
    for term in glossary.terms:
        for language, inflection in term.forms.items():
            grammar = glossary.grammar.get(language, default)
            line = term.position.of(f"forms.{language}").line
            for number, listed in (("sg", inflection.sg), ("du", inflection.du), ("pl", inflection.pl)):
                if listed is None:
                    continue
                if number not in grammar.numbers:
                    yield Problem(term.position.file, line, term.id,
                                  f"{language}.{number}: '{language}' has no number '{number}' in the glossary's "
                                  "grammar", f"remove the forms, or add '{number}' to grammar.{language}.numbers")
                elif grammar.cases and len(listed) != len(grammar.cases):
                    yield Problem(term.position.file, line, term.id,
                                  f"{language}.{number} lists {len(listed)} forms; {language} needs exactly "
                                  f"{len(grammar.cases)} ({', '.join(grammar.cases)})",
                                  f"give one form per case, in the order of grammar.{language}.cases")


def also_called_problems(rulebook: Rulebook) -> Iterator[Problem]:
    """The names under ``also_called:`` are of the book's languages, and each is a name a
    reader could type: words, in plain text (a search result never shows it, but every
    text of the book is plain text, so that none becomes markup wherever it goes next)."""
    codes = [language.code for language in rulebook.project.languages]
    entries: list[tuple[str, Rule | Term]] = [*((rule.id, rule) for rule in rulebook.rules),
                                              *((f"glossary/{term.id}", term) for term in rulebook.glossary.terms)]
    for subject, entry in entries:
        for language, names in entry.also_called.items():
            line = entry.position.of(f"also_called.{language}").line
            if language not in codes:
                yield Problem(entry.position.file, line, subject,
                              f"also_called names the language '{language}', which the book does not have",
                              f"use one of the codes in rulebook.yml ({', '.join(codes)}), or remove the names")
                continue
            for name in names:
                if not any(char.isalnum() for char in name) or any(char in "<>" for char in name):
                    yield Problem(entry.position.file, line, subject,
                                  f"also_called.{language}: {name!r} is not a name a reader can type",
                                  "write the name in words, in plain text, without < or >")


def _identity_problems(rulebook: Rulebook) -> Iterator[Problem]:
    """Ids must be unique where they are looked up; a rule's id must start with
    its chapter's id so that anchors and catalogue contexts stay predictable."""
    yield from _duplicates(
        [(name, rule.position, rule.id) for rule in rulebook.rules for name in (rule.id, *rule.aliases)],
        "rule id or alias",
    )
    yield from _duplicates([(chapter.id, chapter.chapter.position, chapter.id) for chapter in rulebook.chapters],
                           "chapter id")
    yield from _duplicates([(term.id, term.position, term.id) for term in rulebook.glossary.terms], "term id")
    yield from _duplicates([(source.id, source.position, source.id) for source in rulebook.sources.sources],
                           "source id")
    yield from _duplicates([(entry.id, entry.position, entry.id)
                            for entry in rulebook.discrepancies.discrepancies], "discrepancy id")
    for chapter in rulebook.chapters:
        for rule in chapter.rules:
            if not rule.id.startswith(f"{chapter.id}/"):
                yield Problem(rule.position.file, rule.position.of("id").line, rule.id,
                              f"rule id does not start with its chapter id '{chapter.id}/'",
                              f"rename it to '{chapter.id}/{rule.id.split('/')[-1]}' and keep the old id in 'aliases'")
            yield from _duplicates([(example.id, example.position, rule.id) for example in rule.examples],
                                   "example id")


def _duplicates(entries: list[tuple[str, Position, str]], what: str) -> Iterator[Problem]:
    first_seen: dict[str, Position] = {}
    for name, position, subject in entries:
        if name in first_seen:
            earlier = first_seen[name]
            yield Problem(position.file, position.line, subject,
                          f"duplicate {what} '{name}' (first used at {earlier.file}:{earlier.line})",
                          "give each one a distinct id")
        else:
            first_seen[name] = position
