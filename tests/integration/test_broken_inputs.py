"""The broken-input corpus (every file in tests/broken_inputs/): every bad input gives one
clear line naming the file (and the line), the documented exit status, and never a
traceback, in bounded time.

Most cases run ``validator.cli.main`` in-process (the command keeps no state between
runs), a few run in a fresh process with a timeout, as a user would run them.
"""

from __future__ import annotations

import os
import pickle
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import ProjectCopy, copy_engine_interface

from validator.api.ruleset import Ruleset, Scenario
from validator.checks.examples import run_example
from validator.cli import main
from validator.content.model import Example
from validator.content.yamlsource import parse_yaml, validate

CASES_FOLDER = Path(__file__).resolve().parents[1] / "broken_inputs"
CASES: list[dict[str, Any]] = [case for cases_file in sorted(CASES_FOLDER.glob("*.yml"))
                               for case in yaml.safe_load(cases_file.read_text(encoding="utf-8"))]

_LETTERS = "abcdefghi"
MACROS = {
    # Nine levels of nine aliases each: 9**9 values once expanded, 30 lines of text.
    "{BOMB}": "{" + ", ".join(
        ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        + [f"{_LETTERS[i]}: &{_LETTERS[i]} [" + ", ".join([f"*{_LETTERS[i - 1]}"] * 9) + "]" for i in range(1, 9)]
    ) + "}",
    "{DEEP}": "[" * 1000 + "]" * 1000,
    "{DEEPJSON}": "[" * 4000 + "]" * 4000,
    "{BLOCKDEEP}": "".join("  " * depth + f"k{depth}:\n" for depth in range(1, 300)) + "  " * 300 + "k: 1\n",
    "{DIGITS}": "1" * 5000,
    "{LONGWORD}": "a" * 3_000_000,
    "{PADDING}": "#" * (2**20 + 1),
    "{THOUSANDDICE}": ", ".join(["1"] * 1001),
}
FRESH_ONLY = tuple(case["id"] for case in CASES if case.get("fresh"))
"""Cases that could hang the test run were the fix undone (a FIFO): run only in a
fresh process, under the time limit."""
SUBPROCESS_CASES = ("chapter-alias-bomb-in-given", "chapter-nested-too-deep", "calc-integer-of-thousands-of-digits",
                    "mkdocs-unknown-plugin", "rules-po-bom", "rulebook-duplicate-language", *FRESH_ONLY)
TIME_LIMIT = 60


def _expand(text: str) -> str:
    for name, value in MACROS.items():
        text = text.replace(name, value)
    return text


def _break(project: ProjectCopy, case: dict[str, Any]) -> dict[str, int]:
    """Apply the case's damage; return the numbers its pattern may refer to."""
    numbers: dict[str, int] = {}
    for name, content in case.get("also", {}).items():
        project.path(name).write_text(_expand(content), encoding="utf-8")
    if "file" not in case:
        return numbers
    path = project.path(case["file"])
    if case.get("from_engine"):  # a book's ui.po, made as a book makes one (see interface.yml)
        copy_engine_interface(project.root, Path(case["file"]).parts[1])
    encoding = case.get("encoding", "utf-8")
    if case.get("remove"):
        path.unlink()
        return numbers
    if case.get("folder"):
        path.unlink()
        path.mkdir()
        (path / "inside.txt").write_text("a folder where a file should be\n", encoding="utf-8")
        return numbers
    if case.get("fifo"):
        path.unlink(missing_ok=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)
        return numbers
    if "symlink" in case:
        path.unlink(missing_ok=True)
        path.symlink_to(case["symlink"].replace("{root}", str(project.root)))
        return numbers
    if "size" in case:
        with path.open("r+b") as grown:
            grown.truncate(case["size"])  # zeros beyond the end, a sparse file: cheap at any size
        return numbers
    path.parent.mkdir(parents=True, exist_ok=True)
    data = path.read_bytes() if path.exists() else b""
    if "replace" in case:
        old, new = (_expand(part) for part in case["replace"])
        old_bytes = old.encode("utf-8")
        index = data.index(old_bytes)
        numbers["line"] = data.count(b"\n", 0, index) + 1
        data = data[:index] + new.encode(encoding) + data[index + len(old_bytes):]
    if "sub" in case:
        pattern, replacement = (_expand(part) for part in case["sub"])
        text, count = re.subn(pattern, replacement, data.decode("utf-8"), flags=re.DOTALL)
        assert count, f"{pattern!r} matches nothing in {case['file']}"
        data = text.encode(encoding)
    if "append" in case:
        numbers["end"] = data.count(b"\n") + 1
        data += _expand(case["append"]).encode(encoding)
    if "write" in case:
        data = _expand(case["write"]).encode(encoding)
    if case.get("bom"):
        data = b"\xef\xbb\xbf" + data
    path.write_bytes(data)
    return numbers


