"""The stage of an incremental build that makes one language's site from its earlier
one (see :mod:`validator.site.incremental` for what is rendered again, and why)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from validator.catalogs.status import GroupStatus
from validator.checks.run import CheckReport
from validator.site.incremental import Frame, LanguageMade, LanguageRecord, ReadMemo
from validator.site.pages import render_units
from validator.site.previews import write_previews
from validator.site.reads import Reads
from validator.site.search import IndexRow, TermForms, write_index
from validator.site.singlepage import SinglePages
from validator.store import Store
from validator.workspace import Workspace


def update_language(workspace: Workspace, report: CheckReport, status: dict[str, list[GroupStatus]], code: str,
                    folder: Path, scratch: Path, output: Path, forms: TermForms, store: Store, frame: Frame,
                    earlier: LanguageRecord, stale: list[str]) -> LanguageMade:
    """One language's site made from the one in ``folder``, whose record is
    ``earlier``: every file taken over (as a link to the same file, never written to),
    the ``stale`` units rendered again and each of their pages passed alone through
    MkDocs (:mod:`validator.site.singlepage`), the search index (each rule's row made
    again only when what it read changed) and the previews written again.  Returns what
    the next build reads of it."""
    link_tree(folder, output)
    records = {unit: record for unit, record in earlier.units.items() if unit not in stale}
    if stale:
        pages = SinglePages.prepare(workspace, code, scratch / code)
        for unit, texts, reads in render_units(workspace, report, code, status, stale, Reads()):
            for name, text in texts.items():
                pages.render(name, text, output)
            assert reads is not None
            records[unit] = frame.record(reads)
    assets = scratch / f"assets-{code}"
    assets.mkdir()
    rows: ReadMemo[IndexRow] = ReadMemo(frame, earlier.rows)
    write_index(workspace, code, assets, forms, store, rows)
    write_previews(workspace, code, assets)
    for written in assets.iterdir():
        os.replace(written, output / "assets" / "validator" / written.name)
    return LanguageMade(records, rows.kept)


def link_tree(source: Path, target: Path) -> None:
    """``source``'s files at ``target`` as links to the same files (copies where the
    file system has none); what replaces one later is a new file put in its place."""
    def link(from_path: str, to_path: str) -> None:
        try:
            os.link(from_path, to_path, follow_symlinks=False)
        except OSError:
            shutil.copy2(from_path, to_path, follow_symlinks=False)

    shutil.copytree(source, target, symlinks=True, copy_function=link)
