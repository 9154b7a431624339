"""What a page reads of the parts of a book that change from one build to the next.

An incremental build (:mod:`validator.site.incremental`) renders again only the pages
whose inputs changed.  Most of a book is read by every page (the project, the
glossary, the interface's words, the rules core): a change there renders every
page.  What differs from page to page is which chapters, which catalogue entries
and which "referred by" lists a page reads; the page's view is given the book
through the stand-ins below, which note those reads in a :class:`Reads` as the
page is rendered.

A stand-in notes *everything* when a page reads a part that gathers the whole
book (every rule, every chapter, every text): such a page (the home page, the
translation status) depends on every input.  What a stand-in does not know is
read as "everything" too, so a new way of reading the book can make a build do
more, never leave a page stale.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

from validator.catalogs.po import RuleCatalog, Translation
from validator.checks.run import CheckReport
from validator.content.loader import Rulebook
from validator.workspace import Workspace

T = TypeVar("T")


@dataclass(frozen=True)
class PageReads:
    """What one page (or one chapter's pages, rendered together) read."""

    chapters: frozenset[str] = frozenset()
    """The chapters whose rules it read."""
    entries: frozenset[tuple[str, str]] = frozenset()
    """(language, msgctxt) of each rule catalogue entry it translated."""
    referrers: frozenset[str] = frozenset()
    """The rules whose list of referring rules it showed."""
    everything: bool = False
    """Whether it read a part that gathers the whole book."""


@dataclass
class Reads:
    """The reads of the page being rendered, gathered by the stand-ins."""

    chapters: set[str] = field(default_factory=set)
    entries: set[tuple[str, str]] = field(default_factory=set)
    referrers: set[str] = field(default_factory=set)
    everything: bool = False

    def taken(self) -> PageReads:
        """What was read since the last call, and a clean slate for the next page."""
        found = PageReads(frozenset(self.chapters), frozenset(self.entries), frozenset(self.referrers),
                          self.everything)
        self.chapters.clear()
        self.entries.clear()
        self.referrers.clear()
        self.everything = False
        return found


class ReadRulebook:
    """The rulebook, noting the chapters of the rules looked up."""

    GLOBAL = frozenset({"project", "glossary", "sources", "discrepancies", "faq", "units", "term",
                        "discrepancies_of", "rule_names", "term_ids"})
    """What every page reads alike (the book's outline, rule ids and aliases included,
    is part of what every page depends on: see :mod:`validator.site.incremental`)."""

    def __init__(self, rulebook: Rulebook, reads: Reads) -> None:
        self._rulebook = rulebook
        self._reads = reads

    def rule(self, rule_id: str) -> Any:
        self._reads.chapters.add(self._rulebook.chapter_of(rule_id).id)
        return self._rulebook.rule(rule_id)

    def chapter_of(self, rule_id: str) -> Any:
        chapter = self._rulebook.chapter_of(rule_id)
        self._reads.chapters.add(chapter.id)
        return chapter

    def __getattr__(self, name: str) -> Any:
        if name not in self.GLOBAL:
            self._reads.everything = True
        return getattr(self._rulebook, name)


class ReadCatalog:
    """A rule catalogue, noting each entry translated."""

    def __init__(self, catalog: RuleCatalog, reads: Reads) -> None:
        self._catalog = catalog
        self._reads = reads
        self.language = catalog.language
        self.source_language = catalog.source_language

    def translate(self, context: str, english: str) -> Translation:
        # Interned: the reads are kept between builds, and a context many units read is
        # then pickled once.
        self._reads.entries.add((self.language, sys.intern(context)))
        return self._catalog.translate(context, english)

    def __getattr__(self, name: str) -> Any:
        self._reads.everything = True
        return getattr(self._catalog, name)


class ReadReport:
    """The check's report, noting the chapter of each rule whose results are shown
    (an official answer's are made of the answers' file, which every page reads)."""

    def __init__(self, report: CheckReport, rulebook: Rulebook, reads: Reads) -> None:
        self._report = report
        self._rulebook = rulebook
        self._reads = reads

    def _subject(self, subject: str) -> None:
        if subject in self._rulebook.rule_names:
            self._reads.chapters.add(self._rulebook.chapter_of(subject).id)
        elif not subject.startswith("faq/"):
            self._reads.everything = True

    def computed(self, subject: str, example_id: str) -> dict[str, object]:
        self._subject(subject)
        return self._report.computed(subject, example_id)

    def trace(self, subject: str, example_id: str) -> Any:
        self._subject(subject)
        return self._report.trace(subject, example_id)

    def __getattr__(self, name: str) -> Any:
        self._reads.everything = True
        return getattr(self._report, name)


class ReadReferrers(Mapping[str, tuple[str, ...]]):
    """Rule id -> the rules that link to it, noting each rule asked about."""

    def __init__(self, referrers: Mapping[str, tuple[str, ...]], reads: Reads) -> None:
        self._referrers = referrers
        self._reads = reads

    def __getitem__(self, rule_id: str) -> tuple[str, ...]:
        self._reads.referrers.add(rule_id)
        return self._referrers[rule_id]

    def get(self, rule_id: str, default: Any = None) -> Any:
        self._reads.referrers.add(rule_id)
        return self._referrers.get(rule_id, default)

    def __iter__(self) -> Any:
        self._reads.everything = True
        return iter(self._referrers)

    def __len__(self) -> int:
        self._reads.everything = True
        return len(self._referrers)


class ReadWhole(Mapping[str, Any]):
    """A mapping made of the whole book (the translation status of every text): any
    read of it is a read of everything."""

    def __init__(self, mapping: Mapping[str, Any], reads: Reads) -> None:
        self._mapping = mapping
        self._reads = reads

    def __getitem__(self, key: str) -> Any:
        self._reads.everything = True
        return self._mapping[key]

    def __iter__(self) -> Any:
        self._reads.everything = True
        return iter(self._mapping)

    def __len__(self) -> int:
        self._reads.everything = True
        return len(self._mapping)


def read_through(workspace: Workspace, report: CheckReport, referrers: Mapping[str, tuple[str, ...]],
                 status: T, reads: Reads) -> tuple[Workspace, CheckReport, Mapping[str, tuple[str, ...]], T]:
    """The workspace, report, referrers and translation status a page's view is given,
    noting in ``reads`` what each page reads of them."""
    return (read_workspace(workspace, reads), cast(CheckReport, ReadReport(report, workspace.rulebook, reads)),
            ReadReferrers(referrers, reads), cast(T, ReadWhole(cast(Mapping[str, Any], status), reads)))


def read_workspace(workspace: Workspace, reads: Reads) -> Workspace:
    """The workspace with its rulebook and rule catalogues read through stand-ins."""
    rulebook = cast(Rulebook, ReadRulebook(workspace.rulebook, reads))
    catalogs = {code: cast(RuleCatalog, ReadCatalog(catalog, reads))
                for code, catalog in workspace.rule_catalogs.items()}
    noted = replace(workspace, rulebook=rulebook, rule_catalogs=catalogs)
    if "ruleset" in workspace.__dict__:  # the rules core already imported and prepared, not made again
        noted.__dict__["ruleset"] = workspace.ruleset
    return noted
