"""Shared fixtures: a private copy of the bundled project that a test may break."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _pytest.doctest import DoctestItem

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PROJECT_FILES = ("rulebook.yml", "mkdocs.yml", "babel.cfg", "docs", "locales")


LAYERS = ("unit", "integration", "browser")
"""The layers of the suite, one marker each (``pytest -m unit``): a test's folder
under ``tests/`` gives its layer, the doctests of the code are unit tests, a test
that drives Chromium is a browser test wherever it stands, and a test may name its
layer with the marker itself where its file's folder does not fit it."""

WHOLE_BOOK_FIXTURES = frozenset({"project", "reused_project", "built_site", "server", "workspace", "report", "pages"})
"""Fixtures that load, check, copy or build a whole book: a test that takes one is no
unit test, whatever folder it stands in."""


def layer_of(item: pytest.Item) -> str:
    named = [marker.name for marker in item.iter_markers() if marker.name in LAYERS]
    if named:
        return named[0]
    if isinstance(item, DoctestItem):
        return "unit"
    fixtures = set(getattr(item, "fixturenames", ()))
    if "browser" in fixtures:
        return "browser"
    path = Path(str(item.path)).resolve()
    folder = path.relative_to(TESTS).parts[0] if path.is_relative_to(TESTS) else "unit"
    if folder not in LAYERS:
        raise pytest.UsageError(f"{path}: a test module belongs in tests/unit, tests/integration or tests/browser")
    if folder == "unit" and fixtures & WHOLE_BOOK_FIXTURES:
        return "integration"
    return folder


LAYERS_OF_FOLDER = {"unit": ("unit", "integration"), "integration": ("integration", "browser"),
                    "browser": ("browser", "integration")}
"""The layers a folder's tests can take (see layer_of)."""


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A folder none of whose tests ``-m`` could select is not even imported, so that
    ``pytest -m unit`` answers at once."""
    expression = config.getoption("markexpr")
    path = collection_path.resolve()
    if not expression or path.parent != TESTS or path.name not in LAYERS_OF_FOLDER:
        return None
    from _pytest.mark.expression import Expression

    def marked(layer: str) -> Any:
        return lambda name, /, **_arguments: name == layer

    compiled = Expression.compile(expression)
    if any(compiled.evaluate(marked(layer)) for layer in LAYERS_OF_FOLDER[path.name]):
        return None
    return True


@pytest.hookimpl
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        item.add_marker(layer_of(item))


@dataclass
class Run:
    code: int
    out: str
    err: str


@dataclass
class ProjectCopy:
    root: Path

    def path(self, relative: str) -> Path:
        return self.root / relative

    def read(self, relative: str) -> str:
        return self.path(relative).read_text(encoding="utf-8")

    def write(self, relative: str, text: str) -> None:
        self.path(relative).write_text(text, encoding="utf-8")

    def replace(self, relative: str, old: str, new: str) -> int:
        """Replace the first ``old`` in a file and return the 1-based line where it was."""
        text = self.read(relative)
        index = text.index(old)
        self.write(relative, text[:index] + new + text[index + len(old):])
        return text.count("\n", 0, index) + 1

    def validator(self, *arguments: str) -> Run:
        """The command in a process of its own, as a user runs it (for what only a fresh
        process shows: the installed entry point, signals, exit at once)."""
        done = subprocess.run([sys.executable, "-m", "validator", *arguments], cwd=self.root,
                              capture_output=True, text=True, timeout=300)
        return Run(done.returncode, done.stdout, done.stderr)

    def command(self, *arguments: str) -> Run:
        """The command run in this process, from the project's folder: the same
        ``validator.cli.main`` as :meth:`validator`, without starting Python again."""
        return run_in_process(self.root, *arguments)


def run_in_process(folder: Path, *arguments: str) -> Run:
    """``validator ARGUMENTS`` run by ``validator.cli.main`` in this process, from
    ``folder``, its output captured; the working folder and the variables the command
    sets (``--jobs``) are put back afterwards."""
    import contextlib
    import io

    from validator.cli import main
    from validator.parallel import JOBS_VARIABLE

    # Streams with bytes beneath, as a process's are (a command may write to .buffer).
    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="") for _stream in range(2))
    jobs = os.environ.get(JOBS_VARIABLE)
    try:
        with contextlib.chdir(folder), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(arguments))
            except SystemExit as exit:  # argparse refuses the arguments
                code = exit.code if isinstance(exit.code, int) else 2
    finally:
        if jobs is None:
            os.environ.pop(JOBS_VARIABLE, None)
        else:
            os.environ[JOBS_VARIABLE] = jobs
    return Run(code, *(_written(stream) for stream in (out, err)))


def _written(stream: Any) -> str:
    stream.flush()
    return str(stream.buffer.getvalue().decode("utf-8", errors="replace"))


def program(name: str) -> str:
    """A test dependency's program: the one installed beside this interpreter (the
    README's commands run the environment's programs without putting them on PATH),
    else the one on PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name) or name


