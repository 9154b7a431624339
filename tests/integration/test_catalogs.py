"""Catalogues: the template is in sync with the YAML, both languages are complete,
the files pass GNU msgfmt, and a translation that drops a token is caught."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import ROOT, ProjectCopy

from validator.catalogs.interface import ENGINE_LOCALES
from validator.checks.run import check_workspace
from validator.content.loader import load_rulebook
from validator.content.project import load_project
from validator.workspace import load_workspace

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book


LANGUAGES = ("es", "pl")


def _folder(domain: str) -> Path:
    """Where a domain's catalogues are: the interface's ship with the engine, the rest with the book."""
    return ENGINE_LOCALES if domain == "ui" else ROOT / "locales"


def _messages(path: Path) -> dict[str, str]:
    with path.open("rb") as handle:
        return {str(message.context): str(message.id) for message in read_po(handle) if message.id}


def _comments(path: Path) -> dict[str, list[str]]:
    with path.open("rb") as handle:
        return {str(message.context): message.auto_comments for message in read_po(handle) if message.id}


def test_pybabel_extract_reproduces_the_committed_template(tmp_path: Path) -> None:
    """The extractor is registered for pybabel, and rules.pot is current."""
    output = tmp_path / "rules.pot"
    pybabel = [sys.executable, "-m", "babel.messages.frontend"]
    done = subprocess.run([*pybabel, "extract", "-F", "babel.cfg", "-o", str(output), "."], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert _messages(output) == _messages(ROOT / "locales" / "rules.pot"), \
        "locales/rules.pot is out of date: run validator i18n update (manual: translators/catalogues.md)"
    # The same comments for the translator (the rule and chapter, the tokens' rule) both ways.
    assert _comments(output) == _comments(ROOT / "locales" / "rules.pot")


def test_template_has_one_message_per_text_field() -> None:
    rulebook = load_rulebook(ROOT, load_project(ROOT))
    expected = {message.context: message.text for message in rulebook.messages()}
    assert _messages(ROOT / "locales" / "rules.pot") == expected
    assert "monstrous-mounts/shooting-hit-allocation#text" in expected
    assert "monstrous-mounts/shooting-hit-allocation#example.four-hits" in expected


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", ["rules", "ui", "labels"])
def test_catalogue_is_complete_and_current(language: str, domain: str) -> None:
    with (_folder(domain) / f"{domain}.pot").open("rb") as handle:
        template = {(m.context, m.id) for m in read_po(handle) if m.id}
    with (_folder(domain) / language / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
        catalog = read_po(handle)
    entries = {(m.context, m.id): m for m in catalog if m.id}
    assert template <= entries.keys(), f"missing: {template - entries.keys()}"
    for key in template:
        assert entries[key].string and not entries[key].fuzzy, key
    assert catalog.locale is not None and str(catalog.locale) == language


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", ["rules", "ui", "labels"])
def test_msgfmt_accepts_the_catalogue(language: str, domain: str) -> None:
    path = _folder(domain) / language / "LC_MESSAGES" / f"{domain}.po"
    done = subprocess.run(["msgfmt", "--check-format", "--check-header", "-o", "/dev/null", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr, done.stderr


def test_a_dropped_token_in_a_translation_fails_the_check(project: ProjectCopy) -> None:
    catalog = "locales/es/LC_MESSAGES/rules.po"
    text = project.read(catalog)
    start = text.index('msgctxt "monstrous-mounts/extra-wounds#text"')
    token = "{rule:monstrous-mounts/death-of-the-rider}"
    # The catalogue may wrap a long token over two lines ("...{rule" / ":monstrous...").
    wrapped = re.compile('(?:"\n")?'.join(re.escape(character) for character in token))
    found = wrapped.search(text, text.index("msgstr", start))
    assert found is not None
    project.write(catalog, text[:found.start()] + "la muerte del jinete" + text[found.end():])
    report = check_workspace(load_workspace(project.root))
    messages = [str(problem) for problem in report.problems]
    assert len(messages) == 1
    line = text.count("\n", 0, text.index("msgid", start)) + 1
    assert messages[0].startswith(f"{catalog}:{line}: [monstrous-mounts/extra-wounds#text] tokens: the tokens "
                                  "differ from the English text (missing {rule:monstrous-mounts/death-of-the-rider})")


def test_a_broken_catalogue_is_reported_with_its_line(project: ProjectCopy) -> None:
    catalog = "locales/pl/LC_MESSAGES/rules.po"
    line = project.replace(catalog, 'msgctxt "monstrous-mounts#title"', 'msgctxt "monstrous-mounts#title')
    run = project.command("check")
    assert run.code == 1
    assert run.err.startswith(f"{catalog}:")
    assert "catalogue syntax error" in run.err
    assert run.err.startswith(f"{catalog}:{line}:")
    assert "Traceback" not in run.err


def test_a_missing_catalogue_says_how_to_create_it(project: ProjectCopy) -> None:
    (project.root / "locales/pl/LC_MESSAGES/rules.po").unlink()
    run = project.command("check")
    assert run.code == 1
    assert "no rule catalogue for 'pl'" in run.err and "run validator i18n update to create it" in run.err
    shutil.rmtree(project.root / "locales/pl")
    run = project.command("check")
    assert run.code == 1
    assert "no rule catalogue for 'pl'" in run.err and "Fix: start the language's catalogues: validator i18n init pl" \
        in run.err
    assert project.command("i18n", "init", "pl").code == 0
    assert project.command("check").code == 0


def test_every_identifier_shown_in_an_example_has_a_label() -> None:
    """The labels template lists everything the example boxes show (and, besides, the
    questions, steps and chart words, which the i18n tests keep in step with the code)."""
    from validator.api.labels import Where, identifier_uses, label_context
    from validator.checks.run import check_workspace

    report = check_workspace(load_workspace(ROOT))
    shown = list(identifier_uses((Where("input", "an example"), values) for values in
                                 [*(run.example.given for run in report.runs),
                                  *(run.computed for run in report.runs if run.computed)]))
    missing = {label_context(identifier) for identifier in shown} - set(_messages(ROOT / "locales" / "labels.pot"))
    assert missing == set()
    assert "labels/mount_wounds" in _messages(ROOT / "locales" / "labels.pot")


def test_every_identifier_a_try_it_form_shows_has_a_label() -> None:
    """A try-it form offers every choice of its inputs and shows the outcome of every
    combination: words no example states (``overrun`` is offered, ``not-movement-phase``
    given as a reason), which need their labels too, or the form shows them in English."""
    from validator.api.labels import Where, identifier_uses, label_context
    from validator.checks.run import check_workspace
    from validator.site.worked import try_it_values

    workspace = load_workspace(ROOT)
    report = check_workspace(workspace)
    tried = [values for run in report.runs for _name, values in try_it_values(workspace.ruleset, run.example)]
    shown = list(identifier_uses((Where("input", "a try-it form"), {"_": values}) for values in tried))
    assert {"overrun", "not-movement-phase", "monster-caught", "no-test"} <= set(shown)
    missing = {label_context(identifier) for identifier in shown} - set(_messages(ROOT / "locales" / "labels.pot"))
    assert missing == set()


def test_a_plural_formula_that_divides_by_zero_is_refused_when_read() -> None:
    """Compiling a Plural-Forms formula does not run it; gettext would divide by zero only
    when a page picks a form.  The catalogue is refused as it is read."""
    from validator.catalogs.po import parse_catalog
    from validator.problems import ProblemsFound

    text = (ENGINE_LOCALES / "es" / "LC_MESSAGES" / "ui.po").read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith('"Plural-Forms:'))
    parse_catalog(text, "ui.po")
    with pytest.raises(ProblemsFound) as found:
        parse_catalog(text.replace(header, '"Plural-Forms: nplurals=2; plural=n/0;\\n"'), "ui.po")
    assert "catalogue header cannot be read" in str(found.value)


def test_a_rule_catalogue_translates_as_each_entry_says() -> None:
    """Held as one string with bounds, each entry still says what it said: current,
    out of date (fuzzy, or made for another English text, a prefix of it too),
    untranslated (empty or absent), and the last of a msgctxt given twice holds."""
    from validator.catalogs.po import RuleCatalog, State

    catalog = RuleCatalog.from_entries("es", "en", [
        ("a#text", "Charge", "Carga", False),
        ("b#text", "Flee", "Huir", True),
        ("c#text", "Rally", "Reagrupar", False),
        ("d#text", "Shoot", "", False),
        ("e#text", "Old", "Viejo", False),
        ("e#text", "Ñandú ł", "Ñandú łódź", False),
        ("f#text", "", "Vacío", False),
    ])
    asked = [("a#text", "Charge"), ("b#text", "Flee"), ("c#text", "Rally!"), ("c#text", "Rall"),
             ("d#text", "Shoot"), ("e#text", "Ñandú ł"), ("e#text", "Old"), ("f#text", ""), ("g#text", "Missing")]
    shown = [(t.text, t.language, t.state) for t in (catalog.translate(*question) for question in asked)]
    assert shown == [
        ("Carga", "es", State.TRANSLATED),
        ("Flee", "en", State.FUZZY),
        ("Rally!", "en", State.FUZZY),
        ("Rall", "en", State.FUZZY),
        ("Shoot", "en", State.UNTRANSLATED),
        ("Ñandú łódź", "es", State.TRANSLATED),
        ("Old", "en", State.FUZZY),
        ("Vacío", "es", State.TRANSLATED),
        ("Missing", "en", State.UNTRANSLATED),
    ]
    assert RuleCatalog.source("en").translate("a#text", "Charge").state is State.TRANSLATED


def test_a_rule_catalogue_holds_its_texts_in_one_string() -> None:
    """A page job forked from the build reads every language's translations; held as
    separate string objects, each read would copy the page the string lies on into
    that job.  The loaded catalogue holds one string per entry (its msgctxt, which is
    only compared) and one string of every text."""
    import gc

    workspace = load_workspace(ROOT)
    for language in LANGUAGES:
        catalog = workspace.rule_catalogs[language]
        strings, seen, pending = [], set(), [catalog]
        while pending:
            item = pending.pop()
            if id(item) in seen or isinstance(item, type):
                continue
            seen.add(id(item))
            if isinstance(item, str):
                strings.append(item)
            pending.extend(gc.get_referents(item))
        assert len(catalog.numbers) > 100
        assert len(strings) <= len(catalog.numbers) + 3  # the msgctxts, the texts, the two language codes
        translated = [catalog.translate(message.context, message.text) for message in workspace.rulebook.messages()]
        assert sum(t.language == language for t in translated) > 100
        assert all(t.text in catalog.texts for t in translated if t.language == language)
