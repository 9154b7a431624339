"""What a check made of its inputs, kept between runs so that the next one redoes
only what an edit touched.

``validator check`` and ``validator build`` read every input afresh, and between
two runs an editor changes a text or two.  Four kinds of result are kept on disk,
each by exactly what it was made from:

- each input file's parsed form (a validated YAML model, a parsed catalogue), by
  kind, file name and bytes, one cache file per input file (see
  :mod:`validator.content.inputcache`);
- each worked example's outcome, by the example (values, lines) and its rule, and
  the outcomes of a file's examples together, by the file's bytes (see
  :mod:`validator.checks.examples`);
- each message's lint findings, by the message and all that the lint consults
  (see :class:`validator.checks.lint.LintContext`), and each part of the lint whole,
  by the files and facts it reads (see :mod:`validator.checks.lintparts`);
- what the checks ask of the rules core (its scenarios and variants, whether each
  chart can be drawn), by the core (see :mod:`validator.checks.rulescore`).

Every file of the cache also holds the tool's fingerprint: its own source files,
the rules core's and the versions of the libraries that parse the inputs.  A result
made by other code is never read.  The cache only ever saves time: a folder that
cannot be made or written, a file that is damaged or from another version, all count
as results not kept, never as an error.

A command's results are opened by :func:`validator.store.opened`, which hands them
down in its :class:`validator.store.Store`.

Where: ``$VALIDATOR_CACHE_DIR``, else ``$XDG_CACHE_HOME/validator``, else
``~/.cache/validator``; one folder per project, named after its path.  Nothing is
written into the project.  An empty ``VALIDATOR_CACHE_DIR`` (or ``--no-cache``) keeps
nothing.  The files are Python pickles, and reading one can run code, so the folder is
trusted only when no one else can put a file there (see :func:`cache_refusal`): a
relative path (which a cloned project could fill), a folder inside the project, one
another user owns or can write, are refused in one line and the command runs without.
Inside the folder no symbolic link is followed, for reading, writing or deleting (see
:mod:`validator.cachefiles`), and an entry this code did not write is never handed out.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import pickle
import stat
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

from validator import cachefiles

CACHE_VARIABLE = "VALIDATOR_CACHE_DIR"
FORMAT = b"validator-results-1"
"""Changes when the layout of a cache file changes."""

PACKAGE = Path(__file__).resolve().parent

T = TypeVar("T")


class Bucket:
    """One file of the cache: a mapping from keys to results of one kind, loaded on
    first use and written back by :meth:`save` when it changed.

    Each result is sealed on its own: its pickle, after a digest of it keyed by the
    :func:`fingerprint`.  A result is opened only when asked for, and one whose digest
    does not match (a damaged file, or an entry written by anything but this code) is
    a result not kept: whatever an entry holds, it never reaches the caller unless
    this very code made it."""

    def __init__(self, root: Path, parts: tuple[str, ...], name: str, fingerprint: bytes) -> None:
        self._root, self._parts, self._name = root, parts, name
        """The cache's root, the folders below it, the file's name: see :mod:`validator.cachefiles`."""
        self._fingerprint = fingerprint
        self._sealed: dict[object, bytes] | None = None
        self._opened: dict[object, object] = {}
        self._fresh: set[object] = set()
        """Keys whose result this run made, to be sealed when saved."""
        self._used: set[object] = set()
        self._changed = False

    @classmethod
    def at(cls, path: Path, fingerprint: bytes) -> Bucket:
        """The bucket of the file ``path``, whose folder is the cache's root."""
        return cls(path.parent, (), path.name, fingerprint)

    def get(self, key: object) -> object | None:
        """The result kept under ``key``, or None."""
        if key in self._opened:
            found = self._opened[key]
        else:
            sealed = self._loaded().get(key)
            found = None if sealed is None else _unsealed(sealed, self._fingerprint)
            if found is None:
                return None
            self._opened[key] = found
        self._used.add(key)
        return found

    def put(self, key: object, value: object) -> None:
        """Keep ``value`` under ``key`` (None is not a result)."""
        self._loaded()
        if self._opened.get(key) is not value:
            self._opened[key] = value
            self._fresh.add(key)
            self._changed = True
        self._used.add(key)

    def made(self, key: object, make: Callable[[], T]) -> T:
        """The result kept under ``key`` (a tuple, as every kept result is), else
        ``make()``, kept."""
        found = self.get(key)
        if isinstance(found, tuple):
            return found  # type: ignore[return-value]
        made = make()
        self.put(key, made)
        return made

    def hold(self, key: object, value: object) -> None:
        """Keep ``value`` under ``key`` and nothing else: the bucket of a result made
        whole again each time (its earlier entries are not even read)."""
        self._sealed, self._opened = {}, {key: value}
        self._fresh = self._used = {key}
        self._changed = True

    def made_from(self, key: object, signature: object, make: Callable[[], T]) -> T:
        """The result kept under ``key`` when it was made from an equal ``signature``,
        else ``make()``, kept with it.  Cheaper than :meth:`made` for many small results
        (a message's findings): equal keys and signatures are compared, nothing is hashed
        but the key; the bucket holds the signatures, the texts a result was made of."""
        found = self.get(key)
        if isinstance(found, tuple) and len(found) == 2 and found[0] == signature:
            return found[1]  # type: ignore[no-any-return]
        made = make()
        self.put(key, (signature, made))
        return made

    def save(self) -> None:
        """Write the bucket if it changed.  Results left unused by this run are kept
        while they are fewer than the used ones (a run that stopped early leaves the
        rest for the next), so the file never outgrows twice what a run needs."""
        if self._sealed is None:
            return
        sealed = self._sealed
        unused = (sealed.keys() | self._opened.keys()) - self._used
        if len(unused) > len(self._used):
            for key in unused:
                sealed.pop(key, None)
                self._opened.pop(key, None)
            self._changed = True
        if not self._changed:
            return
        for key in self._fresh:
            value = _sealed(self._opened[key], self._fingerprint)
            if value is None:
                sealed.pop(key, None)  # a result pickle cannot write is only a result not kept
            else:
                sealed[key] = value
        self._fresh = set()
        with contextlib.suppress(pickle.PicklingError, TypeError, AttributeError, RecursionError), \
                cachefiles.folder(self._root, self._parts, make=True) as handle:
            if handle is not None:
                cachefiles.write(handle, self._name, FORMAT + b"\n" + self._fingerprint + b"\n"
                                 + pickle.dumps(sealed, protocol=pickle.HIGHEST_PROTOCOL))
        self._changed = False

    def release(self) -> None:
        """Write the bucket if it changed and let go of its entries (read again if
        asked for later): what one file held is not kept to the end of the command."""
        self.save()
        self._sealed, self._opened = None, {}

    def _loaded(self) -> dict[object, bytes]:
        if self._sealed is None:
            self._sealed = self._read()
        return self._sealed

    def _read(self) -> dict[object, bytes]:
        with cachefiles.folder(self._root, self._parts, make=False) as handle:
            data = None if handle is None else cachefiles.read(handle, self._name, MAX_BUCKET_BYTES)
        header = FORMAT + b"\n" + self._fingerprint + b"\n"
        if data is None or not data.startswith(header):
            return {}
        try:  # a view, not a copy: the file can be the size of a large book's catalogue
            entries = pickle.loads(memoryview(data)[len(header):])
        except Exception:  # a damaged or foreign file is only a result not kept
            return {}
        if not isinstance(entries, dict):
            return {}
        return {key: value for key, value in entries.items() if isinstance(value, bytes)}


