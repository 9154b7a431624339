"""Command-line conventions: 0 all well, 1 problems found, 2 bad usage; never a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import ROOT, ProjectCopy, Run, copy_engine_interface, run_in_process

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book


def run(*arguments: str, cwd: Path = ROOT) -> Run:
    """The command in this process: its status and what it prints are what a process
    gives (the first test sees one from outside, the entry point's test below another)."""
    return run_in_process(cwd, *arguments)


def test_no_command_is_a_usage_error() -> None:
    done = subprocess.run([sys.executable, "-m", "validator"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert "usage: validator" in done.stderr
    same = run()
    assert (same.code, same.err) == (2, done.stderr)


def test_unknown_command_and_option_are_usage_errors() -> None:
    assert run("publish").code == 2
    assert run("build", "--site-folder", "x").code == 2


def test_jobs_must_be_a_whole_number_of_processes() -> None:
    for wrong in ("0", "-1", "two", "1.5", ""):
        done = run("--jobs", wrong, "check")
        assert done.code == 2, wrong
        assert done.err.strip().splitlines()[-1] == (
            f"validator: error: argument --jobs: {wrong!r} is not a number of processes: give a whole number, "
            "1 or more"), done.err
        assert "Traceback" not in done.err


def test_jobs_sets_how_many_processes_every_part_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs, else VALIDATOR_JOBS, is how many processes the command's store lets its parts start."""
    from validator import cli, parallel

    seen: list[int] = []
    monkeypatch.setattr(parallel, "usable_cores", lambda: 8)
    monkeypatch.setenv(parallel.JOBS_VARIABLE, "4")
    monkeypatch.setattr("validator.commands.check.run",
                        lambda project, arguments, store: seen.append(store.processes(8)) or 0)
    assert cli.main(["--jobs", "1", "check"]) == 0
    assert cli.main(["--jobs", "3", "check"]) == 0
    monkeypatch.setenv(parallel.JOBS_VARIABLE, "2")
    assert cli.main(["check"]) == 0  # without --jobs, the variable's
    assert seen == [1, 3, 2]


def test_missing_project_folder_is_a_usage_error(tmp_path: Path) -> None:
    done = run("--project", str(tmp_path / "nowhere"), "check")
    assert done.code == 2
    assert "no such folder" in done.err


def test_folder_without_rulebook_says_so(tmp_path: Path) -> None:
    done = run("check", cwd=tmp_path)
    assert done.code == 1
    assert "no rulebook.yml" in done.err and "Traceback" not in done.err


def test_console_script_is_installed() -> None:
    """The script pip installed beside this interpreter: a bare ``validator`` would find
    whatever an earlier install left on PATH, or nothing on a new machine."""
    script = Path(sys.executable).parent / "validator"
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    assert "check" in done.stdout and "build" in done.stdout and "serve" in done.stdout


@pytest.mark.parametrize(("arguments", "said"), [
    (("--language", "xx"), "validator glossary-tbx: unknown language 'xx'. Fix: use one of en, es, pl "
                           "(the languages of rulebook.yml)"),
    (("--language", "es", "--output", "{tmp}"), "validator glossary-tbx: --output {tmp}: is a folder. Fix: give "
                                                "the path of a file, such as glossary.tbx"),
    (("--language", "es", "--output", "{tmp}/none/g.tbx"), "validator glossary-tbx: --output {tmp}/none/g.tbx: there "
                                                           "is no folder {tmp}/none. Fix: create it, or give a file "
                                                           "in a folder that exists"),
], ids=["language", "folder", "no-folder"])
def test_glossary_tbx_refuses_a_bad_argument_in_one_line(arguments: tuple[str, ...], said: str,
                                                          tmp_path: Path) -> None:
    done = run("glossary-tbx", *(argument.format(tmp=tmp_path) for argument in arguments))
    assert (done.code, done.out, done.err) == (2, "", said.format(tmp=tmp_path) + "\n")
    assert list(tmp_path.iterdir()) == []


def test_site_dir_option_chooses_where_sites_go(project: ProjectCopy) -> None:
    done = project.command("build", "--site-dir", "public")  # relative to the working folder
    assert done.code == 0, done.err
    assert {p.name for p in (project.root / "public").iterdir()} >= {"en", "es", "pl", "index.html"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return str(response.read().decode("utf-8"))


def _wait_for(predicate, seconds: float = 60.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except OSError:
            pass
        time.sleep(0.3)
    return False


def test_serve_rebuilds_when_yaml_or_catalogue_changes(project: ProjectCopy) -> None:
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "validator", "serve", "--port", str(port),
                               "--site-dir", str(project.root / "preview")], cwd=project.root,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        assert _wait_for(lambda: "What makes a mount monstrous" in _fetch(f"{base}/en/monstrous-mounts.html"))
        # The interface catalogue first: no page is rebuilt alone for it, so it waits for
        # the whole build in the background (a YAML edit's, if it came first).
        catalog = project.read(copy_engine_interface(project.root, "pl"))  # a book's own words, added now
        project.write("locales/pl/LC_MESSAGES/ui.po", catalog.replace('msgstr "Słowniczek"', 'msgstr "Glosariusz"'))
        assert _wait_for(lambda: "Glosariusz" in _fetch(f"{base}/pl/glossary.html"))
        project.replace("docs/rules/monstrous-mounts.yml", "title: What makes a mount monstrous",
                        "title: When a mount counts as monstrous")
        assert _wait_for(lambda: "When a mount counts as monstrous" in _fetch(f"{base}/en/monstrous-mounts.html"))
    finally:
        server.terminate()
        server.wait(timeout=30)
