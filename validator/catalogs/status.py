"""How far each translation has come: per language, domain and chapter, translated,
fuzzy (out of date) and untranslated messages.

Every domain a reader sees is counted: the rule texts (``rules``, per chapter), the
site's interface (``ui``: the engine's words, or the book's own where it has them) and
the words of the worked examples (``labels``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from babel.messages.catalog import Catalog

from validator.api.labels import LABELS_DOMAIN
from validator.catalogs import interface
from validator.catalogs.interface import is_translated
from validator.catalogs.po import RULES_DOMAIN, UI_DOMAIN, RuleCatalog, State, read_catalog
from validator.content.loader import Rulebook
from validator.content.model import Message
from validator.content.project import Project

REFERENCE_GROUP = "reference"
"""Glossary, sources, register of discrepancies and the site title."""
UI_GROUP = "interface"
"""The site's own words (the ``ui`` domain)."""
LABELS_GROUP = "labels"
"""The words of the worked examples (the ``labels`` domain)."""
DOMAINS = (RULES_DOMAIN, UI_DOMAIN, LABELS_DOMAIN)


class _Counted:
    """Translated, fuzzy and untranslated messages, and what follows from them."""

    translated: int
    fuzzy: int
    untranslated: int

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0


@dataclass
class GroupStatus(_Counted):
    group: str
    domain: str = RULES_DOMAIN
    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0
    pending: list[tuple[str, State]] = field(default_factory=list)
    """msgctxt (an interface string's msgid, which has none) and state of every message
    that is not (currently) translated."""

    def count(self, state: State, key: str = "") -> None:
        if state is not State.TRANSLATED:
            self.pending.append((key, state))
        if state is State.TRANSLATED:
            self.translated += 1
        elif state is State.FUZZY:
            self.fuzzy += 1
        else:
            self.untranslated += 1


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

    @property
    def ui_catalogs(self) -> Mapping[str, Catalog | None]: ...

    @property
    def label_catalogs(self) -> Mapping[str, RuleCatalog]: ...


def translation_status(workspace: Translated, language: str | None = None) -> dict[str, list[GroupStatus]]:
    """For each translated language (or ``language`` alone), one status per chapter (in
    book order), one for the reference material, one for the interface, one for the labels."""
    rulebook = workspace.rulebook
    chapter_ids = {chapter.id for chapter in rulebook.chapters}
    order = [chapter.id for chapter in rulebook.chapters] + [REFERENCE_GROUP]
    result: dict[str, list[GroupStatus]] = {}
    for translated in workspace.project.translated_languages:
        code = translated.code
        if language is not None and code != language:
            continue
        catalog = workspace.rule_catalogs[code]
        groups = {name: GroupStatus(name) for name in order}
        for message in rulebook.messages():
            status = groups[group_of(message, chapter_ids)]
            status.count(catalog.translate(message.context, message.text).state, message.context)
        interface = GroupStatus(UI_GROUP, UI_DOMAIN)
        for msgid, state in _interface_states(workspace.ui_catalogs.get(code)):
            interface.count(state, msgid)
        labels = GroupStatus(LABELS_GROUP, LABELS_DOMAIN)
        compact = workspace.label_catalogs.get(code)
        for context, state in compact.states() if compact is not None else ():
            labels.count(state, context)
        result[code] = [*(groups[name] for name in order), interface, labels]
    return result


def _interface_states(catalog: Catalog | None) -> Iterable[tuple[str, State]]:
    """The state of each of the engine's interface strings in a language's interface
    catalogue (the engine's, with the book's entries in place): a string the catalogue
    lacks is untranslated."""
    template = read_catalog(interface.ENGINE_LOCALES / f"{UI_DOMAIN}.pot", f"validator/locale/{UI_DOMAIN}.pot")
    for message in template:
        if not message.id:
            continue
        entry = catalog.get(message.id, message.context) if catalog is not None else None
        if entry is not None and is_translated(entry):
            yield str(message.id), State.TRANSLATED
        elif entry is not None and entry.string and entry.fuzzy:
            yield str(message.id), State.FUZZY
        else:
            yield str(message.id), State.UNTRANSLATED


@dataclass(frozen=True)
class Totals(_Counted):
    """The counts of some groups added up."""

    translated: int
    fuzzy: int
    untranslated: int

    @classmethod
    def of(cls, groups: Iterable[GroupStatus]) -> Totals:
        listed = list(groups)
        return cls(sum(g.translated for g in listed), sum(g.fuzzy for g in listed), sum(g.untranslated for g in listed))

    def as_json(self) -> dict[str, int | float]:
        return {"translated": self.translated, "fuzzy": self.fuzzy, "untranslated": self.untranslated,
                "total": self.total, "percent": round(self.percent, 1)}


def status_json(status: dict[str, list[GroupStatus]]) -> dict[str, object]:
    """What ``validator status --format json`` prints: per language its totals, each
    domain's and each group's with the entries still to translate (msgctxt, or an
    interface string's msgid); and the totals of every language together (a CI badge
    reads a percentage from here)."""
    languages: dict[str, object] = {}
    for language, groups in status.items():
        languages[language] = {
            **Totals.of(groups).as_json(),
            "domains": {domain: Totals.of(g for g in groups if g.domain == domain).as_json() for domain in DOMAINS},
            "groups": [{"group": g.group, "domain": g.domain, **Totals.of([g]).as_json(),
                        "pending": [{"entry": key, "state": str(state)} for key, state in g.pending]}
                       for g in groups],
        }
    everything = [group for groups in status.values() for group in groups]
    return {"total": Totals.of(everything).as_json(), "languages": languages}