MAX_BUCKET_BYTES = 2**30
"""Far beyond the results of any book: a larger file is not read (its results are made again)."""
_SEAL = 20
"""Bytes of the digest in front of each sealed result."""


def _sealed(value: object, fingerprint: bytes) -> bytes | None:
    """``value`` pickled, after the digest that :func:`_unsealed` checks."""
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return None
    return hashlib.blake2b(data, digest_size=_SEAL, key=fingerprint[:64]).digest() + data


def _unsealed(sealed: bytes, fingerprint: bytes) -> object | None:
    """The result :func:`_sealed` made, or None for bytes it did not make with this code."""
    seal, data = sealed[:_SEAL], memoryview(sealed)[_SEAL:]  # a view: no copy of a large result
    if not hmac.compare_digest(seal, hashlib.blake2b(data, digest_size=_SEAL, key=fingerprint[:64]).digest()):
        return None
    try:
        value: object = pickle.loads(data)
    except Exception:  # sealed by this code, so only a library's own failure: a result not kept
        return None
    return value


class ResultCache:
    """The buckets of one project: the folder ``name`` of the cache's ``root``."""

    def __init__(self, root: Path, name: str, fingerprint: bytes) -> None:
        self.root, self.name = root, name
        self._fingerprint = fingerprint
        self._buckets: dict[str, Bucket] = {}

    @property
    def fingerprint(self) -> bytes:
        """The code the results were made by (see :func:`fingerprint`)."""
        return self._fingerprint

    @property
    def folder(self) -> Path:
        return self.root / self.name

    def bucket(self, name: str) -> Bucket:
        """The bucket ``name``; ``family/member`` names one of a family of buckets (one
        per input file, say), of which a run that used any uses all that still exist."""
        if name not in self._buckets:
            self._buckets[name] = self._bucket(name)
        return self._buckets[name]

    def peek(self, name: str, key: object) -> object | None:
        """What bucket ``name`` holds under ``key``, from a copy of the bucket that is
        never saved (see :func:`peek`)."""
        return self._bucket(name).get(key)

    def _bucket(self, name: str) -> Bucket:
        family, _, member = name.rpartition("/")
        parts = (self.name, *family.split("/")) if family else (self.name,)
        return Bucket(self.root, parts, f"{member}.pickle", self._fingerprint)

    def save(self) -> None:
        """Write what changed; forget the members of a family this run used that it did
        not use (what was kept for a file since deleted or renamed)."""
        for bucket in self._buckets.values():
            bucket.save()
        used: dict[str, set[str]] = {}
        for name in self._buckets:
            family, _, member = name.rpartition("/")
            if family:
                used.setdefault(family, set()).add(f"{member}.pickle")
        for family, members in used.items():
            with cachefiles.folder(self.root, (self.name, *family.split("/")), make=False) as handle:
                if handle is None:
                    continue  # a link to another folder, say: nothing of it is the cache's to delete
                for name in cachefiles.names(handle):
                    if name.endswith(".pickle") and name not in members:
                        cachefiles.remove(handle, name)


