"""``validator i18n xliff-export`` and ``xliff-import`` on a copy of the bundled book, as
a translator uses them: export, translate in a tool (Translate Toolkit's XLIFF storage
here), import, lint.

A translation that breaks a token is taken in, as a PO editor's edit would be, and the
lint refuses it at check time; an export made before the English changed is refused
whole, and the command line says each problem in one line, never a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT, ProjectCopy
from translate.storage import poxliff

from validator.catalogs.po import read_catalog

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book


RULES = "locales/es/LC_MESSAGES/rules.po"
TITLE = "characters-alone#title"
INTRO = "characters-alone#intro"


def retranslate(path: Path, targets: dict[str, str]) -> None:
    """Give the units named in ``targets`` a new translation, through Translate Toolkit."""
    store = poxliff.PoXliffFile.parsefile(str(path))
    for unit in store.units:
        name = unit.getid().rpartition("\x04")[2]
        if name in targets:
            unit.target = targets.pop(name)
    assert not targets
    path.write_bytes(bytes(store))


def entries_of(text: str) -> dict[str, str]:
    """Each entry's text in a catalogue, by its msgctxt line (the header and the
    obsolete entries by their first line)."""
    found = {}
    for block in text.split("\n\n"):
        match = re.search(r'^msgctxt "(.*)"$', block, re.MULTILINE)
        found[match.group(1) if match else block.split("\n", 1)[0]] = block
    return found


def test_a_translation_made_in_a_tool_comes_back_and_the_lint_judges_it(project: ProjectCopy) -> None:
    before = {path: path.read_bytes() for path in project.root.glob("locales/**/*.po")}
    done = project.command("i18n", "xliff-export", "es", "--output", "es.xlf")
    assert done.code == 0 and done.out == "" and done.err == "", done.err
    assert project.command("i18n", "xliff-import", "es", "es.xlf").out.splitlines()[-1] == (
        "No catalogue changed: es.xlf holds what the catalogues of 'es' hold.")
    assert {path: path.read_bytes() for path in before} == before
    # The title translated anew; the introduction loses its {term:character} token.
    english = project.read(RULES)
    intro = entries_of(english)[INTRO]
    assert "{term:character}" in intro
    retranslate(project.path("es.xlf"), {TITLE: "Personajes solos",
                                         INTRO: "Un personaje no tiene por qué seguir con un regimiento."})
    done = project.command("i18n", "xliff-import", "es", "es.xlf")
    assert (done.code, done.err) == (0, "")
    lines = done.out.splitlines()
    assert re.fullmatch(rf"{re.escape(RULES)}: 2 changed, [1-9]\d* kept, 0 refused", lines[0]), done.out
    assert lines[-1] == "Next: validator lint --language es, then commit the catalogues."
    old, new = entries_of(english), entries_of(project.read(RULES))
    assert [context for context in old if old[context] != new[context]] == [TITLE, INTRO]
    assert {path: path.read_bytes() for path in before if not str(path).endswith(RULES)} == {
        path: data for path, data in before.items() if not str(path).endswith(RULES)}
    lint = project.command("lint", "--language", "es")
    assert lint.code == 1
    assert any(re.match(rf"^{re.escape(RULES)}:\d+: \[{re.escape(INTRO)}\] tokens \(error\): ", line)
               for line in lint.out.splitlines()), lint.out


def test_an_export_made_before_the_english_changed_is_refused_and_nothing_written(project: ProjectCopy) -> None:
    assert project.command("i18n", "xliff-export", "es", "--domain", "rules", "--output", "es.xlf").code == 0
    retranslate(project.path("es.xlf"), {TITLE: "Personajes solos"})
    project.replace("docs/rules/characters-alone.yml", "Characters on their own", "Characters by themselves")
    assert project.command("i18n", "update").code == 0
    catalogue = project.path(RULES).read_bytes()
    done = project.command("i18n", "xliff-import", "es", "es.xlf")
    assert done.code == 1 and project.path(RULES).read_bytes() == catalogue
    lines = done.err.splitlines()
    assert re.fullmatch(rf"es\.xlf:\d+: \[{re.escape(TITLE)}\] the English \(source\) is no longer the "
                        rf"catalogue's: {re.escape(RULES)} changed since the export\. Fix: export again .*",
                        lines[0]), done.err
    assert lines[-2:] == ["1 problem found.", "Nothing written: 1 of the file's units are refused. Fix them, or "
                          "export again and translate in the new file."], done.err
    assert "Traceback" not in done.err


def test_the_engines_catalogues_go_out_and_an_unchanged_file_changes_none(project: ProjectCopy) -> None:
    engine = sorted((ROOT / "validator" / "locale").glob("*/LC_MESSAGES/*.po"))
    before = [path.read_bytes() for path in engine]
    done = project.command("i18n", "xliff-export", "pl", "--engine")
    assert done.code == 0 and 'original="validator/locale/pl/LC_MESSAGES/lint.po"' in done.out
    project.write("pl.xlf", done.out)
    done = project.command("i18n", "xliff-import", "pl", "pl.xlf")
    assert done.code == 0 and done.out.splitlines()[-1].startswith("No catalogue changed"), done.err
    assert [path.read_bytes() for path in engine] == before


def test_each_wrong_argument_is_one_line(project: ProjectCopy) -> None:
    (project.root / "folder").mkdir()
    for arguments, expected in [
        (("xliff-export", "de"), r"validator i18n xliff-export: unknown language 'de'\. Fix: use one of es, pl .*"),
        (("xliff-export", "es", "--domain", "lint"),
         r"validator i18n xliff-export: --domain lint: 'es' has no lint catalogue of the book\. Fix: give "
         r"--engine for the engine's ui and lint"),
        (("xliff-export", "es", "--output", "folder"),
         r"validator i18n xliff-export: --output folder: is a folder\. Fix: give the path of a file, such as es\.xlf"),
        (("xliff-import", "es", "missing.xlf"), r"missing\.xlf: the file does not exist\. Fix: .*"),
    ]:
        done = project.command("i18n", *arguments)
        assert done.code in (1, 2) and re.fullmatch(expected, done.err.splitlines()[0]), done.err
        assert "Traceback" not in done.err


def test_a_tool_that_leaves_targets_out_loses_no_translation_and_the_import_says_so(project: ProjectCopy) -> None:
    """Units without a target, or with an empty one, leave their entries as they were;
    --list names every unit's fate; only --clear-empty empties a translation."""
    assert project.command("i18n", "xliff-export", "es", "--domain", "rules", "--output", "es.xlf").code == 0
    retranslate(project.path("es.xlf"), {TITLE: "Personajes solos"})
    others = 0

    def untranslated(unit: re.Match[str]) -> str:
        """Every unit but the title's without a translation: the first three with no
        target at all, as a tool may leave them, the others with an empty one."""
        nonlocal others
        if f'id="{TITLE}"' in unit.group():
            return unit.group()
        others += 1
        if others <= 3:
            return re.sub(r"\s*<target[^>]*>[^<]*</target>", "", unit.group())
        return re.sub(r"(<target[^>]*>)[^<]*(</target>)", r"\1\2", unit.group())

    project.write("es.xlf", re.sub(r"<trans-unit .*?</trans-unit>", untranslated, project.read("es.xlf"),
                                   flags=re.DOTALL))
    before = project.read(RULES)
    done = project.command("i18n", "xliff-import", "es", "es.xlf", "--list")
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    changed = [line for line in lines if line.startswith("changed ")]
    assert changed == [f"changed  {RULES}:{TITLE}: translation"]
    empty = [line for line in lines if line.endswith(": no translation in the file")]
    assert len(empty) == others > 3 and all(line.startswith("kept ") for line in empty)
    assert f"{len(empty)} units without a translation left their entries as they were" in done.out
    old, new = entries_of(before), entries_of(project.read(RULES))
    assert [context for context in old if old[context] != new[context]] == [TITLE]

    cleared = project.command("i18n", "xliff-import", "es", "es.xlf", "--clear-empty")
    assert cleared.code == 0, cleared.err
    assert re.match(rf"^{re.escape(RULES)}: {len(empty)} changed, ", cleared.out), cleared.out
    after = read_catalog(project.path(RULES), RULES)
    assert {str(message.context) for message in after if message.id and not message.string} == {
        str(message.context) for message in after if message.id} - {TITLE}
