"""The official answers on the home page: a player opening the site sees the
questions the design team answered, by chapter, each a link to its answer, before
the reference pages; the answers that are not official are left to the page of
answers, where each is marked."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[2]


def _section(page: str) -> str:
    """The home page's part under the heading of the official answers."""
    start = page.index('<h2 id="official-answers">')
    return page[start:page.index("<h2", start + 1)]


def _official() -> tuple[set[str], set[str]]:
    answers = yaml.safe_load((ROOT / "docs" / "faq.yml").read_text(encoding="utf-8"))["faq"]
    official = {entry["id"] for entry in answers if entry.get("standing", "official") == "official"}
    return official, {entry["id"] for entry in answers} - official


@pytest.mark.parametrize("language", ["en", "es", "pl"])
def test_the_home_page_lists_every_official_answer(built_site: Path, language: str) -> None:
    page = (built_site / language / "index.html").read_text(encoding="utf-8")
    section = _section(page)
    linked = re.findall(r'<a href="faq\.html#([^"]+)">', section)
    official, other = _official()
    assert other and official
    assert set(linked) == official and len(linked) == len(official)
    answers = (built_site / language / "faq.html").read_text(encoding="utf-8")
    assert all(f'id="{anchor}"' in answers for anchor in linked)
    assert '<a href="faq.html">' in section
    # Before the reference pages, and in the reader's language.
    article = page[page.index("<article"):]
    assert article.index('id="official-answers"') < article.index('href="glossary.html"')
    heading = html.unescape(re.sub(r"<[^>]+>", "", section[:section.index("</h2>")])).rstrip("¶")
    assert heading == {"en": "Official answers", "es": "Respuestas oficiales", "pl": "Oficjalne odpowiedzi"}[language]
