"""Which optional sections a book's site has: those the book gives something to show.

Official answers, the register of discrepancies, the translator's guide and the
translation status are the book's, not the engine's.  A page for a section the book
lacks would be an empty page with an English heading, and a link to it a promise
the site does not keep: the pages, the navigation and the home page all ask here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from validator.content.yamlsource import present
from validator.workspace import Workspace


@dataclass(frozen=True)
class Sections:
    """Whether the site has each optional page."""

    faq: bool
    """Official answers: ``docs/faq.yml`` with at least one entry."""
    register: bool
    """The register of discrepancies: ``docs/discrepancies.yml`` with at least one entry."""
    guide: bool
    """The translator's guide: the source language's ``docs/guide/translators.<lang>.md``,
    which every language without its own falls back to."""
    status: bool
    """The translation status: a language besides the source language, to be translated."""


def guide_path(workspace: Workspace, language_code: str) -> Path:
    """Where the translator's guide of a language is kept."""
    return workspace.root / workspace.project.content_dir / "guide" / f"translators.{language_code}.md"


def sections_of(workspace: Workspace) -> Sections:
    """The optional sections the book of ``workspace`` has."""
    rulebook, project = workspace.rulebook, workspace.project
    return Sections(faq=bool(rulebook.faq.faq), register=bool(rulebook.discrepancies.discrepancies),
                    guide=present(guide_path(workspace, project.source_language)),
                    status=bool(project.translated_languages))
