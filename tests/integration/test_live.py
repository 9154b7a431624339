"""The preview's fast path: the page an edit touches, alone, exactly as a whole
build makes it; a wrong example keeps the old page; an edit beyond chapter pages
takes no fast path."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ProjectCopy, copy_project

from validator.checks.run import check_workspace
from validator.pipeline import build_sites
from validator.problems import ProblemsFound
from validator.site.live import LiveSite
from validator.store import Store
from validator.workspace import load_workspace


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> ProjectCopy:
    """One copy and one whole build for the module: each test edits other pages, and
    puts back the files it edited."""
    root = tmp_path_factory.mktemp("live")
    copy_project(root)
    return ProjectCopy(root)


@pytest.fixture(scope="module")
def base(project: ProjectCopy) -> Store:
    """The preview's store: what is made of each input is kept in memory across loads."""
    store = Store()
    store.inputs.keep()
    return store


@pytest.fixture
def live(project: ProjectCopy, base: Store) -> Iterator[LiveSite]:
    saved = {path: path.read_bytes() for path in project.root.rglob("*") if path.is_file()
             and path.suffix in {".yml", ".po"} and "site" not in path.relative_to(project.root).parts[:1]}
    workspace = load_workspace(project.root, store=base)
    report = check_workspace(workspace)
    if not (project.root / "site").exists():
        build_sites(workspace, report, project.root / "site")
    site = LiveSite(project.root / "site")
    site.built(workspace)
    try:
        yield site
    finally:
        site.close()
        for path, data in saved.items():
            path.write_bytes(data)


def built_alone(project: ProjectCopy, language: str) -> Path:
    """The same inputs through a whole build of one language."""
    workspace = load_workspace(project.root)
    report = check_workspace(workspace)
    assert report.ok
    whole = project.root / f"whole-{language}"
    build_sites(workspace, report, whole, language)
    return whole / language


def test_an_edited_rule_shows_at_once_as_a_whole_build_makes_it(project: ProjectCopy, live: LiveSite,
        base: Store) -> None:
    served = project.root / "site" / "en" / "challenges.html"
    before = served.read_text(encoding="utf-8")
    text = project.read("docs/rules/challenges.yml")
    title = re.search(r"^    title: (.+)$", text, re.MULTILINE)
    assert title is not None
    project.write("docs/rules/challenges.yml", text.replace(title.group(0), title.group(0) + " Zyxwvu", 1))
    assert live.update(load_workspace(project.root, store=base)) == ["en/challenges.md"]
    after = served.read_text(encoding="utf-8")
    assert "Zyxwvu" in after and after != before
    assert after == (built_alone(project, "en") / "challenges.html").read_text(encoding="utf-8")


def test_a_renamed_chapter_in_a_catalogue_shows_in_its_language(project: ProjectCopy, live: LiveSite,
                                                                 base: Store) -> None:
    po = project.read("locales/es/LC_MESSAGES/rules.po")
    entry = re.compile(r'(msgctxt "chapters#title"\nmsgid "[^\n]*"\nmsgstr ")([^\n]*)"'.replace(
        "chapters", "chariots"))
    assert entry.search(po) is not None
    project.write("locales/es/LC_MESSAGES/rules.po", entry.sub(r'\1\2 Qwerty"', po, count=1))
    assert live.update(load_workspace(project.root, store=base)) == ["es/chariots.md"]
    page = (project.root / "site" / "es" / "chariots.html").read_text(encoding="utf-8")
    assert page.count("Qwerty") >= 2  # the heading and the navigation
    assert page == (built_alone(project, "es") / "chariots.html").read_text(encoding="utf-8")
    # Undone: the page and its navigation show the chapter's title again.
    project.write("locales/es/LC_MESSAGES/rules.po", po)
    assert live.update(load_workspace(project.root, store=base)) == ["es/chariots.md"]
    assert "Qwerty" not in (project.root / "site" / "es" / "chariots.html").read_text(encoding="utf-8")


def test_a_wrong_example_keeps_the_page_and_names_the_problem(project: ProjectCopy, live: LiveSite,
        base: Store) -> None:
    served = project.root / "site" / "en" / "core-tables.html"
    before = served.read_text(encoding="utf-8")
    text = project.read("docs/rules/core-tables.yml")
    broken, count = re.subn(r"(\n\s+expect:\s*\{[^}\n]*?\b\w+: )(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + 1),
                            text, count=1)
    assert count == 1
    project.write("docs/rules/core-tables.yml", broken)
    with pytest.raises(ProblemsFound) as raised:
        live.update(load_workspace(project.root, store=base))
    assert raised.value.problems[0].file == "docs/rules/core-tables.yml"
    assert served.read_text(encoding="utf-8") == before


def test_an_edit_beyond_chapter_pages_waits_for_the_whole_build(project: ProjectCopy, live: LiveSite,
        base: Store) -> None:
    glossary = project.read("docs/glossary.yml")
    edited = re.sub(r"^(    definition: >-?\s*\n?\s*)(\w)", r"\1Edited: \2", glossary, count=1, flags=re.MULTILINE)
    assert edited != glossary
    project.write("docs/glossary.yml", edited)
    reread = load_workspace(project.root, store=base)
    assert reread.rulebook.glossary != live.workspace.rulebook.glossary  # type: ignore[union-attr]
    assert live.update(reread) == []


def test_a_fast_path_that_fails_says_so_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from validator import serve

    site = LiveSite(tmp_path / "site")

    def vanished(workspace: object) -> list[str]:
        raise FileNotFoundError(2, "No such file or directory", str(tmp_path / "site" / "en"))

    monkeypatch.setattr(site, "update", vanished)
    monkeypatch.setattr(serve, "load_workspace", lambda project, store: None)
    assert serve.quick_update(tmp_path, site, Store()) is False
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("Not updated at once (") and err[0].endswith("the whole build follows.")
    site.close()
