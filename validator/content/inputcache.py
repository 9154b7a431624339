"""What was made of each input file, kept while its bytes stay the same.

The live preview reads the whole project again after each save, though only one
file changed: with this cache switched on, a file whose bytes are those read before
gives back what was made of them (a validated, frozen model; a parsed catalogue)
without parsing it again.  Off by default, so that no other command shares objects
between reads.  A command that keeps its results between runs (see
:mod:`validator.resultcache`) finds them there instead, read back from disk.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TypeVar

from validator import resultcache

T = TypeVar("T")

_kept: dict[tuple[str, str], tuple[bytes, bytes, object]] | None = None


def keep_inputs() -> None:
    """Switch the cache on for the rest of the process."""
    global _kept
    if _kept is None:
        _kept = {}


def made_from(kind: str, shown_as: str, data: bytes, make: Callable[[], T],
              update: Callable[[bytes, T], T | None] | None = None) -> T:
    """``make()``, or what it returned before for the same ``kind``, file and bytes.
    One entry per file and kind: a changed file replaces its entry, made by
    ``update(earlier bytes, earlier result)`` when given and it can (else ``make()``)."""
    digest = hashlib.blake2b(data, digest_size=16).digest()
    if _kept is None:
        return _made_between_runs(kind, shown_as, digest, make)
    key = (kind, shown_as)
    entry = _kept.get(key)
    if entry is not None and entry[0] == digest:
        return entry[2]  # type: ignore[return-value]
    made = None
    if entry is not None and update is not None:
        made = update(entry[1], entry[2])  # type: ignore[arg-type]
    if made is None:
        made = make()
    _kept[key] = (digest, data, made)
    return made


def _made_between_runs(kind: str, shown_as: str, digest: bytes, make: Callable[[], T]) -> T:
    """``make()``, or its result kept on disk by an earlier run for the same bytes."""
    bucket = resultcache.bucket("inputs")
    if bucket is None:
        return make()
    key = (kind, shown_as)
    entry = bucket.get(key)
    if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == digest:
        return entry[1]  # type: ignore[no-any-return]
    made = make()
    bucket.put(key, (digest, made))
    return made


def forget_inputs() -> None:
    """Switch the cache off and drop what it kept (tests that switched it on)."""
    global _kept
    _kept = None
