"""Where a build may write, and how a new site takes the place of the old one.

A build replaces its output folder whole, so it writes only into a folder that
is absent, empty, or marked as a site of this tool by the file ``.validator-site``
at its root (written into every site built). Anything else is refused with one
line (exit 2): a folder holding other files, a file, a device, a symbolic link,
the project folder or a folder holding it, a folder holding the project's inputs
or inside one of its input folders. A site built before sites carried the marker
is refused too, since nothing tells it apart from a folder of the user's own
with certainty: the user deletes it once, by hand.

Each build is staged in a marked folder beside the target,
``.<name>-new-<pid>-<token>``, holding the scratch Markdown pages (``pages/``)
and the new site (``site/``), so a killed build leaves nothing anywhere else.
The new site then takes the target's place through Linux's
``renameat2(RENAME_EXCHANGE)``, which swaps two paths in one step: at every
instant the path holds the old site or the new one, and the old one ends up in
the staging folder, removed with it. The site stays a real folder, not a
symbolic link to the newest build, so that it can be copied to a phone. Where
the exchange is not available (another system, a file system without it), two
renames are used: the old site aside to ``.<name>-old-<pid>-<token>``, then the
new one in. A build killed between the two leaves no site at the path, and the
next build puts the old one back before anything else.

Leftovers of killed builds are removed by the next build into the same place,
but only those whose process (the pid in the name) is gone and that carry the
marker or are empty. The marker is removed last, so an interrupted removal is
still recognised, and finished, later. Recovery and the swap hold an advisory
lock on the parent folder itself (``flock``), so two builds into one place do
not trip over each other's half-done work, and no lock file is left behind.

Folders get the mode of a plain ``mkdir`` (0777 less the umask: usually 0755)
and files the same without execute bits (usually 0644), whatever the modes of
the files copied in, so that a web server can read the site.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import secrets
import shlex
import shutil
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from validator.content.project import PROJECT_FILE, Project
from validator.problems import Problem

MARKER = ".validator-site"
MARKER_TEXT = (
    "This folder was built by `validator build`.\n"
    "The next build into it replaces all of it: keep nothing of your own here.\n"
    "`validator build` writes only into a folder that is absent, empty, or holds this file.\n"
)
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


class OutputError(Exception):
    """The site cannot be written where asked: one line for the user, and the exit status."""

    def __init__(self, line: str, exit_code: int) -> None:
        super().__init__(line)
        self.line = line
        self.exit_code = exit_code


@dataclass(frozen=True)
class Staging:
    """One build's marked folder beside the target: scratch pages and the new site."""

    folder: Path

    @property
    def site(self) -> Path:
        return self.folder / "site"

    @property
    def pages(self) -> Path:
        return self.folder / "pages"


def refused(shown: object, what: str, fix: str) -> OutputError:
    return OutputError(f"validator: error: --site-dir {shown}: {what}. Fix: {fix}", EXIT_USAGE)


def unwritable(target: Path, error: OSError) -> OutputError:
    """A write failed: name the path and what to do, never a traceback."""
    reason = error.strerror or str(error)
    failed = Path(os.fsdecode(error.filename)) if isinstance(error.filename, (str, bytes)) else target
    if failed.parent == target.parent and failed.name.startswith(f".{target.name}-"):
        reason += f" in {target.parent}"  # the staging folder beside the target: name the folder the user knows
    elif failed != target:
        reason += f": {failed}"
    if error.errno == errno.ENOSPC:
        fix = "free some disk space, or choose a --site-dir on another disk"
    elif error.errno in (errno.EBUSY, errno.EXDEV):
        fix = f"{target} looks like a mount point, which cannot be swapped: build into a folder inside it"
    elif error.errno in (errno.EACCES, errno.EPERM):
        fix = f"choose a --site-dir you may write to, or make {target.parent} writable"
    else:
        fix = "choose a --site-dir on a writable disk, such as site/ in the project folder"
    return OutputError(str(Problem(str(target), 0, "", f"cannot write the site here ({reason})", fix)),
                       EXIT_PROBLEMS)


def project_inputs(root: Path, project: Project) -> list[Path]:
    """The files and folders a build reads, which a site must never replace."""
    return [root / PROJECT_FILE, root / project.content_dir, root / project.locales_dir,
            root / project.mkdocs_config]


def site_path(site_dir: Path) -> Path:
    """``site_dir`` made absolute, its parent's symbolic links resolved but not its own name."""
    absolute = Path(os.path.abspath(site_dir))
    if absolute == absolute.parent:
        raise refused(site_dir, "is the root of the file system", "build into a folder of its own, such as site/")
    return absolute.parent.resolve() / absolute.name


def check_site_dir(site_dir: Path, root: Path, inputs: Sequence[Path]) -> Path:
    """Return the absolute target, or refuse a place a build would destroy something in."""
    target = site_path(site_dir)
    project = root.resolve()
    fix = "build into a folder of its own, such as site/ (the default)"
    if target == project or target in project.parents:
        raise refused(site_dir, f"holds the project folder {project}, and a build replaces its folder whole", fix)
    for path in inputs:
        source = path.resolve()
        if source == project:
            continue
        if target == source or target in source.parents:
            raise refused(site_dir, f"holds the project's input {source}", fix)
        if source in target.parents:
            raise refused(site_dir, f"is inside the project's input folder {source}", fix)
    check_existing(target, site_dir)
    return target


