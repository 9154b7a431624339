"""What a pass computes from an input object, kept while that very object is in use.

The loaded inputs are frozen, and a file read again is a new object (the live
preview keeps the objects of unchanged files, see ``validator.content.inputcache``).
So what is derived from one of them (a glossary's terms sorted, its recognisers, the
templates with a catalogue's words, a language's formatted values) can be kept by the
object's identity and used until that object is replaced: no stale value after an
edit, and no work repeated for every message or page.

The object is kept with its values, so its ``id`` cannot be reused by another while
the entry lives.  Each kind of value keeps a few entries (all go when it is full:
the objects of earlier edits with them).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")

LIMIT = 32
"""Entries per kind: the languages of a project, times the threads of the preview, times
the few readings of a file an edit leaves in use."""

_KEPT: dict[str, dict[tuple[int, Hashable], tuple[object, object]]] = {}


def derived(kind: str, source: object, make: Callable[[], T], detail: Hashable = None, limit: int = LIMIT) -> T:
    """``make()``, or what it returned before for this very ``source`` object (and the
    same ``detail``: a language, a thread) under the name ``kind``.  ``limit``: fewer
    entries for a kind whose source is large (a whole workspace)."""
    entries = _KEPT.setdefault(kind, {})
    key = (id(source), detail)
    kept = entries.get(key)
    if kept is not None and kept[0] is source:
        return kept[1]  # type: ignore[return-value]
    made = make()
    if len(entries) >= limit:
        entries.clear()
    entries[key] = (source, made)
    return made
