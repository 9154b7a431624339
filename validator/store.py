"""What a command keeps, and how much it may make at once: one object, created by the
command and handed down to every stage that keeps or makes results.

A stage asks the store for the bucket of its results (:meth:`Store.bucket`), for the
folder of the search's lemmas (:attr:`Store.lemmas`) and for how many processes it
may start (:meth:`Store.processes`); nothing of it is found in a module's globals or in
the environment.  ``Store()`` keeps nothing on disk and makes everything on every core:
what a caller that opened no store (a test, a script) gets.

:func:`opened` is how a command gets one: the results of its project in the trusted
cache folder (see :mod:`validator.resultcache`), written back when the command ends,
or nothing kept at all (``--no-cache``, an empty ``VALIDATOR_CACHE_DIR``), on disk or
in memory.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from validator import cachefiles
from validator.derived import KEPT
from validator.parallel import processes, usable_cores
from validator.resultcache import (
    Bucket,
    ResultCache,
    cache_refusal,
    cache_root,
    digest,
    fingerprint,
    project_folder_name,
    trusted_root,
)


@dataclass(frozen=True)
class Store:
    """The results a command keeps between runs, and how much it may make at once."""

    results: ResultCache | None = None
    """The project's results on disk; None when nothing is kept there."""
    workers: int = field(default_factory=usable_cores)
    """Processes at work at once (``--jobs``, ``VALIDATOR_JOBS``): one per core by default."""
    lemmas: Path | None = field(default_factory=lambda: _trusted_lemmas_folder())
    """The folder of the search's lemmas (the cache's root); None when none are kept.
    A store made without one reads and adds them where the user's cache is trusted."""

    def bucket(self, name: str) -> Bucket | None:
        """The bucket ``name`` of the results, None when results are not kept."""
        return None if self.results is None else self.results.bucket(name)

    def peek(self, name: str, parts: tuple[object, ...]) -> object | None:
        """The result kept in bucket ``name`` under the :func:`digest` of ``parts``, read
        without taking the bucket over: this run will neither save it nor forget what it
        holds (a job in another process may be making it)."""
        return None if self.results is None else self.results.peek(name, digest(*parts))

    def processes(self, count: int) -> int:
        """Processes for ``count`` jobs (see :func:`validator.parallel.processes`)."""
        return processes(count, self.workers)


def _trusted_lemmas_folder() -> Path | None:
    """The cache's root, when it can be trusted; said nothing of otherwise (a command
    that opened its store said it)."""
    root = cache_root()
    return root if root is not None and cachefiles.supported() and cache_refusal(None) is None else None


@contextlib.contextmanager
def opened(project: Path, keeps_results: bool, no_cache: bool, workers: int) -> Iterator[Store]:
    """The store of a command on ``project``.  A command that ``keeps_results`` finds
    its project's results in the trusted cache folder, and they are written back when
    it ends (also when it found problems: what was made before them is still right).
    ``no_cache`` (``--no-cache``), or ``VALIDATOR_CACHE_DIR`` empty: nothing is kept, on
    disk (the search's lemmas neither) or in memory (see :mod:`validator.derived`), and
    every result is made afresh."""
    if no_cache or cache_root() is None:
        with KEPT.off():
            yield Store(workers=workers, lemmas=None)
        return
    if not keeps_results:
        yield Store(workers=workers)
        return
    root = trusted_root(project)
    if root is None:  # refused, said once: the command runs on without
        yield Store(workers=workers, lemmas=None)
        return
    results = ResultCache(root, project_folder_name(project), fingerprint())
    try:
        yield Store(results, workers, root)
    finally:
        results.save()
