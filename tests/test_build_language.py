"""``validator build --language CODE``: one language's site per job (a CI matrix)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_an_unknown_language_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "validator", "build", "--language", "xx",
                           "--site-dir", str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "validator build: unknown language 'xx'. Fix: use one of en, es, pl (the languages of rulebook.yml)"]
    assert not (tmp_path / "site").exists()
