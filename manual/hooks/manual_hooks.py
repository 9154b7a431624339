"""MkDocs hooks of the manual: the reference pages are written at build time, from the code.

A page written by hand would drift from the models and the API it describes; written
here, each build describes the code it runs with.
"""

from __future__ import annotations

from typing import Any

from manual_reference import generated_pages, minimal_core
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

MINIMAL_CORE_MARK = "<!-- minimal-core -->"
"""Where a hand-written page shows the complete minimal core of ``validator.api``."""


def on_files(files: Files, config: MkDocsConfig, **_: Any) -> Files:
    """Add the generated reference pages beside the hand-written ones."""
    for path, content in generated_pages().items():
        files.append(File.generated(config, path, content=content))
    return files


def on_page_markdown(markdown: str, page: Page, **_: Any) -> str:
    """Put the minimal core, as the API's docstring gives it, where a page asks for it."""
    return markdown.replace(MINIMAL_CORE_MARK, minimal_core())
