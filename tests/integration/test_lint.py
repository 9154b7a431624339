"""The translation lint: the bundled catalogues are clean, and each check fires on
a message broken on purpose, and only there."""

from __future__ import annotations

import json
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from conftest import ROOT, ProjectCopy, set_translation

from validator.checks.lint import LintContext, Severity, lint_catalog
from validator.checks.lintparts import lint_workspace
from validator.content.loader import load_rulebook
from validator.content.project import load_project
from validator.store import Store
from validator.workspace import load_workspace

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book


RULEBOOK = load_rulebook(ROOT, load_project(ROOT))


def lint_one(english: str, translation: str | tuple[str, ...], language: str = "es", *,
             comments: tuple[str, ...] = (), fuzzy: bool = False, glossary: dict[str, str] | None = None,
             plural: str | None = None) -> list[tuple[str, Severity]]:
    catalog = Catalog(locale=language, last_translator="Team <team@example.org>", language_team="Team")
    message_id: Any = (english, plural) if plural else english
    message = catalog.add(message_id, translation, context="monstrous-mounts/movement#text",
                          user_comments=list(comments), flags=["fuzzy"] if fuzzy else [])
    message.lineno = 7
    context = LintContext.of(RULEBOOK, language, glossary or {}, {})
    return [(finding.check, finding.severity) for finding in lint_catalog(catalog, "x.po", context)]


def test_bundled_catalogues_have_no_lint_errors() -> None:
    findings = lint_workspace(load_workspace(ROOT))
    assert [str(f) for f in findings if f.severity is Severity.ERROR] == []


def test_a_clean_message_has_no_findings() -> None:
    assert lint_one("Roll a {dice:D6}: on a {roll:6} he is hit.", "Tira un {dice:D6}: con un {roll:6} recibe.") == []


@pytest.mark.parametrize(("english", "translation", "check", "severity"), [
    ("Roll a {dice:D6}.", "Tira un dado.", "tokens", Severity.ERROR),
    ("See {rule:monstrous-mounts/movement}.", "Ver {rule:monstrous-mounts/cavalry}.", "tokens", Severity.ERROR),
    ("He takes 2 hits.", "Recibe 3 impactos.", "numbers", Severity.ERROR),
    ("Roll 2D6.", "Tira 3D6.", "numbers", Severity.ERROR),
    ("One.\n\nTwo.", "Uno. Dos.", "paragraphs", Severity.ERROR),
    ("Hit.", "   ", "blank", Severity.ERROR),
    ("Skirmishers move freely.", "Los escaramuzadores mueven libremente.", "terminology", Severity.ERROR),
    ("It moves at once.", "Se mueve mueve.", "doubled-words", Severity.WARNING),
    ("It moves at once.", "It moves at once.", "unchanged", Severity.WARNING),
    ("It moves.", "¿Se mueve?", "punctuation", Severity.WARNING),
    ("Shout it, then roll.", "¡Grítalo!. Luego tira.", "stop-after-mark", Severity.WARNING),
    ("Shout it, then roll.", "¡Grítalo!». Luego tira.", "stop-after-mark", Severity.WARNING),
])
def test_each_check_fires_on_a_broken_message(english: str, translation: str, check: str,
                                              severity: Severity) -> None:
    assert (check, severity) in lint_one(english, translation)


def test_an_ellipsis_or_a_token_after_a_mark_is_no_stray_stop() -> None:
    assert lint_one("Wait... then roll.", "¿Y ahora?... Luego tira.") == []
    assert lint_one("See {rule:shooting-at-characters/look-out-sir}.",
                    "Ver {rule:shooting-at-characters/look-out-sir}.") == []


def test_decimal_comma_is_the_same_number() -> None:
    assert lint_one("It is 1.5 wide.", "Mide 1,5 de ancho.") == []


def test_token_in_between_is_not_a_doubled_word() -> None:
    assert lint_one("A {term:charge} is declared.", "Una {term:charge|carga} una vez declarada.") == []


def test_glossary_term_must_use_its_approved_translation() -> None:
    glossary = {"chariot": "rydwan"}
    assert ("glossary", Severity.WARNING) in lint_one("The chariot moves.", "Wóz się rusza.", "pl",
                                                      glossary=glossary)
    # The loose word is unlinked (another check); the glossary check is content with the form.
    assert lint_one("The chariot moves.", "Rydwanem się jedzie.", "pl", glossary=glossary) == [
        ("unlinked-term", Severity.WARNING)]


def test_kept_term_must_stay_unchanged(project: ProjectCopy) -> None:
    project.replace("docs/glossary.yml", "    term: Look out, Sir!\n", "    term: Look out, Sir!\n    keep: true\n")
    rulebook = load_rulebook(project.root, load_project(project.root))
    catalog = Catalog(locale="es", last_translator="T", language_team="T")
    catalog.add("Roll for Look out, Sir!", "Tira por ¡Cuidado, Señor!", context="x#text")
    findings = lint_catalog(catalog, "x.po", LintContext.of(rulebook, "es", {}, {}))
    assert [f.check for f in findings] == ["keep"]


def test_untranslated_and_fuzzy_are_warnings() -> None:
    assert lint_one("It moves.", "") == [("untranslated", Severity.WARNING)]
    assert ("fuzzy", Severity.WARNING) in lint_one("It moves.", "Se mueve.", fuzzy=True)


def test_silence_needs_a_reason() -> None:
    assert lint_one("It moves.", "¿Se mueve?", comments=("lint-ignore: punctuation: a question reads better",)) == []
    assert lint_one("It moves.", "¿Se mueve?", comments=("lint-ignore: punctuation",)) == [
        ("lint-ignore", Severity.ERROR), ("punctuation", Severity.WARNING)]