def _pattern(case: dict[str, Any], numbers: dict[str, int]) -> str:
    def number(match: re.Match[str]) -> str:
        return str(numbers[match.group(1)] + int(match.group(2) or 0))

    return re.sub(r"\{(line|end)(?:\+(\d+))?\}", number, case["match"])


def _arguments(project: ProjectCopy, case: dict[str, Any]) -> list[str]:
    arguments = [_expand(argument).replace("{root}", str(project.root)) for argument in case.get("args", ["check"])]
    return ["--project", str(project.root), *arguments]


def _assert_reported(case: dict[str, Any], numbers: dict[str, int], code: int, output: str) -> None:
    assert "Traceback" not in output, output
    assert code == case.get("status", 1), output
    pattern = re.compile(_pattern(case, numbers))
    lines = output.splitlines()
    assert any(pattern.search(line) for line in lines), f"no line matches {pattern.pattern!r}:\n{output[:3000]}"
    # One line per problem: no line of the report is a continuation of another.
    assert all(len(line) < 2000 for line in lines), max(lines, key=len)[:300]


def _environment(project: ProjectCopy, case: dict[str, Any]) -> dict[str, str | None]:
    """The case's environment variables ({root} is the project folder; None unsets one)."""
    return {name: None if value is None else str(value).replace("{root}", str(project.root))
            for name, value in case.get("env", {}).items()}


IN_PROCESS = [case for case in CASES if not case.get("fresh")]


def _cache_damage(cache: Path, elsewhere: Path, damage: str) -> None:
    """Plant one kind of damage in the results a first command kept in ``cache``: a link
    to the private folder ``elsewhere`` in place of the book's folder, of a folder of
    it or of one of its files, or entries of the wrong shape, or files cut short."""
    [book] = [path for path in cache.iterdir() if path.is_dir()]
    elsewhere.mkdir(mode=0o700)
    (elsewhere / "target.pickle").write_bytes(b"not the cache's")
    if damage.startswith("link-"):
        place = {"link-book-folder": book, "link-family-folder": book / "inputs",
                 "link-bucket-file": book / "examples.pickle"}[damage]
        shutil.rmtree(place) if place.is_dir() else place.unlink()
        place.symlink_to(elsewhere if damage != "link-bucket-file" else elsewhere / "target.pickle")
        return
    for bucket in book.rglob("*.pickle"):
        data = bucket.read_bytes()
        if damage == "truncated":
            bucket.write_bytes(data[:len(data) // 2])
            continue
        header = b"".join(data.splitlines(keepends=True)[:2])
        entries = pickle.loads(data[len(header):])
        junk: object = {"wrong-shape": ("junk", 1, None), "wrong-shape-bytes": pickle.dumps(("junk", 1, None))}[damage]
        bucket.write_bytes(header + pickle.dumps(dict.fromkeys(entries, junk)))


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() if path.is_file() else b"/"
            for path in sorted(folder.rglob("*"))}


def _prepared(project: ProjectCopy, case: dict[str, Any], folder: Path,
              monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, int], Callable[[], None]]:
    """The case set up: its environment, its first command (which must succeed), its
    damage; the numbers its pattern may refer to, and what to verify once the command
    ran (the files it must leave as they were, the folder a link in the cache led to)."""
    for name, value in _environment(project, case).items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    cache, elsewhere = folder / "cache", folder / "elsewhere"
    if "cache" in case:
        cache.mkdir(mode=0o700)
        monkeypatch.setenv("VALIDATOR_CACHE_DIR", str(cache))
    if "first" in case or "cache" in case:
        first = ["--project", str(project.root), *(argument.replace("{root}", str(project.root))
                                                  for argument in case.get("first", ["check"]))]
        assert main(first) == 0, first
    numbers = _break(project, case)
    if "cache" in case:
        _cache_damage(cache, elsewhere, case["cache"])
    kept = {name: project.path(name).read_bytes() for name in case.get("unchanged", [])}
    outside = _tree(elsewhere) if elsewhere.exists() else {}

    def verify() -> None:
        assert {name: project.path(name).read_bytes() for name in kept} == kept, "a file the case keeps changed"
        if elsewhere.exists():
            assert _tree(elsewhere) == outside, "the command wrote through a link of the cache"

    return numbers, verify


