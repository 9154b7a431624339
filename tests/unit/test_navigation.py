"""A large book's chapters come in sections, so no page carries a link to every
chapter; a small book's stay as they are; every title is escaped, nested or not."""

from __future__ import annotations

from validator.site.build import mkdocs_nav
from validator.site.pages import CHAPTERS_PER_SECTION, grouped


def test_few_chapters_stay_as_they_are() -> None:
    items = [(f"Chapter {n}", f"c{n}.md") for n in range(CHAPTERS_PER_SECTION)]
    assert grouped(items) == items


def test_many_chapters_come_in_even_sections_titled_by_first_and_last() -> None:
    items = [(f"Chapter {n}", f"c{n}.md") for n in range(2 * CHAPTERS_PER_SECTION + 1)]
    sections = grouped(items)
    assert len(sections) == 3
    sizes = [len(entries) for _, entries in sections]
    assert max(sizes) <= CHAPTERS_PER_SECTION and max(sizes) - min(sizes) <= 1
    assert [page for _, entries in sections for _, page in entries] == [page for _, page in items]  # type: ignore[union-attr]
    assert sections[0][0] == f"Chapter 0 \u2013 Chapter {sizes[0] - 1}"


def test_nested_titles_are_escaped_for_mkdocs() -> None:
    items = [(f"<b>{n}</b>", f"c{n}.md") for n in range(CHAPTERS_PER_SECTION + 1)]
    nav = mkdocs_nav([("Home", "index.md"), *grouped(items)])
    text = repr(nav)
    assert "<b>" not in text and "&lt;b&gt;0&lt;/b&gt; \u2013 &lt;b&gt;" in text
