"""Official answers, the register of discrepancies, the translator's guide and the
translation status are the book's sections, not the engine's: a book without one
gets no page for it and no link to it anywhere, while the bundled book, which has
them all, keeps every one.  One small book is built once for the whole module."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

OPTIONAL_PAGES = ("faq.html", "discrepancies.html", "translators.html", "status.html")
LINK = re.compile(r"""(?:href|src)=["']?([^"'\s>#?]+)""")


def _validator(cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "validator", *arguments], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def bare_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the book ``validator init`` writes, without its register, with an
    official answers file that has no entry, without a guide and in its source
    language only: a book with none of the optional sections."""
    folder = tmp_path_factory.mktemp("bare")
    done = _validator(folder, "init", "book")
    assert done.returncode == 0, done.stderr
    book = folder / "book"
    assert not (book / "docs" / "guide").exists()
    (book / "docs" / "discrepancies.yml").unlink()
    (book / "docs" / "faq.yml").write_text("faq: []\n", encoding="utf-8")
    project = book / "rulebook.yml"
    text = project.read_text(encoding="utf-8")
    project.write_text("".join(line for line in text.splitlines(keepends=True) if "{code: es," not in line),
                       encoding="utf-8")
    # A build stops on any warning of MkDocs, a link to a missing page among them.
    done = _validator(book, "build")
    assert done.returncode == 0, done.stderr
    return book / "site" / "en"


def _links(site: Path) -> set[str]:
    """The file name of every page or asset the site's pages link to."""
    return {Path(target).name for page in site.rglob("*.html")
            for target in LINK.findall(page.read_text(encoding="utf-8"))}


def test_a_book_without_optional_sections_has_no_page_for_them(bare_site: Path) -> None:
    assert (bare_site / "index.html").is_file() and (bare_site / "glossary.html").is_file()
    assert [page for page in OPTIONAL_PAGES if (bare_site / page).exists()] == []


def test_neither_the_pages_nor_the_search_of_such_a_book_link_to_a_section_it_lacks(bare_site: Path) -> None:
    links = _links(bare_site)
    assert "glossary.html" in links and "sources.html" in links
    assert sorted(links & set(OPTIONAL_PAGES)) == []
    index = (bare_site / "assets" / "validator" / "search-index.js").read_text(encoding="utf-8")
    assert "glossary.html#" in index
    assert [page for page in OPTIONAL_PAGES if page in index] == []


def test_the_bundled_book_keeps_every_optional_section(built_site: Path) -> None:
    for language in ("en", "es", "pl"):
        site = built_site / language
        assert [page for page in OPTIONAL_PAGES if not (site / page).is_file()] == []
        assert sorted(set(OPTIONAL_PAGES) - _links(site)) == []
