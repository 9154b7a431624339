"""What a pass derives from an input object is kept for that very object only: an
equal object read again, or a catalogue edited in the preview, gets fresh values.
Every value kept in memory has one owner and a bound, and a build with every cache
switched off is the same site, byte for byte, as a cached one."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ProjectCopy

from validator.checks.run import check_workspace
from validator.derived import KEPT, Kept, derived
from validator.resultcache import CACHE_VARIABLE
from validator.site.pages import iter_pages
from validator.workspace import load_workspace


def test_kept_for_the_same_object_and_made_again_for_another() -> None:
    made: list[str] = []

    def make(name: str) -> str:
        made.append(name)
        return name.upper()

    first, second = ["a"], ["a"]  # equal, not the same
    assert derived("test kind", first, lambda: make("first")) == "FIRST"
    assert derived("test kind", first, lambda: make("again")) == "FIRST"
    assert derived("test kind", second, lambda: make("second")) == "SECOND"
    assert derived("test kind", first, lambda: make("other"), detail="pl") == "OTHER"
    assert made == ["first", "second", "other"]


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


def test_a_kept_function_is_bounded_cleared_and_switched_off_by_its_owner() -> None:
    kept = Kept()
    calls: list[str] = []

    @kept.function(2)
    def shout(word: str) -> str:
        calls.append(word)
        return word.upper()

    for word in ("a", "b", "a", "c", "d"):
        shout(word)
    assert calls == ["a", "b", "c", "d"] and kept.sizes()["test_a_kept_function_is_bounded_cleared_and_switched_off_"
                                                          "by_its_owner.<locals>.shout"] == 2
    with kept.off():
        shout("d")
        assert kept.derived("kind", calls, lambda: 1) == 1 and kept.derived("kind", calls, lambda: 2) == 2
    assert calls[-1] == "d" and len(calls) == 5 and set(kept.sizes().values()) == {0}


def test_every_cache_of_the_engine_in_memory_is_owned_by_the_one_object() -> None:
    """No module keeps its own: a cache outside :data:`KEPT` is neither bounded nor
    switched off with the others (a constant computed once, with no argument, is not a cache)."""
    import ast

    package = Path(__file__).resolve().parents[2] / "validator"
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.args.args:
                for decorator in node.decorator_list:
                    called = decorator.func if isinstance(decorator, ast.Call) else decorator
                    name = ast.unparse(called)
                    if name.split(".")[-1] in {"cache", "lru_cache"}:
                        found.append(f"{path.name}:{node.lineno}: {node.name}")
    assert found == []


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



NOT_CACHES = {
    "api/trace.py:FUNCTIONS",  # the traced functions, registered as a rules core is imported
    # The tables the manual's caching page names: each as large as the project.
    "content/inputcache.py:_kept", "content/inputcache.py:_prepared", "content/inputcache.py:_read",
    "content/model.py:_FIELDS_GIVEN",
}
"""The engine's module-level tables, each of which is not a cache, and why (a constant
is written as one that cannot change: a tuple, a frozenset, a MappingProxyType)."""


def test_no_module_keeps_a_table_of_its_own_but_those_named() -> None:
    """A new module-level dict, list or set is a cache outside :data:`KEPT` until it is
    shown not to be one: a constant, a registry, or a table as large as the project."""
    import ast

    package = Path(__file__).resolve().parents[2] / "validator"
    found = set()
    for path in sorted(package.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            target, value = ((node.targets[0], node.value) if isinstance(node, ast.Assign) and len(node.targets) == 1
                             else (node.target, node.value) if isinstance(node, ast.AnnAssign) else (None, None))
            if not isinstance(target, ast.Name) or value is None:
                continue
            annotation = ast.unparse(node.annotation) if isinstance(node, ast.AnnAssign) else ""
            made = value.func.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else ""
            if (isinstance(value, (ast.Dict, ast.List, ast.Set)) or made in {"dict", "list", "set", "OrderedDict"}
                    or annotation.startswith(("dict", "list", "set", "OrderedDict"))):
                found.add(f"{path.relative_to(package).as_posix()}:{target.id}")
    assert found == NOT_CACHES


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
    sites = {}
    for run, switch in (("off", ["--no-cache"]), ("cold", []), ("warm", [])):
        site = tmp_path / run
        command = ["--project", str(project.root), "build", "--language", "pl", "--site-dir", str(site), *switch]
        assert main(command) == 0, run
        sites[run] = site_files(site)
        if run == "off":
            assert not (tmp_path / "cache").exists() and set(KEPT.sizes().values()) <= {0}
    assert any(KEPT.sizes().values()) and (tmp_path / "cache").is_dir()
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
