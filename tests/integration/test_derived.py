"""What a pass derives from an input object is kept for that very object only: an
equal object read again, or a catalogue edited in the preview, gets fresh values.
Every value kept in memory has one owner and a bound, and a build with every cache
switched off is the same site, byte for byte, as a cached one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import ProjectCopy

from validator.checks.run import check_workspace
from validator.derived import Kept, derived, kept_function
from validator.resultcache import CACHE_VARIABLE
from validator.site.pages import iter_pages
from validator.workspace import load_workspace


def test_kept_for_the_same_object_and_made_again_for_another() -> None:
    made: list[str] = []

    def make(name: str) -> str:
        made.append(name)
        return name.upper()

    first, second = ["a"], ["a"]  # equal, not the same
    with Kept().current():
        assert derived("test kind", first, lambda: make("first")) == "FIRST"
        assert derived("test kind", first, lambda: make("again")) == "FIRST"
        assert derived("test kind", second, lambda: make("second")) == "SECOND"
        assert derived("test kind", first, lambda: make("other"), detail="pl") == "OTHER"
    assert made == ["first", "second", "other"]
    with Kept().current():  # another command's memory: nothing of the first
        assert derived("test kind", first, lambda: make("another command")) == "ANOTHER COMMAND"
    with Kept().current():
        pass
    assert derived("test kind", first, lambda: make("none current")) == "NONE CURRENT"


def test_the_limit_drops_the_least_recently_used_entry() -> None:
    kept = Kept()
    sources = [object() for _ in range(3)]
    for source in sources[:2]:
        kept.derived("limited kind", source, object, limit=2)
    kept.derived("limited kind", sources[0], object, limit=2)  # used again: the second is now the oldest
    kept.derived("limited kind", sources[2], object, limit=2)
    assert kept.sizes()["limited kind"] == 2
    made: list[int] = []
    kept.derived("limited kind", sources[0], lambda: made.append(0), limit=2)
    kept.derived("limited kind", sources[1], lambda: made.append(1), limit=2)
    assert made == [1]


def test_a_value_made_of_two_objects_is_kept_for_both() -> None:
    kept = Kept()
    engine, book, other = ["engine"], ["book"], ["book"]
    assert kept.derived("merged", engine, lambda: "first", also=book) == "first"
    assert kept.derived("merged", engine, lambda: "again", also=book) == "first"
    assert kept.derived("merged", engine, lambda: "second", also=other) == "second"


def test_a_kept_function_is_bounded_by_the_current_memory_and_off_in_one_that_keeps_nothing() -> None:
    calls: list[str] = []

    @kept_function(2)
    def shout(word: str) -> str:
        calls.append(word)
        return word.upper()

    with Kept().current() as kept:
        for word in ("a", "b", "a", "c", "d"):
            shout(word)
    assert calls == ["a", "b", "c", "d"] and kept.sizes()["test_a_kept_function_is_bounded_by_the_current_memory_"
                                                          "and_off_in_one_that_keeps_nothing.<locals>.shout"] == 2
    shout("d")  # none current
    with Kept(enabled=False).current() as off:
        shout("d")
        assert derived("kind", calls, lambda: 1) == 1 and derived("kind", calls, lambda: 2) == 2
    assert calls[-2:] == ["d", "d"] and len(calls) == 6 and off.sizes() == {}


def test_a_label_edited_between_two_renders_shows_the_new_words(project: ProjectCopy) -> None:
    """The worked examples keep each language's formatted values per loaded workspace: a
    labels catalogue edited (in the preview) is never shown with its earlier words."""
    def chapter_page() -> str:
        workspace = load_workspace(project.root)
        return dict(iter_pages(workspace, check_workspace(workspace, lint=False), "es"))["characters-alone.md"]

    before = chapter_page()
    assert 'worked-label">tipo de tropa<' in before and ">caballería</option>" in before
    project.replace("locales/es/LC_MESSAGES/labels.po", 'msgstr "tipo de tropa"', 'msgstr "clase de tropa"')
    project.replace("locales/es/LC_MESSAGES/labels.po", 'msgstr "caballería"', 'msgstr "jinetes"')
    after = chapter_page()
    assert 'worked-label">clase de tropa<' in after and 'worked-label">tipo de tropa<' not in after
    assert ">jinetes</option>" in after and ">caballería</option>" not in after


def site_files(site: Path) -> dict[str, bytes]:
    return {str(path.relative_to(site)): path.read_bytes() for path in sorted(site.rglob("*")) if path.is_file()}


def test_a_build_without_caches_is_the_cached_build_byte_for_byte(
        project: ProjectCopy, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Switched off, nothing is kept on disk or in memory: the caches change the time
    a build takes and nothing else, on the first cached build and on the next."""
    from validator.cli import main

    tmp_path = tmp_path_factory.mktemp("outside")  # the project's copy fills its own tmp_path
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))
    monkeypatch.chdir(project.root)
    memories: list[Kept] = []
    made_current = Kept.current

    def noted(kept: Kept) -> Any:
        memories.append(kept)
        return made_current(kept)

    monkeypatch.setattr(Kept, "current", noted)
    sites = {}
    for run, switch in (("off", ["--no-cache"]), ("cold", []), ("warm", [])):
        site = tmp_path / run
        command = ["--project", str(project.root), "build", "--language", "pl", "--site-dir", str(site), *switch]
        assert main(command) == 0, run
        sites[run] = site_files(site)
        memory = memories[-1]
        assert memory.enabled == (run != "off") and any(memory.sizes().values()) == (run != "off"), run
        if run == "off":
            assert not (tmp_path / "cache").exists()
    assert (tmp_path / "cache").is_dir()
    assert len(sites["off"]) > 50 and any(name.endswith(".html") for name in sites["off"])
    assert sites["cold"] == sites["off"]
    assert sites["warm"] == sites["off"]


def test_a_process_forked_while_another_thread_holds_the_owner_s_lock_can_use_it() -> None:
    """A build forks its jobs while the preview's other thread may be looking a value up."""
    import os
    import signal
    import threading
    import time

    if not hasattr(os, "fork"):
        pytest.skip("no fork on this system: the jobs run in the command")
    kept = Kept()
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        with kept._lock:
            entered.set()
            release.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    entered.wait()
    try:
        child = os.fork()
        if child == 0:  # in the child: the lock is its own, not the held copy
            os._exit(0 if kept.derived("kind", kept, lambda: 1) == 1 else 1)
        deadline = time.monotonic() + 20
        done, status = os.waitpid(child, os.WNOHANG)
        while done == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
            done, status = os.waitpid(child, os.WNOHANG)
        if done == 0:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
    finally:
        release.set()
        holder.join()
    assert done != 0, "the forked process waited for a lock no thread of its own held"
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_command_s_memory_goes_with_the_command() -> None:
    """Nothing outside the store holds its memory, the hook of forked processes neither."""
    import gc
    import weakref

    kept = Kept()
    with kept.current():
        derived("kind", kept, lambda: "a value")
    reference = weakref.ref(kept)
    del kept
    gc.collect()
    assert reference() is None
