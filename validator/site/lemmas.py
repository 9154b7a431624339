"""Lemmas of the words the sites use, kept between builds.

simplemma finds a word's lemma in a dictionary of the whole language, which it
reads whole the first time a language is asked for: slow for Polish, and paid
in every worker process of every build, for the few thousand words a rulebook
uses.  A lemma depends only on the word, the language and simplemma's version, so
the lemmas found are kept in a small file per language and version under the
user's cache folder (``$XDG_CACHE_HOME/validator``, else ``~/.cache/validator``),
and the dictionary is read only when a word is not there yet.  A cache that
cannot be read or written is ignored: it only saves time.
"""

from __future__ import annotations

import json
from pathlib import Path

import simplemma
from simplemma.strategies.dictionaries.dictionary_factory import SUPPORTED_LANGUAGES

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
        if self.folder is not None:
            self.known = _read_kept(self.folder, self.name)

    @property
    def path(self) -> Path | None:
        return None if self.folder is None else self.folder / self.name

    def lemma(self, word: str) -> str:
        kept = self.known.get(word)
        if kept is None:
            kept = self.known[word] = self.found[word] = simplemma.lemmatize(word, lang=self.code)
        return kept

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
