"""`validator i18n update` on an up-to-date tree changes nothing: a clean checkout stays
clean, and a file is rewritten (and re-dated) only when its messages changed."""

from __future__ import annotations

import difflib
import re
import stat
from pathlib import Path

import pytest
from conftest import ProjectCopy

from validator.cli import main


def _catalogue_bytes(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted((root / "locales").rglob("*.po*"))}


def _update(project: ProjectCopy, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", str(project.root), "i18n", "update"]) == 0
    capsys.readouterr()


def test_a_second_update_changes_no_byte(project: ProjectCopy, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    project.replace("docs/rules/chariots.yml", "title: Characters riding chariots",
                    "title: Characters who ride chariots")
    _update(project, capsys)
    first = _catalogue_bytes(project.root)
    _update(project, capsys)
    assert _catalogue_bytes(project.root) == first


def test_the_bundled_catalogues_are_up_to_date(project: ProjectCopy, capsys: pytest.CaptureFixture[str]) -> None:
    """What `git status` after an update would show on the bundled project: nothing."""
    before = _catalogue_bytes(project.root)
    _update(project, capsys)
    after = _catalogue_bytes(project.root)
    assert [name for name in before if before[name] != after.get(name)] == []
    assert after.keys() == before.keys()


def test_a_changed_text_rewrites_only_its_files_dated_by_source_date_epoch(
        project: ProjectCopy, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _update(project, capsys)
    before = _catalogue_bytes(project.root)
    project.path("locales/es/LC_MESSAGES/rules.po").chmod(0o640)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    project.replace("docs/rules/chariots.yml", "title: Characters riding chariots",
                    "title: Characters who ride chariots")
    _update(project, capsys)
    after = _catalogue_bytes(project.root)
    changed = sorted(name for name in before if before[name] != after[name])
    assert changed == ["locales/es/LC_MESSAGES/rules.po", "locales/pl/LC_MESSAGES/rules.po", "locales/rules.pot"]
    assert b'"POT-Creation-Date: 1970-01-02 00:00+0000\\n"' in after["locales/rules.pot"]
    assert b"#| msgid \"Characters riding chariots\"" in after["locales/es/LC_MESSAGES/rules.po"]
    # Rewritten in place of the old file, with the old file's permissions (not mkstemp's 0600).
    assert stat.S_IMODE(project.path("locales/es/LC_MESSAGES/rules.po").stat().st_mode) == 0o640


def _blocks(text: str) -> dict[str, str]:
    """A catalogue's entries by their msgctxt and msgid, the header (the first) under ''."""
    header, *entries = text.split("\n\n")
    found = {"": header}
    for block in entries:
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        found["\n".join(lines[:next((n for n, line in enumerate(lines) if line.startswith("msgstr")), None)])] = block
    return found


def test_one_edited_sentence_changes_only_its_entry(project: ProjectCopy, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """What a reviewer reads after one English edit that also moves the lines below
    it: that entry's lines, and the template's date, in each catalogue; nothing else."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    _update(project, capsys)
    before = {name: data.decode() for name, data in _catalogue_bytes(project.root).items()}
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "172800")
    project.replace("docs/rules/chariots.yml", "the character and the chariot. Roll a",
                    "the character\n      and the chariot, one hit at a time. Roll a")
    _update(project, capsys)
    after = {name: data.decode() for name, data in _catalogue_bytes(project.root).items()}
    context = 'msgctxt "chariots/shooting-hit-allocation#text"'
    for name in before:
        old, new = _blocks(before[name]), _blocks(after[name])
        changed = {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}
        if name.endswith("labels.po") or name.endswith("labels.pot"):
            assert changed == set(), name
            continue
        entries = {key for key in changed if key.startswith(context)}
        assert len(entries) == 2 and changed - {""} == entries, (name, changed)  # the entry's old and new English
        header_lines = set(new[""].splitlines()) ^ set(old[""].splitlines())
        assert all("POT-Creation-Date" in line for line in header_lines), header_lines
        # The lines a diff shows: the entry's, and at most the header's date.
        diff = [line for line in difflib.unified_diff(before[name].splitlines(), after[name].splitlines(), n=0)
                if line[:1] in "+-" and not line.startswith(("+++", "---"))]
        entry_lines = {line for key in entries for block in (old.get(key), new.get(key)) if block
                       for line in block.splitlines()}
        assert len([line for line in diff if line[1:] not in entry_lines]) <= 2, diff
        if name.endswith(".po"):
            entry = next(new[key] for key in entries if key in new)
            assert '#| msgid ""' in entry and "#, fuzzy" in entry


def test_locations_name_the_file_and_an_option_keeps_the_line(project: ProjectCopy,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    _update(project, capsys)
    assert "#: docs/rules/chariots.yml\nmsgctxt" in project.read("locales/es/LC_MESSAGES/rules.po")
    assert main(["--project", str(project.root), "i18n", "update", "--line-numbers"]) == 0
    assert re.search(r"^#: docs/rules/chariots\.yml:\d+\nmsgctxt", project.read("locales/es/LC_MESSAGES/rules.po"),
                     re.MULTILINE)


def test_every_shipped_catalogue_has_a_real_header() -> None:
    """No header a template left to fill in: not fuzzy (msgfmt would ignore its plural
    rule), no placeholder for a project, a version, an author or an address."""
    root = Path(__file__).resolve().parents[2]
    for path in sorted([*root.glob("locales/*/LC_MESSAGES/*.po"), *root.glob("validator/locale/*/LC_MESSAGES/*.po")]):
        header = path.read_text(encoding="utf-8").split("\n\n", 1)[0]
        assert "#, fuzzy" not in header, path
        assert not [word for word in ("PROJECT", "VERSION", "FIRST AUTHOR", "EMAIL@ADDRESS", "ORGANIZATION",
                                      "FULL NAME") if word in header], (path, header)
