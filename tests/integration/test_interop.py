"""The catalogues open cleanly in standard gettext tools: GNU msgfmt and Translate
Toolkit's pofilter (which exits 0 even when it finds problems, so its output is
what the test reads); the tests of pofilter the project runs are not set off by the
tokens; and the Weblate components of ``weblate.yml`` name the catalogues and
declare the tokens as Weblate's placeholder check reads them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]
from babel.messages.pofile import read_po, write_po
from conftest import ROOT, program

from validator.content.tokens import KINDS, TOKEN, tokens

CATALOGUES = sorted((ROOT / "locales").glob("*/LC_MESSAGES/*.po"))
POFILTER_TESTS = ("blank", "doublewords", "escapes", "newlines", "tabs", "endwhitespace", "startwhitespace",
                  "xmltags", "nplurals", "isfuzzy", "untranslated", "brackets", "numbers", "doublespacing",
                  "printf", "variables", "endpunc")
"""The tests of pofilter the project runs, as manual/docs/translators/tools.md gives them.
Left out are those the tokens set off (:data:`TOKEN_NOISE`) and those that report what
rightly differs between languages (quotation marks, sentence counts, acronyms, a name
kept in English)."""
TOKEN_NOISE = ("pythonbraceformat", "puncspacing", "startpunc", "startcaps", "singlequoting", "simplecaps")
"""Tests of pofilter that report entries for their tokens: pythonbraceformat reads
{term:id|form} as a Python format field, puncspacing objects to the colon in {term:id},
and the others to a token where a word was expected (our own lint checks the tokens)."""
RULE_CATALOGUES = sorted((ROOT / "locales").glob("*/LC_MESSAGES/rules.po"))


SAME_CHECK = {"endpunc": "punctuation", "doublewords": "doubled-words", "numbers": "numbers",
              "untranslated": "untranslated", "isfuzzy": "fuzzy", "blank": "blank"}
"""pofilter's tests and the lint checks that mean the same thing: a finding the
translator silenced in the lint, with a reason, is not counted twice."""


REVIEWED = {"labels/base_mm": {"brackets"}, "labels/unit_base_mm": {"brackets"}}
"""Findings of pofilter that are right translations, by msgctxt: the label of a size in
millimetres names its unit in brackets ("peana (mm)") where the English field name has
none ("base mm"). pofilter reads no comment that could say so in the catalogue."""


def _silenced(message: object) -> set[str]:
    comments = getattr(message, "user_comments", [])
    return {comment.split(":")[1].strip() for comment in comments if comment.startswith("lint-ignore:")}


def pofilter(catalog: Path, output: Path, chosen: tuple[str, ...] = POFILTER_TESTS) -> list[str]:
    """The msgctxt of every unit pofilter reports (running the ``chosen`` tests), less
    those whose finding the translator silenced in the lint with a stated reason, or
    that is :data:`REVIEWED`."""
    arguments = [program("pofilter"), "--progress=none"]
    for test in chosen:
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
            accepted = _silenced(message) | REVIEWED.get(str(message.context), set())
            if message.id and not {SAME_CHECK.get(test, test) for test in tests} <= accepted:
                reported.append(str(message.context))
    return reported


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
@pytest.mark.parametrize("catalog", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_msgfmt_checks_pass(catalog: Path) -> None:
    done = subprocess.run(["msgfmt", "--check-format", "--check-header", "--statistics", "-o", "/dev/null",
                           str(catalog)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "fuzzy" not in done.stderr and "untranslated" not in done.stderr, done.stderr


@pytest.mark.parametrize("catalog", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pofilter_finds_nothing(catalog: Path, tmp_path: Path) -> None:
    assert pofilter(catalog, tmp_path / "report.po") == []


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


def without_tokens(catalog: Path, copy: Path) -> Path:
    """``catalog`` with each token, in the msgid and in the msgstr, made a plain word."""
    with catalog.open("rb") as handle:
        messages = read_po(handle)
    for message in messages:
        if message.id and isinstance(message.id, str):
            message.id = TOKEN.sub("Zqx", message.id)
            message.string = TOKEN.sub("Zqx", str(message.string or ""))
    with copy.open("wb") as handle:
        write_po(handle, messages, width=0)
    return copy


def set_off_by_tokens(catalog: Path, folder: Path, tests: tuple[str, ...]) -> set[str]:
    """The entries pofilter reports in ``catalog`` and not once its tokens are words."""
    plain = without_tokens(catalog, folder / "plain.po")
    return set(pofilter(catalog, folder / "with.po", tests)) - set(pofilter(plain, folder / "without.po", tests))


@pytest.mark.parametrize("catalog", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_pofilter_test_of_the_project_is_set_off_by_the_tokens(catalog: Path, tmp_path: Path) -> None:
    assert set_off_by_tokens(catalog, tmp_path, POFILTER_TESTS) == set()


@pytest.mark.parametrize("test", TOKEN_NOISE)
def test_each_test_left_out_for_the_tokens_is_set_off_by_them(test: str, tmp_path: Path) -> None:
    """Why each is left out, and that the comparison above finds what the tokens set off."""
    assert any(set_off_by_tokens(catalog, tmp_path, (test,)) for catalog in RULE_CATALOGUES), test


def test_the_tools_page_gives_the_tests_the_project_runs() -> None:
    page = (ROOT / "manual/docs/translators/tools.md").read_text(encoding="utf-8")
    command = re.search(r"^    pofilter .*?(?=^\S|\n\n)", page, re.MULTILINE | re.DOTALL)
    assert command is not None, "the page gives no pofilter command"
    assert tuple(re.findall(r"-t (\w+)", command.group(0))) == POFILTER_TESTS
    for test in TOKEN_NOISE:
        assert f"`{test}`" in page, f"the page does not say why {test} is left out"


WEBLATE = yaml.safe_load((ROOT / "weblate.yml").read_text(encoding="utf-8"))
COMPONENTS = {component["slug"]: component for component in WEBLATE["components"]}


def placeholders() -> re.Pattern[str]:
    """The expression of the rules component's ``placeholders:r"..."`` flag."""
    flag = re.fullmatch(r'placeholders:r"(.*)"', COMPONENTS["rules"]["check_flags"])
    assert flag is not None, COMPONENTS["rules"]["check_flags"]
    return re.compile(flag.group(1))


