"""The values a command keeps in memory to save work, owned by its store.

Two kinds of memory make a second run fast, and this module holds the one kept in
memory; :mod:`validator.resultcache` holds the one kept on disk between runs.  Both
keep a result by what it was made from, never by a name alone:

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
the project again after each save, holds no more than a build.

A :class:`Kept` belongs to a command's :class:`~validator.store.Store`, and holds
values only while the command has made it the current one (:meth:`Kept.current`):
a context variable, so that it is the command's (and its forked jobs'), never the
process's.  With none current, or a store that keeps nothing (``--no-cache``), every
value is made afresh, which shows that the memory changes nothing but the time
(``tests/integration/test_derived.py``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar, cast

T = TypeVar("T")
P = ParamSpec("P")

LIMIT = 32
"""Entries per kind: the languages of a project, times the threads of the preview, times
the few readings of a file an edit leaves in use."""


class Kept:
    """The values kept in memory for one command, per kind, each kind bounded."""

    def __init__(self, enabled: bool = True) -> None:
        self._kinds: dict[str, OrderedDict[tuple[int, int, Hashable], tuple[object, object, object]]] = {}
        self._functions: dict[Callable[..., Any], Any] = {}
        self._lock = threading.Lock()
        """The preview renders in two threads: one entry's use and another's eviction
        must not interleave (``make`` runs outside it)."""
        self.enabled = enabled
        if hasattr(os, "register_at_fork"):  # a job forked while another thread held the lock gets its own
            os.register_at_fork(after_in_child=functools.partial(_new_lock, weakref.ref(self)))

    @contextlib.contextmanager
    def current(self) -> Iterator[Kept]:
        """Make this the memory that :func:`derived` and the :func:`kept_function` use
        inside (in this thread, and in the processes it forks)."""
        token = _CURRENT.set(self)
        try:
            yield self
        finally:
            _CURRENT.reset(token)

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

    def answer(self, function: Callable[..., T], limit: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
        """``function(*args, **kwargs)``, or its answer kept from before (at most
        ``limit`` answers of the function, the least recently used going first)."""
        if not self.enabled:
            return function(*args, **kwargs)
        cached = self._functions.get(function)
        if cached is None:
            with self._lock:
                cached = self._functions.setdefault(function, functools.lru_cache(maxsize=limit)(function))
        return cast(T, cached(*args, **kwargs))

    def sizes(self) -> dict[str, int]:
        """How many entries each kind and each function holds now."""
        sizes = {kind: len(entries) for kind, entries in self._kinds.items()}
        sizes.update((function.__qualname__, cached.cache_info().currsize)
                     for function, cached in self._functions.items())
        return sizes


_CURRENT: ContextVar[Kept | None] = ContextVar("kept", default=None)


def _new_lock(reference: weakref.ref[Kept]) -> None:
    """A new lock for the memory ``reference`` names, if it is still in use: the hook of a
    forked process, which holds no memory alive (a command's ends with the command)."""
    kept = reference()
    if kept is not None:
        kept._lock = threading.Lock()


def derived(kind: str, source: object, make: Callable[[], T], detail: Hashable = None, limit: int = LIMIT,
            also: object = None) -> T:
    """:meth:`Kept.derived` of the current memory; ``make()`` when there is none."""
    kept = _CURRENT.get()
    return make() if kept is None else kept.derived(kind, source, make, detail, limit, also)


def kept_function(limit: int) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """A decorator: the function's answers kept by its arguments in the current memory,
    at most ``limit`` (see :meth:`Kept.answer`); made afresh when there is none."""

    def decorate(function: Callable[P, T]) -> Callable[P, T]:
        @functools.wraps(function)
        def answer(*args: P.args, **kwargs: P.kwargs) -> T:
            kept = _CURRENT.get()
            return function(*args, **kwargs) if kept is None else kept.answer(function, limit, args, kwargs)

        return answer

    return decorate
