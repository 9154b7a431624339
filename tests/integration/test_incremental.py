"""Incremental builds (validator.site.incremental): after an edit, a build of the same
site renders again only the pages that read what changed, and the site it leaves is
the one a build from nothing makes, byte for byte."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ProjectCopy, copy_project

from validator.resultcache import CACHE_VARIABLE
from validator.site.incremental import Frame

CROSS_LINKED = "shooting-at-characters.html"
"""A chapter whose text links to a rule of the core tables and one of the monstrous mounts."""
UNRELATED = "challenges.html"
"""A chapter that links to neither."""


def site_files(site: Path) -> dict[str, bytes]:
    return {str(path.relative_to(site)): path.read_bytes() for path in sorted(site.rglob("*")) if path.is_file()}


def inodes(site: Path) -> dict[str, int]:
    return {str(path.relative_to(site)): path.stat().st_ino for path in site.rglob("*") if path.is_file()}


class Builds:
    """One copy of the book, its site built once, and a cache of its own."""

    def __init__(self, book: ProjectCopy, folder: Path) -> None:
        self.book, self.folder, self.count = book, folder, 0

    def build(self, site: Path) -> None:
        done = self.book.command("build", "--language", "pl", "--site-dir", str(site))
        assert done.code == 0, done.err

    def rebuilt(self) -> tuple[dict[str, bytes], dict[str, bytes], set[str]]:
        """Build the site again where it is, and from nothing elsewhere: both sites'
        files, and the pages the first one wrote anew."""
        site = self.folder / "site"
        before = inodes(site)
        self.build(site)
        after = inodes(site)
        self.count += 1
        fresh = self.folder / f"fresh-{self.count}"
        self.build(fresh)
        written = {name for name, inode in after.items()
                   if name.startswith("pl/") and name.endswith(".html") and before.get(name) != inode}
        return site_files(site), site_files(fresh), written


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Builds]:
    folder = tmp_path_factory.mktemp("incremental")
    book = ProjectCopy(copy_project(folder / "book"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_VARIABLE, str(folder / "cache"))
        patch.setenv("SOURCE_DATE_EPOCH", "1700000000")
        built = Builds(book, folder)
        built.build(folder / "site")
        yield built


def test_nothing_changed_writes_no_page_and_is_the_same_site(builds: Builds, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not even the book is loaded: nothing it is built from changed."""
    from validator.commands import build

    def refused(*_arguments: object, **_options: object) -> None:
        raise AssertionError("the book was loaded")

    site = builds.folder / "site"
    before = site_files(site), inodes(site)
    monkeypatch.setattr(build, "load_workspace", refused)
    builds.build(site)
    assert (site_files(site), inodes(site)) == before
    monkeypatch.undo()
    again, fresh, written = builds.rebuilt()
    assert again == fresh and written == set()


def test_an_edited_translator_s_guide_is_seen(builds: Builds) -> None:
    """A file the build reads besides what the load reads."""
    guide = builds.book.path("docs/guide/translators.pl.md")
    guide.write_text(guide.read_text(encoding="utf-8") + "\nJeszcze jedno zdanie.\n", encoding="utf-8")
    again, fresh, written = builds.rebuilt()
    assert again == fresh and "pl/translators.html" in written


def test_a_rule_title_edited_renders_its_chapter_and_the_chapters_linking_to_it(builds: Builds) -> None:
    builds.book.replace("docs/rules/core-tables.yml", "title: Hitting with shooting", "title: Hitting when shooting")
    again, fresh, written = builds.rebuilt()
    assert again == fresh
    assert {"pl/core-tables.html", "pl/parallel-core-tables.html", f"pl/{CROSS_LINKED}"} <= written
    assert f"pl/{UNRELATED}" not in written


def test_a_catalogue_entry_edited_renders_the_pages_that_show_it(builds: Builds) -> None:
    builds.book.replace("locales/pl/LC_MESSAGES/rules.po", 'msgstr "Strzelanie do modelu"',
                        'msgstr "Strzelanie do całego modelu"')
    again, fresh, written = builds.rebuilt()
    assert again == fresh
    assert {"pl/monstrous-mounts.html", f"pl/{CROSS_LINKED}"} <= written
    assert f"pl/{UNRELATED}" not in written


def test_a_glossary_term_edited_gives_the_same_site_as_a_build_from_nothing(builds: Builds) -> None:
    builds.book.replace("docs/glossary.yml", "A hero or lord:", "A hero or a lord:")
    again, fresh, _written = builds.rebuilt()
    assert again == fresh


def test_the_comparison_fails_when_a_stale_page_is_kept(builds: Builds, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests above can fail: a build that keeps every page of the earlier site
    leaves an edited title where a build from nothing shows the new one."""
    monkeypatch.setattr(Frame, "stale", lambda _frame, _units, _earlier: [])
    builds.book.replace("docs/rules/core-tables.yml", "title: Hitting when shooting", "title: Hitting, shooting")
    again, fresh, written = builds.rebuilt()
    assert written == set()
    assert again != fresh and again["pl/core-tables.html"] != fresh["pl/core-tables.html"]


def test_a_page_changed_by_hand_in_the_site_is_made_again(builds: Builds) -> None:
    """The record of a site holds only while its folder is as the build left it."""
    page = builds.folder / "site" / "pl" / UNRELATED
    page.write_text("changed by hand", encoding="utf-8")
    os.utime(page, ns=(0, 0))
    again, fresh, _written = builds.rebuilt()
    assert again == fresh
