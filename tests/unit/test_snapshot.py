"""The restorable copy that tests share (``reused_project``) must come back exactly as it
was after any damage the broken-input corpus does: a file rewritten, removed, replaced by
a folder, a link or a FIFO, a file or folder added, a mode changed."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import Snapshot


def state(root: Path) -> dict[str, tuple[str, bytes, int, int]]:
    found: dict[str, tuple[str, bytes, int, int]] = {}
    for folder, names, files in os.walk(root):
        for name in [*names, *files]:
            path = Path(folder) / name
            status = path.lstat()
            kind = "link" if path.is_symlink() else "folder" if path.is_dir() else "file" if path.is_file() else "other"
            found[str(path.relative_to(root))] = (kind, path.read_bytes() if kind == "file" else b"",
                                                  status.st_mode, status.st_mtime_ns if kind == "file" else 0)
    return found


def test_every_kind_of_damage_is_undone(tmp_path: Path) -> None:
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    for name in ("rulebook.yml", "docs/glossary.yml", "docs/rules/one.yml", "docs/rules/two.yml", "docs/three.yml"):
        (tmp_path / name).write_text(f"text of {name}\n", encoding="utf-8")
    os.utime(tmp_path / "rulebook.yml", ns=(1_000_000_000, 1_000_000_000))
    before = state(tmp_path)
    snapshot = Snapshot(tmp_path)

    (tmp_path / "rulebook.yml").write_text("text of rulebook.ym\n", encoding="utf-8")  # same size
    (tmp_path / "docs/glossary.yml").unlink()
    (tmp_path / "docs/rules/one.yml").unlink()
    (tmp_path / "docs/rules/one.yml").mkdir()
    (tmp_path / "docs/rules/one.yml/inside.txt").write_text("x", encoding="utf-8")
    (tmp_path / "docs/rules/two.yml").unlink()
    (tmp_path / "docs/rules/two.yml").symlink_to(tmp_path / "rulebook.yml")
    (tmp_path / "docs/three.yml").chmod(0o600)
    os.mkfifo(tmp_path / "docs/pipe.yml")
    (tmp_path / "site" / "en").mkdir(parents=True)
    (tmp_path / "site" / "en" / "index.html").write_text("<p>made</p>", encoding="utf-8")
    (tmp_path / "linked").symlink_to(tmp_path / "docs", target_is_directory=True)
    assert state(tmp_path) != before

    snapshot.restore()
    assert state(tmp_path) == before
    snapshot.restore()  # nothing to do: nothing changes
    assert state(tmp_path) == before
