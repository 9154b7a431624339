"""What was made of each input file, kept while its bytes stay the same.

The live preview reads the whole project again after each save, though only one
file changed: with this cache switched on, a file whose bytes are those read before
gives back what was made of them (a validated, frozen model; a parsed catalogue)
without parsing it again.  Off by default, so that no other command shares objects
between reads.  A command that keeps its results between runs (see
:mod:`validator.resultcache`) finds them there instead, read back from disk, one
cache file per input file (an edit rewrites only what was made of the edited file);
a catalogue edited since is patched there as in the preview.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Generic, NamedTuple, TypeVar, cast

from validator import resultcache
from validator.content.yamlsource import SizeLimit, read_input
from validator.parallel import made_in_shares
from validator.store import Load, Store, digest_of

T = TypeVar("T")

INPUTS_FAMILY = "inputs"
"""The cache files of what was made of each input file (see :func:`_store`)."""


def made_from(store: Store, kind: str, shown_as: str, data: bytes, make: Callable[[], T],
              update: Callable[[Earlier[T]], T | None] | None = None) -> T:
    """``make()``, or what it returned before for the same ``kind``, file and bytes
    (or what :func:`prepared` made of them in advance), kept in ``store``.  One entry
    per file and kind: a changed file replaces its entry, made by ``update(earlier)``
    when given and it can (else ``make()``)."""
    kept = _store(kind, shown_as, store)
    digest = store.inputs.digest(data, shown_as)
    key = (kind, shown_as)
    entry = _entry(kept, key)
    try:
        if entry is not None and entry[0] == digest:
            if isinstance(kept, resultcache.Bucket) and kept.get(_digest_key(key)) != (digest,):
                kept.put(_digest_key(key), (digest,))  # kept by a version that wrote none
            return cast(T, entry[2])
        made = cast(T | None, store.inputs.prepared.pop((kind, shown_as, digest), None))
        if made is None and entry is not None and update is not None:
            made = update(Earlier(entry[0], entry[1], cast(T, entry[2])))
        if made is None:
            made = make()
        if isinstance(kept, resultcache.Bucket):
            kept.put(key, (digest, data, made))
            kept.put(_digest_key(key), (digest,))
        elif kept is not None:
            kept[key] = (digest, data, made)
        return made
    finally:
        if isinstance(kept, resultcache.Bucket):
            # Written now and let go: otherwise a file's bytes and what was made of
            # them would be held to the end of the command, also by the build that
            # forks its jobs, each of which would inherit them.
            kept.release()


def kept_from(store: Store, kind: str, shown_as: str, digest: bytes) -> object | None:
    """What :func:`made_from` kept in ``store`` of ``kind`` for the file's bytes of
    ``digest``, None when it keeps nothing for them (results not kept, or kept of other
    bytes since)."""
    kept = _store(kind, shown_as, store)
    entry = _entry(kept, (kind, shown_as))
    if isinstance(kept, resultcache.Bucket):
        kept.release()
    return entry[2] if entry is not None and entry[0] == digest else None


class Earlier(NamedTuple, Generic[T]):
    """What was made of a file's earlier bytes, for :func:`made_from`'s ``update``."""

    digest: bytes
    """The earlier bytes' digest (what the file's other kept results name them by)."""
    data: bytes
    made: T


class Wanted(NamedTuple):
    """An input :func:`made_from` will be asked for, with how to make it."""

    kind: str
    shown_as: str
    data: bytes
    make: Callable[[], object]
    patchable: bool = False
    """Whether ``made_from`` is given an ``update`` for it (an edited catalogue is
    patched, faster than parsed again in another process)."""


@contextlib.contextmanager
def prepared(wanted: Sequence[Wanted], store: Store) -> Iterator[None]:
    """Make in advance, in processes on every core, what :func:`made_from` will be
    asked for inside and has not kept: parsing is most of a cold run's loading, and
    otherwise it would all happen on one core.  What fails is left to ``made_from``, which says why
    in order; what is not asked for is dropped at the end."""
    memory = store.inputs
    memory.loads[threading.get_ident()] = Load({}, {item.shown_as: (item.data, digest_of(item.data))
                                                    for item in wanted})
    missing = [item for item in wanted if not _known(item, store)]
    workers = store.processes(len(missing))
    if workers > 1:
        groups = _balanced(missing, workers)
        for group, results in zip(groups, made_in_shares(groups, lambda item: _made_or_none(item.make), workers),
                                  strict=True):
            if results is None:
                continue  # its process died: the load makes the share
            for item, made in zip(group, results, strict=True):
                if made is not None:
                    memory.prepared[(item.kind, item.shown_as, memory.read[item.shown_as][1])] = made
    try:
        yield
    finally:
        del memory.loads[threading.get_ident()]


def digests_of(store: Store, read: Mapping[str, bytes]) -> dict[str, bytes]:
    """File, as shown -> a digest of the bytes ``read`` of it (hashed once: those
    :func:`prepared` read are hashed already)."""
    return {shown_as: store.inputs.digest(data, shown_as) for shown_as, data in read.items()}


def input_bytes(store: Store, path: Path, shown_as: str, limit: SizeLimit | None = None) -> bytes:
    """The bytes of an input file: those :func:`prepared` read, else read now (within ``limit``)."""
    read = store.inputs.read.get(shown_as)
    return read[0] if read is not None else read_input(path, shown_as, limit)


def _known(item: Wanted, store: Store) -> bool:
    """Whether ``made_from`` will answer ``item`` from what it kept (or patch it).
    A cache file is asked only for the digest kept beside what was made, and let go:
    opening what was made of every input at once, while each file's bytes are still
    held, would hold every input twice over at the load's peak."""
    kept = _store(item.kind, item.shown_as, store)
    key = (item.kind, item.shown_as)
    if not isinstance(kept, resultcache.Bucket):
        entry = _entry(kept, key)
        return entry is not None and (item.patchable or entry[0] == store.inputs.read[item.shown_as][1])
    found = kept.get(_digest_key(key))
    kept.release()
    return isinstance(found, tuple) and (item.patchable or found == (store.inputs.read[item.shown_as][1],))


