"""`validator i18n init LANG`: start the catalogues of a new language.

As ``msginit`` or ``sphinx-intl update -l`` do, but for the book's three domains at
once and with the book's own header (see :mod:`validator.catalogs.headers`): the
language's rule texts and labels, and its interface when the engine lacks it.  An
init is refused, in one line, for a code Babel does not know (its plural rule would
be a guess), for a language not declared in ``rulebook.yml`` (the site would not
build it), and for one already started (an update keeps it in step; an init must
never overwrite a translation)."""

from __future__ import annotations

from pathlib import Path

from validator.api.labels import LABELS_DOMAIN
from validator.catalogs.headers import known_locale
from validator.catalogs.po import RULES_DOMAIN, UI_DOMAIN, catalog_path
from validator.content.project import Project


def init_refusal(root: Path, project: Project, code: str) -> tuple[str, str] | None:
    """Why ``code`` cannot be started, with the fix, or None when it can."""
    locale = known_locale(code)
    if locale is None:
        return (f"Babel knows no language '{code}', so its plural rule is unknown",
                "give a language code from CLDR, such as de, pt or pt_BR")
    if code == project.source_language:
        return (f"'{code}' is the source language: its texts are the English of the YAML files",
                "give the code of a language to translate into")
    if code not in {language.code for language in project.translated_languages}:
        name = str(locale.get_display_name(locale) or code)
        return (f"'{code}' is not a language of rulebook.yml",
                f"add - {{code: {code}, name: {name[:1].upper() + name[1:]}}} under languages: in rulebook.yml, "
                "then run this again")
    locales = root / project.locales_dir
    for domain in (RULES_DOMAIN, LABELS_DOMAIN, UI_DOMAIN):
        path = catalog_path(locales, code, domain)
        if path.exists() or path.is_symlink():
            return (f"'{code}' is already started ({path.relative_to(root).as_posix()} exists)",
                    "run validator i18n update to bring its catalogues up to date")
    return None
