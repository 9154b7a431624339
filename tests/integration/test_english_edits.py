"""An English edit never blocks the site: after `i18n update`, the translations it
made out of date are fuzzy or missing, counted and listed, and every language builds
(the pages show the English text for them until a translator catches up)."""

from __future__ import annotations

import re

import pytest
from conftest import ProjectCopy

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book


CHAPTER = "docs/rules/characters-in-units.yml"
PART_OF_THE_UNIT = """  - id: characters-in-units/part-of-the-unit
    title: A member of the unit
"""


def _edit_english_of_every_kind(project: ProjectCopy) -> None:
    # A token's argument, a reworded title and a reworded official answer.
    project.replace("docs/rules/chariots.yml", "{dist:2}", "{dist:3}")
    project.replace("docs/rules/chariots.yml", "title: Characters riding chariots",
                    "title: Characters who ride chariots")
    project.replace("docs/faq.yml", "No. Unless a rule forbids it,", "No. Unless some rule forbids it,")
    # A rule renamed without an alias (its translations become obsolete, its texts new),
    # a rule renamed with one, and a rule added.
    text = project.read(CHAPTER)
    start = text.index(PART_OF_THE_UNIT)
    block = text[start:text.index("  - id: characters-in-units/which-units")]
    added = block.replace("part-of-the-unit", "a-new-member").replace("A member of the unit", "A new member")
    project.write(CHAPTER, text.replace(block, block.replace("part-of-the-unit", "one-of-the-unit") + added))
    project.replace("docs/rules/monstrous-mounts.yml", "  - id: monstrous-mounts/movement\n",
                    "  - id: monstrous-mounts/moving\n    aliases: [monstrous-mounts/movement]\n")
    # A glossary term's English name.
    project.replace("docs/glossary.yml", "    term: cavalry\n", "    term: cavalry model\n")
    # Labels the rules core now words otherwise, or shows anew: as the catalogues
    # would hold them had the core's English changed since they were translated.
    for language in ("es", "pl"):
        labels = f"locales/{language}/LC_MESSAGES/labels.po"
        project.replace(labels, 'msgctxt "labels/chariot"\nmsgid "chariot"', 'msgctxt "labels/chariot"\nmsgid "car"')
        text = project.read(labels)
        project.write(labels, re.sub(r'msgctxt "labels/troop_type"\nmsgid "troop type"\nmsgstr "[^"]*"\n\n', "",
                                     text, count=1))


def test_english_edits_of_every_kind_leave_every_language_buildable(project: ProjectCopy) -> None:
    _edit_english_of_every_kind(project)
    update = project.command("i18n", "update")
    assert update.code == 0, update.err
    for language in ("es", "pl"):
        rules = project.read(f"locales/{language}/LC_MESSAGES/rules.po")
        assert rules.count("#, fuzzy") >= 4, "the edits left no fuzzy rule text to prove the point with"
        assert 'msgctxt "characters-in-units/a-new-member#title"\nmsgid "A new member"\nmsgstr ""' in rules
        labels = project.read(f"locales/{language}/LC_MESSAGES/labels.po")
        assert '#| msgid "car"' in labels
        assert 'msgctxt "labels/troop_type"\nmsgid "troop type"\nmsgstr ""' in labels
    status = project.command("status")
    assert status.code == 0, status.err
    check = project.command("check")
    assert check.code == 0, check.err
    lint = project.command("lint")
    assert lint.code == 0, lint.out
    assert "fuzzy (warning)" in lint.out and "untranslated (warning)" in lint.out
    assert "tokens (error)" not in lint.out
    build = project.command("build", "--site-dir", str(project.path("site")))
    assert build.code == 0, build.err
    for language in ("es", "pl"):
        page = project.read(f"site/{language}/chariots.html")
        assert "{dist:" not in page and 'class="badge-outdated"' in page  # the English shown, marked
