"""`validator i18n update` on an up-to-date tree changes nothing: a clean checkout stays
clean, and a file is rewritten (and re-dated) only when its messages changed."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from tests.conftest import ProjectCopy
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
