"""Whether a built site is up to date with its inputs: the build that has nothing to do.

After each build the store keeps, per site folder, every input the load read (by the
digest of its bytes), the names in each folder holding one (a file added there, a
new chapter or catalogue, may be read by the next load), the code that built it,
the options, ``SOURCE_DATE_EPOCH`` and umask it was built with, the number of translation
warnings it said, and every file of the site as the build left it.  A build whose
inputs, code, options and site are all still so has nothing to do: it says what the
last one said without loading the book (incremental builds, for when something
changed, are :mod:`validator.site.incremental`).

The record is plain data, so that reading it imports nothing of the build.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from validator.store import Store, digest_of

FORMAT = 1


@dataclass(frozen=True)
class Options:
    """What a build was asked for, besides its inputs: the language, the date
    (``SOURCE_DATE_EPOCH``), and the umask, which the site's modes follow."""

    language: str | None
    epoch: int | None
    umask: int = field(default_factory=lambda: current_umask())


def current_umask() -> int:
    """The process's umask (read by setting it, and put back at once)."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def _file_digest(path: Path) -> bytes | None:
    """The digest the load knows the file's bytes by (see :func:`digest_of`)."""
    try:
        return digest_of(path.read_bytes())
    except OSError:
        return None


def _names(folder: Path) -> tuple[str, ...] | None:
    """The names in ``folder`` that a load may read: not those starting with a dot (a
    build's own staging folders beside the site, a version control's folder)."""
    try:
        return tuple(sorted(name for name in os.listdir(folder) if not name.startswith(".")))
    except OSError:
        return None


def site_files(target: Path) -> dict[str, tuple[int, int, int]]:
    """Every file under ``target`` (links as links) by its path within it: size,
    modification time (ns), inode."""
    found: dict[str, tuple[int, int, int]] = {}
    for directory, _folders, names in os.walk(target):
        for name in names:
            path = os.path.join(directory, name)
            state = os.lstat(path)
            found[os.path.relpath(path, target)] = (state.st_size, state.st_mtime_ns, state.st_ino)
    return found


def _folders(root: Path, inputs: Mapping[str, bytes | None], also: tuple[Path, ...]
             ) -> dict[str, tuple[str, ...] | None]:
    folders = {(root / shown).parent for shown in inputs} | set(also)
    return {str(folder): _names(folder) for folder in sorted(folders)}


@dataclass(frozen=True)
class Said:
    """What a build said: the number of translation warnings, the folders it built."""

    warnings: int
    built: tuple[str, ...]


def keep(store: Store, root: Path, target: Path, inputs: Mapping[str, bytes], files: tuple[Path, ...],
         folders: tuple[Path, ...], ruleset: str, options: Options, said: Said) -> None:
    """Keep what the build of ``target`` just read and left: ``inputs`` (as shown ->
    digest of the bytes the load read), ``files`` read besides them (the translator's
    guides, the MkDocs configuration and what it inherits), ``folders`` looked into
    besides those of the inputs, the rules core ``ruleset``, the ``options`` and the
    number of translation ``warnings``."""
    bucket = store.site_bucket("uptodate", target)
    if bucket is None:
        return
    known = {**inputs, **{_shown(root, path): _file_digest(path) for path in files}}
    bucket.put(str(target), (FORMAT, known, _folders(root, known, folders), [str(folder) for folder in folders],
                             ruleset, store.code_digest(ruleset), options, said, site_files(target)))


def _shown(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def up_to_date(store: Store, root: Path, target: Path, options: Options) -> Said | None:
    """What the last build of ``target`` said, when nothing it was built from changed
    and the site is as it left it; else None."""
    bucket = store.site_bucket("uptodate", target)
    record = None if bucket is None else bucket.get(str(target))
    if not isinstance(record, tuple) or len(record) != 9 or record[0] != FORMAT:
        return None
    _format, inputs, folders, also, ruleset, code, kept_options, said, files = record
    if kept_options != options or not isinstance(inputs, dict) or not isinstance(also, list):
        return None
    for shown, known in inputs.items():
        if _file_digest(root / shown) != known:
            return None
    if _folders(root, inputs, tuple(Path(folder) for folder in also)) != folders or store.code_digest(ruleset) != code:
        return None
    try:
        unchanged = site_files(target) == files
    except OSError:
        return None
    return said if unchanged and isinstance(said, Said) else None
