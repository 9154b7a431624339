"""Whose code runs: the engine's, never a file of the book named like the engine or one
of its dependencies; the book's own rules core is found after them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import ProjectCopy

from validator.serve import build_command

SHADOW = "from pathlib import Path\nPath(__file__).with_name('SHADOW-RAN').write_text('{name}')\nraise SystemExit(99)\n"
"""A module of the book that, if imported, leaves a mark and stops the command."""


def _shadow(project: ProjectCopy, *names: str) -> Path:
    for name in names:
        path = project.path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(SHADOW.format(name=name), encoding="utf-8")
    return project.path("SHADOW-RAN")


def test_the_background_build_of_the_preview_runs_the_engine(project: ProjectCopy, tmp_path: Path) -> None:
    mark = _shadow(project, "validator/__init__.py", "validator/__main__.py", "jinja2.py", "babel/__init__.py")
    site = tmp_path / "site"
    done = subprocess.run(build_command(project.root, site), cwd=project.root, capture_output=True, text=True,
                          timeout=600)
    assert not mark.exists(), mark.read_text()
    assert done.returncode == 0, done.stderr
    assert (site / "en" / "index.html").is_file()


def test_a_rules_core_beside_the_rulebook_is_found_after_the_dependencies(project: ProjectCopy) -> None:
    mark = _shadow(project, "mkdocs.py", "pydantic_core.py")
    project.write("bookcore.py", "from whfb6.scenarios import RULESET\n")
    project.replace("rulebook.yml", "ruleset: whfb6.scenarios:RULESET", "ruleset: bookcore:RULESET")
    script = Path(sys.executable).with_name("validator")
    done = subprocess.run([str(script), "check"], cwd=project.root, capture_output=True, text=True, timeout=600)
    assert not mark.exists(), mark.read_text()
    assert done.returncode == 0, done.stderr
