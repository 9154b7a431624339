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
import hashlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from validator import cachefiles
from validator.derived import Kept
from validator.parallel import processes, usable_cores
from validator.resultcache import (
    Bucket,
    ResultCache,
    cache_refusal,
    cache_root,
    core_digest,
    digest,
    fingerprint,
    project_folder_name,
    trusted_root,
)


class Load(NamedTuple):
    """One load's inputs, read and made in advance by :func:`~validator.content.inputcache.prepared`."""

    prepared: dict[tuple[str, str, bytes], object]
    read: dict[str, tuple[bytes, bytes]]


@dataclass
class InputMemory:
    """What a command knows of its input files in memory: one per :class:`Store`, so
    nothing outlives the command that made it."""

    kept: dict[tuple[str, str], object] | None = None
    """What was made of each file, kept in memory across loads (the preview's, see
    :meth:`keep`); None: kept in the store's results on disk, if anywhere."""
    loads: dict[int, Load] = field(default_factory=dict)
    """Thread -> the load it is making inside :func:`~validator.content.inputcache.prepared`:
    the preview loads in two threads at once, and one's end must not drop what the other read."""

    @property
    def prepared(self) -> dict[tuple[str, str, bytes], object]:
        """What :func:`~validator.content.inputcache.prepared` made in advance for this
        thread's load, until it asks for it."""
        load = self.loads.get(threading.get_ident())
        return {} if load is None else load.prepared

    @property
    def read(self) -> dict[str, tuple[bytes, bytes]]:
        """File -> its bytes and their digest, as :func:`~validator.content.inputcache.prepared`
        read them for this thread's load: the load inside reads
        (:func:`~validator.content.inputcache.input_bytes`) and hashes each input once."""
        load = self.loads.get(threading.get_ident())
        return {} if load is None else load.read

    def keep(self) -> None:
        """Keep what is made of each file in memory from now on: the preview reads the
        whole project after each save, and parses again only the files that changed."""
        if self.kept is None:
            self.kept = {}

    def digest(self, data: bytes, shown_as: str) -> bytes:
        """:func:`digest_of` ``data``, hashed once when they are the bytes
        :func:`~validator.content.inputcache.prepared` read of ``shown_as``."""
        known = self.read.get(shown_as)
        return known[1] if known is not None and known[0] is data else digest_of(data)


def digest_of(data: bytes) -> bytes:
    """What an input's bytes are known by."""
    return hashlib.blake2b(data, digest_size=16).digest()


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
    inputs: InputMemory = field(default_factory=InputMemory, compare=False)
    """What the command knows of its input files in memory (see :mod:`validator.content.inputcache`)."""
    memory: Kept = field(default_factory=Kept, compare=False, repr=False)
    """The values kept in memory while the store is the current one (see :mod:`validator.derived`)."""
    _code: dict[str, bytes] = field(default_factory=dict, compare=False, repr=False)
    """The digests of the code, hashed once per command (see :meth:`code_digest`)."""

    def bucket(self, name: str) -> Bucket | None:
        """The bucket ``name`` of the results, None when results are not kept."""
        return None if self.results is None else self.results.bucket(name)

    def site_bucket(self, kind: str, target: Path) -> Bucket | None:
        """The bucket of ``kind`` of the site folder ``target``: one per folder, so that
        building another folder (one per language in CI, a copy to compare) never
        pushes out this one's."""
        return self.bucket(f"{kind}-{digest(str(target)).hex()[:24]}")

    def peek(self, name: str, parts: tuple[object, ...]) -> object | None:
        """The result kept in bucket ``name`` under the :func:`digest` of ``parts``, read
        without taking the bucket over: this run will neither save it nor forget what it
        holds (a job in another process may be making it)."""
        return None if self.results is None else self.results.peek(name, digest(*parts))

    def fingerprint(self) -> bytes:
        """The engine's code and the versions of what reads the inputs (:func:`fingerprint`),
        of the results kept on disk when they are, else hashed once for this command."""
        if self.results is not None:
            return self.results.fingerprint
        return self._kept_code("", fingerprint)

    def core_digest(self, ruleset: str) -> bytes:
        """The rules core ``ruleset``'s digest (:func:`validator.resultcache.core_digest`),
        hashed once for this command."""
        return self._kept_code(f"core {ruleset}", lambda: core_digest(ruleset))

    def code_digest(self, ruleset: str) -> bytes:
        """The code that makes a site of a book whose rules core is ``ruleset``: the
        engine's and the core's."""
        return digest(self.fingerprint(), self.core_digest(ruleset))

    def _kept_code(self, name: str, make: Callable[[], bytes]) -> bytes:
        found = self._code.get(name)
        if found is None:
            found = self._code[name] = make()
        return found

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
        store = Store(workers=workers, lemmas=None, memory=Kept(enabled=False))
    elif not keeps_results:
        store = Store(workers=workers)
    else:
        root = trusted_root(project)
        store = (Store(workers=workers, lemmas=None) if root is None  # refused, said once: the command runs on
                 else Store(ResultCache(root, project_folder_name(project), fingerprint()), workers, root))
    try:
        with store.memory.current():
            yield store
    finally:
        if store.results is not None:
            store.results.save()
