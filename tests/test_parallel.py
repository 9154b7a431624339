"""Jobs run in forked workers: each job's end is reported, a job's problems come back
as problems, and a worker that dies is named by its job."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from validator.problems import Problem, ProblemsFound
from validator.site.parallel import JOBS_VARIABLE, run_per_language


@pytest.fixture(autouse=True)
def two_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(JOBS_VARIABLE, "2")


def test_every_job_ends_once_and_what_it_returned_comes_back() -> None:
    ended = list(run_per_language(lambda code: (os.getpid(), code.upper()), ["en", "es", "open data"]))
    assert sorted(result for _code, (_pid, result) in ended) == ["EN", "ES", "OPEN DATA"]
    assert {code: result for code, (_pid, result) in ended} == {"en": "EN", "es": "ES", "open data": "OPEN DATA"}
    assert os.getpid() not in {pid for _code, (pid, _result) in ended}  # the jobs ran in workers


def test_the_problems_of_every_failed_job_come_back_together() -> None:
    def job(code: str) -> None:
        if code != "en":
            raise ProblemsFound([Problem("x.po", 3, code, "wrong", "fix it")])

    with pytest.raises(ProblemsFound) as found:
        list(run_per_language(job, ["en", "es", "pl"]))
    assert sorted(problem.subject for problem in found.value.problems) == ["es", "pl"]


@pytest.mark.parametrize("dying", ["pl", "open data"])
def test_a_worker_that_dies_names_the_jobs_left_undone(dying: str) -> None:
    def job(code: str) -> None:
        if code == dying:
            os._exit(9)

    with pytest.raises(ProblemsFound) as found:
        list(run_per_language(job, ["en", "pl", "open data"]))
    [problem] = found.value.problems
    assert dying in problem.subject.split(", ")
    assert "a build process died" in problem.message and "language" not in problem.message


def test_a_job_starts_only_after_its_prerequisite_ended(tmp_path: Path) -> None:
    def job(name: str) -> None:
        if name.startswith("pages of "):
            time.sleep(0.2)
            (tmp_path / name).write_text("done")
        elif name != "open data" and not (tmp_path / f"pages of {name}").exists():
            raise ProblemsFound([Problem("", 0, name, "built before its pages", "")])

    names = ["pages of en", "pages of es", "pages of pl", "en", "es", "pl", "open data"]
    after = {code: f"pages of {code}" for code in ("en", "es", "pl")}
    ended = [name for name, _result in run_per_language(job, names, after=after)]
    assert sorted(ended) == sorted(names)
    for code, prerequisite in after.items():
        assert ended.index(prerequisite) < ended.index(code)


def test_the_jobs_after_a_failed_one_do_not_run(tmp_path: Path) -> None:
    def job(name: str) -> None:
        (tmp_path / name).write_text("ran")
        if name == "pages of es":
            raise ProblemsFound([Problem("es.po", 1, "es", "wrong", "fix it")])

    with pytest.raises(ProblemsFound) as found:
        list(run_per_language(job, ["pages of en", "pages of es", "en", "es"],
                              after={"en": "pages of en", "es": "pages of es"}))
    assert [problem.subject for problem in found.value.problems] == ["es"]
    assert (tmp_path / "en").exists() and not (tmp_path / "es").exists()
