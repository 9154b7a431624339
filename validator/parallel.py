"""Run a build's jobs (a language's pages, its MkDocs build, the lint, the open data)
in processes of their own, as many at once as there are cores.

MkDocs spends most of a build in pure Python, so languages built one after the
other leave every core but one idle.  Each job runs in a process forked from the
build for it alone: it inherits the loaded rulebook and the checks' results instead
of receiving them through a pipe, and its memory goes back to the system when it
ends (a worker kept for several jobs holds the largest heap any of them grew, and
two such workers were most of a build's peak memory).  Each dies with the build (a
killed build leaves no process writing into its staging folder).  A job's
:class:`ProblemsFound` comes back as its problems, so the report stays one line
per problem; a job whose process dies is named.  Where processes cannot be forked
(macOS' and Windows' default start methods would load the whole project again in
each), the jobs run one after the other in the command, with the same results.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import pickle
import re
import signal
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TypeVar

from validator.problems import Problem, ProblemsFound, printable

T = TypeVar("T")
R = TypeVar("R")

JOBS_VARIABLE = "VALIDATOR_JOBS"
"""How many jobs to run at once (default: the number of usable cores)."""

PR_SET_PDEATHSIG = 1



@dataclass(frozen=True, eq=False)
class Job(Generic[R]):
    """A piece of work that may run in a process of its own: what messages call it,
    what it does, and the job that must end well before it starts (a language's
    MkDocs build after its pages are rendered)."""

    name: str
    work: Callable[[], R]
    after: Job[Any] | None = None


def processes(count: int, workers: int) -> int:
    """Processes for ``count`` jobs: at most ``workers``, none for one job, and none
    where processes cannot be forked (macOS' and Windows' default start methods would
    load the whole project again in each process): the jobs then run one after the other."""
    return min(workers, count) if can_fork() else min(1, count)


@dataclass(frozen=True)
class JobsSetting:
    """How many processes a command may run at once, as the user set it (``None``:
    one per core), and the line that says it was capped, if it was."""

    count: int | None
    note: str | None = None


class BadJobsSetting(ValueError):
    """A ``VALIDATOR_JOBS`` that is no number of processes: the line that says so."""


def jobs_setting(flag: int | None, environment: Mapping[str, str]) -> JobsSetting:
    """The number of processes of ``--jobs`` (``flag``, already a whole number, 1 or
    more), else of ``VALIDATOR_JOBS`` (unset or empty: one per core), capped at the
    cores this process may use: more processes than cores only share them, each with
    a whole copy of the book in memory.  Raises :class:`BadJobsSetting` for a variable
    that is not a whole number, 1 or more."""
    if flag is not None:
        wanted, named = flag, f"--jobs {flag}"
    else:
        value = environment.get(JOBS_VARIABLE, "")
        if not value.strip():
            return JobsSetting(None)
        count = job_count(value)
        if count is None:
            raise BadJobsSetting(f"{JOBS_VARIABLE}={printable(value)[:40]} is not a number of processes. Fix: give "
                                 f"a whole number, 1 or more, or unset {JOBS_VARIABLE} (one process per core)")
        wanted, named = count, f"{JOBS_VARIABLE}={value.strip()[:20]}"
    cores = usable_cores()
    if wanted <= cores:
        return JobsSetting(wanted)
    return JobsSetting(cores, f"{named} is more than the {cores} core{'s' if cores != 1 else ''} this process may "
                       f"use: {cores} process{'es' if cores != 1 else ''} at once")


def job_count(text: str) -> int | None:
    """A number of processes written as a whole number, 1 or more, in ASCII digits (a
    number of more digits than any machine has cores counts as all of them); None
    for anything else.

    >>> job_count(" 3 "), job_count("0"), job_count("1;id"), job_count("\u00b2"), job_count("9" * 5000)
    (3, None, None, None, 1000000000)
    """
    digits = text.strip().lstrip("0")
    if not re.fullmatch(r"[0-9]+", digits):
        return None
    return int(digits) if len(digits) < 10 else 10**9


def can_fork() -> bool:
    """Whether jobs can run in forked processes, which inherit what the build loaded."""
    return "fork" in multiprocessing.get_all_start_methods()


def usable_cores() -> int:
    """The cores this process may run on: its affinity where the system has one (Linux),
    else every core the system counts."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        with contextlib.suppress(OSError):
            return max(1, len(affinity(0)))
    return max(1, os.cpu_count() or 1)