def check_existing(target: Path, shown: object) -> None:
    """Accept an absent path, an empty folder or a marked site; refuse anything else."""
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return
    except OSError as error:
        raise unwritable(target, error) from None
    if stat.S_ISLNK(info.st_mode):
        raise refused(shown, f"is a symbolic link (to {os.readlink(target)}), which a build would replace",
                      "pass the folder it points to as --site-dir, or remove the link")
    if not stat.S_ISDIR(info.st_mode):
        raise refused(shown, f"is {_kind(info.st_mode)}, not a folder, and a build would replace it",
                      "choose a folder that does not exist yet or is empty, such as site/")
    try:
        entries = sorted(os.listdir(target))
    except OSError as error:
        raise unwritable(target, error) from None
    if not entries or is_marked(target):
        return
    if _looks_like_an_earlier_site(target, entries):
        raise refused(shown, f"looks like a site built before sites carried the {MARKER} marker, and cannot "
                      "be told apart from a folder of your own",
                      f"delete it yourself (rm -r {shlex.quote(str(target))}) and build again")
    sample = ", ".join(entries[:3]) + (", ..." if len(entries) > 3 else "")
    raise refused(shown, f"is a folder holding files this tool did not make ({sample}), and a build "
                  "replaces its folder whole",
                  "choose a folder that does not exist yet or is empty, or empty this one yourself")


def is_marked(folder: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(folder / MARKER).st_mode)
    except OSError:
        return False


def write_marker(folder: Path) -> None:
    (folder / MARKER).write_text(MARKER_TEXT, encoding="utf-8")


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISREG, "a file"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "something else")


def _looks_like_an_earlier_site(folder: Path, entries: list[str]) -> bool:
    """A root index.html and folders with their own index.html: only to word the refusal."""
    others = [name for name in entries if name != "index.html"]
    return "index.html" in entries and bool(others) and all((folder / name / "index.html").is_file()
                                                            for name in others)


@contextmanager
def staging(target: Path) -> Iterator[Staging]:
    """A marked folder beside ``target`` for one build, removed afterwards whatever happens.

    Leftovers of killed builds are dealt with first (see ``recover``). A failed
    write anywhere in the build becomes one line naming the target.
    """
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with _locked(target.parent):
            recover(target)
        folder = _new_sibling(target, "new", make=True)
    except OSError as error:
        raise unwritable(target, error) from None
    try:
        write_marker(folder)
        os.mkdir(folder / "site")
        os.mkdir(folder / "pages")
        yield Staging(folder)
    except OSError as error:
        raise unwritable(target, error) from None
    finally:
        with suppress(OSError):
            remove_tree(folder)


def finish(staging: Staging) -> None:
    """Mark the new site as ours and give it the modes of a plain mkdir."""
    write_marker(staging.site)
    folder_mode = stat.S_IMODE(os.stat(staging.folder).st_mode)
    file_mode = folder_mode & 0o666
    for root, _folders, files in os.walk(staging.site):
        os.chmod(root, folder_mode)
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, file_mode)


def swap(staging: Staging, target: Path) -> None:
    """Put the staged site at ``target``; a previous site ends up in the staging folder."""
    with _locked(target.parent):
        check_existing(target, target)
        if not os.path.lexists(target):
            os.rename(staging.site, target)
        elif not _exchange(staging.site, target):
            aside = _new_sibling(target, "old", make=False)
            os.rename(target, aside)
            os.rename(staging.site, target)
            os.rename(aside, staging.site)


def recover(target: Path) -> None:
    """Finish what killed builds left: put a site set aside back, remove stale staging folders."""
    stale = list(_stale_siblings(target))
    if not os.path.lexists(target):
        aside = sorted((path for kind, path in stale if kind == "old"), key=lambda p: p.stat().st_mtime)
        if aside:
            os.rename(aside[-1], target)
            stale = [(kind, path) for kind, path in stale if path != aside[-1]]
    for _kind_name, path in stale:
        remove_tree(path)


def remove_tree(folder: Path) -> None:
    """Remove a marked folder with its marker last, so an interrupted removal stays recognisable."""
    for entry in os.scandir(folder):
        if entry.name == MARKER:
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path)
        else:
            os.unlink(entry.path)
    with suppress(FileNotFoundError):
        os.unlink(folder / MARKER)
    os.rmdir(folder)


def _sibling_pattern(target: Path) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(target.name)}-(?P<kind>new|old)-(?P<pid>\d+)-[0-9a-f]{{8}}")


def _new_sibling(target: Path, kind: str, *, make: bool) -> Path:
    while True:
        path = target.with_name(f".{target.name}-{kind}-{os.getpid()}-{secrets.token_hex(4)}")
        if not make:
            if not os.path.lexists(path):
                return path
            continue
        try:
            os.mkdir(path)
        except FileExistsError:
            continue
        return path


def _stale_siblings(target: Path) -> Iterator[tuple[str, Path]]:
    """Staging folders beside ``target`` whose build is gone and that are ours (marked) or empty."""
    pattern = _sibling_pattern(target)
    with os.scandir(target.parent) as entries:
        candidates = [(match["kind"], int(match["pid"]), Path(entry.path)) for entry in entries
                      if (match := pattern.fullmatch(entry.name)) and entry.is_dir(follow_symlinks=False)]
    for kind, pid, path in sorted(candidates):
        if not _alive(pid) and (is_marked(path) or not any(path.iterdir())):
            yield kind, path


def _alive(pid: int) -> bool:
    """Whether process ``pid`` may still be running; when unsure, yes (its folder is then left alone)."""
    if pid == os.getpid() or os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    try:  # a killed process nobody has reaped yet is a zombie: gone all the same
        state = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state != "Z"


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2`` with ``RENAME_EXCHANGE``); False where unavailable."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    if renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold an advisory lock on ``folder`` itself, where the system offers one."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        with suppress(OSError):
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)
