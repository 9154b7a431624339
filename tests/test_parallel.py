"""Jobs run in forked workers: each job's end is reported, a job's problems come back
as problems, and a worker that dies is named by its job."""

from __future__ import annotations

import os

import pytest

from validator.problems import Problem, ProblemsFound
from validator.site.parallel import JOBS_VARIABLE, run_per_language


@pytest.fixture(autouse=True)
def two_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(JOBS_VARIABLE, "2")


def test_every_job_ends_once() -> None:
    assert sorted(run_per_language(lambda code: None, ["en", "es", "open data"])) == ["en", "es", "open data"]


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