def _foreign(info: os.stat_result, sticky_allowed: bool) -> bool:
    """Whether another user can change what a folder holds: it is theirs (root's
    folders excepted, above the cache), or others may write it (a sticky folder, such
    as /tmp, only lets them replace their own entries: allowed above the cache)."""
    uid = os.getuid()
    if info.st_uid != uid and not (sticky_allowed and info.st_uid == 0):
        return True
    writable_by_others = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return bool(writable_by_others) and not (sticky_allowed and info.st_mode & stat.S_ISVTX)


def made(kept: Bucket | None, parts: tuple[object, ...], make: Callable[[], T]) -> T:
    """``make()``, kept in ``kept`` under the :func:`digest` of ``parts``; made every
    time when results are not kept (``kept`` None)."""
    return make() if kept is None else kept.made(digest(*parts), make)


def cache_root(environment: Mapping[str, str] = os.environ) -> Path | None:
    """The folder of everything the tool keeps between runs (these results, the
    search's lemmas), None when ``VALIDATOR_CACHE_DIR`` is set but empty."""
    chosen = environment.get(CACHE_VARIABLE)
    if chosen is not None:
        return Path(chosen).expanduser() if chosen.strip() else None
    base = environment.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".cache") / "validator"


def cache_refusal(project: Path | None, environment: Mapping[str, str] = os.environ) -> str | None:
    """Why the cache's root cannot be trusted, if it cannot: the one line to say so.

    Pickles are read back as code would be run, so the root must be where nothing but
    this user can put a file: an absolute path (a relative one is a folder of wherever
    the command runs, such as a cloned project), outside the project, in folders no one
    else may change (root's and sticky ones such as /tmp allowed above it)."""
    for name in (CACHE_VARIABLE, "XDG_CACHE_HOME"):
        value = environment.get(name, "")
        if value.strip() and not Path(value).expanduser().is_absolute():
            return (f"{name}={value} is a relative path, so the cache would be read from wherever the command "
                    f"runs. Fix: give an absolute path (or set {CACHE_VARIABLE} empty to keep nothing)")
        if name == CACHE_VARIABLE and name in environment:
            break  # XDG_CACHE_HOME is not consulted then
    root = cache_root(environment)
    if root is None:
        return None
    resolved = root.resolve()
    if project is not None and resolved.is_relative_to(project.resolve()):
        return (f"the cache folder {root} is inside the project. Fix: set {CACHE_VARIABLE} to a folder outside "
                "it, such as ~/.cache/validator")
    return _foreign_folder(resolved)