def _digest_key(key: tuple[str, str]) -> tuple[str, str, str]:
    """The key of the digest of the bytes an input's kept entry was made from."""
    return (*key, "digest")


def _balanced(items: list[Wanted], count: int) -> list[list[Wanted]]:
    """``items`` in ``count`` groups of about as many bytes, the largest placed first."""
    groups: list[list[Wanted]] = [[] for _ in range(count)]
    sizes = [0] * count
    for item in sorted(items, key=lambda item: -len(item.data)):
        smallest = sizes.index(min(sizes))
        groups[smallest].append(item)
        sizes[smallest] += len(item.data)
    return [group for group in groups if group]


def _made_or_none(make: Callable[[], object]) -> object | None:
    try:
        return make()
    except Exception:  # made again by made_from, which reports it where it belongs
        return None


def _store(kind: str, shown_as: str, store: Store) -> dict[tuple[str, str], object] | resultcache.Bucket | None:
    """Where what is made of one input file is kept: in memory (the preview), else a
    cache file of its own in the ``inputs`` family (see :meth:`ResultCache.bucket`)."""
    if store.inputs.kept is not None:
        return store.inputs.kept
    name = hashlib.blake2b(f"{kind}\0{shown_as}".encode("utf-8", "surrogateescape"), digest_size=8).hexdigest()
    readable = re.sub(r"[^a-zA-Z0-9]+", "-", Path(shown_as).name).strip("-")
    return store.bucket(f"{INPUTS_FAMILY}/{readable}-{name}")


def _entry(store: dict[tuple[str, str], object] | resultcache.Bucket | None,
           key: tuple[str, str]) -> tuple[bytes, bytes, object] | None:
    entry = store.get(key) if store is not None else None
    return entry if isinstance(entry, tuple) and len(entry) == 3 else None
