"""The stage of an incremental build that makes one language's site from its earlier
one (see :mod:`validator.site.incremental` for what is rendered again, and why)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from validator.catalogs.status import GroupStatus
from validator.checks.run import CheckReport
from validator.site.incremental import Frame, UnitRecord
from validator.site.pages import render_units
from validator.site.previews import write_previews
from validator.site.reads import Reads
from validator.site.search import TermForms, write_index
from validator.site.singlepage import SinglePages
from validator.store import Store
from validator.workspace import Workspace


def update_language(workspace: Workspace, report: CheckReport, status: dict[str, list[GroupStatus]], code: str,
                    earlier: Path, scratch: Path, output: Path, forms: TermForms, store: Store, frame: Frame,
                    kept: Mapping[str, UnitRecord], stale: list[str]) -> dict[str, UnitRecord]:
    """One language's site made from its ``earlier`` one: every file taken over (as a
    link to the same file, never written to), the ``stale`` units rendered again and
    each of their pages passed alone through MkDocs (:mod:`validator.site.singlepage`),
    the search index and the previews written again.  Returns the units' records:
    those ``kept``, and the new ones."""
    link_tree(earlier, output)
    records = {unit: record for unit, record in kept.items() if unit not in stale}
    if stale:
        pages = SinglePages.prepare(workspace, code, scratch / code)
        for unit, texts, reads in render_units(workspace, report, code, status, stale, Reads()):
            for name, text in texts.items():
                pages.render(name, text, output)
            assert reads is not None
            records[unit] = frame.record(reads)
    assets = scratch / f"assets-{code}"
    assets.mkdir()
    write_index(workspace, code, assets, forms, store)
    write_previews(workspace, code, assets)
    for written in assets.iterdir():
        os.replace(written, output / "assets" / "validator" / written.name)
    return records


def link_tree(source: Path, target: Path) -> None:
    """``source``'s files at ``target`` as links to the same files (copies where the
    file system has none); what replaces one later is a new file put in its place."""
    def link(from_path: str, to_path: str) -> None:
        try:
            os.link(from_path, to_path, follow_symlinks=False)
        except OSError:
            shutil.copy2(from_path, to_path, follow_symlinks=False)

    shutil.copytree(source, target, symlinks=True, copy_function=link)