def test_plural_forms_follow_the_language() -> None:
    assert lint_one("one hit", ("un impacto", "impactos"), plural="{n} hits") == [("plural-forms", Severity.ERROR)]
    assert lint_one("one hit", ("un impacto", "impactos", "de impactos"), plural="{n} hits") == []


def test_header_checks() -> None:
    catalog = Catalog(locale="pl")
    catalog.add("Hit.", "Trafienie.", context="x#text")
    findings = lint_catalog(catalog, "x.po", LintContext.of(RULEBOOK, "es", {}, {}))
    checks = {(f.check, f.severity) for f in findings}
    assert ("header", Severity.ERROR) in checks  # Language says pl in the es folder
    assert ("plural-forms", Severity.ERROR) in checks  # Polish plural forms for Spanish
    assert ("header", Severity.WARNING) in checks  # placeholder Last-Translator


@pytest.mark.parametrize(("language", "header", "accepted"), [
    ("es", "nplurals=2; plural=(n != 1);", True),  # the usual Spanish header: CLDR's forms as far as pages count
    ("es", "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);", True),
    ("pl", "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);", True),
    ("es", "nplurals=2; plural=(n > 1);", False),  # French: one for 0 and 1
    ("pl", "nplurals=2; plural=(n != 1);", False),  # Polish has a form for 2 to 4
])
def test_a_plural_header_equivalent_to_cldrs_is_accepted(language: str, header: str, accepted: bool) -> None:
    catalog = Catalog(locale=language, last_translator="Team <team@example.org>", language_team="Team")
    catalog._set_mime_headers([("Plural-Forms", header)])
    catalog.add("Hit.", "Trafienie." if language == "pl" else "Impacto.", context="x#text")
    findings = lint_catalog(catalog, "x.po", LintContext.of(RULEBOOK, language, {}, {}))
    assert ("plural-forms" in {f.check for f in findings}) is not accepted, findings


def test_lint_command_reports_file_line_msgctxt_and_fails_on_errors(project: ProjectCopy) -> None:
    catalog = "locales/pl/LC_MESSAGES/rules.po"
    text = project.read(catalog)
    start = text.index('msgctxt "monstrous-mounts/extra-wounds#example.cannon-on-hero"')
    msgstr = text.index("msgstr", start)
    end = text.index("\n\n", msgstr)
    project.write(catalog, text[:msgstr] + 'msgstr "Bohater z 3 Ranami ginie."' + text[end:])
    line = text.count("\n", 0, text.index("msgid", start)) + 1
    run = project.command("lint")
    assert run.code == 1
    assert (f"{catalog}:{line}: [monstrous-mounts/extra-wounds#example.cannon-on-hero] numbers (error): "
            "numbers or dice differ") in run.out
    listing = json.loads(project.command("lint", "--format", "json").out)
    assert {"file", "line", "msgctxt", "check", "severity", "message", "fix"} <= listing[0].keys()
    check = project.command("check")
    assert check.code == 1 and "numbers:" in check.err


def test_the_lint_in_parallel_finds_what_it_finds_in_one_process(project: ProjectCopy,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The check lints the English text and each language in processes of their own."""
    catalog = "locales/es/LC_MESSAGES/rules.po"
    text = project.read(catalog)
    start = text.index('msgctxt "monstrous-mounts/extra-wounds#example.cannon-on-hero"')
    msgstr = text.index("msgstr", start)
    project.write(catalog, text[:msgstr] + 'msgstr "Un héroe con 3 heridas muere."' + text[text.index("\n\n", msgstr):])
    workspace = load_workspace(project.root)
    serial = lint_workspace(workspace)
    assert ("numbers", Severity.ERROR) in {(finding.check, finding.severity) for finding in serial}
    assert lint_workspace(workspace, parallel=True, store=Store(workers=2)) == serial


def test_the_lint_speaks_the_translators_language(project: ProjectCopy) -> None:
    """--language chooses, else the environment's locale; English where the engine lacks the language."""
    import os
    import subprocess
    import sys

    set_translation(project, "locales/pl/LC_MESSAGES/rules.po", "chariots/destruction#text", "   ")

    def lint(*arguments: str, language: str = "C.UTF-8") -> str:
        environment = {**os.environ, "LANG": language, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
        done = subprocess.run([sys.executable, "-m", "validator", "lint", *arguments], cwd=project.root,
                              capture_output=True, text=True, env=environment, timeout=300)
        return next(line for line in done.stdout.splitlines() if "[chariots/destruction#text] blank" in line)

    assert lint("--language", "pl").endswith("blank (error): tłumaczenie składa się z samych spacji. "
                                             "Fix: przetłumacz tekst albo zostaw msgstr puste")
    assert "la traducción solo contiene espacios" in lint(language="es_ES.UTF-8")
    assert "the translation is only spaces. Fix: translate the text" in lint(language="de_DE.UTF-8")


def test_the_engines_lint_sentences_are_translated_with_their_placeholders() -> None:
    from babel.messages.pofile import read_po

    from validator.catalogs.interface import ENGINE_LOCALES
    from validator.catalogs.po import catalog_path
    from validator.catalogs.update import lint_template
    from validator.checks.lint import _placeholders
    from validator.checks.said import LINT_DOMAIN, lint_languages

    template = {str(message.id) for message in lint_template() if message.id}
    assert lint_languages() == ("es", "pl") and len(template) > 40
    for language in lint_languages():
        with catalog_path(ENGINE_LOCALES, language, LINT_DOMAIN).open("rb") as handle:
            catalog = read_po(handle)
        entries = [message for message in catalog if message.id]
        assert {str(message.id) for message in entries} == template
        for message in entries:
            assert message.string and not message.fuzzy, message.id
            assert _placeholders(str(message.string)) == _placeholders(str(message.id)), message.id
