"""``validator build --language CODE``: one language's site per job (a CI matrix)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_language_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "validator", "build", "--language", "xx",
                           "--site-dir", str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "validator build: unknown language 'xx'. Fix: use one of en, es, pl (the languages of rulebook.yml)"]
    assert not (tmp_path / "site").exists()


def validator(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "validator", *arguments], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def part_with(site: Path, part: Path, code: str) -> Path:
    """A folder like one ``build --language CODE`` job leaves: the marker, the root
    page, the open data and that language's site alone."""
    shutil.copytree(site, part)
    for other in ("en", "es", "pl"):
        if other != code:
            shutil.rmtree(part / other)
    return part


def test_one_language_per_job_assembles_into_the_whole_site(built_site: Path, tmp_path: Path) -> None:
    done = validator("build", "--language", "pl", "--site-dir", str(tmp_path / "part-pl"))
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in (tmp_path / "part-pl").iterdir() if path.name != ".validator-site") == [
        "api", "index.html", "pl"]
    # The job's language site is the one a whole build makes.
    assert files_of(tmp_path / "part-pl" / "pl") == files_of(built_site / "pl")
    parts = [part_with(built_site, tmp_path / f"part-{code}", code) for code in ("en", "es")]
    done = validator("assemble", *map(str, parts), str(tmp_path / "part-pl"), "--site-dir", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"assembled {tmp_path / 'site' / code}" for code in ("en", "es", "pl")]
    assert files_of(tmp_path / "site") == files_of(built_site)


def test_assembling_needs_every_language_once_and_only_sites(built_site: Path, tmp_path: Path) -> None:
    english = part_with(built_site, tmp_path / "part-en", "en")
    spanish = part_with(built_site, tmp_path / "part-es", "es")
    target = tmp_path / "site"

    done = validator("assemble", str(english), str(spanish), "--site-dir", str(target))
    assert done.returncode == 1
    assert done.stderr.splitlines()[0].endswith(
        "[pl] no part holds the site of the language pl. Fix: build it with validator build --language pl and "
        "give its folder")
    assert not target.exists()

    done = validator("assemble", str(english), str(english), str(spanish), "--site-dir", str(target))
    assert done.returncode == 1 and "the language en is also in" in done.stderr
    assert not target.exists()

    stray = tmp_path / "stray"
    (stray / "pl").mkdir(parents=True)
    (stray / "pl" / "index.html").write_text("not ours", encoding="utf-8")
    done = validator("assemble", str(english), str(spanish), str(stray), "--site-dir", str(target))
    assert done.returncode == 1
    assert f"{stray}: is not a site built by validator build" in done.stderr
    assert not target.exists()


WORKFLOW = ROOT / ".github" / "workflows" / "site.yml"


def workflow_problems(workflow: dict[str, Any], languages: list[str]) -> list[str]:
    """What would make the CI workflow build another site than ``validator build``:
    a language missing from (or foreign to) the matrix, a command the tool lacks."""
    from validator.cli import parse_arguments

    problems = []
    jobs = workflow["jobs"]
    matrix = jobs["language"]["strategy"]["matrix"]["language"]
    if sorted(matrix) != sorted(languages):
        problems.append(f"the matrix builds {matrix}, the rulebook has {languages}")
    for name, job in jobs.items():
        for step in job["steps"]:
            command = step.get("run", "")
            if not command.startswith("validator "):
                continue
            for code in matrix if "matrix.language" in command else [None]:
                words = shlex.split(command.replace("${{ matrix.language }}", code or ""))
                try:
                    parse_arguments(words[1:])
                except SystemExit:
                    problems.append(f"{name}: {command!r} is not a validator command")
    return problems


def test_the_ci_workflow_builds_every_language_and_assembles_them() -> None:
    from ruamel.yaml import YAML

    from validator.content.project import load_project

    workflow = YAML(typ="safe").load(WORKFLOW.read_text(encoding="utf-8"))
    languages = [language.code for language in load_project(ROOT).languages]
    assert workflow_problems(workflow, languages) == []
    commands = [step.get("run", "") for job in workflow["jobs"].values() for step in job["steps"]]
    assert any(command.startswith("validator build --language") for command in commands)
    assert any(command.startswith("validator assemble") for command in commands)
    # The kept results travel from the check to the language jobs, in the folder the tool uses.
    from validator.resultcache import cache_folder

    kept = [(name, step["with"]["path"]) for name, job in workflow["jobs"].items() for step in job["steps"]
            if str(step.get("uses", "")).startswith("actions/cache")]
    assert {name for name, _ in kept} == {"check", "language"}
    default = cache_folder(ROOT, {})
    assert default is not None
    assert all(Path(path).expanduser() == default.parent for _, path in kept)
    # Broken on purpose: a language left out, and a command the tool does not have.
    workflow["jobs"]["language"]["strategy"]["matrix"]["language"] = languages[:-1]
    workflow["jobs"]["assemble"]["steps"][-2]["run"] = "validator assemble --sites parts"
    assert len(workflow_problems(workflow, languages)) == 2
