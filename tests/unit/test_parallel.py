"""Jobs run in forked workers: each job's end is reported, a job's problems come back
as problems, and a worker that dies is named by its job."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from validator.parallel import JOBS_VARIABLE, run_jobs
from validator.problems import Problem, ProblemsFound


@pytest.fixture(autouse=True)
def two_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(JOBS_VARIABLE, "2")


def test_every_job_ends_once_and_what_it_returned_comes_back() -> None:
    ended = list(run_jobs(lambda code: (os.getpid(), code.upper()), ["en", "es", "open data"]))
    assert sorted(result for _code, (_pid, result) in ended) == ["EN", "ES", "OPEN DATA"]
    assert {code: result for code, (_pid, result) in ended} == {"en": "EN", "es": "ES", "open data": "OPEN DATA"}
    assert os.getpid() not in {pid for _code, (pid, _result) in ended}  # the jobs ran in workers


def test_the_problems_of_every_failed_job_come_back_together() -> None:
    def job(code: str) -> None:
        if code != "en":
            raise ProblemsFound([Problem("x.po", 3, code, "wrong", "fix it")])

    with pytest.raises(ProblemsFound) as found:
        list(run_jobs(job, ["en", "es", "pl"]))
    assert sorted(problem.subject for problem in found.value.problems) == ["es", "pl"]


@pytest.mark.parametrize("dying", ["pl", "open data"])
def test_a_job_whose_process_dies_is_named_and_the_others_end(dying: str) -> None:
    def job(code: str) -> str:
        if code == dying:
            os._exit(9)
        return code

    ended: list[str] = []
    with pytest.raises(ProblemsFound) as found:
        ended.extend(code for code, _result in run_jobs(job, ["en", "pl", "open data"]))
    [problem] = found.value.problems
    assert problem.subject == dying
    assert "the process running this job died" in problem.message and "exit status 9" in problem.message
    assert sorted(ended) == sorted({"en", "pl", "open data"} - {dying})


def test_a_job_runs_in_a_process_of_its_own() -> None:
    """Each job's memory goes back to the system as it ends: no process runs two jobs."""
    pids = [pid for _code, pid in run_jobs(lambda code: os.getpid(), ["a", "b", "c", "d"])]
    assert len(set(pids)) == 4 and os.getpid() not in pids


def test_an_unexpected_error_in_a_job_is_raised_in_the_build() -> None:
    def job(code: str) -> None:
        if code == "es":
            raise KeyError("no such page")

    with pytest.raises(KeyError, match="no such page"):
        list(run_jobs(job, ["en", "es"]))


def test_a_job_starts_only_after_its_prerequisite_ended(tmp_path: Path) -> None:
    def job(name: str) -> None:
        if name.startswith("pages of "):
            time.sleep(0.2)
            (tmp_path / name).write_text("done")
        elif name != "open data" and not (tmp_path / f"pages of {name}").exists():
            raise ProblemsFound([Problem("", 0, name, "built before its pages", "")])

    names = ["pages of en", "pages of es", "pages of pl", "en", "es", "pl", "open data"]
    after = {code: f"pages of {code}" for code in ("en", "es", "pl")}
    ended = [name for name, _result in run_jobs(job, names, after=after)]
    assert sorted(ended) == sorted(names)
    for code, prerequisite in after.items():
        assert ended.index(prerequisite) < ended.index(code)


def test_the_jobs_after_a_failed_one_do_not_run(tmp_path: Path) -> None:
    def job(name: str) -> None:
        (tmp_path / name).write_text("ran")
        if name == "pages of es":
            raise ProblemsFound([Problem("es.po", 1, "es", "wrong", "fix it")])

    with pytest.raises(ProblemsFound) as found:
        list(run_jobs(job, ["pages of en", "pages of es", "en", "es"],
                              after={"en": "pages of en", "es": "pages of es"}))
    assert [problem.subject for problem in found.value.problems] == ["es"]
    assert (tmp_path / "en").exists() and not (tmp_path / "es").exists()


@pytest.fixture
def without_fork_or_affinity(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system like macOS or Windows: no CPU affinity, and no fork among the start methods."""
    import multiprocessing

    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])


@pytest.mark.usefixtures("without_fork_or_affinity")
def test_without_fork_the_jobs_run_one_after_the_other_in_the_command() -> None:
    from validator.parallel import jobs

    assert jobs(4) == 1
    ended = list(run_jobs(lambda code: (os.getpid(), code), ["en", "es", "pl"]))
    assert ended == [(code, (os.getpid(), code)) for code in ("en", "es", "pl")]


def test_without_affinity_the_cores_are_those_the_system_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.parallel import jobs, usable_cores

    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    monkeypatch.delenv(JOBS_VARIABLE)
    assert usable_cores() == 3
    assert jobs(8) == 3
    monkeypatch.setattr(os, "cpu_count", lambda: None)  # a count the system does not know
    assert usable_cores() == 1
