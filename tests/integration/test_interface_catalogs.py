"""The site's own words ship with the engine: a book without ui.po gets them in every
language the engine has, a book's ui.po overrides them entry by entry or adds a language,
and the lint checks the engine's catalogues as well as the book's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import ProjectCopy, copy_engine_interface

from validator.catalogs import interface
from validator.catalogs.interface import engine_catalog_path
from validator.checks.lintparts import lint_workspace
from validator.cli import main
from validator.site.pages import navigation
from validator.workspace import load_workspace

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book


def _engine_translation(language: str, msgid: str) -> str:
    with engine_catalog_path(language).open("rb") as handle:
        catalog = read_po(handle)
    translation = catalog[msgid].string
    assert isinstance(translation, str) and translation and translation != msgid
    return translation


def _titles(project: ProjectCopy, language: str) -> list[str]:
    titles = []
    for title, page in navigation(load_workspace(project.root), language):
        titles.append(title)
        if isinstance(page, list):  # a section
            titles.extend(inner for inner, _page in page)
    return titles


def _book_catalog(language: str, entries: str) -> str:
    """A book's ui.po of a few entries, with the header the lint asks for."""
    from babel.messages.catalog import Catalog

    plural_forms = Catalog(locale=language).plural_forms
    return (f'msgid ""\nmsgstr ""\n"Last-Translator: The book\'s translators\\n"\n"Language-Team: {language}\\n"\n'
            f'"Language: {language}\\n"\n"Plural-Forms: {plural_forms}\\n"\n'
            f'"Content-Type: text/plain; charset=utf-8\\n"\n\n{entries}')


def test_a_book_without_ui_po_builds_its_spanish_site_with_the_engines_words(project: ProjectCopy) -> None:
    assert not list(project.root.glob("locales/*/LC_MESSAGES/ui.po"))
    done = project.command("build", "--language", "es", "--site-dir", "out")
    assert done.code == 0, done.err
    page = (project.root / "out" / "es" / "chariots.html").read_text(encoding="utf-8")
    assert _engine_translation("es", "Worked example") in page
    assert ">Worked example<" not in page


def test_a_books_ui_po_overrides_one_string_and_keeps_the_engines_others(project: ProjectCopy) -> None:
    project.write("locales/pl/LC_MESSAGES/ui.po", _book_catalog("pl", 'msgid "Glossary"\nmsgstr "Glosariusz"\n\n'
                                                                      'msgid "Sources"\nmsgstr ""\n'))
    titles = _titles(project, "pl")
    assert "Glosariusz" in titles
    assert _engine_translation("pl", "Glossary") not in titles
    assert _engine_translation("pl", "Sources") in titles  # an untranslated override leaves the engine's word
    assert _engine_translation("es", "Glossary") in _titles(project, "es")


def test_a_book_adds_a_language_the_engine_lacks(project: ProjectCopy, capsys: pytest.CaptureFixture[str]) -> None:
    assert "de" not in interface.engine_languages()
    project.replace("rulebook.yml", "  - {code: pl, name: Polski, length_unit: inch}\n",
                    "  - {code: pl, name: Polski, length_unit: inch}\n  - {code: de, name: Deutsch, "
                    "length_unit: inch}\n")
    assert main(["--project", str(project.root), "i18n", "update"]) == 0
    capsys.readouterr()
    german = "locales/de/LC_MESSAGES/ui.po"
    assert project.path(german).exists()
    assert not project.path("locales/es/LC_MESSAGES/ui.po").exists()  # the engine has Spanish
    assert not project.path("locales/ui.pot").exists()
    project.replace(german, 'msgid "Glossary"\nmsgstr ""', 'msgid "Glossary"\nmsgstr "Glossar"')
    assert "Glossar" in _titles(project, "de")
    assert "Glossary" not in _titles(project, "de")


