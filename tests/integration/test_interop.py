"""The catalogues open cleanly in standard gettext tools: GNU msgfmt and Translate
Toolkit's pofilter (which exits 0 even when it finds problems, so its output is
what the test reads)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import ROOT

CATALOGUES = sorted((ROOT / "locales").glob("*/LC_MESSAGES/*.po"))
POFILTER_TESTS = ("blank", "doublewords", "escapes", "newlines", "tabs", "endwhitespace", "startwhitespace",
                  "xmltags", "nplurals", "isfuzzy", "untranslated", "brackets", "numbers", "doublespacing",
                  "printf", "variables", "endpunc")
"""Everything but pythonbraceformat, which reads {term:id|form} as a Python format
field and so objects to every inflected term (our own lint checks the tokens)."""


SAME_CHECK = {"endpunc": "punctuation", "doublewords": "doubled-words", "numbers": "numbers",
              "untranslated": "untranslated", "isfuzzy": "fuzzy", "blank": "blank"}
"""pofilter's tests and the lint checks that mean the same thing: a finding the
translator silenced in the lint, with a reason, is not counted twice."""


def _silenced(message: object) -> set[str]:
    comments = getattr(message, "user_comments", [])
    return {comment.split(":")[1].strip() for comment in comments if comment.startswith("lint-ignore:")}


def pofilter(catalog: Path, output: Path) -> list[str]:
    """The msgctxt of every unit pofilter reports, less those whose finding the
    translator silenced in the lint with a stated reason."""
    arguments = ["pofilter", "--progress=none"]
    for test in POFILTER_TESTS:
        arguments += ["-t", test]
    done = subprocess.run([*arguments, "-i", str(catalog), "-o", str(output)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    if not output.exists():
        return []
    reported = []
    with output.open("rb") as handle:
        for message in read_po(handle):
            tests = {comment.split(":")[0].removeprefix("(pofilter)").strip()
                     for comment in message.user_comments if comment.startswith("(pofilter)")}
            if message.id and not {SAME_CHECK.get(test, test) for test in tests} <= _silenced(message):
                reported.append(str(message.context))
    return reported


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
@pytest.mark.parametrize("catalog", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_msgfmt_checks_pass(catalog: Path) -> None:
    done = subprocess.run(["msgfmt", "--check-format", "--check-header", "--statistics", "-o", "/dev/null",
                           str(catalog)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "fuzzy" not in done.stderr and "untranslated" not in done.stderr, done.stderr


@pytest.mark.skipif(shutil.which("pofilter") is None, reason="Translate Toolkit is not installed")
@pytest.mark.parametrize("catalog", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pofilter_finds_nothing(catalog: Path, tmp_path: Path) -> None:
    assert pofilter(catalog, tmp_path / "report.po") == []


@pytest.mark.skipif(shutil.which("pofilter") is None, reason="Translate Toolkit is not installed")
def test_pofilter_does_report_a_broken_catalogue(tmp_path: Path) -> None:
    """The check above can fail: a doubled word and a lost newline are reported."""
    broken = tmp_path / "rules.po"
    text = (ROOT / "locales/es/LC_MESSAGES/rules.po").read_text(encoding="utf-8")
    start = text.index('msgctxt "monstrous-mounts/movement#text"')
    msgstr = text.index('msgstr "', start) + len('msgstr "')
    broken.write_text(text[:msgstr] + "la la " + text[msgstr:], encoding="utf-8")
    assert pofilter(broken, tmp_path / "report.po") == ["monstrous-mounts/movement#text"]


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
def test_msgfmt_rejects_a_broken_catalogue(tmp_path: Path) -> None:
    broken = tmp_path / "rules.po"
    text = (ROOT / "locales/pl/LC_MESSAGES/rules.po").read_text(encoding="utf-8")
    broken.write_text(text.replace('msgstr "', 'msgstr "\\q', 1), encoding="utf-8")
    done = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(broken)], capture_output=True, text=True)
    assert done.returncode != 0
