"""The build, one function of named stages called in order, as MkDocs' own
``commands/build.py`` is:

1. **load** the book (:func:`validator.workspace.load_workspace`, by the command);
2. **check** it (:func:`validator.checks.run.check_workspace`): nothing is published
   when a check fails; the translation lint is left to run beside the pages;
3. **render** each language's pages (:func:`validator.site.build.render_language`);
4. **write** each language's site with MkDocs (:func:`validator.site.build.write_language_site`);
5. **publish**: the open data and the root page, then the swap of the new sites into
   place (:func:`publish`).

Stages 3 and 4 of every language, the open data and the lint's parts run as jobs on
every core (:mod:`validator.parallel`), as many at once as the command's
:class:`~validator.store.Store` allows; nothing below this module calls back into it.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import cast

from validator.catalogs.status import translation_status
from validator.checks.lint import Finding
from validator.checks.lintparts import lint_part, lint_parts
from validator.checks.run import CheckReport, by_severity, check_workspace, lint_findings
from validator.parallel import Job, run_jobs
from validator.problems import Problem, ProblemsFound
from validator.site.build import (
    language_parts,
    mkdocs_config,
    prepare_shared,
    render_language,
    write_language_site,
    write_root_index,
)
from validator.site.incremental import (
    BookState,
    Frame,
    LanguageMade,
    book_frame,
    earlier_language,
    frame_digest,
    keep_record,
)
from validator.site.opendata import write_open_data
from validator.site.output import Staging, check_site_dir, finish, project_inputs, staging, swap
from validator.site.pages import page_units
from validator.site.rebuild import update_language
from validator.site.reproducible import build_epoch, make_reproducible
from validator.site.search import term_forms
from validator.store import Store
from validator.workspace import Workspace


class ChecksFailed(ProblemsFound):
    """The checks (the translation lint too) found problems: nothing was published."""

    def __init__(self, problems: Iterable[Problem], warnings: tuple[Finding, ...]) -> None:
        super().__init__(problems)
        self.warnings = warnings


@dataclass(frozen=True)
class Built:
    folders: list[Path]
    """The language folders, in the project's order."""
    warnings: tuple[Finding, ...]
    """The translation lint's warnings (they do not stop a build)."""


def check_and_build(workspace: Workspace, site_dir: Path, language: str | None = None,
                    store: Store | None = None) -> Built:
    """Check the workspace and build it (see :func:`build_sites`), the lint beside the
    pages; :class:`ChecksFailed` when the checks find a problem (with the lint's
    problems too, run then on every core), and nothing is built."""
    report = check_workspace(workspace, lint=False, store=store)
    if report.problems:
        errors, warnings = lint_findings(workspace, parallel=True, store=store)
        raise ChecksFailed([*report.problems, *errors], warnings)
    return build_sites(workspace, report, site_dir, language, store)


def build_sites(workspace: Workspace, report: CheckReport, site_dir: Path,
                language: str | None = None, store: Store | None = None) -> Built:
    """Render and build every language into ``site_dir``.

    ``site_dir`` must be absent, empty or a site this tool built (see
    ``validator.site.output``); the new sites replace it only when every language
    succeeded, and in one step.  ``language``: that language's site alone (one job
    of a CI matrix, one language per job), which the caller has checked is the project's.
    A report made without the lint (``check_workspace(..., lint=False)``) has it run
    beside the pages, on a core of its own, and its errors stop the build
    (:class:`ChecksFailed`) as the check's would.  ``store``: what is kept, and how
    many jobs run at once.
    """
    store = store or Store()
    target = check_site_dir(site_dir, workspace.root, project_inputs(workspace.root, workspace.project))
    epoch = build_epoch()
    book = BookState.of(workspace)
    with staging(target) as staged:
        status = translation_status(workspace)
        forms = term_forms(workspace)
        codes = [code.code for code in workspace.project.languages if language in (None, code.code)]
        shared = book_frame(workspace, epoch, store)
        frames = {code: Frame(frame_digest(shared, code, mkdocs_config(workspace, code, staged.pages, target)), book)
                  for code in codes}

        # Rendering a language's pages and building them with MkDocs are jobs of their own,
        # of even size, started first; the open data and the lint's parts, smaller, come
        # last and fill the cores to the end, the smallest (the English text's lint) last.
        # A language whose earlier site holds is made from it, in one job.
        renders: dict[str, Job[object]] = {}
        builds: list[Job[object]] = []
        earlier = {code: earlier_language(store, target, code) for code in codes}
        kept = {code: record for code, record in earlier.items()
                if record is not None and record.frame == frames[code].digest}
        if len(kept) < len(codes):
            prepare_shared(workspace)  # for the languages built whole, each in its own process
        for code in codes:
            frame, record = frames[code], kept.get(code)
            if record is not None:
                renders[code] = Job(f"pages of {code}", partial(
                    update_language, workspace, report, status, code, target / code, staged.pages,
                    staged.site / code, forms, store, frame, record, frame.stale(page_units(workspace), record)))
            else:
                renders[code] = Job(f"pages of {code}", partial(
                    render_language, workspace, report, status, code, staged.pages, staged.site / code, forms,
                    store, frame))
                builds.append(Job(code, partial(write_language_site, workspace, code, staged.pages),
                                  after=renders[code]))
        open_data: Job[object] = Job("open data", partial(write_open_data, workspace, report, staged.site))
        lint: list[Job[object]] = [] if report.linted else [
            Job(f"lint of {part or 'the English text'}", partial(lint_part, workspace, part, store))
            for part in reversed(lint_parts(workspace))]
        findings: list[Finding] = []
        made: dict[str, LanguageMade] = {}
        try:
            for job, result in run_jobs([*renders.values(), *builds, open_data, *lint], store.workers):
                if job in lint:
                    findings.extend(cast(list[Finding], result))
                for code, render in renders.items():
                    if job is render:
                        made[code] = cast(LanguageMade, result)
        except ProblemsFound as found:
            raise ProblemsFound([*by_severity(findings)[0], *found.problems]) from None
        lint_errors, warnings = by_severity(findings) if lint else ((), report.warnings)
        if lint_errors:
            raise ChecksFailed(lint_errors, warnings)
        publish(workspace, report, staged, target, epoch, open_data=False)
    keep_record(store, target, {code: (frames[code].digest, made[code]) for code in codes})
    return Built([target / code.code for code in workspace.project.languages if language in (None, code.code)],
                 warnings)


def assemble_sites(workspace: Workspace, report: CheckReport, parts: list[Path], site_dir: Path) -> list[Path]:
    """One site from language sites built apart (``validator build --language CODE``,
    one CI job each): every language's folder copied from the part that holds it,
    then the root page and the open data of all languages, swapped in as a build is.

    Every language of the project must be in exactly one part; a part is a site this
    tool built (it carries the marker), so nothing else is ever read as one."""
    target = check_site_dir(site_dir, workspace.root, project_inputs(workspace.root, workspace.project))
    found = language_parts(workspace, parts)
    epoch = build_epoch()
    with staging(target) as staged:
        for code, folder in found.items():
            shutil.copytree(folder, staged.site / code, symlinks=True)
        publish(workspace, report, staged, target, epoch)
    return [target / code for code in found]


def publish(workspace: Workspace, report: CheckReport, staged: Staging, target: Path, epoch: int | None,
             open_data: bool = True) -> None:
    """What a site has besides its languages' pages, then the swap into place."""
    write_root_index(workspace, staged.site)
    if open_data:
        write_open_data(workspace, report, staged.site)
    make_reproducible(staged.site, epoch)
    finish(staged)
    swap(staged, target)
