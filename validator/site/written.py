"""Let MkDocs forget each page once it is written.

MkDocs keeps every page's Markdown source and HTML until the whole language is
built, though a page's template needs only its own (the navigation and the
neighbours' links use titles).  For a large book that is most of the memory of
each process building a language.  :class:`ForgetWrittenPages`, which the
build adds to MkDocs' plugins, empties both as the page is written; the site is
byte for byte the same (``tests/integration/test_prerendered.py`` builds the bundled site with
it and with plain MkDocs).
"""

from __future__ import annotations

from typing import Any

from mkdocs.plugins import BasePlugin
from mkdocs.structure.pages import Page

NAME = "validator-forget-written-pages"


class ForgetWrittenPages(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
    def on_post_page(self, output: str, /, *, page: Page, config: Any) -> str:
        # Empty, not None: MkDocs reads a None content as "not rendered yet" (and would
        # look for the title in the Markdown again).
        page.markdown = ""
        page.content = ""
        return output
