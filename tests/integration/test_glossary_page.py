"""The built glossary of each language: its terms in that language's alphabetical
order, and under each translated term the book's own word for it, marked with its
language, so that a reader can find it in the original rules."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]

from validator.site.collation import sort_key

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "es", "pl")


def _entries(page: str) -> list[tuple[str, str, str | None]]:
    """(anchor, heading, the source language's word shown under it) of each term."""
    article = page[page.index("<article"):]
    found = []
    for match in re.finditer(r'<h2 id="([^"]+)">(.*?)<a class="headerlink".*?</h2>\s*(<p class="glossary-source">'
                             r'.*?<span lang="en">(.*?)</span></p>)?', article, re.S):
        heading = html.unescape(re.sub(r"<[^>]+>", "", match.group(2)))
        source = html.unescape(match.group(4)) if match.group(4) is not None else None
        found.append((match.group(1), heading, source))
    return found


def _english() -> dict[str, str]:
    glossary = yaml.safe_load((ROOT / "docs" / "glossary.yml").read_text(encoding="utf-8"))
    return {term["id"]: term["term"] for term in glossary["terms"]}


def in_order(headings: list[str], language: str) -> bool:
    return headings == sorted(headings, key=sort_key(language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_glossary_is_in_the_language_s_alphabetical_order(built_site: Path, language: str) -> None:
    entries = _entries((built_site / language / "glossary.html").read_text(encoding="utf-8"))
    assert len(entries) == len(_english())
    headings = [heading for _, heading, _ in entries]
    assert in_order(headings, language)
    # The order is the alphabet's, not the code points': those would differ here.
    assert headings != sorted(headings)


def test_the_order_check_sees_a_glossary_out_of_order() -> None:
    assert not in_order(["łucznik", "lud"], "pl") and not in_order(["ñandú", "nube"], "es")
    assert in_order(["lud", "łucznik"], "pl") and in_order(["nube", "ñandú"], "es")


@pytest.mark.parametrize("language", ["es", "pl"])
def test_a_translated_term_shows_the_english_term(built_site: Path, language: str) -> None:
    english = _english()
    entries = _entries((built_site / language / "glossary.html").read_text(encoding="utf-8"))
    for anchor, heading, source in entries:
        if heading == english[anchor]:
            assert source is None, anchor  # a name kept in English is not repeated
        else:
            assert source == english[anchor], anchor
    assert sum(source is not None for _, _, source in entries) > len(entries) - 5
    page = (built_site / language / "glossary.html").read_text(encoding="utf-8")
    assert {"es": "Inglés: <span", "pl": "Angielski: <span"}[language] in page


def test_the_english_glossary_names_no_other_language(built_site: Path) -> None:
    entries = _entries((built_site / "en" / "glossary.html").read_text(encoding="utf-8"))
    assert entries and all(source is None for _, _, source in entries)
