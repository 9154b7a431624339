"""Builds killed or failing at any moment leave a complete site and no growing leftovers.

Each build runs as a subprocess started through :data:`PAUSING`, which wraps the
build's own steps to pause at one point: it announces the point on stderr and
sleeps, and the test kills it there with SIGKILL. Builds of the same input are
byte-identical, so "the old site" and "the new site" are the same bytes: after
every fault the site must equal the first build exactly.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import copy_project

from validator.resultcache import cache_folder
from validator.site import output
from validator.site.output import MARKER

LANGUAGES = ("en", "es", "pl")

PAUSING = """
import contextlib, os, sys, time
from pathlib import Path

from validator.cli import run
from validator import pipeline as build
from validator.resultcache import cache_folder
from validator.site import output

point = sys.argv.pop(1)
swapping = False


def pause(name):
    if name == point:
        print(f"paused at {name}", file=sys.stderr, flush=True)
        time.sleep(600)


staging = build.staging


@contextlib.contextmanager
def paused_staging(target):  # staged: the staging folder is made, nothing built
    with staging(target) as staged:
        pause("staged")
        yield staged


run_jobs = build.run_jobs


def paused_jobs(jobs, workers):  # mkdocs: after each language's site is written (by MkDocs, or
    for job, result in run_jobs(jobs, workers):  # from the earlier one when nothing changed)
        yield job, result
        if job.after is not None or job.name.startswith("pages of") and all(other.after is None for other in jobs):
            pause("mkdocs")


swap, check_existing = build.swap, output.check_existing


def paused_swap(staged, target):  # swapped: the new site in place, the old one aside
    global swapping
    swapping = True
    swap(staged, target)
    pause("swapped")


def paused_check(target, shown):  # swap: the folder checked, under the lock, nothing moved
    check_existing(target, shown)
    if swapping:
        pause("swap")


class Renames:
    # The os module as output sees it, pausing after the swap's first rename.

    def __getattr__(self, name):
        return getattr(os, name)

    def rename(self, source, destination):
        os.rename(source, destination)
        if swapping and "-old-" in Path(destination).name:  # the old site set aside
            pause("between-renames")


build.staging, build.run_jobs, build.swap = paused_staging, paused_jobs, paused_swap
output.check_existing = paused_check
if point == "between-renames":  # the two-rename swap, where the exchange is unavailable
    output._exchange = lambda first, second: False
    output.os = Renames()
sys.argv[0] = "validator"
run()
"""
"""A build that pauses at the point its first argument names: ``staged``, ``mkdocs``,
``swap``, ``between-renames`` (forcing the two-rename swap) or ``swapped``."""


@dataclass
class Built:
    root: Path
    site: Path
    scratch: Path
    """The builds' TMPDIR: nothing of a build may be left in it."""
    before: dict[str, bytes]

    def run(self, *, pause: str | None = None) -> subprocess.Popen[str]:
        # Each build here goes through its stages: the record that would let one with
        # nothing changed end at once (validator.site.uptodate) is forgotten first.
        kept = cache_folder(self.root)
        for record in kept.glob("uptodate-*") if kept is not None else ():
            record.unlink()
        environment = {**os.environ, "TMPDIR": str(self.scratch)}
        environment.pop("SOURCE_DATE_EPOCH", None)
        command = [sys.executable, "-c", PAUSING, pause] if pause else [sys.executable, "-m", "validator"]
        return subprocess.Popen([*command, "build", "--site-dir", str(self.site)],
                                cwd=self.root, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)

    def build(self) -> tuple[int, str]:
        child = self.run()
        _, err = child.communicate(timeout=300)
        return child.returncode, err

    def leftovers(self) -> list[str]:
        return sorted(p.name for p in self.site.parent.iterdir() if p.name.startswith(f".{self.site.name}-"))


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def assert_complete(site: Path) -> None:
    assert (site / MARKER).is_file() and (site / "index.html").is_file()
    for code in LANGUAGES:
        assert (site / code / "index.html").is_file(), code