def set_translation(project: ProjectCopy, catalog: str, context: str, translation: str) -> int:
    """Write ``translation`` as the msgstr of the entry ``context`` of ``catalog``; returns its msgid's line."""
    text = project.read(catalog)
    start = text.index(f'msgctxt "{context}"')
    msgstr = text.index("msgstr", start)
    project.write(catalog, text[:msgstr] + f'msgstr "{translation}"' + text[text.index("\n\n", msgstr):])
    return text.count("\n", 0, text.index("msgid", start)) + 1


def break_a_polish_number(project: ProjectCopy) -> int:
    """A lint error in the Polish catalogue (a number the English does not have); returns its line."""
    return set_translation(project, "locales/pl/LC_MESSAGES/rules.po",
                           "monstrous-mounts/extra-wounds#example.cannon-on-hero", "Bohater z 3 Ranami ginie.")


def copy_engine_interface(root: Path, language: str) -> str:
    """Put the engine's interface catalogue of ``language`` into the book at ``root``,
    as a book does that overrides the engine's words; returns its path in the book."""
    from validator.catalogs.interface import engine_catalog_path

    relative = f"locales/{language}/LC_MESSAGES/ui.po"
    (root / relative).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(engine_catalog_path(language), root / relative)
    return relative


def copy_project(target: Path) -> Path:
    """Copy the bundled project's inputs into ``target`` (created if need be)."""
    target.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name)
        else:
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="session", autouse=True)
def private_result_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Results kept between runs (validator.resultcache) go to a folder of the test
    session's own, never the user's: every check and build of the tests uses it, so
    that each test that breaks an input and checks again exercises its keys.  The
    search's lemmas are copied in, so that builds do not read whole dictionaries."""
    from validator.resultcache import CACHE_VARIABLE, cache_root

    earlier = os.environ.get(CACHE_VARIABLE)
    folder = tmp_path_factory.mktemp("result-cache")
    user = cache_root()
    for lemmas in user.glob("lemmas-*.json") if user is not None else ():
        shutil.copy2(lemmas, folder)  # the search's lemmas, kept from earlier builds: no results in them
    os.environ[CACHE_VARIABLE] = str(folder)
    yield
    if earlier is None:
        os.environ.pop(CACHE_VARIABLE, None)
    else:
        os.environ[CACHE_VARIABLE] = earlier


@pytest.fixture(scope="session", autouse=True)
def command_memory() -> Iterator[None]:
    """The values kept in memory (:mod:`validator.derived`) for the stages the tests run
    in-process, as a command's store keeps them for the stages it runs; one for the
    session, as a preview's lasts for hours.  A command run in-process makes its own."""
    from validator.derived import Kept

    with Kept().current():
        yield


@pytest.fixture
def project(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ProjectCopy]:
    """A fresh copy of the bundled project that a test may break; in a module marked
    ``reuses_the_book``, the worker's one copy instead (``reused_project``)."""
    if request.node.get_closest_marker("reuses_the_book"):
        yield from restored(*request.getfixturevalue("_kept_project"))
        return
    copy_project(tmp_path)
    yield ProjectCopy(tmp_path)


class Snapshot:
    """What a folder held when taken (each regular file's bytes, mode and times, each
    folder), so that :meth:`restore` can put it back exactly after a test broke it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folders: set[str] = set()
        self.files: dict[str, tuple[bytes, os.stat_result]] = {}
        for folder, names, files in os.walk(root):
            here = Path(folder)
            self.folders.update(str((here / name).relative_to(root)) for name in names)
            for name in files:
                path = here / name
                self.files[str(path.relative_to(root))] = (path.read_bytes(), path.lstat())

    def restore(self) -> None:
        """Remove whatever was added (files, links, FIFOs, folders) and write back every
        file whose kind, size, mode or modification time changed, with its times: an
        unchanged file keeps its identity for the caches keyed by the project's path."""
        for folder, names, files in os.walk(self.root, topdown=False):
            here = Path(folder)
            for name in [*files, *names]:
                path = here / name
                relative = str(path.relative_to(self.root))
                if path.is_symlink() or not (relative in self.files or relative in self.folders) or (
                        relative in self.files and not path.is_file()):
                    if path.is_dir() and not path.is_symlink():
                        shutil.rmtree(path)
                    else:
                        path.unlink()
        for relative in sorted(self.folders):
            (self.root / relative).mkdir(exist_ok=True)
        for relative, (data, was) in self.files.items():
            path = self.root / relative
            now = path.lstat() if path.exists() else None
            if now is not None and (now.st_size, now.st_mtime_ns, now.st_mode) == (
                    was.st_size, was.st_mtime_ns, was.st_mode):
                continue
            path.write_bytes(data)
            path.chmod(was.st_mode & 0o7777)
            os.utime(path, ns=(was.st_atime_ns, was.st_mtime_ns))


