"""The files of the tool's cache, reached through folder handles, never through a link.

Everything kept between runs lies under one root folder (see
:func:`validator.resultcache.cache_root`).  The root itself may be a symbolic link (a
cache kept on another disk): where it leads is vetted before anything is kept there
(:func:`validator.resultcache.cache_refusal`).  Below it nothing is reached by its
path: each folder is opened relative to the one above it with ``O_NOFOLLOW``, and
each file relative to its folder, so that a link put anywhere inside, even after the
folders were looked at, is refused rather than followed, for reading, writing,
listing or deleting.  A folder or file that another user owns, or that others may
write, is refused the same way: a pickle read back runs as code.

Every function here answers ``None`` or ``False`` where the file cannot be had that
way: the cache only ever saves time, and a refused file is a result not kept.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK | os.O_CLOEXEC
_NEW_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC


def supported() -> bool:
    """Whether this system opens files relative to a folder handle and tells whose
    they are (Linux, the BSDs, macOS); elsewhere nothing is kept."""
    return (hasattr(os, "getuid") and hasattr(os, "O_NOFOLLOW") and os.open in os.supports_dir_fd
            and os.mkdir in os.supports_dir_fd and os.unlink in os.supports_dir_fd)


def _own(info: os.stat_result) -> bool:
    """Whether only this user can change what ``info`` describes."""
    return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


@contextlib.contextmanager
def folder(root: Path, parts: Sequence[str], make: bool) -> Iterator[int | None]:
    """A handle on the folder ``root/parts[0]/parts[1]/...``, each part opened inside the
    one before without following a link, and each this user's own; ``None`` when one
    is not (or is missing and ``make`` is false).  Missing folders are made, readable by
    this user alone, when ``make``."""
    handles: list[int] = []
    try:
        if make:
            with contextlib.suppress(OSError):
                root.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            handles.append(os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC))
        except OSError:
            yield None
            return
        for part in parts:
            if part in ("", ".", "..") or "/" in part:
                yield None
                return
            handle = _subfolder(handles[-1], part, make)
            if handle is None:
                yield None
                return
            handles.append(handle)
        yield handles[-1] if _own(os.fstat(handles[-1])) else None
    finally:
        for handle in handles:
            os.close(handle)


def _subfolder(parent: int, name: str, make: bool) -> int | None:
    for attempt in range(2):
        try:
            handle = os.open(name, _FOLDER_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            if not make or attempt:
                return None
            with contextlib.suppress(FileExistsError):
                try:
                    os.mkdir(name, 0o700, dir_fd=parent)
                except OSError:
                    return None
            continue
        except OSError:  # ELOOP or ENOTDIR: a link, or a file where a folder should be
            return None
        if _own(os.fstat(handle)):
            return handle
        os.close(handle)
        return None
    return None


def read(handle: int, name: str, limit: int) -> bytes | None:
    """The bytes of the regular file ``name`` in the folder ``handle``, this user's own
    and not a link, at most ``limit`` of them (None beyond: the file is no result)."""
    try:
        descriptor = os.open(name, _READ_FLAGS, dir_fd=handle)
    except OSError:
        return None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or not _own(info) or info.st_size > limit:
            return None
        chunks, total = [], 0
        while chunk := os.read(descriptor, min(2**20, limit + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                return None
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(descriptor)


def write(handle: int, name: str, data: bytes) -> bool:
    """Put ``data`` in the folder ``handle`` as ``name``: written to a new file of this
    user's alone, then renamed over the old one, so that a reader never sees half a
    file; a link in the new file's place is never written through."""
    temporary = f".{name}.{secrets.token_hex(6)}"
    try:
        descriptor = os.open(temporary, _NEW_FLAGS, 0o600, dir_fd=handle)
    except OSError:
        return False
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        os.replace(temporary, name, src_dir_fd=handle, dst_dir_fd=handle)
        return True
    except OSError:
        return False
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=handle)  # left only when the rename did not happen


def names(handle: int) -> list[str]:
    """The names in the folder ``handle``."""
    try:
        return os.listdir(handle)
    except OSError:
        return []


def remove(handle: int, name: str) -> None:
    """Delete ``name`` from the folder ``handle`` (a link itself, never what it leads to)."""
    with contextlib.suppress(OSError):
        os.unlink(name, dir_fd=handle)
