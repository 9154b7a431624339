"""Live preview: build, serve on localhost, show each edit at once, then rebuild.

MkDocs' own live-reload server does the serving, watching and browser reload.
After a save, the pages the edit touches are rebuilt alone
(:mod:`validator.site.live`: a chapter file or a rule catalogue, so the reader
sees the edit without waiting for a whole build) and the browsers reload; then ``validator build`` runs in the
background, in a process of its own, updating everything else,
while the server keeps answering from the last good build.  A build the check
refuses changes nothing: the problems are printed, the site stays.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from mkdocs.exceptions import MkDocsException
from mkdocs.livereload import LiveReloadServer, _timestamp

from validator.content.project import load_project
from validator.pipeline import check_and_build
from validator.problems import ProblemsFound
from validator.site.live import LiveSite
from validator.site.output import OutputError, check_site_dir, project_inputs
from validator.site.reproducible import build_epoch
from validator.store import Store
from validator.workspace import load_workspace

EXIT_OK = 0
EXIT_PROBLEMS = 1
BACKGROUND_NICENESS = 10
KEPT = "Not rebuilt: the preview still shows the last good build."


def rebuild(project: Path, site_dir: Path, store: Store, live: LiveSite | None = None) -> bool:
    """Check and build once; on problems print them and keep the previous site."""
    start = time.perf_counter()
    try:
        workspace = load_workspace(project, store=store)
        check_and_build(workspace, site_dir, store=store)
    except ProblemsFound as found:
        for problem in found.problems:
            print(problem, file=sys.stderr)
        print(KEPT, file=sys.stderr, flush=True)
        return False
    except OutputError as error:
        print(error.line, file=sys.stderr)
        print(KEPT, file=sys.stderr, flush=True)
        return False
    if live is not None:
        live.built(workspace)
    print(f"Rebuilt {site_dir} in {time.perf_counter() - start:.1f} s", flush=True)
    return True


def quick_update(project: Path, live: LiveSite, store: Store) -> bool:
    """The fast path after a save: the touched pages only; False when it has none."""
    start = time.perf_counter()
    try:
        updated = live.update(load_workspace(project, store=store))
    except ProblemsFound as found:
        for problem in found.problems:
            print(problem, file=sys.stderr)
        print("Not updated: the page shows its last good build.", file=sys.stderr, flush=True)
        return False
    except (OSError, MkDocsException) as error:
        # The served folder moved away, a page MkDocs refuses...: the whole build says more.
        print(f"Not updated at once ({' '.join(str(error).split())[:200]}); the whole build follows.",
              file=sys.stderr, flush=True)
        return False
    if updated:
        print(f"Updated {', '.join(updated)} in {time.perf_counter() - start:.2f} s; the whole build follows",
              flush=True)
    return bool(updated)


class PreviewServer(LiveReloadServer):
    """MkDocs' server, whose browsers can also be told to reload when a build that
    ran in the background is in place (it holds requests only while the quick
    update runs, never during a whole build)."""

    _opened = False

    def open_port(self) -> int:
        """Take the port now, before anything is built (a port in use is said at once);
        the port taken, which the system chose when asked for 0."""
        self.server_bind()
        self.server_activate()
        self._opened = True
        port = int(self.server_address[1])
        self.url = f"http://127.0.0.1:{port}/"
        return port

    def server_bind(self) -> None:
        if not self._opened:  # MkDocs' serve() binds again: the port is already taken
            super().server_bind()

    def server_activate(self) -> None:
        if not self._opened:
            super().server_activate()

    def serve_request(self, environ: dict[str, Any], start_response: Callable[..., object]) -> Iterable[bytes]:
        """A path no file can have (a NUL byte, say) is the request's fault: 400, where
        MkDocs answers 500 and logs a traceback."""
        path = str(environ.get("PATH_INFO", ""))
        if any(ord(character) < 0x20 for character in path):
            start_response("400 Bad Request", [("Content-Type", "text/plain")])
            return [b"400 Bad Request: the path holds a control character"]
        return super().serve_request(environ, start_response)

    def announce(self) -> None:
        with self._epoch_cond:
            self._wanted_epoch = self._visible_epoch = max(_timestamp(), self._visible_epoch + 1)
            self._epoch_cond.notify_all()


class BackgroundBuilds:
    """Whole builds, one at a time, each a ``validator build`` process of its own (so
    that it takes neither the quick update's processor time, at a lower priority,
    nor its interpreter lock): a save during a build asks for one more after it, and
    the quick update is applied again on top of a build that started before the
    last save."""

    def __init__(self, project: Path, site_dir: Path, live: LiveSite, server: PreviewServer, store: Store) -> None:
        self.project, self.site_dir, self.live, self.server, self.store = project, site_dir, live, server, store
        self.wanted = 0
        self.done = 0
        self.condition = threading.Condition()
        self.lock = threading.Lock()
        self.process: subprocess.Popen[bytes] | None = None
        threading.Thread(target=self._loop, daemon=True).start()

    def request(self) -> None:
        with self.condition:
            self.wanted += 1
            self.condition.notify_all()

    def stop(self) -> None:
        process = self.process
        if process is not None and process.poll() is None:
            process.terminate()

    def _loop(self) -> None:
        with self.store.memory.current():  # a thread starts with no current memory of its own
            self._serve_requests()

    def _serve_requests(self) -> None:
        while True:
            with self.condition:
                self.condition.wait_for(lambda: self.wanted > self.done)
                started = self.wanted
            try:
                workspace = load_workspace(self.project, store=self.store)  # the inputs this build reads
            except ProblemsFound:
                workspace = None  # the build prints the problems
            built = self._build() and workspace is not None
            self.done = started
            if workspace is None or not built:
                continue
            with self.lock:
                self.live.built(workspace)
                if self.wanted > started:
                    quick_update(self.project, self.live, self.store)  # an edit the build did not see
            self.server.announce()
            with self.lock:
                self.live.prepare()

    def _build(self) -> bool:
        start = time.perf_counter()
        command = build_command(self.project, self.site_dir)
        nice = shutil.which("nice")
        if nice is not None:
            command = [nice, "-n", str(BACKGROUND_NICENESS), *command]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, errors = self.process.communicate()
        if self.process.returncode != 0:
            sys.stderr.write(errors.decode("utf-8", "replace"))
            print(KEPT, file=sys.stderr, flush=True)
            return False
        print(f"Rebuilt {self.site_dir} in {time.perf_counter() - start:.1f} s", flush=True)
        return True


def build_command(project: Path, site_dir: Path) -> list[str]:
    """The background build: the engine's own code, whatever folder it runs in.  ``-P``
    keeps the current folder off the front of ``sys.path``, where a book holding a
    ``validator/`` folder or a module named like a dependency (``jinja2.py``) would be
    imported in place of the engine; the environment (``PYTHONPATH`` too) is kept."""
    return [sys.executable, "-P", "-m", "validator", "--project", str(project), "build", "--site-dir", str(site_dir)]


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _locked(lock: threading.Lock, action: Callable[[], None]) -> None:
    with lock:
        action()


def watched_paths(project: Path) -> list[Path]:
    from validator.content.project import PROJECT_FILE

    settings = load_project(project)
    return [project / PROJECT_FILE, project / settings.content_dir, project / settings.locales_dir,
            project / settings.mkdocs_config]


def serve(project: Path, site_dir: Path, port: int, store: Store) -> int:
    """Serve ``site_dir``, refusing up front a place ``validator build`` would refuse too."""
    try:
        site_dir = check_site_dir(site_dir, project, project_inputs(project, load_project(project)))
        build_epoch()
    except OutputError as error:
        print(error.line, file=sys.stderr)
        return error.exit_code
    except ProblemsFound as found:
        for problem in found.problems:
            print(problem, file=sys.stderr)
        return EXIT_PROBLEMS
    store.inputs.keep()
    live = LiveSite(site_dir)
    builds: BackgroundBuilds | None = None

    def builder() -> None:
        assert builds is not None
        with builds.lock:
            quick_update(project, live, store)
        builds.request()

    # Files are polled every tenth of a second (MkDocs polls every half): the edit shows sooner.
    server = PreviewServer(builder=builder, host="127.0.0.1", port=port, root=str(site_dir), polling_interval=0.1)
    try:
        port = server.open_port()
    except OSError as error:
        server.server_close()
        print(f"validator: error: cannot serve on port {port} of 127.0.0.1 ({error.strerror or error}). Fix: "
              "choose another with --port N (--port 0 takes any free one)", file=sys.stderr)
        return EXIT_PROBLEMS
    rebuild(project, site_dir, store, live)
    builds = BackgroundBuilds(project, site_dir, live, server, store)
    threading.Thread(target=lambda: _locked(builds.lock, live.prepare), daemon=True).start()
    for path in watched_paths(project):
        if path.exists():
            server.watch(str(path))
    print(f"Serving on http://127.0.0.1:{port}/ (Ctrl+C to stop)", flush=True)
    # Stopped by a signal as by Ctrl+C, so that a build running in the background stops too.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.serve()  # type: ignore[no-untyped-call]
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        builds.stop()
        live.close()
    return EXIT_OK
