"""The preview's fast path: the page an edit touches, rebuilt alone, at once.

A whole build checks every example, lints every catalogue and has MkDocs render
every page of every language: seconds on the bundled rulebook, a minute on a
large one.  After saving one chapter file or one catalogue, the reader wants the
page being edited.  So the preview first rebuilds only that:

- the inputs are read again, but a file whose bytes did not change gives back what
  was made of it before (:mod:`validator.content.inputcache`);
- the chapters the edit touches are found by comparing the new rulebook and
  catalogues with the last good ones; an edit elsewhere (the glossary, the project,
  the sources) takes no fast path;
- the worked examples of those chapters run against the rules core, and a wrong
  number keeps the old page (the problems are printed);
- each touched chapter page is rendered in the language edited (the source
  language for a chapter file, the catalogue's for a catalogue) and passed
  through MkDocs alone, with the configuration, files,
  navigation and theme kept from the last build, and written over the served page
  in one step (a new file renamed over the old).

The whole build follows at once in the background (:mod:`validator.serve`):
it rechecks everything, updates the other languages, the parallel texts, what
the page links to, the search index and the open data, and a refused build leaves the last good site in place.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog

from validator.checks.examples import run_examples
from validator.checks.run import CheckReport
from validator.content.model import Chapter
from validator.problems import ProblemsFound
from validator.site.pages import chapter_pages
from validator.site.singlepage import SinglePages
from validator.workspace import Workspace


@dataclass
class LiveSite:
    """The last good build's inputs and each language's kept MkDocs state."""

    site_dir: Path
    workspace: Workspace | None = None
    languages: dict[str, SinglePages] = field(default_factory=dict)
    updated: dict[str, set[str]] = field(default_factory=dict)
    """Language -> chapters whose served page was updated since the last build."""
    rendered: dict[tuple[str, str], tuple[Chapter, Catalog | None]] = field(default_factory=dict)
    """(language, chapter) -> the inputs its served page was last rendered from."""
    scratch: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="validator-preview-")))

    def built(self, workspace: Workspace) -> None:
        """A whole build succeeded: its inputs are the new reference, and the kept
        MkDocs states (whose navigation may have changed) are made again on demand."""
        self.workspace = workspace
        self.languages.clear()
        self.updated = {}
        self.rendered = {}
        shutil.rmtree(self.scratch, ignore_errors=True)
        self.scratch.mkdir()

    def language(self, code: str) -> SinglePages:
        """The kept state of ``code``'s site, made from the last good build's inputs."""
        assert self.workspace is not None
        live = self.languages.get(code)
        if live is None:
            shutil.rmtree(self.scratch / code, ignore_errors=True)
            live = self.languages[code] = SinglePages.prepare(self.workspace, code, self.scratch / code)
        return live

    def prepare(self) -> None:
        """Make every language's state now (after a build, in the background), so
        that the first edit does not wait for it."""
        if self.workspace is not None:
            for language in self.workspace.project.languages:
                self.language(language.code)

    def close(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)

    def update(self, workspace: Workspace) -> list[str]:
        """Rebuild the pages an edit touched; returns them as ``code/page``, or an
        empty list when the edit has no fast path.  Raises :class:`ProblemsFound`
        when the touched chapters' examples fail (the served pages stay)."""
        if self.workspace is None:
            return []
        touched = touched_chapters(self.workspace, workspace)
        if touched is None:
            return []
        # Pages updated since the last build are rendered again: an edit undone shows too.
        wanted = {code: {chapter.id for chapter in listed} for code, listed in touched.chapters.items()}
        for code, ids in self.updated.items():
            wanted.setdefault(code, set()).update(ids)
        if not any(wanted.values()):
            return []
        self.updated = wanted
        # ...unless nothing it shows changed since it was rendered (an edit elsewhere).
        pages = {code: [chapter for chapter in workspace.rulebook.chapters if chapter.id in ids
                        and not self._unchanged(code, chapter, workspace)]
                 for code, ids in wanted.items()}
        pages = {code: listed for code, listed in pages.items() if listed}
        if not pages:
            return []
        chapters = {chapter.id: chapter for listed in pages.values() for chapter in listed}
        runs = tuple(run_examples(workspace.ruleset, ((rule.id, example) for chapter in chapters.values()
                                                      for rule in chapter.rules for example in rule.examples)))
        problems = [problem for run in runs for problem in run.problems]
        if problems:
            raise ProblemsFound(problems)
        # A chapter page shows the outcomes of its own examples only: these runs.
        report = CheckReport(runs, (), ())
        updated = []
        for code, listed in pages.items():
            live = self.language(code)
            live.retitle(workspace, code)  # a title edited, or edited back, since the last build
            for name, markdown in chapter_pages(workspace, report, code, listed, parallel=False).items():
                live.render(name, markdown, self.site_dir / code)
                updated.append(f"{code}/{name}")
            for chapter in listed:
                self.rendered[(code, chapter.id)] = (chapter, workspace.readings.rule_catalogs.get(code))
        return updated

    def _unchanged(self, code: str, chapter: Chapter, workspace: Workspace) -> bool:
        """Whether the served page of ``chapter`` was rendered from these very inputs
        (unchanged files give back the objects read before): the chapter and the
        language's catalogue."""
        kept = self.rendered.get((code, chapter.id))
        return kept is not None and kept[0] is chapter and kept[1] is workspace.readings.rule_catalogs.get(code)


