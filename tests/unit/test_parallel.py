"""Jobs run in forked workers: each job's end is reported, a job's problems come back
as problems, and a worker that dies is named by its job."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from validator.parallel import Job, run_jobs
from validator.problems import Problem, ProblemsFound

WORKERS = 2


def named(work: Callable[[str], Any], *names: str) -> list[Job[Any]]:
    """One job per name, each doing ``work(name)``."""
    return [Job(name, lambda name=name: work(name)) for name in names]  # type: ignore[misc]


def test_every_job_ends_once_and_what_it_returned_comes_back() -> None:
    ended = list(run_jobs(named(lambda code: (os.getpid(), code.upper()), "en", "es", "open data"), WORKERS))
    assert {job.name: result for job, (_pid, result) in ended} == {"en": "EN", "es": "ES", "open data": "OPEN DATA"}
    assert len(ended) == 3
    assert os.getpid() not in {pid for _job, (pid, _result) in ended}  # the jobs ran in workers


def test_the_problems_of_every_failed_job_come_back_together() -> None:
    def work(code: str) -> None:
        if code != "en":
            raise ProblemsFound([Problem("x.po", 3, code, "wrong", "fix it")])

    with pytest.raises(ProblemsFound) as found:
        list(run_jobs(named(work, "en", "es", "pl"), WORKERS))
    assert sorted(problem.subject for problem in found.value.problems) == ["es", "pl"]


@pytest.mark.parametrize("dying", ["pl", "open data"])
def test_a_job_whose_process_dies_is_named_and_the_others_end(dying: str) -> None:
    def work(code: str) -> str:
        if code == dying:
            os._exit(9)
        return code

    ended: list[str] = []
    with pytest.raises(ProblemsFound) as found:
        ended.extend(job.name for job, _result in run_jobs(named(work, "en", "pl", "open data"), WORKERS))
    [problem] = found.value.problems
    assert problem.subject == dying
    assert "the process running this job died" in problem.message and "exit status 9" in problem.message
    assert sorted(ended) == sorted({"en", "pl", "open data"} - {dying})


def test_a_job_runs_in_a_process_of_its_own() -> None:
    """Each job's memory goes back to the system as it ends: no process runs two jobs."""
    pids = [pid for _job, pid in run_jobs(named(lambda _name: os.getpid(), "a", "b", "c", "d"), WORKERS)]
    assert len(set(pids)) == 4 and os.getpid() not in pids


def test_an_unexpected_error_in_a_job_is_raised_in_the_build() -> None:
    def work(code: str) -> None:
        if code == "es":
            raise KeyError("no such page")

    with pytest.raises(KeyError, match="no such page"):
        list(run_jobs(named(work, "en", "es"), WORKERS))


def pages_then_sites(tmp_path: Path, failing: str | None = None) -> list[Job[Any]]:
    """A job per language's pages, then one per language's site, which needs its pages
    written; and the open data, which needs nothing."""
    def pages(code: str) -> None:
        time.sleep(0.2)
        (tmp_path / f"pages of {code}").write_text("done")
        if code == failing:
            raise ProblemsFound([Problem(f"{code}.po", 1, code, "wrong", "fix it")])

    def site(code: str) -> None:
        (tmp_path / code).write_text("ran")
        if not (tmp_path / f"pages of {code}").exists():
            raise ProblemsFound([Problem("", 0, code, "built before its pages", "")])

    renders = {code: Job(f"pages of {code}", lambda code=code: pages(code)) for code in ("en", "es", "pl")}
    return [*renders.values(), *(Job(code, lambda code=code: site(code), after=renders[code]) for code in renders),
            Job("open data", lambda: None)]


def test_a_job_starts_only_after_its_prerequisite_ended(tmp_path: Path) -> None:
    jobs = pages_then_sites(tmp_path)
    ended = [job for job, _result in run_jobs(jobs, WORKERS)]
    assert sorted(job.name for job in ended) == sorted(job.name for job in jobs)
    for job in jobs:
        if job.after is not None:
            assert ended.index(job.after) < ended.index(job)


def test_the_jobs_after_a_failed_one_do_not_run(tmp_path: Path) -> None:
    with pytest.raises(ProblemsFound) as found:
        list(run_jobs(pages_then_sites(tmp_path, failing="es"), WORKERS))
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
    from validator.parallel import processes

    assert processes(4, 8) == 1
    ended = list(run_jobs(named(lambda code: (os.getpid(), code), "en", "es", "pl"), WORKERS))
    assert [(job.name, result) for job, result in ended] == [(code, (os.getpid(), code)) for code in ("en", "es", "pl")]


def test_without_affinity_the_cores_are_those_the_system_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.parallel import processes, usable_cores

    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert usable_cores() == 3
    assert processes(8, usable_cores()) == 3
    monkeypatch.setattr(os, "cpu_count", lambda: None)  # a count the system does not know
    assert usable_cores() == 1
