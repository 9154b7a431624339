"""The light and dark colour schemes, and the header's switch between them.

Material's own palette toggle is a pair of radio inputs kept off screen: a keyboard
reader who tabs to it sees no focus at all.  The site has a plain button of its own
instead (``partials/header.html``, ``assets/validator.js``), shown when the project's
``mkdocs.yml`` sets no palette (one that does keeps Material's switch, or its fixed
scheme).  The dark scheme is Material's ``slate``: its stylesheet is linked on every
page, the choice is kept in the browser (shared by every language's site) and, until
a reader chooses, the system's preference is followed.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from mkdocs.utils import get_theme_dir

from validator.catalogs.po import interface_translations
from validator.site.markdown import inert


def palette_stylesheet() -> str | None:
    """Material's palette stylesheet as a page of the site links it (its name carries
    a hash that changes with Material's version); None if this Material has none,
    and the site then has no switch."""
    found = sorted((Path(get_theme_dir("material")) / "assets" / "stylesheets").glob("palette.*.min.css"))
    return f"assets/stylesheets/{found[0].name}" if len(found) == 1 else None


def scheme_switch(catalog: Catalog | None) -> dict[str, str] | None:
    """What the header's switch needs (``config.extra.scheme``): its label in the
    site's language, text that the template escapes, made :func:`inert` since
    Material shows the button's title as a tooltip, decoded into markup."""
    if palette_stylesheet() is None:
        return None
    # A toggle button: its name stays the same, its state is read as pressed or not.
    # Translators: The label of the button in the header that switches the site to dark colours
    # and back, also shown as its tooltip: the same words whether it is on or off.
    return {"label": inert(interface_translations(catalog).gettext("Dark theme"))}