@dataclass(frozen=True)
class Touched:
    chapters: dict[str, list[Chapter]]
    """Language code -> the chapters whose page to rebuild in it."""


def _same(first: object, second: object) -> bool:
    return first is second or first == second


def touched_chapters(before: Workspace, after: Workspace) -> Touched | None:
    """The chapters whose own pages show what changed between two readings of the
    project, per language: a chapter file's in the source language (its translations'
    pages follow with the build), a rule catalogue's in its language.  ``None`` when
    the change reaches further than chapter pages (anything but chapter files and
    rule catalogues, or chapters added, removed or reordered)."""
    old, new = before.rulebook, after.rulebook
    if not (_same(old.glossary, new.glossary) and _same(old.sources, new.sources)
            and _same(old.discrepancies, new.discrepancies) and _same(old.faq, new.faq)
            and _same(old.units, new.units) and _same(before.project, after.project)
            and [c.id for c in old.chapters] == [c.id for c in new.chapters]
            and all(before.ui_catalogs.get(code) is catalog for code, catalog in after.ui_catalogs.items())
            and all(before.readings.label_catalogs.get(code) is catalog
                    for code, catalog in after.readings.label_catalogs.items())):
        return None
    known = {chapter.id for chapter in new.chapters}
    touched: dict[str, set[str]] = {}
    source = after.project.source_language
    for chapter, earlier in zip(new.chapters, old.chapters, strict=True):
        if chapter is not earlier:
            touched.setdefault(source, set()).add(chapter.id)
    for code, catalog in after.readings.rule_catalogs.items():
        earlier_catalog = before.readings.rule_catalogs.get(code)
        if earlier_catalog is catalog:
            continue
        if earlier_catalog is None:
            return None
        for context in _changed_contexts(earlier_catalog, catalog):
            chapter_id = context.partition("#")[0].split("/")[0]
            if chapter_id not in known:
                return None  # the rulebook's title, a glossary entry, an official answer...
            touched.setdefault(code, set()).add(chapter_id)
    return Touched({code: [c for c in new.chapters if c.id in ids] for code, ids in touched.items()})


def _changed_contexts(before: Catalog, after: Catalog) -> set[str]:
    """The contexts whose translation (or fuzzy mark) differs between two readings."""
    def entries(catalog: Catalog) -> dict[str, object]:
        return {str(message.context or ""): (message.string, message.fuzzy) for message in catalog if message.id}

    old, new = entries(before), entries(after)
    return {context for context in old.keys() | new.keys() if old.get(context) != new.get(context)}