@pytest.mark.parametrize("case", IN_PROCESS, ids=[case["id"] for case in IN_PROCESS])
def test_broken_input_is_one_clear_line(reused_project: ProjectCopy, case: dict[str, Any], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    project = reused_project
    numbers, verify = _prepared(project, case, tmp_path, monkeypatch)
    capsys.readouterr()
    if case.get("closed") == "stdout":
        monkeypatch.setattr(sys, "stdout", None)
    started = time.monotonic()
    code = main(_arguments(project, case))
    elapsed = time.monotonic() - started
    captured = capsys.readouterr()
    _assert_reported(case, numbers, code, captured.out + captured.err)
    verify()
    assert elapsed < TIME_LIMIT


@pytest.mark.parametrize("case_id", SUBPROCESS_CASES)
def test_broken_input_in_a_fresh_process(project: ProjectCopy, case_id: str, tmp_path_factory: pytest.TempPathFactory,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    case = next(case for case in CASES if case["id"] == case_id)
    numbers, verify = _prepared(project, case, tmp_path_factory.mktemp("case"), monkeypatch)
    closed = case.get("closed") == "stdout"
    done = subprocess.run([sys.executable, "-m", "validator", *_arguments(project, case)], cwd=project.root,
                          capture_output=True, text=True, timeout=TIME_LIMIT, env=dict(os.environ),
                          preexec_fn=(lambda: os.close(1)) if closed else None)
    _assert_reported(case, numbers, done.returncode, done.stdout + done.stderr)
    verify()


def test_the_corpus_covers_every_kind_of_input() -> None:
    files = {case.get("file", "") for case in CASES}
    kinds = {
        "rules": any(name.startswith("docs/rules/") for name in files),
        "glossary": "docs/glossary.yml" in files,
        "sources": "docs/sources.yml" in files,
        "discrepancies": "docs/discrepancies.yml" in files,
        "rulebook": "rulebook.yml" in files,
        "mkdocs": "mkdocs.yml" in files,
        "rules.po": any(name.endswith("rules.po") for name in files),
        "ui.po": any(name.endswith("ui.po") for name in files),
        "labels.po": any(name.endswith("labels.po") for name in files),
        "examples": any("--examples" in case.get("args", []) for case in CASES),
        "calc": any(case.get("args", [""])[0] == "calc" for case in CASES),
    }
    assert all(kinds.values()), kinds
    assert len(CASES) >= 80
    assert len({case["id"] for case in CASES}) == len(CASES)


def test_a_million_dice_are_refused_at_once(project: ProjectCopy, capsys: pytest.CaptureFixture[str]) -> None:
    given = '{"dice": [' + ", ".join(["1"] * 1_000_000) + "]}"
    started = time.monotonic()
    code = main(["--project", str(project.root), "calc", "mount-allocate-hits", "--given", given])
    captured = capsys.readouterr()
    assert code == 2
    assert time.monotonic() - started < 5
    assert re.fullmatch(r"validator: error: --given is \d+ characters long \(allowed: up to \d+\)\n", captured.err)


def test_an_unreadable_example_file_is_one_line(project: ProjectCopy, capsys: pytest.CaptureFixture[str]) -> None:
    folder = project.path("examples/cases.yml")
    folder.mkdir(parents=True)
    code = main(["--project", str(project.root), "check", "--examples", str(folder)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err == (f"validator: error: --examples {folder}: is a folder, not a file. Fix: give the path "
                            "of a YAML file of examples\n")
    shutil.rmtree(folder)


@dataclass
class _Given:
    x: int


def _divide_by_nothing(given: _Given, _rulings: object) -> int:
    return 1 // (given.x - given.x)


def test_a_fault_of_the_rules_core_is_one_line_at_the_example() -> None:
    ruleset = Ruleset((Scenario("divide", "a faulty scenario", _Given, _divide_by_nothing, _divide_by_nothing),),
                      {}, object())
    example = validate(Example, parse_yaml("id: one\nscenario: divide\ngiven: {x: 1}\nexpect: {y: 1}\ntext: t\n",
                                           "cases.yml"), "cases.yml")
    run = run_example(ruleset, "chapter/rule", example)
    assert run.computed is None
    assert [str(problem) for problem in run.problems] == [
        "cases.yml:3: [chapter/rule] example 'one' (divide): the rules core failed on this input (ZeroDivisionError: "
        "integer division or modulo by zero). Fix: report it to the maintainers of the rules core, with this example"]


def test_a_file_that_cannot_be_read_is_one_line(project: ProjectCopy, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Permission bits do not stop root (who runs CI), so the refusal is simulated."""
    locked = project.path("docs/glossary.yml")
    open_file = os.open

    def refuse(path: str | Path, flags: int, *args: int, **keywords: int) -> int:
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return open_file(path, flags, *args, **keywords)

    monkeypatch.setattr(os, "open", refuse)
    code = main(["--project", str(project.root), "check"])
    captured = capsys.readouterr()
    assert code == 1
    assert "docs/glossary.yml: the file cannot be read (permission denied). Fix: make it readable" in captured.err
    assert "Traceback" not in captured.err


def test_an_unexpected_error_is_one_line_not_a_traceback(project: ProjectCopy, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(_project: Path, _arguments: object, _store: object) -> int:
        raise RuntimeError("something\nunforeseen")

    monkeypatch.setattr("validator.commands.status.run", fail)
    code = main(["--project", str(project.root), "status"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err == ("validator: internal error (RuntimeError: something unforeseen); please report it with "
                            "the command and the input that caused it\n")
