"""Every value this process keeps in memory to save work, owned by one object.

Two kinds of memory make a second run fast, and this module holds the one kept in
the process; :mod:`validator.resultcache` holds the one kept on disk between runs.
Both keep a result by what it was made from, never by a name alone:

- a value derived from an input object (a glossary's terms sorted, its recognisers,
  the templates with a catalogue's words, a chart's series of a rules core) is kept
  with that very object, by its identity: the loaded inputs are frozen, and a file
  read again is a new object (the live preview keeps the objects of unchanged files,
  see :mod:`validator.content.inputcache`), so an edit can never meet a stale value.
  The object is kept alive with its value, so its ``id`` cannot be reused by another
  while the entry lives;
- a pure function of its arguments (a term's pattern, a word's stems) keeps its
  answers as :func:`functools.lru_cache` does.

Each kind of value and each function keeps a bounded number of entries, the least
recently used going first, so ``validator serve``, which runs for hours and reads
the project again after each save, holds no more than a build.  :data:`KEPT` owns
them all: :meth:`Kept.clear` drops everything, and :meth:`Kept.off` makes every
value afresh, which is how a build without any cache is made (``--no-cache``), to
show that the caches change nothing but the time (``tests/integration/test_derived.py``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Any, ParamSpec, TypeVar, cast

T = TypeVar("T")
P = ParamSpec("P")

LIMIT = 32
"""Entries per kind: the languages of a project, times the threads of the preview, times
the few readings of a file an edit leaves in use."""


class Kept:
    """The values kept in memory by this process, per kind, each kind bounded."""

    def __init__(self) -> None:
        self._kinds: dict[str, OrderedDict[tuple[int, int, Hashable], tuple[object, object, object]]] = {}
        self._functions: list[Any] = []
        self._lock = threading.Lock()
        """The preview renders in two threads: one entry's use and another's eviction
        must not interleave (``make`` runs outside it)."""
        self.enabled = True
        if hasattr(os, "register_at_fork"):  # a job forked while another thread held the lock gets its own
            os.register_at_fork(after_in_child=self._new_lock)

    def _new_lock(self) -> None:
        self._lock = threading.Lock()

    def derived(self, kind: str, source: object, make: Callable[[], T], detail: Hashable = None,
                limit: int = LIMIT, also: object = None) -> T:
        """``make()``, or what it returned before for this very ``source`` object (and
        ``also``, a second object it was made from, and the same ``detail``: a language,
        a thread, a declaration) under the name ``kind``.  ``limit``: how many entries
        the kind keeps (fewer for a large source, more for one value per example)."""
        if not self.enabled:
            return make()
        key = (id(source), id(also), detail)
        with self._lock:
            entries = self._kinds.setdefault(kind, OrderedDict())
            kept = entries.get(key)
            if kept is not None and kept[0] is source and kept[1] is also:
                entries.move_to_end(key)
                return cast(T, kept[2])
        made = make()
        with self._lock:
            entries[key] = (source, also, made)
            while len(entries) > limit:
                entries.popitem(last=False)
        return made

    def function(self, limit: int) -> Callable[[Callable[P, T]], Callable[P, T]]:
        """A decorator: the function's answers kept by its arguments, at most ``limit``."""

        def decorate(function: Callable[P, T]) -> Callable[P, T]:
            kept = functools.lru_cache(maxsize=limit)(function)
            self._functions.append(kept)
            cached = cast(Callable[P, T], kept)

            @functools.wraps(function)
            def answer(*args: P.args, **kwargs: P.kwargs) -> T:
                return cached(*args, **kwargs) if self.enabled else function(*args, **kwargs)

            answer.cache_clear = kept.cache_clear  # type: ignore[attr-defined]  # as lru_cache's own
            answer.cache_info = kept.cache_info  # type: ignore[attr-defined]
            return answer

        return decorate

    def sizes(self) -> dict[str, int]:
        """How many entries each kind and each function holds now."""
        sizes = {kind: len(entries) for kind, entries in self._kinds.items()}
        sizes.update((function.__qualname__, function.cache_info().currsize) for function in self._functions)
        return sizes

    def clear(self) -> None:
        """Drop every value kept."""
        with self._lock:
            self._kinds.clear()
        for function in self._functions:
            function.cache_clear()

    @contextlib.contextmanager
    def off(self) -> Iterator[None]:
        """Make every value afresh inside (and keep none)."""
        earlier, self.enabled = self.enabled, False
        self.clear()
        try:
            yield
        finally:
            self.enabled = earlier


KEPT = Kept()
"""The process's one owner of the values kept in memory."""


def derived(kind: str, source: object, make: Callable[[], T], detail: Hashable = None, limit: int = LIMIT,
            also: object = None) -> T:
    """:meth:`Kept.derived` of :data:`KEPT`."""
    return KEPT.derived(kind, source, make, detail, limit, also)


def kept_function(limit: int) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """:meth:`Kept.function` of :data:`KEPT`."""
    return KEPT.function(limit)
