"""The preview server with bad input: a port out of range is a usage error before any
build, a port in use one line, --port 0 the real port, a malformed request a 400, and a
FIFO appearing among the chapters never holds up a request."""

from __future__ import annotations

import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from conftest import ProjectCopy, copy_project


def _serve(project: ProjectCopy, *arguments: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "validator", "--project", str(project.root), "serve",
                             "--site-dir", str(project.root / "site"), *arguments],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("port", ["70000", "-5", "http"])
def test_a_port_out_of_range_is_a_usage_error_before_any_build(project: ProjectCopy, port: str) -> None:
    done = subprocess.run([sys.executable, "-m", "validator", "--project", str(project.root), "serve",
                           "--site-dir", str(project.root / "site"), f"--port={port}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert re.search(r"argument --port: .* is not a port number \(1 to 65535, or 0 for any free one\)$",
                     done.stderr.strip()), done.stderr
    assert "Traceback" not in done.stderr and not (project.root / "site").exists()


def test_a_port_in_use_is_one_line_before_any_build(project: ProjectCopy) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = _serve(project, "--port", str(port))
        out, err = server.communicate(timeout=60)
    assert server.returncode == 1
    assert err == (f"validator: error: cannot serve on port {port} of 127.0.0.1 (Address already in use). Fix: "
                   "choose another with --port N (--port 0 takes any free one)\n")
    assert out == "" and not (project.root / "site").exists()


def _lines(stream: object) -> queue.Queue[str]:
    found: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in stream:  # type: ignore[attr-defined]
            found.put(line)

    threading.Thread(target=read, daemon=True).start()
    return found


def _wait_for(lines: queue.Queue[str], pattern: str, seen: list[str], timeout: float = 300) -> re.Match[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        seen.append(line)
        match = re.search(pattern, line)
        if match:
            return match
    raise AssertionError(f"no line matched {pattern!r}:\n{''.join(seen)}")


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


@pytest.fixture(scope="module")
def served_book(tmp_path_factory: pytest.TempPathFactory) -> ProjectCopy:
    """The copy of the book the module's preview serves."""
    return ProjectCopy(copy_project(tmp_path_factory.mktemp("served-book")))


@pytest.fixture(scope="module")
def served(served_book: ProjectCopy) -> Iterator[tuple[subprocess.Popen[str], str, queue.Queue[str], list[str]]]:
    """One preview for the module's tests (each leaves the book as it found it)."""
    server = _serve(served_book, "--port", "0")
    out, errors = _lines(server.stdout), _lines(server.stderr)
    seen: list[str] = []
    try:
        port = _wait_for(out, r"Serving on http://127\.0\.0\.1:(\d+)/", seen).group(1)
        yield server, f"http://127.0.0.1:{port}", errors, seen
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_port_0_serves_on_the_port_it_got_and_a_nul_is_a_400(
        served: tuple[subprocess.Popen[str], str, queue.Queue[str], list[str]]) -> None:
    _server, url, errors, _seen = served
    assert not url.endswith(":0")
    assert _status(url + "/") == 200
    assert _status(url + "/en/%00.html") == 400
    assert _status(url + "/") == 200
    time.sleep(0.5)
    logged = []
    while not errors.empty():
        logged.append(errors.get())
    assert "Traceback" not in "".join(logged), "".join(logged)


def test_a_fifo_among_the_chapters_holds_up_no_request(
        served_book: ProjectCopy, served: tuple[subprocess.Popen[str], str, queue.Queue[str], list[str]]) -> None:
    _server, url, errors, seen = served
    assert _status(url + "/") == 200
    fifo = served_book.path("docs/rules/zz-waiting.yml")
    os.mkfifo(fifo)
    _wait_for(errors, r"docs/rules/zz-waiting\.yml: is a FIFO \(named pipe\), not a regular file", seen)
    assert _status(url + "/") == 200
    fifo.unlink()
    time.sleep(1)
    assert _status(url + "/") == 200
