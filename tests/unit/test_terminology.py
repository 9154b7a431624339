"""Glossary terms are linked at their first use in every rule and example text, and
one language names one thing with one word: both checks fire on a text broken on
purpose, and the bundled rulebook has no finding of either."""

from __future__ import annotations

import io

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from conftest import ROOT, ProjectCopy

from validator.catalogs.interface import ENGINE_LOCALES
from validator.checks.lint import (
    LintContext,
    Severity,
    lint_catalog,
    source_findings,
    terminology_problems,
    unlinked_problems,
)
from validator.checks.terminology import unlinked_terms
from validator.content.loader import load_rulebook
from validator.content.project import load_project

RULEBOOK = load_rulebook(ROOT, load_project(ROOT))
GLOSSARY = RULEBOOK.glossary


def lint_translation(english: str, translation: str, language: str,
                     context: str = "monstrous-mounts/movement#text") -> list[tuple[str, str]]:
    catalog = Catalog(locale=language, last_translator="Team <team@example.org>", language_team="Team")
    catalog.add(english, translation, context=context).lineno = 3
    findings = lint_catalog(catalog, "x.po", LintContext.of(RULEBOOK, language, {}, {}))
    return [(finding.check, finding.fix) for finding in findings]


def test_an_unlinked_term_is_named_and_a_linked_one_is_not() -> None:
    assert [u.term for u in unlinked_terms("The chariot charges.", GLOSSARY, "en", "en")] == ["chariot", "charge"]
    assert unlinked_terms("The {term:chariot} {term:charge|charges}.", GLOSSARY, "en", "en") == []


def test_the_first_use_must_be_the_linked_one() -> None:
    found = unlinked_terms("A chariot, then a {term:chariot}.", GLOSSARY, "en", "en")
    assert [(u.term, u.shown) for u in found] == [("chariot", "chariot")]
    # A later plain use after the link is fine.
    assert unlinked_terms("A {term:chariot}, then a chariot.", GLOSSARY, "en", "en") == []


def test_a_longer_term_takes_its_words() -> None:
    """"unit" inside "flying unit" is the longer term's, and a term link's form is no loose word."""
    found = unlinked_terms("He may not join a flying unit.", GLOSSARY, "en", "en")
    assert [u.term for u in found] == ["flying-unit"]
    assert unlinked_terms("{term:flying-unit|Flying units} fly.", GLOSSARY, "en", "en") == []


def test_unlinked_term_in_a_translation_uses_the_languages_forms() -> None:
    english = "The {term:rider} falls."
    findings = lint_translation(english, "Jeździec spada, a {term:rider|jeźdźca} nikt nie łapie.", "pl")
    assert ("unlinked-term", "write {term:rider|Jeździec} there, or {term:rider} for the glossary's own form") \
        in findings
    assert [check for check, _ in lint_translation(english, "{term:rider|Jeździec} spada.", "pl")] == []


def test_unlinked_term_applies_to_rule_and_example_texts_only() -> None:
    text = ("A chariot.", "Un carro.")
    assert "unlinked-term" in [c for c, _ in lint_translation(*text, "es", "chariots/destruction#example.cannon")]
    assert "unlinked-term" not in [c for c, _ in lint_translation(*text, "es", "glossary/chariot#definition")]


def test_forbidden_variant_is_found_in_any_case_with_the_preferred_word_as_fix() -> None:
    findings = lint_translation("A general on a warhorse.", "Generał na rumaku bojowym.", "pl",
                                "rulebook#title")
    assert ("terminology", "write 'koń bojowy' (in the form the sentence needs), the one word pl uses for it") \
        in findings
    assert lint_translation("A general on a warhorse.", "Generał na koniu bojowym.", "pl", "rulebook#title") == []


