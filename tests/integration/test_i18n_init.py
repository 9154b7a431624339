"""`validator i18n init LANG` starts a new language's catalogues with a real header,
and refuses, in one line, what it cannot start."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from babel.messages.catalog import Catalog
from conftest import ProjectCopy

from validator.catalogs.po import read_catalog

PLACEHOLDERS = ("FULL NAME", "EMAIL@ADDRESS", "PROJECT", "VERSION", "ORGANIZATION", "FIRST AUTHOR", "LL@li.org")


def _declare(project: ProjectCopy, code: str, name: str) -> None:
    project.replace("rulebook.yml", "  - {code: pl, name: Polski, length_unit: inch}\n",
                    f"  - {{code: pl, name: Polski, length_unit: inch}}\n  - {{code: {code}, name: {name}}}\n")


@pytest.mark.parametrize(("code", "why"), [
    ("xx", "Babel knows no language 'xx'"),
    ("es", "'es' is already started (locales/es/LC_MESSAGES/rules.po exists)"),
    ("en", "'en' is the source language"),
    ("de", "'de' is not a language of rulebook.yml. Fix: add - {code: de, name: Deutsch} under languages:"),
])
def test_what_cannot_be_started_is_refused_in_one_line(project: ProjectCopy, code: str, why: str) -> None:
    before = sorted(path.relative_to(project.root) for path in project.root.rglob("*.po"))
    done = project.command("i18n", "init", code)
    assert done.code == 2 and done.err.count("\n") == 1 and why in done.err and "Fix: " in done.err, done.err
    assert sorted(path.relative_to(project.root) for path in project.root.rglob("*.po")) == before


def test_a_new_language_starts_with_its_three_catalogues_and_a_real_header(project: ProjectCopy) -> None:
    _declare(project, "de", "Deutsch")
    done = project.command("i18n", "init", "de")
    assert done.code == 0, done.err
    plural_forms = Catalog(locale="de").plural_forms
    for domain in ("rules", "labels", "ui"):  # the engine has no German interface: the book's ui.po holds it
        shown = f"locales/de/LC_MESSAGES/{domain}.po"
        text = project.read(shown)
        header = text[:text.index("\n\n")]
        assert not [word for word in PLACEHOLDERS if word in header], header
        assert "#, fuzzy" not in header
        catalog = read_catalog(project.path(shown), shown)
        assert str(catalog.locale) == "de" and catalog.plural_forms == plural_forms
        assert catalog.language_team == "German" and catalog.last_translator
        assert len([message for message in catalog if message.id]) > 50
        if shutil.which("msgfmt"):
            checked = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(project.path(shown))],
                                     capture_output=True, text=True)
            assert checked.returncode == 0, checked.stderr
    lint = project.command("lint", "--language", "de")
    assert lint.code == 0, lint.out
    assert "header" not in lint.out and "plural-forms" not in lint.out and "untranslated (warning)" in lint.out
    again = project.command("i18n", "init", "de")
    assert again.code == 2 and "already started" in again.err


def test_a_language_the_engine_has_gets_no_interface_catalogue(project: ProjectCopy) -> None:
    """Its words come with the engine; the book starts only what it must translate."""
    shutil.rmtree(project.path("locales/pl"))
    done = project.command("i18n", "init", "pl")
    assert done.code == 0, done.err
    assert sorted(path.name for path in project.path("locales/pl/LC_MESSAGES").iterdir()) == ["labels.po", "rules.po"]
