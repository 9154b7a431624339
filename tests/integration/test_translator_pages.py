"""What translators and bilingual readers get: status, parallel text, the register
with its filters, the guide, and the "out of date" badge."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import ProjectCopy

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book


LANGUAGES = ("en", "es", "pl")


def html(site: Path, language: str, page: str) -> str:
    return (site / language / f"{page}.html").read_text(encoding="utf-8")


def _group(status: dict, language: str, group: str) -> dict:  # type: ignore[type-arg]
    return next(row for row in status["languages"][language]["groups"] if row["group"] == group)


def test_status_command(project: ProjectCopy) -> None:
    run = project.command("status", "--format", "json")
    assert run.code == 0
    status = json.loads(run.out)
    assert set(status["languages"]) == {"es", "pl"}
    chariots = _group(status, "es", "chariots")
    assert chariots["translated"] == chariots["total"] > 0 and chariots["fuzzy"] == chariots["untranslated"] == 0
    text = project.command("status").out
    assert re.search(r"^pl\s+rules\s+chariots\s+\d+\s+0\s+0\s+100\.0%$", text, re.MULTILINE)


def test_status_counts_the_three_domains_and_takes_a_language(project: ProjectCopy) -> None:
    """The interface and the labels are counted beside the rule texts, with totals and
    percentages per language and domain that a CI badge can show."""
    labels = "locales/pl/LC_MESSAGES/labels.po"
    project.write(labels, project.read(labels).replace('msgid "chariot"\nmsgstr "rydwan"',
                                                       'msgid "chariot"\nmsgstr ""'))
    status = json.loads(project.command("status", "--format", "json", "--language", "pl").out)
    assert set(status["languages"]) == {"pl"}
    polish = status["languages"]["pl"]
    domains = polish["domains"]
    assert set(domains) == {"rules", "ui", "labels"} and domains["ui"]["total"] > 50
    assert domains["labels"]["untranslated"] == 1 and domains["labels"]["percent"] < 100
    assert _group(status, "pl", "labels")["pending"] == [{"entry": "labels/chariot", "state": "untranslated"}]
    assert polish["total"] == sum(domain["total"] for domain in domains.values()) == status["total"]["total"]
    assert polish["percent"] == round(100 * polish["translated"] / polish["total"], 1)
    unknown = project.command("status", "--language", "xx")
    assert unknown.code == 2 and unknown.err.count("\n") == 1 and "unknown language 'xx'" in unknown.err


def test_status_counts_a_changed_and_an_untranslated_text(project: ProjectCopy, tmp_path: Path) -> None:
    project.replace("docs/rules/chariots.yml", "    title: Victory points\n",
                    "    title: Victory points for chariots\n")
    project.replace("docs/rules/chariots.yml", "    title: Death of the character",
                    "    title: Death of the character riding it")
    assert project.command("i18n", "update").code == 0
    catalog = "locales/es/LC_MESSAGES/rules.po"
    text = project.read(catalog)
    start = text.index('msgctxt "chariots/death-of-the-character#title"')
    msgstr = text.index("msgstr", start)
    project.write(catalog, text[:msgstr] + 'msgstr ""' + text[text.index("\n", msgstr):])
    status = json.loads(project.command("status", "--format", "json").out)
    chariots = _group(status, "es", "chariots")
    assert (chariots["fuzzy"], chariots["untranslated"]) == (1, 1)
    site = tmp_path / "site"
    assert project.command("build", "--site-dir", str(site), "--language", "es").code == 0
    page = html(site, "es", "chariots")
    section = page[page.index('id="victory-points"'):page.index('id="destruction"')]
    assert "badge-outdated" not in section  # a changed title alone shows no badge in the text
    status_page = html(site, "es", "status")
    assert "chariots/victory-points#title" in status_page and "chariots/death-of-the-character#title" in status_page
    assert "desactualizada" in status_page and "sin traducir" in status_page
    assert "La interfaz del sitio" in status_page and "Vocabulario de los ejemplos resueltos" in status_page


def test_out_of_date_text_shows_badge_and_current_english(project: ProjectCopy, tmp_path: Path) -> None:
    project.replace("docs/rules/chariots.yml", "each is counted on its own when it is slain or destroyed.",
                    "each is always counted on its own when it is slain or destroyed.")
    assert project.command("i18n", "update").code == 0
    site = tmp_path / "site"
    assert project.command("build", "--site-dir", str(site), "--language", "pl").code == 0
    page = html(site, "pl", "chariots")
    section = page[page.index('id="victory-points"'):page.index('id="destruction"')]
    assert 'class="badge-outdated"' in section and "Tłumaczenie nieaktualne" in section
    assert '<div class="untranslated" lang="en">' in section
    assert "is always counted" in section


def test_parallel_text_has_every_language(built_site: Path) -> None:
    page = html(built_site, "es", "parallel-monstrous-mounts")
    section = page[page.index('id="shooting-hit-allocation"'):page.index('id="templates-and-cannon"')]
    for language in LANGUAGES:
        assert f'<div lang="{language}">' in section
    assert "Sharing out hits between monster and rider" in section
    assert "Reparto de los impactos" in section
    assert 'class="admonition warning"' in section  # the discrepancy, inline


def test_register_is_filterable_and_links_both_ways(built_site: Path) -> None:
    page = html(built_site, "pl", "discrepancies")
    assert '<form class="register-filter">' in page
    kinds = set(re.findall(r'name="kind" value="([a-z-]+)"', page))
    assert kinds == {"translation-error", "edition-difference", "source-erratum", "ambiguity", "erratum",
                     "scan-damage"}
    entries = re.findall(r'class="discrepancy-entry" data-kind="([a-z-]+)" data-status="([a-z]+)"', page)
    assert len(entries) >= 8 and {kind for kind, _ in entries} <= kinds
    assert "chariots.html#challenges" in page  # entry -> rule
    chariots = html(built_site, "pl", "chariots")
    assert "discrepancies.html#impact-hits-on-a-mount" in chariots  # rule -> entry


def test_translators_guide_in_each_language(built_site: Path) -> None:
    guides = {language: html(built_site, language, "translators") for language in LANGUAGES}
    assert "lint-ignore" in guides["en"] and "lint-ignore" in guides["es"] and "lint-ignore" in guides["pl"]
    assert guides["es"] != guides["en"] and guides["pl"] != guides["en"]
    for language, page in guides.items():
        assert f'<html lang="{language}"' in page


def test_status_page_in_every_site(built_site: Path) -> None:
    for language in LANGUAGES:
        page = html(built_site, language, "status")
        assert 'id="status-es"' in page and 'id="status-pl"' in page


def test_a_missing_translated_guide_is_a_warning_and_the_english_one_is_shown(project: ProjectCopy) -> None:
    from validator.checks.lintparts import lint_workspace
    from validator.site.pages import translators_guide
    from validator.workspace import load_workspace

    def warnings() -> list[str]:
        return [str(finding) for finding in lint_workspace(load_workspace(project.root))
                if finding.file.startswith("docs/guide/")]

    assert warnings() == []
    project.path("docs/guide/translators.es.md").unlink()
    assert warnings() == ["docs/guide/translators.es.md:0: untranslated (warning): the translator's guide has no 'es' "
                          "version, so the 'es' site shows the 'en' one. Fix: translate docs/guide/translators.en.md "
                          "into this file"]
    workspace = load_workspace(project.root)
    assert translators_guide(workspace, "es") == translators_guide(workspace, "en")