def test_planted_variant_fails_the_lint_at_its_line() -> None:
    catalog_file = ROOT / "locales/es/LC_MESSAGES/rules.po"
    text = catalog_file.read_text("utf-8")
    start = text.index('msgctxt "shooting-at-characters/look-out-sir#example.six"')
    line = text.count("\n", 0, text.index("msgid", start)) + 1
    broken = text[:start] + text[start:].replace("espadachines", "espaderos", 1)
    catalog = read_po(io.BytesIO(broken.encode("utf-8")), locale="es")
    findings = [str(f) for f in lint_catalog(catalog, "rules.po", LintContext.of(RULEBOOK, "es", {}, {}))
                if f.severity is Severity.ERROR]
    assert findings == [
        f"rules.po:{line}: [shooting-at-characters/look-out-sir#example.six] terminology (error): 'espaderos' is a "
        "variant the glossary forbids for 'swordsmen'. Fix: write 'espadachines' (in the form the sentence needs), "
        "the one word es uses for it"]


def test_english_source_is_checked_and_a_yaml_comment_silences(project: ProjectCopy) -> None:
    project.replace("docs/glossary.yml", "      es: [espader]\n", "      es: [espader]\n      en: [swordmen]\n")
    rulebook = load_rulebook(project.root, load_project(project.root))
    assert not [f for f in source_findings(rulebook, project.root) if f.check == "terminology"]
    line = project.replace("docs/rules/chariots.yml", "Crossbowmen score four hits", "Swordmen score four hits")
    rulebook = load_rulebook(project.root, load_project(project.root))
    found = [(f.line, f.check) for f in source_findings(rulebook, project.root) if f.check == "terminology"]
    assert found == [(line - 1, "terminology")]
    project.replace("docs/rules/chariots.yml", "        text: >-\n          Swordmen",
                    "        # lint-ignore: terminology: quoting an old misprint\n        text: >-\n          Swordmen")
    rulebook = load_rulebook(project.root, load_project(project.root))
    assert not [f for f in source_findings(rulebook, project.root) if f.check == "terminology"]


def test_bundled_rulebook_has_no_unlinked_term_and_no_terminology_finding() -> None:
    """Both checks over the English source and every message of every catalogue (the
    lint's own silences honoured), without the rest of the lint."""
    findings = [str(f) for f in source_findings(RULEBOOK, ROOT) if f.check in {"unlinked-term", "terminology"}]
    for language in ("es", "pl"):
        for domain in ("rules", "ui", "labels"):
            path = (ENGINE_LOCALES if domain == "ui" else ROOT / "locales") / language / "LC_MESSAGES" / f"{domain}.po"
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=language)
            for message in catalog:
                silenced = " ".join(message.user_comments)
                text = message.string if isinstance(message.string, str) else " ".join(message.string or ())
                if not (message.id and text):
                    continue
                found = [*unlinked_problems(str(message.context or ""), text, RULEBOOK.glossary, language,
                                            RULEBOOK.project.source_language),
                         *terminology_problems(text, RULEBOOK.glossary, language)]
                findings += [f"{path.name} {language} [{message.context}] {what}" for name, _, what, _ in found
                             if f"lint-ignore: {name}:" not in silenced]
    assert findings == []


def test_the_word_indexed_search_finds_what_one_pass_of_every_form_finds() -> None:
    """The recogniser searches only for forms whose first word a text has; on every
    text of the catalogues it must find exactly what the single pattern of all forms
    finds, longest form first and without overlaps."""
    from validator.checks.terminology import _recogniser

    compared = 0
    for language in ("en", "es", "pl"):
        recogniser = _recogniser(GLOSSARY, language, "en")
        folder = ROOT / "locales" / ("es" if language == "en" else language) / "LC_MESSAGES"
        for path in sorted(folder.glob("*.po")):
            with path.open("rb") as handle:
                for message in read_po(handle):
                    text = str(message.id if language == "en" else message.string or "")
                    expected = [(match.start(), match.group(0)) for match in recogniser.pattern.finditer(text)]
                    assert recogniser.uses(text) == expected, text
                    compared += bool(expected)
    assert compared > 500
    # Overlapping forms: the longer one wins where both start, and nothing inside it counts.
    english = _recogniser(GLOSSARY, "en", "en")
    text = "A flying unit and a unit."
    assert english.uses(text) == [(match.start(), match.group(0)) for match in english.pattern.finditer(text)]