def kill_at(built: Built, point: str) -> int:
    """Start a build, wait until it pauses at ``point``, kill it; returns its pid."""
    child = built.run(pause=point)
    lines: queue.Queue[str] = queue.Queue()
    assert child.stderr is not None
    stderr = child.stderr

    def read() -> None:
        for line in stderr:
            lines.put(line)
        lines.put("")

    threading.Thread(target=read, daemon=True).start()
    seen: list[str] = []
    try:
        while True:
            line = lines.get(timeout=120)
            seen.append(line)
            if line.strip() == f"paused at {point}":
                child.send_signal(signal.SIGKILL)
                child.wait(timeout=30)
                return child.pid
            if not line:
                raise AssertionError(f"the build never paused at {point}: {''.join(seen)}")
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    """A private project built once; the tests below fault builds into the same site."""
    root = copy_project(tmp_path_factory.mktemp("project"))
    scratch = tmp_path_factory.mktemp("tmp")
    result = Built(root, tmp_path_factory.mktemp("out") / "site", scratch, {})
    code, err = result.build()
    assert code == 0, err
    assert_complete(result.site)
    result.before = files(result.site)
    yield result


@pytest.mark.parametrize("point", ["staged", "mkdocs", "swap", "swapped"])
def test_a_killed_build_leaves_a_complete_site(built: Built, point: str) -> None:
    pid = kill_at(built, point)
    assert_complete(built.site)
    assert files(built.site) == built.before
    assert list(built.scratch.iterdir()) == [], "scratch pages belong in the staging folder, not in TMPDIR"
    # What the killed build left is its own staging folder only (earlier ones were cleared by it).
    assert [name.split("-")[2] for name in built.leftovers()] == [str(pid)]


def test_a_build_killed_between_the_two_renames_is_undone_by_the_next(built: Built) -> None:
    pid = kill_at(built, "between-renames")
    # The two-rename swap (where the exchange is unavailable) leaves no site for a moment...
    assert not built.site.exists()
    assert any(name.startswith(f".{built.site.name}-old-{pid}-") for name in built.leftovers())
    # ... and what comes next puts the old one back before anything else.
    output.recover(built.site)
    assert_complete(built.site)
    assert files(built.site) == built.before


def test_failed_builds_leave_the_old_site_byte_identical(built: Built) -> None:
    # A broken link in the last language's guide: MkDocs fails after the others were built.
    guide = built.root / "docs" / "guide" / f"translators.{LANGUAGES[-1]}.md"
    original = guide.read_text(encoding="utf-8")
    guide.write_text(original + "\n[broken](no-such-page.md)\n", encoding="utf-8")
    try:
        code, err = built.build()
    finally:
        guide.write_text(original, encoding="utf-8")
    assert code == 1 and "MkDocs warned" in err and "no-such-page.md" in err and "Traceback" not in err, err
    assert files(built.site) == built.before

    chapter = built.root / "docs" / "rules" / "monstrous-mounts.yml"
    text = chapter.read_text(encoding="utf-8")
    chapter.write_text(text.replace("expect: {monster: 2, rider: 2}", "expect: {monster: 2, rider: [", 1),
                       encoding="utf-8")
    try:
        code, err = built.build()
    finally:
        chapter.write_text(text, encoding="utf-8")
    assert code == 1 and "monstrous-mounts.yml" in err and "Traceback" not in err, err
    assert files(built.site) == built.before
    assert built.leftovers() == []


def test_the_next_good_build_leaves_no_leftovers(built: Built) -> None:
    kill_at(built, "mkdocs")
    assert built.leftovers(), "the killed build left its staging folder"
    code, err = built.build()
    assert code == 0, err
    assert built.leftovers() == []
    assert list(built.scratch.iterdir()) == []
    assert_complete(built.site)
    assert files(built.site) == built.before
