"""A rule's title or a term's word that ends a sentence ("Look out, Sir!") swallows the
full stop the text puts after it, in every language, in running text and in titles."""

from __future__ import annotations

import html
import re

import pytest

from validator.site.text import TextRenderer
from validator.workspace import Workspace


def renderer(workspace: Workspace, code: str) -> TextRenderer:
    return TextRenderer(workspace.rulebook, workspace.rule_catalogs[code], workspace.project.language(code))


def read(shown: str) -> str:
    """What a reader sees of a rendered text: entities decoded, link targets left out."""
    return html.unescape(re.sub(r"\]\([^)]*\)", "]", shown)).replace("[", "").replace("]", "")


@pytest.mark.parametrize(("code", "title"), [("en", "Look out, Sir!"), ("es", "¡Cuidado, Señor!")])
def test_a_title_ending_in_an_exclamation_mark_takes_no_second_stop(workspace: Workspace, code: str,
                                                                    title: str) -> None:
    text = renderer(workspace, code)
    sentence = "See {rule:shooting-at-characters/look-out-sir}. Then roll."
    for shown in (read(text.plain("x#text", sentence)), read(str(text._paragraph(sentence)))):
        assert shown == f"See {title} Then roll.", shown


def test_a_title_ending_otherwise_keeps_the_texts_full_stop(workspace: Workspace) -> None:
    text = renderer(workspace, "en")
    sentence = "See {rule:chariots/destruction}. Then {rule:shooting-at-characters/look-out-sir}..."
    shown = read(text.plain("x#text", sentence))
    assert re.fullmatch(r"See [^.!]+\. Then Look out, Sir!\.\.\.", shown), shown
