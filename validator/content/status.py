"""How far each translation has come: per language and chapter, translated, fuzzy
(out of date) and untranslated messages."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from validator.content.catalogs import RuleCatalog, State
from validator.content.loader import Rulebook
from validator.content.model import Message
from validator.content.project import Project

REFERENCE_GROUP = "reference"
"""Glossary, sources, register of discrepancies and the site title."""


@dataclass
class GroupStatus:
    group: str
    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0
    pending: list[tuple[str, State]] = field(default_factory=list)
    """msgctxt and state of every message that is not (currently) translated."""

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0


def group_of(message: Message, chapter_ids: set[str]) -> str:
    """The chapter a message belongs to, from its msgctxt (``chapter/rule#field``
    or ``chapter#field``); everything else is reference material."""
    entry = message.context.split("#", 1)[0]
    chapter = entry.split("/", 1)[0]
    return chapter if chapter in chapter_ids else REFERENCE_GROUP


class Translated(Protocol):
    """What the status reads of a loaded project: :class:`validator.workspace.Workspace`,
    a layer above the content, which this module does not import."""

    @property
    def project(self) -> Project: ...

    @property
    def rulebook(self) -> Rulebook: ...

    @property
    def rule_catalogs(self) -> Mapping[str, RuleCatalog]: ...


def translation_status(workspace: Translated) -> dict[str, list[GroupStatus]]:
    """For each translated language, one status per chapter (in book order) and one
    for the reference material."""
    rulebook = workspace.rulebook
    chapter_ids = {chapter.id for chapter in rulebook.chapters}
    order = [chapter.id for chapter in rulebook.chapters] + [REFERENCE_GROUP]
    result: dict[str, list[GroupStatus]] = {}
    for language in workspace.project.translated_languages:
        catalog = workspace.rule_catalogs[language.code]
        groups = {name: GroupStatus(name) for name in order}
        for message in rulebook.messages():
            status = groups[group_of(message, chapter_ids)]
            state = catalog.translate(message.context, message.text).state
            if state is State.TRANSLATED:
                status.translated += 1
            elif state is State.FUZZY:
                status.fuzzy += 1
                status.pending.append((message.context, state))
            else:
                status.untranslated += 1
                status.pending.append((message.context, state))
        result[language.code] = [groups[name] for name in order]
    return result


def iter_rows(status: dict[str, list[GroupStatus]]) -> Iterator[tuple[str, GroupStatus]]:
    for language, groups in status.items():
        for group in groups:
            yield language, group
