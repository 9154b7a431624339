"""The lint's sentences, kept with what they were made from so that the output can
give them in the translator's language.

A check says ``said("the tokens differ from the English text (%(difference)s)",
difference=...)``: the result is the English sentence, a string like any other (it is
sorted, compared and kept between runs as one), that also holds its template and
values.  :func:`in_language` gives it through a language's catalogue of the engine
(``validator/locale/<lang>/LC_MESSAGES/lint.po``, whose template ``i18n update
--engine`` extracts from the calls of :func:`said`)."""

from __future__ import annotations

import gettext
import locale
import os
from collections.abc import Mapping
from typing import Any

from validator.catalogs.interface import ENGINE_LOCALES
from validator.catalogs.po import catalog_path, interface_translations, read_catalog

LINT_DOMAIN = "lint"


class Said(str):
    """An English sentence, with its template and values."""

    template: str
    values: Mapping[str, object]

    def __new__(cls, template: str, values: Mapping[str, object]) -> Said:
        made = super().__new__(cls, template % {name: str(value) for name, value in values.items()})
        made.template = template
        made.values = dict(values)
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (Said, (self.template, self.values))


def said(template: str, **values: object) -> Said:
    """The sentence ``template`` with its ``%(name)s`` placeholders filled by ``values``
    (a value that is itself said is given in the same language)."""
    return Said(template, values)


def in_language(text: str, translations: gettext.NullTranslations) -> str:
    """``text`` in the language of ``translations`` where it was said and is translated."""
    if not isinstance(text, Said):
        return str(text)
    values = {name: in_language(value, translations) if isinstance(value, str) else value
              for name, value in text.values.items()}
    return translations.gettext(text.template) % values


def lint_languages() -> tuple[str, ...]:
    """The languages the engine gives the lint's sentences in (English is their source)."""
    return tuple(sorted(path.parent.parent.name for path in ENGINE_LOCALES.glob(f"*/LC_MESSAGES/{LINT_DOMAIN}.po")))


def lint_translations(language: str | None) -> gettext.NullTranslations:
    """The lint's sentences in ``language``, or in the language of the environment
    (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) when none is given; English
    where the engine lacks the language."""
    known = lint_languages()
    wanted = [language] if language else _environment_languages()
    chosen = next((code for code in wanted if code in known), None)
    if chosen is None:
        return gettext.NullTranslations()
    path = catalog_path(ENGINE_LOCALES, chosen, LINT_DOMAIN)
    return interface_translations(read_catalog(path, str(path)))


def _environment_languages() -> list[str]:
    """The languages the environment asks for, most wanted first, as gettext reads them."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value:
            return [locale.normalize(part).split(".")[0].split("_")[0] for part in value.split(":") if part]
    return []
