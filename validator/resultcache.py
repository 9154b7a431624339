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

Where: ``$VALIDATOR_CACHE_DIR``, else ``$XDG_CACHE_HOME/validator``, else
``~/.cache/validator``; one folder per project, named after its path.  Nothing is
written into the project.  An empty ``VALIDATOR_CACHE_DIR`` (or ``--no-cache``) keeps
nothing.  The files are Python pickles, and reading one can run code, so the folder is
trusted only when no one else can put a file there (see :func:`cache_refusal`): a
relative path (which a cloned project could fill), a folder inside the project, one
another user owns or can write, are refused in one line and the command runs without.
Inside the folder no symbolic link is followed, for reading, writing or deleting.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, TypeVar

from validator.derived import KEPT, kept_function

CACHE_VARIABLE = "VALIDATOR_CACHE_DIR"
FORMAT = b"validator-results-1"
"""Changes when the layout of a cache file changes."""

PACKAGE = Path(__file__).resolve().parent

T = TypeVar("T")


class Bucket:
    """One file of the cache: a mapping from keys to results of one kind, loaded on
    first use and written back by :meth:`save` when it changed."""

    def __init__(self, path: Path, fingerprint: bytes, top: Path | None = None) -> None:
        self._path = path
        self._top = top or path.parent
        """The cache's folder: no link is followed below it."""
        self._fingerprint = fingerprint
        self._entries: dict[object, object] | None = None
        self._used: set[object] = set()
        self._changed = False

    def get(self, key: object) -> object | None:
        """The result kept under ``key``, or None."""
        entries = self._loaded()
        found = entries.get(key)
        if found is not None:
            self._used.add(key)
        return found

    def put(self, key: object, value: object) -> None:
        """Keep ``value`` under ``key`` (None is not a result)."""
        entries = self._loaded()
        if entries.get(key) is not value:
            entries[key] = value
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
        self._entries = {key: value}
        self._used = {key}
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
        if self._entries is None:
            return
        unused = self._entries.keys() - self._used
        if len(unused) > len(self._used):
            for key in unused:
                del self._entries[key]
            self._changed = True
        if not self._changed:
            return
        with contextlib.suppress(OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
            if not own_folder(self._path.parent, self._top, make=True):
                return
            handle, temporary = tempfile.mkstemp(prefix=f".{self._path.name}.", dir=self._path.parent)
            try:
                with os.fdopen(handle, "wb") as stream:
                    stream.write(FORMAT + b"\n" + self._fingerprint + b"\n")
                    pickle.dump(self._entries, stream, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(temporary, self._path)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
        self._changed = False

    def release(self) -> None:
        """Write the bucket if it changed and let go of its entries (read again if
        asked for later): what one file held is not kept to the end of the command."""
        self.save()
        self._entries = None

    def _loaded(self) -> dict[object, object]:
        if self._entries is None:
            self._entries = self._read()
        return self._entries

    def _read(self) -> dict[object, object]:
        if not own_folder(self._path.parent, self._top, make=False):
            return {}
        try:
            with open_own(self._path) as stream:
                if stream.readline() != FORMAT + b"\n" or stream.readline() != self._fingerprint + b"\n":
                    return {}
                entries = pickle.load(stream)
        except Exception:  # a damaged or foreign file is only a result not kept
            return {}
        return entries if isinstance(entries, dict) else {}


class ResultCache:
    """The buckets of one project."""

    def __init__(self, folder: Path, fingerprint: bytes) -> None:
        self.folder = folder
        self._fingerprint = fingerprint
        self._buckets: dict[str, Bucket] = {}

    def bucket(self, name: str) -> Bucket:
        """The bucket ``name``; ``family/member`` names one of a family of buckets (one
        per input file, say), of which a run that used any uses all that still exist."""
        if name not in self._buckets:
            self._buckets[name] = Bucket(self.folder / f"{name}.pickle", self._fingerprint, self.folder)
        return self._buckets[name]

    def peek(self, name: str, key: object) -> object | None:
        """What bucket ``name`` holds under ``key``, from a copy of the bucket that is
        never saved (see :func:`peek`)."""
        return Bucket(self.folder / f"{name}.pickle", self._fingerprint, self.folder).get(key)

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
            if not own_folder(self.folder / family, self.folder, make=False):
                continue  # a link to another folder, say: nothing of it is the cache's to delete
            with contextlib.suppress(OSError):
                for path in (self.folder / family).iterdir():
                    if path.suffix == ".pickle" and path.name not in members:
                        path.unlink()


_active: ResultCache | None = None


def own_folder(folder: Path, top: Path, make: bool) -> bool:
    """Whether ``folder`` and each folder above it up to ``top`` (the cache's folder)
    are real folders (no symbolic link below ``top``) that this user owns and no one
    else can write; missing ones are made, readable by this user only, when ``make``.
    What another user could put there, or a link leads to, is not the cache's to read,
    write or delete."""
    if not folder.is_relative_to(top):
        return False
    if make:
        with contextlib.suppress(OSError):
            top.mkdir(mode=0o700, parents=True, exist_ok=True)
    current = top
    for part in ("", *folder.relative_to(top).parts):
        current = current / part if part else current
        try:
            # The top may be a link (a cache kept on another disk): where it leads was
            # vetted when the cache was opened (see cache_refusal).
            info = os.stat(current) if current == top else os.lstat(current)
        except FileNotFoundError:
            if not make:
                return False
            try:
                os.mkdir(current, 0o700)
                info = os.lstat(current)
            except OSError:
                return False
        except OSError:
            return False
        if not stat.S_ISDIR(info.st_mode) or _foreign(info, sticky_allowed=False):
            return False
    return True


def _foreign(info: os.stat_result, sticky_allowed: bool) -> bool:
    """Whether another user can change what a folder holds: it is theirs (root's
    folders excepted, above the cache), or others may write it (a sticky folder, such
    as /tmp, only lets them replace their own entries: allowed above the cache)."""
    uid = os.getuid()
    if info.st_uid != uid and not (sticky_allowed and info.st_uid == 0):
        return True
    writable_by_others = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return bool(writable_by_others) and not (sticky_allowed and info.st_mode & stat.S_ISVTX)


@contextlib.contextmanager
def open_own(path: Path) -> Iterator[IO[bytes]]:
    """``path`` opened for reading if it is a regular file of this user's, not a link."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            raise OSError(f"{path} is not a file of the cache")
    except BaseException:
        os.close(descriptor)
        raise
    with os.fdopen(descriptor, "rb") as stream:
        yield stream


def bucket(name: str) -> Bucket | None:
    """The bucket ``name`` of the running command's cache, None when results are not kept."""
    return None if _active is None else _active.bucket(name)


def peek(name: str, parts: tuple[object, ...]) -> object | None:
    """The result kept in bucket ``name`` under the :func:`digest` of ``parts``, read
    without taking the bucket over: this run will neither save it nor forget what it
    holds (a job in another process may be making it)."""
    return None if _active is None else _active.peek(name, digest(*parts))


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


_refusal_said = False
_project: Path | None = None
_nothing_kept = False
"""Inside :func:`results_kept` switched off: no cache of any kind is read or written."""


def working_on(project: Path) -> None:
    """The project the command works on, which no cache may lie inside (see
    :func:`trusted_root`: the search's lemmas are kept outside any command's cache)."""
    global _project, _refusal_said
    _project, _refusal_said = project, False


def trusted_root(project: Path | None = None) -> Path | None:
    """The cache's root when it can be trusted (see :func:`cache_refusal`); else None,
    having said why once on standard error: the command runs on without the cache."""
    global _refusal_said
    if _nothing_kept or not hasattr(os, "getuid"):
        # Without user ids (Windows) no folder can be shown to be this user's alone, and
        # a pickle from elsewhere would run as code: nothing is kept there.
        return None
    refusal = cache_refusal(project or _project)
    if refusal is None:
        return cache_root()
    if not _refusal_said:
        print(f"validator: warning: results not kept: {refusal}", file=sys.stderr)
        _refusal_said = True
    return None


def cache_folder(project: Path, environment: Mapping[str, str] = os.environ) -> Path | None:
    """The folder of ``project``'s results, None when nothing is kept."""
    root = cache_root(environment)
    if root is None:
        return None
    resolved = str(project.resolve())
    name = hashlib.blake2b(resolved.encode("utf-8", "surrogateescape"), digest_size=8).hexdigest()
    return root / f"{Path(resolved).name or 'project'}-{name}"


@contextlib.contextmanager
def results_kept(project: Path, enabled: bool = True) -> Iterator[ResultCache | None]:
    """Keep results for the commands run inside: the cache is active until the end,
    and what changed is written then (also when the command found problems).  Switched
    off (``--no-cache``, or ``VALIDATOR_CACHE_DIR`` empty), nothing is kept, on disk (the
    search's lemmas neither, see :func:`trusted_root`) or in memory (see
    :mod:`validator.derived`): every result is made afresh."""
    global _active, _nothing_kept
    if not enabled or cache_root() is None:  # nothing kept: no lemma, no value in memory either
        earlier_off, _nothing_kept = _nothing_kept, True
        try:
            with KEPT.off():
                yield None
        finally:
            _nothing_kept = earlier_off
        return
    folder = cache_folder(project) if enabled and trusted_root(project) is not None else None
    if folder is None:
        yield None
        return
    cache = ResultCache(folder, fingerprint())
    earlier, _active = _active, cache
    try:
        yield cache
    finally:  # also after a problem: what was made before it is still right
        cache.save()
        _active = earlier


def digest(*parts: object) -> bytes:
    """A key for ``parts`` (strings, bytes, numbers, tuples of them, None): equal
    only for equal parts, in a stable form across runs."""
    hasher = hashlib.blake2b(digest_size=20)
    hasher.update(repr(parts).encode("utf-8", "surrogatepass"))
    return hasher.digest()


@functools.cache
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


@kept_function(16)
def core_digest(ruleset: str) -> bytes:
    """The rules core ``ruleset`` (``module:attribute``) names, for the results it
    computes: its name, and its package's files when it lives outside this package
    (whose files the :func:`fingerprint` covers).  Kept by the name: a process imports
    a core once, so the files it read then are those of the code it runs."""
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
