"""The glossary: it covers the rules' terms, declines them (seven Polish cases per
number, the Spanish plural), refuses a declension of the wrong length at its line,
and the lint checks translations against the declared forms."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from conftest import ROOT, ProjectCopy

from validator.checks.lint import LintContext, Severity, lint_catalog
from validator.checks.lintparts import lint_workspace
from validator.content.loader import load_rulebook
from validator.content.project import load_project
from validator.problems import ProblemsFound
from validator.site.search import term_forms
from validator.workspace import load_workspace

RULEBOOK = load_rulebook(ROOT, load_project(ROOT))
GLOSSARY = "docs/glossary.yml"
REQUIRED = (
    "unit", "attack", "monster", "rider", "mount", "wound", "close-combat", "leadership", "crew",
    "lone-character", "engaged", "base-contact", "fighting-rank", "breath-weapon", "immune-to-break",
    "very-difficult-terrain", "movement", "weapon-skill", "ballistic-skill", "strength", "toughness",
    "wounds", "initiative", "attacks",
)


def lint(english: str, translation: str, language: str = "pl") -> list[tuple[str, Severity]]:
    """The findings of one translated rule message, linted as the rule catalogues are."""
    catalog = Catalog(locale=language, last_translator="Team <team@example.org>", language_team="Team")
    # A title: the glossary check alone, without the links a rule text needs.
    catalog.add(english, translation, context="monstrous-mounts/movement#title").lineno = 3
    glossary = {term.term: term.term for term in RULEBOOK.glossary.terms}
    context = LintContext.of(RULEBOOK, language, glossary, {})
    return [(finding.check, finding.severity) for finding in lint_catalog(catalog, "x.po", context)]


def test_the_glossary_covers_the_terms_the_rules_use() -> None:
    ids = {term.id for term in RULEBOOK.glossary.terms}
    assert [term for term in REQUIRED if term not in ids] == []
    assert len(ids) > 60
    external = [term.id for term in RULEBOOK.glossary.terms if term.defined_elsewhere]
    assert "unit" in external and "rider" not in external


def test_every_term_is_declined_in_both_languages() -> None:
    for term in RULEBOOK.glossary.terms:
        polish, spanish = term.forms["pl"], term.forms["es"]
        assert len(polish.sg) == len(RULEBOOK.glossary.grammar["pl"].cases) == 7, term.id
        assert polish.pl is None or len(polish.pl) == 7, term.id
        assert spanish.sg, term.id


@pytest.mark.integration  # checks the whole bundled book
def test_the_catalogue_translation_of_each_term_is_one_of_its_nominatives() -> None:
    workspace = load_workspace(ROOT)
    for term in RULEBOOK.glossary.terms:
        for language in ("es", "pl"):
            shown = workspace.rule_catalogs[language].translate(f"glossary/{term.id}#term", term.term).text
            inflection = term.forms[language]
            nominatives = {inflection.sg[0].lower(), *([inflection.pl[0].lower()] if inflection.pl else [])}
            assert shown.lower() in nominatives, (term.id, language, shown)


def test_irregular_polish_declensions() -> None:
    rider = RULEBOOK.term("rider").forms["pl"]
    assert rider.sg == ("jeździec", "jeźdźca", "jeźdźcowi", "jeźdźca", "jeźdźcem", "jeźdźcu", "jeźdźcze")
    assert rider.pl is not None and rider.pl[0] == "jeźdźcy" and rider.pl[1] == "jeźdźców"
    unit = RULEBOOK.term("unit").forms["pl"]
    assert unit.sg[5] == "oddziale" and unit.pl is not None and unit.pl[1] == "oddziałów"
    chariot = RULEBOOK.term("chariot").forms["pl"]
    assert chariot.sg[4] == "rydwanem" and chariot.sg[5] == "rydwanie"


def test_a_polish_number_without_seven_forms_is_one_line_at_its_place(project: ProjectCopy) -> None:
    six = "        sg: [oddział, oddziału, oddziałowi, oddział, oddziałem, oddziale"
    line = project.replace(GLOSSARY, f"{six}, oddziale]\n", f"{six}]\n")
    with pytest.raises(ProblemsFound) as found:
        load_rulebook(project.root, load_project(project.root))
    problems = [str(problem) for problem in found.value.problems]
    assert len(problems) == 1
    polish_line = line - 1  # "pl:", the Polish forms' key, sits above their singular
    assert problems[0].startswith(f"{GLOSSARY}:{polish_line}: [unit] ")
    assert "pl.sg lists 6 forms; pl needs exactly 7 (mianownik, dopełniacz" in problems[0]
    assert "Fix: " in problems[0]


def test_a_spanish_term_may_list_gender_variants_but_not_none(project: ProjectCopy) -> None:
    project.replace(GLOSSARY, "      es: {sg: unidad, pl: unidades}", "      es: {sg: [], pl: unidades}")
    with pytest.raises(ProblemsFound) as found:
        load_rulebook(project.root, load_project(project.root))
    assert any("[unit]" in str(problem) and "es.sg" in str(problem) for problem in found.value.problems)


def test_a_declined_form_counts_as_a_use_of_the_term() -> None:
    assert lint("The rider falls off.", "Jeźdźca zrzuca z siodła.") == []
    assert lint("He fights in close combat.", "Walczy w walce wręcz.") == []


def test_a_wrong_form_is_a_glossary_warning() -> None:
    """"Jeźdźec" is no case of "jeździec", though it begins like one: the old prefix
    check let it through."""
    assert lint("The rider falls off.", "Jeźdźec zrzuca z siodła.") == [("glossary", Severity.WARNING)]
    assert lint("The rider falls off.", "El jinete cae.", "es") == []
    assert lint("The rider falls off.", "El caballero cae.", "es") == [("glossary", Severity.WARNING)]


def test_capitalised_names_and_hyphenated_words_are_matched_as_written() -> None:
    assert lint("He is Immune to Break.", "Nie zdaje testów.") == [("glossary", Severity.WARNING)]
    assert lint("He is immune to break tests.", "Nie zdaje testów.") == []
    assert lint("Five rank-and-file models.", "Pięć zwykłych modeli.") == []


def test_a_longer_term_is_not_also_a_use_of_the_shorter_one() -> None:
    assert lint("It moves as a flying unit.", "Porusza się jak oddział latający.") == []


def test_a_token_form_must_be_a_declared_form() -> None:
    assert lint("The {term:chariot} moves.", "{term:chariot|Rydwanem} się jedzie.") == []
    findings = lint("The {term:chariot} moves.", "{term:chariot|rydwanowem} się jedzie.")
    assert findings == [("term-form", Severity.ERROR)]


@pytest.mark.integration  # checks the whole bundled book
def test_the_bundled_catalogues_pass_the_glossary_checks() -> None:
    findings = [finding for finding in lint_workspace(load_workspace(ROOT))
                if finding.check in ("glossary", "term-form")]
    assert [str(finding) for finding in findings] == []


@pytest.mark.integration  # checks the whole bundled book
def test_declared_forms_are_searchable_even_when_no_text_uses_them() -> None:
    forms = term_forms(load_workspace(ROOT))
    assert "jeźdźcze" in forms[("rider", "pl")]
    assert "jinetes" in forms[("rider", "es")]


def test_a_language_with_a_dual_gives_its_forms() -> None:
    """A book whose language has the dual (Slovene: two rivers) declares it in the
    glossary's grammar and gives its forms; without the declaration, the same forms
    are refused at their term, so no number goes unchecked."""
    from validator.content.loader import grammar_problems, parse_model
    from validator.content.model import Glossary

    glossary = b"""grammar:
  sl:
    numbers: [sg, du, pl]
terms:
  - id: river
    term: river
    definition: Water that flows.
    forms:
      sl: {sg: reka, du: reki, pl: reke}
"""
    declared = parse_model(Glossary, glossary, GLOSSARY)
    assert isinstance(declared, Glossary)
    assert list(grammar_problems(declared)) == []
    assert declared.terms[0].forms["sl"].all() == ("reka", "reki", "reke")
    undeclared = parse_model(Glossary, glossary.replace(b"[sg, du, pl]", b"[sg, pl]"), GLOSSARY)
    assert isinstance(undeclared, Glossary)
    [problem] = grammar_problems(undeclared)
    assert "'sl' has no number 'du'" in str(problem)
