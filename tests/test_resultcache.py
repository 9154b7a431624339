"""Results kept between runs (validator.resultcache): a check with a warm cache says
exactly what a check without one says, after any edit, and the cache never costs
a failure or a file in the project."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
from conftest import ProjectCopy, Run, break_a_polish_number

from validator import resultcache
from validator.checks import lint
from validator.resultcache import CACHE_VARIABLE, Bucket, cache_folder, core_digest


def cache_of(project: ProjectCopy) -> Path:
    folder = cache_folder(project.root)
    assert folder is not None
    return folder


def same(run: Run, other: Run) -> None:
    assert (run.code, run.out, run.err) == (other.code, other.out, other.err)


def uncached(project: ProjectCopy, *arguments: str) -> Run:
    return project.validator(*arguments, "--no-cache")


def test_a_warm_check_says_what_a_cold_one_says_and_writes_nothing_in_the_project(project: ProjectCopy) -> None:
    before = sorted(path.relative_to(project.root) for path in project.root.rglob("*"))
    cold = project.validator("check")
    assert cold.code == 0, cold.err
    kept = sorted(path.name for path in cache_of(project).iterdir())
    assert {"inputs-po.pickle", "inputs-yaml-Chapter.pickle", "examples.pickle", "lint-source.pickle",
            "lint-es.pickle", "lint-pl.pickle"} <= set(kept)
    warm = project.validator("check")
    same(warm, cold)
    same(warm, uncached(project, "check"))
    assert sorted(path.relative_to(project.root) for path in project.root.rglob("*")) == before


def test_each_edit_is_seen_by_the_next_check(project: ProjectCopy) -> None:
    """Every kind of kept result, made stale by an edit: a parsed YAML file, an
    example's outcome, a catalogue, a message's lint findings."""
    assert project.validator("check").code == 0
    # A worked example's stated outcome (its YAML file and its outcome are kept).
    stated = "expect: {kind: monstrous, rider_save: 5, "
    line = project.replace("docs/rules/monstrous-mounts.yml", stated, stated.replace("5", "6"))
    broken = project.validator("check")
    assert broken.code == 1
    assert f"docs/rules/monstrous-mounts.yml:{line}:" in broken.err
    assert "expected rider_save = 6, computed 5" in broken.err
    same(broken, uncached(project, "check"))
    project.replace("docs/rules/monstrous-mounts.yml", stated.replace("5", "6"), stated)
    assert project.validator("check").code == 0
    # A number in a translation (the catalogue and that message's findings are kept).
    line = break_a_polish_number(project)
    broken = project.validator("check")
    assert broken.code == 1
    assert f"locales/pl/LC_MESSAGES/rules.po:{line}:" in broken.err and "numbers: numbers or dice differ" in broken.err
    same(broken, uncached(project, "check"))


def test_a_glossary_edit_relints_messages_that_did_not_change(project: ProjectCopy) -> None:
    """The lint's findings for a message are kept by the message and the glossary:
    forbidding a word makes every unchanged message that uses it an error."""
    assert project.validator("check").code == 0
    project.replace("docs/glossary.yml", "forbidden:\n      es: [espader]", "forbidden:\n      es: [espadach]")
    broken = project.validator("check")
    assert broken.code == 1
    assert "terminology: 'espadach" in broken.err
    same(broken, uncached(project, "check"))


def test_the_glossary_test_fails_when_the_lint_key_leaves_the_glossary_out(project: ProjectCopy,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: with a key that leaves the glossary out, the edit goes
    unseen and the stale, clean findings are given back."""
    from validator.cli import main

    monkeypatch.setattr(lint.LintContext, "key", property(lambda context: resultcache.digest(context.language)))
    assert main(["--project", str(project.root), "check"]) == 0
    project.replace("docs/glossary.yml", "forbidden:\n      es: [espader]", "forbidden:\n      es: [espadach]")
    assert main(["--project", str(project.root), "check"]) == 0  # stale: the flawed key hides the error
    assert main(["--project", str(project.root), "check", "--no-cache"]) == 1


def test_a_damaged_or_foreign_cache_is_only_results_not_kept(project: ProjectCopy) -> None:
    cold = project.validator("check")
    folder = cache_of(project)
    (folder / "inputs-po.pickle").write_bytes(b"validator-results-1\nnot this tool\n" + pickle.dumps({}))
    (folder / "inputs-yaml-Chapter.pickle").write_bytes(b"validator-results-1\n" + resultcache.fingerprint()
                                                        + b"\n" + pickle.dumps({("yaml:Chapter", "x"): 1})[:-3])
    (folder / "examples.pickle").write_bytes(b"\x00garbage")
    (folder / "lint-es.pickle").write_bytes(b"")
    same(project.validator("check"), cold)
    same(project.validator("check"), cold)


def test_a_cache_folder_that_cannot_be_written_costs_nothing(project: ProjectCopy, tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    environment = {**os.environ, CACHE_VARIABLE: str(blocked)}
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "validator", "check"], cwd=project.root, env=environment,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and "no problems" in done.stdout


def test_turned_off_nothing_is_kept(project: ProjectCopy, monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.cli import main

    assert main(["--project", str(project.root), "check", "--no-cache"]) == 0
    assert not cache_of(project).exists()
    monkeypatch.setenv(CACHE_VARIABLE, "")
    assert cache_folder(project.root) is None
    assert main(["--project", str(project.root), "check"]) == 0


def test_results_made_by_other_code_are_never_read(tmp_path: Path) -> None:
    bucket = Bucket(tmp_path / "b.pickle", b"one")
    bucket.put("key", ("result",))
    bucket.save()
    assert Bucket(tmp_path / "b.pickle", b"one").get("key") == ("result",)
    assert Bucket(tmp_path / "b.pickle", b"two").get("key") is None


def test_a_bucket_keeps_at_most_twice_what_a_run_uses(tmp_path: Path) -> None:
    path = tmp_path / "b.pickle"
    for run in range(10):
        bucket = Bucket(path, b"code")
        for entry in range(100):
            bucket.put((run, entry), "found")  # every run's keys new, as after edits of everything
        bucket.save()
    with path.open("rb") as stream:
        stream.readline(), stream.readline()
        assert len(pickle.load(stream)) <= 200


def test_a_rules_core_outside_the_package_is_part_of_its_outcomes_key(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "clubcore"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text("RULESET = None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = core_digest("clubcore.rules:RULESET")
    core_digest.cache_clear()
    (package / "rules.py").write_text("RULESET = None  # a rule mended\n")
    assert core_digest("clubcore.rules:RULESET") != before
    core_digest.cache_clear()
