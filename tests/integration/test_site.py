"""The built sites: three languages, the same anchors, a selector that keeps the
page, resolved links, computed outcomes, the discrepancy callout, and escaping."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import ROOT, ProjectCopy, break_a_polish_number

from validator.parallel import JOBS_VARIABLE

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book

LANGUAGES = ("en", "es", "pl")
CHAPTER_PAGE = "monstrous-mounts.html"


class Page(HTMLParser):
    """The ids, links and language attributes of one built page."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[tuple[str, dict[str, str | None]]] = []
        self.html_lang: str | None = None
        self.scripts_srcs: list[str] = []
        self.text_parts: list[str] = []
        self.feed(path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "html":
            self.html_lang = attributes.get("lang")
        if attributes.get("id"):
            self.ids.add(str(attributes["id"]))
        if tag == "a" and attributes.get("href"):
            self.links.append((str(attributes["href"]), attributes))

    def handle_data(self, data: str) -> None:
        self.text_parts.append(data)

    @property
    def text(self) -> str:
        return " ".join(self.text_parts)


def page(site: Path, language: str, name: str = CHAPTER_PAGE) -> Page:
    return Page(site / language / name)


def test_three_sites_with_their_language(built_site: Path) -> None:
    for language in LANGUAGES:
        for name in ("index.html", CHAPTER_PAGE, "glossary.html", "discrepancies.html"):
            assert page(built_site, language, name).html_lang == language
    assert (built_site / "index.html").is_file()
    assert (built_site / "es" / "assets" / "validator" / "search-index.js").is_file()


def test_rule_anchors_are_the_same_in_every_language(built_site: Path) -> None:
    anchors = [page(built_site, language).ids for language in LANGUAGES]
    rule_anchors = {"mount-kinds", "shooting-hit-allocation", "death-of-the-rider", "monster-reaction"}
    for ids in anchors:
        assert rule_anchors <= ids
    assert anchors[0] & rule_anchors == anchors[1] & rule_anchors == anchors[2] & rule_anchors


def test_language_selector_leads_to_the_same_page(built_site: Path) -> None:
    chapter = page(built_site, "es")
    selector = {attributes.get("hreflang"): href for href, attributes in chapter.links
                if "md-select__link" in str(attributes.get("class"))}
    assert selector == {language: f"./../{language}/monstrous-mounts.html" for language in LANGUAGES}
    for language, href in selector.items():
        target = (built_site / "es" / href).resolve()
        assert target == (built_site / language / CHAPTER_PAGE).resolve()


def test_every_internal_link_resolves(built_site: Path) -> None:
    ids: dict[Path, set[str]] = {}  # each page's anchors, parsed once for all the links to it

    def anchors(html_file: Path) -> set[str]:
        if html_file not in ids:
            ids[html_file] = set(Page(html_file).ids)
        return ids[html_file]

    for language in LANGUAGES:
        for html_file in (built_site / language).rglob("*.html"):
            page = Page(html_file.resolve())
            ids.setdefault(html_file.resolve(), page.ids)
            for href, _attributes in page.links:
                if re.match(r"^[a-z]+:|^//", href) or href == "#":
                    continue
                path, _, fragment = href.partition("#")
                if not path:
                    assert fragment in page.ids, f"{html_file}: missing anchor {href}"
                    continue
                target = (html_file.parent / path).resolve()
                if target.is_dir():
                    target = target / "index.html"
                assert target.is_file(), f"{html_file}: broken link {href}"
                if fragment and target.suffix == ".html":
                    assert fragment in anchors(target), f"{html_file}: missing anchor {href}"


def test_tokens_become_links_in_the_readers_language(built_site: Path) -> None:
    spanish = page(built_site, "es")
    glossary_links = [(href, attributes) for href, attributes in spanish.links if "glossary.html#large-target" in href]
    with (ROOT / "locales/es/LC_MESSAGES/rules.po").open("rb") as handle:
        spanish_definition = next(str(m.string) for m in read_po(handle)
                                  if m.context == "glossary/large-target#definition")
    assert glossary_links and glossary_links[0][1].get("title") == spanish_definition
    rule_links = [href for href, _ in spanish.links if href.endswith("#shooting-hit-allocation")]
    assert rule_links
    assert "{rule:" not in spanish.text and "{term:" not in spanish.text


def test_examples_show_the_computed_outcome(built_site: Path) -> None:
    assert "70.4% (19/27)" in page(built_site, "en").text
    assert "70,4\u00a0% (19/27)" in page(built_site, "es").text
    assert "13/18" in page(built_site, "pl").text


@pytest.mark.parametrize(("language", "label"), [
    ("en", "Translation error"), ("es", "Error de traducción"), ("pl", "Błąd tłumaczenia")])
def test_discrepancy_callout_in_the_readers_language(built_site: Path, language: str, label: str) -> None:
    html = (built_site / language / CHAPTER_PAGE).read_text(encoding="utf-8")
    section = html[html.index('id="shooting-hit-allocation"'):html.index('id="templates-and-cannon"')]
    assert 'class="warning discrepancy-note"' in section
    assert label in section
    assert "discrepancies.html#faq-mount-hit-allocation" in section


def test_check_failure_refuses_to_build_and_keeps_the_old_site(project: ProjectCopy, tmp_path: Path,
                                                                built_site: Path) -> None:
    site = tmp_path / "sites" / "out"
    shutil.copytree(built_site, site)  # the site a build made before
    before = (site / "en" / CHAPTER_PAGE).read_text(encoding="utf-8")
    project.replace("docs/rules/monstrous-mounts.yml", "expect: {monster: 2, rider: 2}",
                    "expect: {monster: 1, rider: 3}")
    project.replace("docs/rules/monstrous-mounts.yml", "title: Movement", "title: Moving")
    run = project.command("build", "--site-dir", str(site))
    assert run.code == 1
    assert "Checks failed; the site was not built." in run.err
    assert (site / "en" / CHAPTER_PAGE).read_text(encoding="utf-8") == before
    assert sorted(p.name for p in site.parent.iterdir()) == ["out"], "no staging folder may be left behind"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_lint_error_found_beside_the_pages_refuses_the_build(project: ProjectCopy, tmp_path: Path,
                                                               built_site: Path, monkeypatch: pytest.MonkeyPatch,
                                                               jobs: str) -> None:
    """The build runs the lint in a worker beside the pages; its errors stop the build as
    the check's do, with the warnings' count, and the old site stays."""
    site = tmp_path / "sites" / "out"
    shutil.copytree(built_site, site)  # the site a build made before
    before = sorted(str(p.relative_to(site)) for p in site.rglob("*"))
    line = break_a_polish_number(project)
    monkeypatch.setenv(JOBS_VARIABLE, jobs)
    run = project.command("build", "--site-dir", str(site))
    assert run.code == 1, run.err
    assert "Checks failed; the site was not built." in run.err
    assert f"locales/pl/LC_MESSAGES/rules.po:{line}:" in run.err and "numbers" in run.err
    assert "Traceback" not in run.err and "built " not in run.out
    assert sorted(str(p.relative_to(site)) for p in site.rglob("*")) == before
    assert sorted(p.name for p in site.parent.iterdir()) == ["out"]


def test_a_lint_error_is_reported_with_the_checks_other_problems(project: ProjectCopy, tmp_path: Path) -> None:
    break_a_polish_number(project)
    project.replace("docs/rules/monstrous-mounts.yml", "expect: {monster: 2, rider: 2}",
                    "expect: {monster: 1, rider: 3}")
    run = project.command("build", "--site-dir", str(tmp_path / "site"))
    assert run.code == 1
    assert "rules.po" in run.err and "monstrous-mounts.yml" in run.err
    assert not (tmp_path / "site").exists()


def test_a_failing_mkdocs_build_leaves_the_old_site(project: ProjectCopy, tmp_path: Path,
                                                     built_site: Path) -> None:
    site = tmp_path / "sites" / "out"
    shutil.copytree(built_site, site)  # the site a build made before
    before = sorted(str(p.relative_to(site)) for p in site.rglob("*"))
    # A broken link in a guide fails MkDocs itself (a broken mkdocs.yml is refused by the check first).
    project.write("docs/guide/translators.pl.md", project.read("docs/guide/translators.pl.md")
                  + "\n[broken](no-such-page.md)\n")
    run = project.command("build", "--site-dir", str(site))
    assert run.code == 1
    assert "MkDocs warned" in run.err and "no-such-page.md" in run.err and "Traceback" not in run.err
    assert sorted(str(p.relative_to(site)) for p in site.rglob("*")) == before
    assert sorted(p.name for p in site.parent.iterdir()) == ["out"]


def test_untranslated_text_is_marked_as_english(project: ProjectCopy, tmp_path: Path) -> None:
    project.replace("docs/rules/monstrous-mounts.yml",
                    "      A {term:character} and his {term:monstrous-mount} move together,",
                    "      A {term:character} and his {term:monstrous-mount} always move together,")
    site = tmp_path / "out"
    assert project.command("build", "--site-dir", str(site), "--language", "es").code == 0
    html = (site / "es" / CHAPTER_PAGE).read_text(encoding="utf-8")
    section = html[html.index('id="movement"'):html.index('id="shooting-one-target"')]
    assert '<div class="untranslated" lang="en">' in section
    assert "always move together" in section


def test_example_boxes_use_translated_labels(built_site: Path) -> None:
    spanish = (built_site / "es" / CHAPTER_PAGE).read_text(encoding="utf-8")
    with (ROOT / "locales/es/LC_MESSAGES/labels.po").open("rb") as handle:
        label = next(str(m.string) for m in read_po(handle) if m.context == "labels/mount_wounds")
    assert f'<span class="worked-label">{label}</span>' in spanish
    english = (built_site / "en" / CHAPTER_PAGE).read_text(encoding="utf-8")
    assert '<span class="worked-label">mount wounds</span>' in english
    assert '<span class="worked-value">guard the body</span>' in english


@pytest.mark.parametrize(("language", "note"), [
    ("en", "Defined in another document"), ("es", "Definido en otro documento"),
    ("pl", "Pojęcie zdefiniowane w innym dokumencie"),
])
def test_glossary_marks_terms_of_the_main_rulebook(built_site: Path, language: str, note: str) -> None:
    from validator.content.loader import load_rulebook
    from validator.content.project import load_project

    terms = load_rulebook(ROOT, load_project(ROOT)).glossary.terms
    elsewhere = [term for term in terms if term.defined_elsewhere]
    assert 0 < len(elsewhere) < len(terms)
    page = (built_site / language / "glossary.html").read_text(encoding="utf-8")
    sections = re.split(r'<h2 id="', page)[1:]
    marked = {section.split('"', 1)[0] for section in sections if note in section}
    assert marked == {term.id for term in elsewhere}


def test_a_title_longer_than_a_yaml_key_may_be_builds(project: ProjectCopy, tmp_path: Path) -> None:
    """The navigation's titles are the keys of MkDocs' configuration: written as JSON,
    one over 1,024 characters (which YAML refuses as a plain key) stopped the build."""
    long_title = "Characters riding chariots " + "in a very long title " * 60
    assert len(long_title) > 1024
    project.replace("docs/rules/chariots.yml", "  title: Characters riding chariots", f"  title: {long_title}")
    run = project.command("build", "--site-dir", str(tmp_path / "site"), "--language", "en")
    assert run.code == 0, run.err
    page = (tmp_path / "site" / "en" / "chariots.html").read_text(encoding="utf-8")
    assert long_title.strip() in page