def _die_with_parent() -> None:
    """Ask Linux to kill this process when the build that forked it dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the process ends with its job
        pass


def _child(job: Job[Any], results: Connection) -> None:
    """One job, in its own process: sends back ("done", problems, result) or ("error", exception)."""
    _die_with_parent()
    try:
        outcome: tuple[Any, ...] = ("done", (), job.work())
    except ProblemsFound as found:
        outcome = ("done", found.problems, None)
    except BaseException as error:  # raised again in the build, as if the job had run there
        outcome = ("error", error)
    _send_back(results, outcome, f"the {job.name} job")


def _send_back(results: Connection, outcome: tuple[Any, ...], job: str) -> None:
    """A job's outcome to the process that started it (an error if it cannot be pickled)."""
    try:
        results.send(outcome)
    except (pickle.PicklingError, TypeError, AttributeError) as error:
        results.send(("error", RuntimeError(f"{job}'s result cannot be sent back: {error}")))
    results.close()


def run_jobs(jobs_to_run: Sequence[Job[R]], workers: int) -> Iterator[tuple[Job[R], R]]:
    """Run every job, in parallel where there are cores to spare; yields each job with
    what it returned (pickled back from its process) as it ends well, and raises the
    problems of every failed job together at the end.

    A job whose prerequisite (``after``) failed does not run; ``jobs_to_run`` lists every
    prerequisite before what needs it.  A job is started when a core is free, the
    first ready one in the order given: jobs of even size, started in that order, keep
    every core busy to the end.  Each job runs in a process forked for it alone, which
    inherits the job itself (nothing is pickled on the way in); at most ``workers`` at once."""
    workers = processes(len(jobs_to_run), workers)
    if workers <= 1:
        for job in jobs_to_run:
            yield job, job.work()
        return
    context = multiprocessing.get_context("fork")
    problems: list[Problem] = []
    failed: set[Job[Any]] = set()
    ended: set[Job[Any]] = set()
    waiting = list(jobs_to_run)
    running: dict[Connection, tuple[Job[R], BaseProcess]] = {}

    def start_ready() -> None:
        for job in list(waiting):
            if len(running) >= workers:
                return
            if job.after in failed:
                waiting.remove(job)
                failed.add(job)
            elif job.after is None or job.after in ended:
                waiting.remove(job)
                receiving, sending = context.Pipe(duplex=False)
                process = context.Process(target=_child, args=(job, sending), name=f"validator: {job.name}",
                                          daemon=True)
                process.start()
                sending.close()  # the child's end: the pipe reads as ended when the child dies
                running[receiving] = (job, process)

    # What the build loaded (rulebook, checks, dictionaries) is shared with the forked
    # processes page by page until written; kept out of the collector's sight, it stays
    # shared, since a collection writes to every object it visits.
    gc.freeze()
    try:
        start_ready()
        while running:
            for ready in wait(list(running)):
                assert isinstance(ready, Connection)
                job, process = running.pop(ready)
                try:
                    outcome = ready.recv()
                except (EOFError, OSError):
                    outcome = None
                ready.close()
                process.join()
                if outcome is None:
                    failed.add(job)
                    problems.append(Problem("", 0, job.name, "the process running this job died (killed, or out "
                                            f"of memory; exit status {process.exitcode})",
                                            f"run the command again, or one job at a time with {JOBS_VARIABLE}=1"))
                    continue
                if outcome[0] == "error":
                    raise outcome[1]
                _done, found, result = outcome
                problems.extend(found)
                (failed if found else ended).add(job)
                if not found:
                    yield job, result
            start_ready()
    finally:
        for connection, (_job, process) in running.items():
            process.kill()
            process.join()
            connection.close()
        gc.unfreeze()
    if problems:
        raise ProblemsFound(problems)


def made_in_shares(shares: Sequence[Sequence[T]], make: Callable[[T], R], workers: int) -> list[list[R] | None]:
    """``make`` of every item, each share in a process of its own (see :func:`run_jobs`):
    per share, the results in order, or None when its process died (the caller makes
    that share itself, or leaves it)."""
    made: list[list[R] | None] = [None] * len(shares)
    share_jobs = [Job(f"share {number + 1}", partial(_made, make, share)) for number, share in enumerate(shares)]
    with contextlib.suppress(ProblemsFound):  # a process that died: its share stays None
        for job, results in run_jobs(share_jobs, workers):
            made[share_jobs.index(job)] = results
    return made


def _made(make: Callable[[T], R], share: Sequence[T]) -> list[R]:
    return [make(item) for item in share]
