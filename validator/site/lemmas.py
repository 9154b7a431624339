"""Lemmas of the words the sites use, kept between builds.

simplemma finds a word's lemma in a dictionary of the whole language, which it
reads whole the first time a language is asked for: slow for Polish, and paid
in every worker process of every build, for the few thousand words a rulebook
uses.  A lemma depends only on the word, the language and simplemma's version, so
the lemmas found are kept in a small file per language and version under the
user's cache folder (``$XDG_CACHE_HOME/validator``, else ``~/.cache/validator``),
and the dictionary is read only when a word is not there yet.  A cache that
cannot be read or written is ignored: it only saves time.

A word not kept yet (a title edited with a new word) is looked up without decoding
the whole dictionary: simplemma keeps it as one front-coded stream, which can be
entered only at a record whose predecessor is known.  The first time, the stream
is decoded once and a block index of restart points is kept beside the lemmas
(:class:`BlockIndex`); then each new word costs the stream's decompression and a
few records, not the whole language.
"""

from __future__ import annotations

import json
import struct
from array import array
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import simplemma
from simplemma import Lemmatizer
from simplemma.strategies import DefaultStrategy
from simplemma.strategies.dictionaries import frontcode
from simplemma.strategies.dictionaries.dictionary_factory import (
    SUPPORTED_LANGUAGES,
    DecodedStrMapping,
    DictionaryFactory,
    _read_decompressed,
)

from validator import cachefiles


def lemmatizes(code: str) -> bool:
    return code in SUPPORTED_LANGUAGES


class Lemmas:
    """One language's lemmas: those kept, and those found in this process."""

    def __init__(self, code: str, folder: Path | None) -> None:
        """``folder``: where they are kept (the tool's cache folder, when it can be
        trusted: see :class:`validator.store.Store`); None keeps none."""
        self.code = code
        self.folder = folder
        self.name = f"lemmas-{code}-simplemma-{simplemma.__version__}.json"
        self.known: dict[str, str] = {}
        self.found: dict[str, str] = {}
        self._lemmatizer: Lemmatizer | None = None
        if self.folder is not None:
            self.known = _read_kept(self.folder, self.name)

    @property
    def path(self) -> Path | None:
        return None if self.folder is None else self.folder / self.name

    def lemma(self, word: str) -> str:
        kept = self.known.get(word)
        if kept is None:
            kept = self.known[word] = self.found[word] = self._looked_up(word)
        return kept

    def _looked_up(self, word: str) -> str:
        """simplemma's lemma of ``word``, through the block index where one can be kept."""
        if self.folder is None:
            return str(simplemma.lemmatize(word, lang=self.code))
        if self._lemmatizer is None:
            self._lemmatizer = Lemmatizer(lemmatization_strategy=DefaultStrategy(
                dictionary_factory=IndexedDictionaries(self.folder)))
        try:
            return str(self._lemmatizer.lemmatize(word, self.code))
        except ValueError:  # a damaged index: the whole dictionary, as without one
            return str(simplemma.lemmatize(word, lang=self.code))

    def save(self) -> None:
        """Add the lemmas found here to the file (a new file renamed over the old, so a
        reader never sees half of one; another process's additions are merged)."""
        if not self.found or self.folder is None:
            return
        merged = {**_read_kept(self.folder, self.name), **self.found}
        with cachefiles.folder(self.folder, (), make=True) as handle:
            if handle is not None:
                cachefiles.write(handle, self.name,
                                 json.dumps(merged, ensure_ascii=False, sort_keys=True).encode("utf-8"))
        self.found = {}


def _read_kept(folder: Path, name: str) -> dict[str, str]:
    """The lemmas of a file of the cache, read as every file of it is (see
    validator.cachefiles); none from a file that is not this user's, or no lemmas."""
    with cachefiles.folder(folder, (), make=False) as handle:
        data = None if handle is None else cachefiles.read(handle, name, MAX_LEMMAS_BYTES)
    try:
        kept = json.loads(data.decode("utf-8")) if data is not None else None
    except ValueError:
        return {}
    return {str(key): str(value) for key, value in kept.items()} if isinstance(kept, dict) else {}


MAX_LEMMAS_BYTES = 64 * 2**20
"""Far beyond the words of any rulebook: a larger file is not read (its lemmas are found again)."""


INDEX_MAGIC = b"VLIX1"
BLOCK_RECORDS = 32
"""Records between two restart points: a lookup decodes at most this many."""
_HEADER = struct.Struct("<5sQQQQ")


