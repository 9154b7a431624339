"""Run a build's jobs (a language's pages, its MkDocs build, the open data) in worker
processes, one per core.

MkDocs spends most of a build in pure Python, so languages built one after the
other leave every core but one idle.  The workers are forked from the build, so
they inherit the loaded rulebook and the checks' results instead of receiving
them through a pipe, and each dies with the build (a killed build leaves no
worker writing into its staging folder).  A job's :class:`ProblemsFound` comes
back as its problems, so the report stays one line per problem.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from validator.problems import Problem, ProblemsFound

JOBS_VARIABLE = "VALIDATOR_JOBS"
"""How many languages to build at once (default: the number of usable cores)."""

PR_SET_PDEATHSIG = 1

_JOB: Callable[[str], Any] | None = None
"""The job of the current :func:`run_per_language`, inherited by the forked workers."""


def jobs(count: int) -> int:
    """Worker processes for ``count`` languages: at most one per core, none for one language."""
    wanted = os.environ.get(JOBS_VARIABLE, "")
    cores = int(wanted) if wanted.isdigit() and int(wanted) > 0 else len(os.sched_getaffinity(0))
    return min(cores, count)


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when the build that forked it dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the worker ends with its job
        pass


def _run(code: str) -> tuple[tuple[Problem, ...], Any]:
    assert _JOB is not None
    try:
        return (), _JOB(code)
    except ProblemsFound as found:
        return found.problems, None


def run_per_language(job: Callable[[str], Any], codes: Sequence[str],
                     after: Mapping[str, str] | None = None) -> Iterator[tuple[str, Any]]:
    """Run ``job(code)`` for every code, in parallel where there are cores to spare;
    yields each code with what its job returned (pickled back from the worker) as the
    job ends, and raises the problems of every failed job together at the end.

    ``after`` maps a code to the one whose job must end well before it starts (a
    language's MkDocs build after its pages are rendered); ``codes`` lists every
    prerequisite before what needs it.  At most one job per worker is handed out at a
    time, the first ready one in the order of ``codes``: jobs of even size, handed out
    in that order, keep both cores busy to the end."""
    global _JOB
    needs = dict(after or {})
    workers = jobs(len(codes))
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for code in codes:
            yield code, job(code)
        return
    _JOB = job
    problems: list[Problem] = []
    failed: set[str] = set()
    ended: set[str] = set()
    waiting = list(codes)
    # What the build loaded so far (rulebook, checks, dictionaries) is shared with the
    # forked workers page by page until written; kept out of the collector's sight,
    # it stays shared, since a collection writes to every object it visits.
    gc.freeze()
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_die_with_parent) as pool:
            pending: dict[Future[tuple[tuple[Problem, ...], Any]], str] = {}

            def hand_out() -> None:
                for code in list(waiting):
                    if len(pending) >= workers:
                        return
                    prerequisite = needs.get(code)
                    if prerequisite in failed:
                        waiting.remove(code)
                        failed.add(code)
                    elif prerequisite is None or prerequisite in ended:
                        waiting.remove(code)
                        pending[pool.submit(_run, code)] = code

            hand_out()
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    code = pending.pop(future)
                    error = future.exception()
                    if isinstance(error, BrokenProcessPool):
                        # Every unfinished job fails with the pool: which worker died is not known.
                        unfinished = ", ".join(name for name in codes
                                               if name == code or name in pending.values() or name in waiting)
                        raise ProblemsFound([Problem("", 0, unfinished, "a build process died (killed, or out "
                                                     "of memory) before these parts of the site were done",
                                                     f"build again, or one job at a time with {JOBS_VARIABLE}=1")])
                    if error is not None:
                        for other in pending:
                            other.cancel()
                        raise error
                    found, result = future.result()
                    problems.extend(found)
                    (failed if found else ended).add(code)
                    if not found:
                        yield code, result
                hand_out()
    finally:
        _JOB = None
        gc.unfreeze()
    if problems:
        raise ProblemsFound(problems)
