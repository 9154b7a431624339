"""The site's own words (the ``ui`` domain): the engine's catalogues, and a book's.

The interface strings come from the engine's templates, so their translations ship
with the engine (``validator/locale``), as Sphinx and Material ship theirs: a book
never has to copy them.  A book may still keep ``<locales>/<lang>/LC_MESSAGES/ui.po``
to change a few of the engine's translations, or to translate the interface into a
language the engine lacks; its translated entries win, entry by entry.
"""

from __future__ import annotations

import copy
from pathlib import Path

from babel.messages.catalog import Catalog, Message

from validator.catalogs.po import UI_DOMAIN, catalog_path
from validator.derived import derived

ENGINE_LOCALES = Path(__file__).resolve().parent.parent / "locale"
"""The engine's interface catalogues: ``ui.pot`` and ``<lang>/LC_MESSAGES/ui.po``."""


def engine_catalog_path(language: str) -> Path:
    return catalog_path(ENGINE_LOCALES, language, UI_DOMAIN)


def engine_languages() -> tuple[str, ...]:
    """The languages the engine's interface is translated into (English is its source)."""
    return tuple(sorted(path.parent.parent.name for path in ENGINE_LOCALES.glob(f"*/LC_MESSAGES/{UI_DOMAIN}.po")))


def is_translated(message: Message) -> bool:
    """Whether an entry would reach a page: translated in every form and not fuzzy
    (what ``msgfmt`` and Babel's ``write_mo`` keep)."""
    if message.fuzzy or not message.string:
        return False
    return all(message.string) if isinstance(message.string, (list, tuple)) else True


def merged_interface(engine: Catalog | None, book: Catalog | None) -> Catalog | None:
    """The engine's catalogue with the book's translated entries in place of its own
    (or added); either alone when the other is missing."""
    if engine is None or book is None:
        return book if engine is None else engine
    # Kept while both readings are in use: the live preview tells an unchanged interface
    # by the catalogue's identity, and the templates are compiled once per catalogue.
    return derived("merged interface", engine, lambda: _merged(engine, book), also=book)


def _merged(engine: Catalog, book: Catalog) -> Catalog:
    merged = copy.deepcopy(engine)
    for message in book:
        if message.id and is_translated(message):
            merged.delete(message.id, message.context)
            merged[message.id] = copy.deepcopy(message)
    return merged


def override_template(template: Catalog, existing: Catalog) -> Catalog:
    """The part of the interface template that a book's catalogue overrides: a book
    that changes a few of the engine's words keeps a file of those few, and an
    override whose English the engine no longer has is kept as obsolete (``#~``).
    An override of words without a msgctxt also covers the entries of the same English
    that gained one (see :mod:`validator.catalogs.merge`): the book's word was shown in
    those places too, and still is."""
    keys = {(str(message.id), message.context) for message in existing if message.id}
    bare = {english for english, context in keys if not context}
    part = Catalog(fuzzy=False, creation_date=template.creation_date)
    for message in template:
        english = str(message.id)
        if message.id and ((english, message.context) in keys or (message.context and english in bare)):
            part[message.id] = copy.deepcopy(message)
    return part