def test_update_keeps_a_books_overrides_to_themselves(project: ProjectCopy,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    book = "locales/es/LC_MESSAGES/ui.po"
    project.write(book, _book_catalog("es", 'msgid "Glossary"\nmsgstr "Vocabulario"\n\n'
                                            'msgid "A word the engine no longer has"\nmsgstr "Una palabra"\n'))
    assert main(["--project", str(project.root), "i18n", "update"]) == 0
    capsys.readouterr()
    with project.path(book).open("rb") as handle:
        catalog = read_po(handle)
    assert [(message.id, message.string) for message in catalog if message.id] == [("Glossary", "Vocabulario")]
    assert list(catalog.obsolete) == ["A word the engine no longer has"]


def test_the_lint_checks_the_engines_catalogue_and_the_books(project: ProjectCopy,
                                                            tmp_path_factory: pytest.TempPathFactory,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    engine = tmp_path_factory.mktemp("engine") / "locale"
    shutil.copytree(interface.ENGINE_LOCALES, engine)
    monkeypatch.setattr(interface, "ENGINE_LOCALES", engine)
    engine_file = engine_catalog_path("es")
    engine_file.write_text(engine_file.read_text(encoding="utf-8").replace(
        'msgid "Glossary"\nmsgstr "', 'msgid "Glossary"\nmsgstr "<script>x()</script>', 1), encoding="utf-8")
    book = copy_engine_interface(project.root, "pl")
    project.write(book, project.read(book).replace('msgid "Sources"\nmsgstr "', 'msgid "Sources"\nmsgstr "<b>', 1))
    findings = lint_workspace(load_workspace(project.root))
    assert any(finding.file == str(engine_file) and finding.check == "markup" for finding in findings), findings
    assert any(finding.file == book and finding.check == "markup" for finding in findings), findings


def test_the_engines_catalogues_are_complete_and_up_to_date(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """What `validator i18n update --engine` would change in a checkout of the engine: nothing."""
    engine = tmp_path / "engine-locale"
    shutil.copytree(interface.ENGINE_LOCALES, engine)
    before = {path: path.read_bytes() for path in sorted(engine.rglob("*.po*"))}
    monkeypatch.setattr(interface, "ENGINE_LOCALES", engine)
    monkeypatch.setattr("validator.catalogs.update.ENGINE_LOCALES", engine)
    assert main(["i18n", "update", "--engine"]) == 0
    output = capsys.readouterr().out
    assert {path: path.read_bytes() for path in sorted(engine.rglob("*.po*"))} == before
    assert output.count(" 0 fuzzy, 0 untranslated,") == 2 * len(interface.engine_languages()) >= 4


def test_a_broken_placeholder_is_one_line_from_lint_and_check_never_an_internal_error(project: ProjectCopy) -> None:
    """``%(page)s`` translated as ``%(eje)s`` would stop the page from rendering: the lint
    and the check name the file, the line and the entry, and the build refuses with them."""
    entry = 'msgid "page %(page)s"\nmsgstr "página %(eje)s"\n'
    project.write("locales/es/LC_MESSAGES/ui.po", _book_catalog("es", f"#, python-format\n{entry}"))
    line = project.read("locales/es/LC_MESSAGES/ui.po").splitlines().index('msgid "page %(page)s"') + 1
    where = f"locales/es/LC_MESSAGES/ui.po:{line}:"
    lint = project.command("lint", "--language", "es")
    assert lint.code == 1
    assert [row for row in lint.out.splitlines() if "(error)" in row] == [
        row for row in lint.out.splitlines() if row.startswith(where) and "'page %(page)s'" in row
        and "%(eje)s" in row and "Fix:" in row]
    for command in (("check",), ("build", "--language", "es", "--site-dir", "out")):
        done = project.command(*command)
        assert done.code == 1 and "internal error" not in done.err and "Traceback" not in done.err
        assert any(row.startswith(where) and "placeholders" in row for row in done.err.splitlines()), done.err
    # Marked fuzzy, it is never shown: nothing to refuse.
    project.write("locales/es/LC_MESSAGES/ui.po", _book_catalog("es", f"#, python-format, fuzzy\n{entry}"))
    assert project.command("lint", "--language", "es").code == 0
