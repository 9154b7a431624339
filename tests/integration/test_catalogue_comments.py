"""The shipped catalogues carry, for each message, what its translator needs: the rule
and chapter of a rule text, the forms each of its terms may take in the catalogue's
language, and what a label of the worked examples names."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from conftest import ROOT, copy_project
from player_pages import traced_functions

from validator.catalogs import interface
from validator.catalogs.extract import TOKEN_COMMENT
from validator.cli import main
from validator.content.loader import load_rulebook
from validator.content.project import load_project, load_rules_core
from validator.content.tokens import tokens

RULEBOOK = load_rulebook(ROOT, load_project(ROOT))
LANGUAGES = ("es", "pl")


def _read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def _said(comments: list[str]) -> str:
    """The automatic comments as one text: the writer wraps a long one over lines."""
    return " ".join(" ".join(comments).split())


def test_every_rule_text_names_its_rule_and_chapter_and_the_token_rule_once() -> None:
    template = _read(ROOT / "locales" / "rules.pot")
    entries = {str(message.context): message for message in template if message.id}
    assert [context for context, message in entries.items() if not message.auto_comments] == []
    for chapter in RULEBOOK.chapters:
        for rule in chapter.rules:
            about = f"Rule: {rule.title} (chapter: {chapter.chapter.title})"
            for context in (f"{rule.id}#title", f"{rule.id}#text",
                            *(f"{rule.id}#example.{example.id}" for example in rule.examples)):
                assert _said(entries[context].auto_comments).startswith(about), context
    for context, message in entries.items():
        expected = 1 if tokens(str(message.id)) else 0
        assert message.auto_comments.count(TOKEN_COMMENT) == expected, context


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_term_token_lists_the_forms_the_glossary_declares_for_the_catalogues_language(language: str) -> None:
    terms = {term.id: term for term in RULEBOOK.glossary.terms}
    catalog = _read(ROOT / "locales" / language / "LC_MESSAGES" / "rules.po")
    checked = 0
    for message in catalog:
        linked = {token.argument for token in tokens(str(message.id)) if token.kind == "term"} & terms.keys()
        said = _said(message.auto_comments)
        for term_id in sorted(linked):
            declared = terms[term_id].declined(language)
            if not declared:
                continue
            head = f"{{term:{term_id}}} in {language}: "
            start = said.find(head)
            assert start >= 0, (message.context, term_id)
            listed = said[start + len(head):].split(" {term:", 1)[0]
            assert [form for form in declared if form not in listed] == [], (message.context, term_id, listed)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("root", [ROOT, ROOT / "tests" / "roots" / "skirmish"], ids=["bundled", "skirmish"])
def test_every_label_names_the_scenario_or_the_core_function_it_comes_from(root: Path) -> None:
    """A label alone ("hit", "none") does not say what it names: each entry's comment
    names a scenario of the rules core, or one of its functions, where it is used."""
    ruleset = load_rules_core(root, load_project(root))
    owners = ([f"the scenario '{scenario.name}'" for scenario in ruleset.scenarios]
              + [f"the core function {key}" for key in traced_functions(ruleset)])
    template = _read(root / "locales" / "labels.pot")
    unnamed = [str(message.context) for message in template
               if message.id and not any(owner in _said(message.auto_comments) for owner in owners)]
    assert unnamed == []
    kinds = {str(message.context).split("/")[1] for message in template if message.id}
    assert {"scenario", "step"} <= kinds


def _blocks(text: str) -> list[str]:
    return text.split("\n\n")


def _as_before(text: str) -> str:
    """A catalogue as it was before its entries had automatic comments: no ``#.`` line,
    and no interface entry with a msgctxt (its words had none)."""
    kept = [block for block in _blocks("".join(line for line in text.splitlines(keepends=True)
                                               if not line.startswith("#.")))
            if not ("validator/site/" in block and "\nmsgctxt " in f"\n{block}")]
    return "\n\n".join(kept)


def _undated(text: str) -> str:
    return re.sub(r'^"(?:POT-Creation-Date|PO-Revision-Date): [^"]*"$', "DATE", text, flags=re.MULTILINE)


def _translations(path: Path) -> dict[tuple[str | None, str], object]:
    return {(message.context, str(message.id)): message.string for message in _read(path) if message.id}


@pytest.mark.parametrize("book", ["bundled", "skirmish"])
def test_an_update_of_catalogues_without_comments_changes_comment_lines_and_no_translation(
        book: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped catalogues with their automatic comments taken out (and the interface
    entries that gained a msgctxt too), as they were before the comments: an update
    gives back the shipped files, and on the way changes nothing but comment lines (and
    brings back those entries with the translation they had without a msgctxt): every
    msgstr is what it was, and no entry is fuzzy or untranslated."""
    root = copy_project(tmp_path / "book") if book == "bundled" else Path(shutil.copytree(
        ROOT / "tests" / "roots" / "skirmish", tmp_path / "book"))
    engine = Path(shutil.copytree(interface.ENGINE_LOCALES, tmp_path / "engine-locale"))
    monkeypatch.setattr(interface, "ENGINE_LOCALES", engine)
    monkeypatch.setattr("validator.catalogs.update.ENGINE_LOCALES", engine)
    files = sorted([*(root / "locales").rglob("*.po*"), *engine.rglob("ui.po*")])
    shipped = {path: path.read_text(encoding="utf-8") for path in files}
    assert any("\n#. " in text for text in shipped.values())
    stripped = {path: _as_before(text) for path, text in shipped.items()}
    for path, text in stripped.items():
        path.write_text(text, encoding="utf-8")
    before = {path: _translations(path) for path in files}

    assert main(["--project", str(root), "i18n", "update"]) == 0
    assert main(["i18n", "update", "--engine"]) == 0
    capsys.readouterr()

    for path in files:
        written = path.read_text(encoding="utf-8")
        assert _undated(written) == _undated(shipped[path]), path
        assert _undated(_as_before(written)) == _undated(stripped[path]), path  # only comment lines changed
        after = _translations(path)
        assert {key: after[key] for key in before[path]} == before[path], path
        for (context, english), translation in after.items():
            if (context, english) not in before[path]:
                assert context is not None and translation == before[path][(None, english)], (path, context)
        if path.suffix == ".po":
            catalog = _read(path)
            assert [str(message.id) for message in catalog if message.id and (message.fuzzy or not message.string)] \
                == [], path
