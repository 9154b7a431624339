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

import atexit
import contextlib
import json
import os
import tempfile
from pathlib import Path

import simplemma
from simplemma.strategies.dictionaries.dictionary_factory import SUPPORTED_LANGUAGES

from validator.resultcache import open_own, own_folder, trusted_root


def cache_folder() -> Path | None:
    """Where the lemmas are kept: the tool's cache folder, when it can be trusted (see
    validator.resultcache)."""
    return trusted_root()


def lemmatizes(code: str) -> bool:
    return code in SUPPORTED_LANGUAGES


class Lemmas:
    """One language's lemmas: those kept, and those found in this process."""

    def __init__(self, code: str) -> None:
        self.code = code
        folder = cache_folder()
        self.path = folder / f"lemmas-{code}-simplemma-{simplemma.__version__}.json" if folder else None
        self.known: dict[str, str] = {}
        self.found: dict[str, str] = {}
        if self.path is not None:
            with contextlib.suppress(OSError, ValueError):
                data = json.loads(_read_own(self.path))
                if isinstance(data, dict):
                    self.known = {str(key): str(value) for key, value in data.items()}

    def lemma(self, word: str) -> str:
        kept = self.known.get(word)
        if kept is None:
            kept = self.known[word] = self.found[word] = simplemma.lemmatize(word, lang=self.code)
        return kept

    def save(self) -> None:
        """Add the lemmas found here to the file (a new file renamed over the old, so a
        reader never sees half of one; another process's additions are merged)."""
        if not self.found or self.path is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if not own_folder(self.path.parent, self.path.parent, make=True):
                return
            merged: dict[str, str] = {}
            with contextlib.suppress(OSError, ValueError):
                merged = dict(json.loads(_read_own(self.path)))
            merged.update(self.found)
            handle, name = tempfile.mkstemp(dir=self.path.parent, prefix=".lemmas-", suffix=".json")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as file:
                    json.dump(merged, file, ensure_ascii=False, sort_keys=True)
                os.replace(name, self.path)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(name)  # left only when the rename did not happen
            self.found = {}


def _read_own(path: Path) -> str:
    """The text of a lemmas file of the cache, not through a link (see validator.resultcache)."""
    with open_own(path) as stream:
        return stream.read(MAX_LEMMAS_BYTES).decode("utf-8")


MAX_LEMMAS_BYTES = 64 * 2**20
"""Far beyond the words of any rulebook: a larger file is not read whole (it then fails as JSON)."""

_LEMMAS: dict[str, Lemmas] = {}


def lemma(code: str, word: str) -> str:
    """The lemma of ``word`` in language ``code`` (which :func:`lemmatizes`)."""
    lemmas = _LEMMAS.get(code)
    if lemmas is None:
        lemmas = _LEMMAS[code] = Lemmas(code)
    return lemmas.lemma(word)


def save_lemmas() -> None:
    """Keep what this process found (a build's worker calls it when its job ends)."""
    for lemmas in _LEMMAS.values():
        lemmas.save()


atexit.register(save_lemmas)
