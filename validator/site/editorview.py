"""The editor view: the machinery behind a page, shown only to a reader who asks.

A player reads the rules, the worked examples' situations and answers; an editor also
wants what the rules core does with them: a rule's identifier, the functions that
apply it, an example's scenario, its given values as the core takes them, the
exact fractions and the ``validator calc`` command that computes it.  These are
written on every page once, marked ``editor-view`` (hidden by ``validator.css``
unless the page's root carries ``validator-editor``), and a button in the header
(``partials/header.html``, ``assets/validator.js``) switches them on and off.  The
choice is kept in the browser for every page and language, and nothing is shown
until a reader asks, so a player's page never prints a command line.
"""

from __future__ import annotations

from babel.messages.catalog import Catalog

from validator.catalogs.po import interface_translations
from validator.site.markdown import inert

STORAGE_KEY = "validator.editor-view"
"""Where the browser keeps the reader's choice (``on``, else the view is off)."""


def editor_switch(catalog: Catalog | None) -> dict[str, str]:
    """What the header's switch needs (``config.extra.editor_view``): its label in the
    site's language, text that the template escapes, made :func:`inert` since it is
    also the button's tooltip."""
    # A toggle button: its name stays the same, its state is read as pressed or not.
    # Translators: The label of the button in the header that shows, on every page, what those who
    # edit the rules need (rule identifiers, the functions of the rules core, the commands that
    # compute the worked examples), and hides it again; also its tooltip.
    return {"label": inert(interface_translations(catalog).gettext("Editor view")), "key": STORAGE_KEY}