@pytest.fixture(scope="session")
def _kept_project(tmp_path_factory: pytest.TempPathFactory) -> tuple[ProjectCopy, Snapshot]:
    root = copy_project(tmp_path_factory.mktemp("reused-book"))
    return ProjectCopy(root), Snapshot(root)


@pytest.fixture
def reused_project(_kept_project: tuple[ProjectCopy, Snapshot]) -> Iterator[ProjectCopy]:
    """A copy of the bundled project that a test may break, as ``project`` is, but one
    per worker, put back as it was after each test.  A check of it finds the results
    kept by the checks before (the cache is per project path), so a test that breaks
    one file checks the whole book again at the cost of what that file touches; the
    cache is keyed by bytes, so what a test broke is never taken for what is restored."""
    yield from restored(*_kept_project)


def restored(copy: ProjectCopy, *snapshots: Snapshot) -> Iterator[ProjectCopy]:
    """``copy`` for one test, with what each snapshot holds put back before and after it."""
    for snapshot in snapshots:
        snapshot.restore()
    yield copy
    for snapshot in snapshots:
        snapshot.restore()


def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every worker of this test session sees: pytest-xdist gives each worker a
    temporary folder of its own inside the session's."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder ``name``, filled by ``make`` once for the whole test session: the first
    worker to ask makes it, the others wait for it and read it, so that tests that only
    read what it holds can run on any worker."""
    import fcntl

    folder = shared_folder(tmp_path_factory) / name
    folder.mkdir(exist_ok=True)
    finished = folder / ".made"
    with (folder / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not finished.exists():
            make(folder)
            finished.touch()
    return folder


def _build_bundled_site(folder: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "validator", "build", "--site-dir", str(folder / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled rulebook built once for the whole session, through the command line,
    for read-only tests."""
    return made_once(tmp_path_factory, "bundled-site", _build_bundled_site) / "site"


@pytest.fixture(scope="session")
def server(built_site: Path) -> Iterator[str]:
    """The bundled site served over HTTP, one server per worker (a module may serve
    another site under the same name)."""
    from browser_support import serve

    yield from serve(built_site)


@pytest.fixture(scope="session")
def chromium_of_worker() -> Iterator[Any]:
    """Debian's Chromium, headless, started once per worker."""
    from browser_support import chromium

    yield from chromium()


@pytest.fixture(scope="session")
def phone_tour(tmp_path_factory: pytest.TempPathFactory, chromium_of_worker: Any, built_site: Path) -> dict[str, Any]:
    """One tour of every page of the bundled site from disk, on a phone
    (``browser_support.tour_every_page``), made once for the session: the tests of the
    width, the console and requests, and the chapters' layout read what it found."""
    from browser_support import read_tour, write_tour

    return read_tour(made_once(tmp_path_factory, "phone-tour",
                               lambda folder: write_tour(folder, chromium_of_worker, built_site)))


@pytest.fixture
def browser(chromium_of_worker: Any) -> Iterator[Any]:
    """The worker's Chromium for one test, which opens its pages in contexts of its own
    (no cookie, storage or route of another test): whatever it leaves open is closed."""
    before = set(chromium_of_worker.contexts)
    yield chromium_of_worker
    for context in chromium_of_worker.contexts:
        if context not in before:
            context.close()


@pytest.fixture(scope="module")
def workspace() -> Any:
    """The bundled project, loaded once per module (read-only)."""
    from validator.workspace import load_workspace

    return load_workspace(ROOT)


@pytest.fixture(scope="module")
def report(workspace: Any) -> Any:
    """The bundled project's check, once per module."""
    from validator.checks.run import check_workspace

    return check_workspace(workspace)


@pytest.fixture(scope="module")
def pages(workspace: Any, report: Any) -> dict[str, dict[str, str]]:
    """Every page of every language of the bundled project, as Markdown, once per module."""
    from validator.site.pages import iter_pages

    return {language.code: dict(iter_pages(workspace, report, language.code))
            for language in workspace.project.languages}