def weblate_sees(text: str) -> set[str]:
    """What Weblate's placeholder check compares: the set of the expression's matches."""
    return {match.group(0) for match in placeholders().finditer(text)}


def kept(text: str) -> set[str]:
    """What of each token a translation keeps as written: all but a term's form."""
    return {re.split(r"[|}]", token.source, maxsplit=1)[0] for token in tokens(text) if token.kind in KINDS}


def test_the_weblate_components_are_the_catalogues_and_their_templates() -> None:
    folders = (ROOT / "locales", ROOT / "validator/locale")
    shipped = {path.relative_to(ROOT).as_posix() for folder in folders for path in folder.glob("*/LC_MESSAGES/*.po")}
    masked: list[str] = []
    for component in COMPONENTS.values():
        assert (component["file_format"], component["template"]) == ("po", ""), component["slug"]
        assert component["new_base"].endswith(".pot") and (ROOT / component["new_base"]).is_file()
        found = sorted(path.relative_to(ROOT).as_posix() for path in ROOT.glob(component["filemask"]))
        assert found, component["filemask"]
        masked += found
    assert sorted(masked) == sorted(shipped), "a catalogue in no component, or in two"
    assert "weblate.gettext.msgmerge" in WEBLATE["addons_off"]


def test_weblate_sees_each_token_up_to_its_form_in_every_shipped_text() -> None:
    """The expression matches what tokens.py reads as tokens, in every English text and
    translation, and a current translation gives Weblate nothing to report."""
    compared = 0
    for catalog in CATALOGUES:
        with catalog.open("rb") as handle:
            for message in read_po(handle):
                if not (message.id and isinstance(message.id, str)):
                    continue
                assert weblate_sees(message.id) == kept(message.id), message.context
                if message.string and not message.fuzzy:
                    assert weblate_sees(str(message.string)) == kept(str(message.string)), message.context
                    assert weblate_sees(str(message.string)) == weblate_sees(message.id), message.context
                    compared += bool(kept(message.id))
    assert compared > 100


@pytest.mark.parametrize(("translation", "reported"), [
    ("Un {term:rider|jinete} pierde {roll:1-4} en {dist:2} y {rule:chariots/movement}.", False),
    ("{rule:chariots/movement} y {dist:2}: un {term:rider|jinetes} pierde {roll:1-4}.", False),
    ("Un {term:rider} pierde {roll:1-4} en {dist:2} y {rule:chariots/movement}.", False),
    ("Un jinete pierde {roll:1-4} en {dist:2} y {rule:chariots/movement}.", True),
    ("Un {term:mount|jinete} pierde {roll:1-4} en {dist:2} y {rule:chariots/movement}.", True),
    ("Un {term:rider|jinete} pierde {roll:1-3} en {dist:2} y {rule:chariots/movement}.", True),
    ("Un {term:rider|jinete} pierde {roll:1-4} en {dist:2} y {rule:chariots/moving}.", True),
    ("Un {term:rider|jinete} pierde {roll:1-4} en {dist:2} y {rule:chariots/movement} {dice:D6}.", True),
    ("Un {term:rider jinete pierde {roll:1-4} en {dist:2} y {rule:chariots/movement}.", True),
    ("{roll:1-4} en {dist:2} y {rule:chariots/movement}: lo pierde un {term:rider", True),
])
def test_weblate_reports_a_token_lost_changed_or_invented_but_not_a_form(translation: str, reported: bool) -> None:
    english = "A {term:rider} loses {roll:1-4} at {dist:2} and {rule:chariots/movement}."
    assert (weblate_sees(translation) != weblate_sees(english)) is reported
