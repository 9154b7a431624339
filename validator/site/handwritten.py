"""Hand-written pages on the site: the translator's guides, written by volunteers.

The check refuses HTML in them (:mod:`validator.checks.handwritten`), but a page is
published by whoever builds, so the build does not rely on that: MkDocs converts the
page's Markdown as usual (headings, tables, admonitions, links) and
:class:`HandwrittenPages` keeps of the HTML only the elements and attributes such a
page needs, with links only to web, mail and relative addresses.  Whatever else the
volunteer wrote (a tag, an event handler set by an attribute list, a script address)
is shown as text or dropped, never run.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

from mkdocs.plugins import BasePlugin
from mkdocs.structure.pages import Page

ELEMENTS = frozenset({
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "details", "div", "dl", "dt", "em", "h1", "h2", "h3",
    "h4", "h5", "h6", "hr", "i", "kbd", "li", "ol", "p", "pre", "q", "s", "span", "strong", "sub", "summary", "sup",
    "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
})
"""What Markdown, with the extensions the site enables, makes of a page."""
ATTRIBUTES = frozenset({"id", "class", "href", "title", "lang", "colspan", "rowspan", "align", "start", "open"})
ADDRESS_ATTRIBUTES = frozenset({"href"})
SCHEMES = frozenset({"http", "https", "mailto"})
SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
IGNORED_BY_BROWSERS = re.compile(r"[\x00-\x20\x7f]")
"""What a browser drops from an address before it reads the scheme."""


def safe_address(value: str) -> bool:
    """Whether a link to ``value`` stays a link: relative, or to a web or mail address."""
    scheme = SCHEME.match(IGNORED_BY_BROWSERS.sub("", value))
    return scheme is None or scheme.group(1).lower() in SCHEMES


class _Sanitizer(HTMLParser):
    """HTML rewritten with the allowed elements and attributes only; any other tag
    is kept as visible text, so that a reader sees what was written."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self._tag(tag, attrs, "") if tag in ELEMENTS else html.escape(self._raw()))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self._tag(tag, attrs, " /") if tag in ELEMENTS else html.escape(self._raw()))

    def handle_endtag(self, tag: str) -> None:
        self.out.append(f"</{tag}>" if tag in ELEMENTS else html.escape(f"</{tag}>"))

    def handle_data(self, data: str) -> None:
        self.out.append(html.escape(data, quote=False))

    def handle_comment(self, data: str) -> None:
        self.out.append(html.escape(f"<!--{data}-->"))

    def handle_decl(self, decl: str) -> None:
        self.out.append(html.escape(f"<!{decl}>"))

    def handle_pi(self, data: str) -> None:
        self.out.append(html.escape(f"<?{data}>"))

    def unknown_decl(self, data: str) -> None:
        self.out.append(html.escape(f"<![{data}]>"))

    def _raw(self) -> str:
        return self.get_starttag_text() or ""

    @staticmethod
    def _tag(tag: str, attrs: list[tuple[str, str | None]], end: str) -> str:
        kept = "".join(f' {name}="{html.escape(value or "")}"' for name, value in attrs
                       if name in ATTRIBUTES and (name not in ADDRESS_ATTRIBUTES or safe_address(value or "")))
        return f"<{tag}{kept}{end}>"


def sanitized(page_html: str) -> str:
    """``page_html`` with only the elements, attributes and addresses a hand-written page needs.

    >>> sanitized('<p onclick="x()">a<script>b()</script> <a href=" javascript:c()">d</a></p>')
    '<p>a&lt;script&gt;b()&lt;/script&gt; <a>d</a></p>'
    """
    parser = _Sanitizer()
    parser.feed(page_html)
    parser.close()
    return "".join(parser.out)


def without_front_matter(markdown: str) -> str:
    """A page's Markdown with a blank line before it, so that MkDocs reads no front
    matter from it: the meta data of a page (its title) reaches places of the theme
    that print it as HTML, and a volunteer's page sets none."""
    return "\n" + markdown


NAME = "validator-handwritten-pages"


class HandwrittenPages(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
    """Sanitize the HTML of the pages named in ``pages`` (their paths in the docs folder)."""

    def __init__(self, pages: frozenset[str]) -> None:
        super().__init__()
        self.pages = pages

    def on_page_content(self, html: str, /, *, page: Page, config: Any, files: Any) -> str:
        return sanitized(html) if page.file.src_uri in self.pages else html