def _foreign_folder(root: Path) -> str | None:
    """The line naming the first folder of ``root`` and those above it that another user
    could change, if any."""
    for current in (root, *root.parents):
        try:
            info = os.stat(current)
        except OSError:
            continue  # made by this user when results are written
        if _foreign(info, sticky_allowed=current != root):
            owner = "another user owns it" if info.st_uid not in (os.getuid(), 0) else "others can write it"
            return (f"the cache folder {root} is not safe to read ({current}: {owner}), and its files are run as "
                    f"code. Fix: use a folder of your own (chmod go-w {current}, or set {CACHE_VARIABLE})")
    return None


def trusted_root(project: Path) -> Path | None:
    """The cache's root when it can be trusted (see :func:`cache_refusal`); else None,
    having said why on standard error: the command runs on without the cache."""
    if not cachefiles.supported():
        # Without user ids (Windows) no folder can be shown to be this user's alone, and
        # a pickle from elsewhere would run as code: nothing is kept there.
        return None
    refusal = cache_refusal(project)
    if refusal is None:
        return cache_root()
    print(f"validator: warning: results not kept: {refusal}", file=sys.stderr)
    return None


def cache_folder(project: Path, environment: Mapping[str, str] = os.environ) -> Path | None:
    """The folder of ``project``'s results, None when nothing is kept."""
    root = cache_root(environment)
    return None if root is None else root / project_folder_name(project)


def project_folder_name(project: Path) -> str:
    """The name of ``project``'s folder in the cache: its own name, and a digest of its
    whole path, so that two books of the same name keep their results apart."""
    resolved = str(project.resolve())
    name = hashlib.blake2b(resolved.encode("utf-8", "surrogateescape"), digest_size=8).hexdigest()
    return f"{Path(resolved).name or 'project'}-{name}"


def digest(*parts: object) -> bytes:
    """A key for ``parts`` (strings, bytes, numbers, tuples of them, None): equal
    only for equal parts, in a stable form across runs."""
    hasher = hashlib.blake2b(digest_size=20)
    hasher.update(repr(parts).encode("utf-8", "surrogatepass"))
    return hasher.digest()


def fingerprint() -> bytes:
    """The code that made the results: this package's files (source, templates,
    assets), Python's version and those of the libraries that parse and validate the
    inputs (Babel, pydantic, ruamel.yaml, PyYAML's libyaml reader)."""
    import babel
    import pydantic

    hasher = hashlib.blake2b(digest_size=20)
    versions = (sys.version, babel.__version__, pydantic.VERSION, _version("ruamel.yaml"), _version("PyYAML"))
    hasher.update(repr(versions).encode())
    _add_files(hasher, PACKAGE)
    return hasher.hexdigest().encode()


def core_digest(ruleset: str) -> bytes:
    """The rules core ``ruleset`` (``module:attribute``) names, for the results it
    computes: its name, and its package's files when it lives outside this package
    (whose files the :func:`fingerprint` covers).  A command's store keeps it by the
    name (:meth:`validator.store.Store.core_digest`): a process imports a core once, so
    the files it read then are those of the code it runs."""
    hasher = hashlib.blake2b(digest_size=20)
    hasher.update(ruleset.encode("utf-8", "surrogateescape"))
    core = _core_folder(ruleset)
    if core is not None and not core.is_relative_to(PACKAGE):
        _add_files(hasher, core)
    return hasher.digest()


def _add_files(hasher: hashlib.blake2b, folder: Path) -> None:
    """Every file of ``folder`` (or the file itself), names and bytes, in a fixed order."""
    files = [folder] if folder.is_file() else sorted(
        path for path in folder.rglob("*") if path.is_file() and "__pycache__" not in path.parts)
    for path in files:
        with contextlib.suppress(OSError):
            data = path.read_bytes()
            hasher.update(f"{path.relative_to(folder.parent)}\0{len(data)}\0".encode())
            hasher.update(data)


def _core_folder(ruleset: str) -> Path | None:
    """Where the rules core's top-level package (or lone module) lives."""
    import importlib.util

    top = ruleset.partition(":")[0].split(".")[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    origin = Path(spec.origin).resolve()
    return origin.parent if spec.submodule_search_locations else origin


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return ""
