"""Write data into Markdown without letting it become markup.

Text from YAML and catalogues is data.  :func:`escape` turns every character
that HTML or Python-Markdown (with the extensions the site enables) could read as
syntax into a numeric character reference, which both pass through untouched and
a browser shows as the character itself.

Escaping once is not enough for text that reaches a title: Material copies
titles into places that decode them again (``page.title | striptags`` in
``<title>``, tooltips that show a ``title`` attribute or a truncated link's text
as HTML).  Such text goes through :func:`inert` first, which replaces the two
characters that could open a tag with look-alikes that no decoding turns back;
a translator never needs them (``validator lint`` reports them as ``markup``).
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Protocol

from markupsafe import Markup

SPECIAL = frozenset("\\`*_{}[]()<>#+-.!|~^=:&\"'$%")
# Each special character -> its numeric reference.  A regular expression finds the few
# special characters of a text in C; ``str.translate`` with multi-character replacements
# looks every character up in a dictionary, much slower on a sentence with an
# accented letter, and every text of a page is escaped.
_REFERENCES = MappingProxyType({char: f"&#{ord(char)};" for char in SPECIAL})
_SPECIAL_CHAR = re.compile("[" + re.escape("".join(sorted(SPECIAL))) + "]")
_reference = _REFERENCES.__getitem__


def inert(text: str) -> str:
    """``text`` with no character that opens or closes a tag, however often it is
    decoded afterwards: for titles, headings, navigation and tooltips.

    >>> inert("</title><b>") == "\u2039/title\u203a\u2039b\u203a"
    True
    """
    text = str(text)
    if "<" in text or ">" in text:
        return text.replace("<", "\u2039").replace(">", "\u203a")
    return text


def escape(text: str) -> Markup:
    """Escape ``text`` for Markdown and HTML alike.

    >>> str(escape("<b>*x*</b>"))
    '&#60;b&#62;&#42;x&#42;&#60;/b&#62;'
    """
    if isinstance(text, Markup):
        return text
    return Markup(_SPECIAL_CHAR.sub(lambda match: _reference(match.group()), str(text)))


def finalize(value: object) -> object:
    """Jinja ``finalize`` hook: every ``{{ value }}`` is escaped unless already markup.

    Plain values in templates are short words (the site's own words from ``ui.po``,
    titles) that may land in a heading, an admonition title or the navigation, so
    they are made :func:`inert` as well."""
    if value is None:
        return ""
    if isinstance(value, Markup):
        return value
    return escape(inert(str(value)))


def link(label: str | Markup, target: str, title: str | None = None) -> Markup:
    """A Markdown link whose label and title are escaped; ``target`` is ours.

    The title becomes a tooltip that Material renders as HTML, and a label may
    land in the navigation or a table of contents, so both are made :func:`inert`
    whatever the caller passed (a label already rendered as markup is kept)."""
    title_part = f' "{escape(inert(title))}"' if title else ""
    return Markup(f"[{_shown(label)}]({target}{title_part})")


def html_page(markdown_page: str) -> str:
    """The page MkDocs writes for a Markdown page (the site keeps plain .html files).

    >>> html_page("mounts.md")
    'mounts.html'
    """
    return markdown_page.removesuffix(".md") + ".html"


class LinkMaker(Protocol):
    def __call__(self, label: str | Markup, target: str, title: str | None = None) -> Markup: ...


def link_for(html: bool) -> LinkMaker:
    """The link of a block: :func:`html_link` in finished HTML (``html``), else
    :func:`link` in Markdown; the same escaping either way."""
    return html_link if html else link


def _shown(label: str | Markup) -> Markup:
    """A link's label: kept if already markup, else escaped and made inert."""
    return label if isinstance(label, Markup) else escape(inert(label))


def html_link(label: str | Markup, target: str, title: str | None = None) -> Markup:
    """The HTML that :func:`link` becomes, for a block MkDocs will not convert (see
    ``validator.site.prerendered``): the same escaping, and the ``.html`` page MkDocs
    would have made of a ``.md`` target (the site keeps plain ``.html`` files).

    >>> str(html_link("a<b", "glossary.md#x", "t")) == '<a href="glossary.html#x" title="t">a\u2039b</a>'
    True
    """
    page, hash_, fragment = target.partition("#")
    page = html_page(page) if page.endswith(".md") else page
    title_part = f' title="{escape(inert(title))}"' if title else ""
    return Markup(f'<a href="{Markup.escape(page + hash_ + fragment)}"{title_part}>{_shown(label)}</a>')


def external_link(label: str | Markup, address: str) -> Markup:
    """A link to a public address from the YAML, as an HTML element: never pasted into
    Markdown link syntax, where a ``)`` in the address would end the link and what
    follows would become Markdown (another link, an attribute list).  Markdown reads
    link syntax inside an element's attributes too, so the address is written with
    :func:`escape`'s character references, which a browser decodes in an attribute
    value before it reads the address.  The same in finished HTML and in Markdown.

    >>> str(external_link("a", 'https://x.example/?q="1"'))
    '<a href="https&#58;//x&#46;example/?q&#61;&#34;1&#34;">a</a>'
    """
    return Markup(f'<a href="{escape(address)}">{_shown(label)}</a>')
