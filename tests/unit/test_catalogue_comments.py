"""Every message carries, inside the catalogue, what its translator needs to know of it:
where an interface word stands on the page, what a label names, which rule a text
belongs to and which forms a term may take."""

from __future__ import annotations

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from validator.content.interface import ENGINE_LOCALES
from validator.i18n import SITE_PACKAGE, TRANSLATOR_TAGS, ui_template


def test_every_use_of_an_interface_string_in_the_code_has_a_translator_comment() -> None:
    """A word alone ("p.", "check it in", "exact") says nothing of where it stands: each
    call in the site's code and templates has a ``Translators:`` comment next to it."""
    uses = extract_from_dir(SITE_PACKAGE, [("templates/**.j2", "jinja2"), ("**.py", "python")],
                            {"templates/**.j2": {"encoding": "utf-8"}}, comment_tags=TRANSLATOR_TAGS)
    bare = [f"validator/site/{filename}:{line}: {message!r}" for filename, line, message, comments, _context in uses
            if not comments]
    assert bare == [], "write a '# Translators: ...' (or '{# Translators: ... #}') comment before each"


def test_every_interface_entry_has_a_translator_comment_or_a_msgctxt() -> None:
    with (ENGINE_LOCALES / "ui.pot").open("rb") as handle:
        shipped = read_po(handle)
    for template in (ui_template(), shipped):
        bare = [str(message.id) for message in template if message.id and not message.auto_comments
                and not message.context]
        assert bare == []
    assert all(not comment.startswith(TRANSLATOR_TAGS) for message in shipped for comment in message.auto_comments)