@dataclass(frozen=True)
class BlockIndex:
    """Restart points of a front-coded stream: every :data:`BLOCK_RECORDS`-th record's
    stored key (what a lookup bisects) and where decoding resumes for it (its offset,
    and the key and value of the record before it)."""

    firsts: list[bytes]
    offsets: array[int]
    keys: list[bytes]
    values: list[bytes]

    @classmethod
    def of(cls, data: bytes) -> BlockIndex:
        """The index of a decompressed stream: one pass over every record."""
        _reverse, count, position = frontcode._read_header(data)
        index = cls([], array("q"), [], [])
        key, value, number = b"", b"", -1
        for number, (start, stored_key, stored_value) in enumerate(frontcode._iter_records(data, position)):
            if number % BLOCK_RECORDS == 0:
                index.firsts.append(stored_key)
                index.offsets.append(start)
                index.keys.append(key)
                index.values.append(value)
            key, value = stored_key, stored_value
        if number + 1 != count:
            raise ValueError("the dictionary's stream is damaged")
        return index

    def to_bytes(self) -> bytes:
        parts = [b"\0".join(self.firsts), b"\0".join(self.keys), b"\0".join(self.values)]
        return (_HEADER.pack(INDEX_MAGIC, len(self.firsts), *map(len, parts)) + self.offsets.tobytes()
                + b"".join(parts))

    @classmethod
    def from_bytes(cls, data: bytes) -> BlockIndex | None:
        """The index written by :meth:`to_bytes`; None for anything else (a key with a
        NUL byte, which no dictionary word has, could not be written so)."""
        if len(data) < _HEADER.size:
            return None
        magic, blocks, *lengths = _HEADER.unpack_from(data)
        start = _HEADER.size + 8 * blocks
        if magic != INDEX_MAGIC or len(data) != start + sum(lengths):
            return None
        offsets = array("q")
        offsets.frombytes(data[_HEADER.size:start])
        parts = []
        for length in lengths:
            parts.append(data[start:start + length].split(b"\0") if blocks else [])
            start += length
        if any(len(part) != blocks for part in parts):
            return None
        return cls(parts[0], offsets, parts[1], parts[2])


class IndexedDictionary(DecodedStrMapping):
    """A language's dictionary looked up in its stream through a :class:`BlockIndex`."""

    def __init__(self, data: bytes, index: BlockIndex) -> None:
        self._data = data
        self._reverse, self._count, self._position = frontcode._read_header(data)
        self._index = index

    def _lookup(self, key: str) -> str | None:
        target = key.encode()
        if self._reverse:
            target = target[::-1]
        block = bisect_right(self._index.firsts, target) - 1
        if block < 0:
            return None
        index = self._index
        for _start, stored_key, stored_value in frontcode._iter_records(
                self._data, index.offsets[block], index.keys[block], index.values[block]):
            if stored_key == target:
                return (stored_value[::-1] if self._reverse else stored_value).decode()
            if stored_key > target:
                return None
        return None

    def __iter__(self) -> Iterator[str]:
        for _start, stored_key, _value in frontcode._iter_records(self._data, self._position):
            yield (stored_key[::-1] if self._reverse else stored_key).decode()

    def __len__(self) -> int:
        return int(self._count)


class IndexedDictionaries(DictionaryFactory):
    """simplemma's dictionaries, each looked up through a block index kept in ``folder``
    (made and written the first time a language is asked for)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._made: dict[str, Mapping[str, str]] = {}

    def get_dictionary(self, lang: str) -> Mapping[str, str]:
        made = self._made.get(lang)
        if made is None:
            data = _read_decompressed(lang)
            name = f"lemma-index-{lang}-simplemma-{simplemma.__version__}.bin"
            with cachefiles.folder(self.folder, (), make=False) as handle:
                kept = None if handle is None else cachefiles.read(handle, name, MAX_INDEX_BYTES)
            index = BlockIndex.from_bytes(kept) if kept is not None else None
            if index is None:
                index = BlockIndex.of(data)
                with cachefiles.folder(self.folder, (), make=True) as handle:
                    if handle is not None:
                        cachefiles.write(handle, name, index.to_bytes())
            made = self._made[lang] = IndexedDictionary(data, index)
        return made


MAX_INDEX_BYTES = 256 * 2**20
"""Far beyond the index of any of simplemma's languages: a larger file is not read."""
