"""Write data into Markdown without letting it become markup.

Text from YAML and catalogues is data.  :func:`escape` turns every character
that HTML or Python-Markdown (with the extensions the site enables) could read as
syntax into a numeric character reference, which both pass through untouched and
a browser shows as the character itself.
"""

from __future__ import annotations

from markupsafe import Markup

SPECIAL = set("\\`*_{}[]()<>#+-.!|~^=:&\"'$%")


def escape(text: str) -> Markup:
    """Escape ``text`` for Markdown and HTML alike.

    >>> str(escape("<b>*x*</b>"))
    '&#60;b&#62;&#42;x&#42;&#60;/b&#62;'
    """
    if isinstance(text, Markup):
        return text
    return Markup("".join(f"&#{ord(char)};" if char in SPECIAL else char for char in str(text)))


def finalize(value: object) -> object:
    """Jinja ``finalize`` hook: every ``{{ value }}`` is escaped unless already markup."""
    if value is None:
        return ""
    if isinstance(value, Markup):
        return value
    return escape(str(value))


def link(label: str | Markup, target: str, title: str | None = None) -> Markup:
    """A Markdown link whose label and title are escaped; ``target`` is ours."""
    title_part = f' "{escape(title)}"' if title else ""
    return Markup(f"[{escape(label)}]({target}{title_part})")
