"""The contract between the engine and a rules core: validator.api, and how a book's
core is found and loaded."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import ROOT

import validator.api
from validator.api.ruleset import load_ruleset, search_book_folder
from validator.content.project import load_project, load_rules_core
from validator.problems import ProblemsFound


def _minimal_core() -> str:
    """The example core printed in validator.api's docstring, as a reader would copy it."""
    doc = validator.api.__doc__ or ""
    block = doc.split("the engine finds a package there without installing it)::", 1)[1]
    lines = []
    for line in block.splitlines()[1:]:
        if line and not line.startswith("    "):
            break
        lines.append(line[4:])
    return "\n".join(lines).replace("'''", '"""')


@pytest.fixture
def book_with_core(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Path]:
    name = f"mycore_{request.node.name.replace('[', '_').replace(']', '')}"
    (tmp_path / name).mkdir()
    (tmp_path / name / "__init__.py").write_text(_minimal_core(), encoding="utf-8")
    yield tmp_path
    sys.modules.pop(name, None)
    if str(tmp_path) in sys.path:
        sys.path.remove(str(tmp_path))


def test_the_documented_minimal_core_runs_from_the_books_folder(book_with_core: Path) -> None:
    module = next(path.name for path in book_with_core.iterdir())
    ruleset = load_ruleset(f"{module}:RULESET", book_with_core)
    assert ruleset.run("to-hit", {"needed": 4}) == {"probability": Fraction(1, 2)}
    assert ruleset.scenario("to-hit").rule_ids == ("combat/to-hit",)


def test_the_book_folder_comes_after_the_engines_dependencies(tmp_path: Path) -> None:
    (tmp_path / "jinja2.py").write_text("raise SystemExit('the book shadowed a dependency')\n", encoding="utf-8")
    try:
        search_book_folder(tmp_path)
        spec = importlib.util.find_spec("jinja2")
        assert spec is not None and spec.origin is not None
        assert Path(spec.origin).parent != tmp_path
        assert sys.path.index(str(tmp_path)) == len(sys.path) - 1
    finally:
        sys.path.remove(str(tmp_path))


@pytest.mark.parametrize(("source", "named"), [
    ("raise RuntimeError('the core is broken')\n", "RuntimeError: the core is broken"),
    ("RULESET = 3\n", "is not a Ruleset"),
    ("import a_module_nobody_has\n", "No module named 'a_module_nobody_has'"),
], ids=["raises", "not-a-ruleset", "imports-what-is-missing"])
def test_a_core_that_cannot_be_loaded_is_one_problem_at_its_line(tmp_path: Path, source: str, named: str,
                                                                  request: pytest.FixtureRequest) -> None:
    module = f"brokencore_{request.node.callspec.id.replace('-', '_')}"
    for name in ("rulebook.yml", "mkdocs.yml"):
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    rulebook = (tmp_path / "rulebook.yml").read_text(encoding="utf-8")
    rulebook = re.sub(r"^ruleset: .*$", f"ruleset: {module}:RULESET", rulebook, flags=re.MULTILINE)
    (tmp_path / "rulebook.yml").write_text(rulebook, encoding="utf-8")
    (tmp_path / f"{module}.py").write_text(source, encoding="utf-8")
    line = rulebook[:rulebook.index("ruleset:")].count("\n") + 1
    try:
        with pytest.raises(ProblemsFound) as raised:
            load_rules_core(tmp_path, load_project(tmp_path))
    finally:
        sys.modules.pop(module, None)
        if str(tmp_path) in sys.path:
            sys.path.remove(str(tmp_path))
    [problem] = raised.value.problems
    assert (problem.file, problem.line) == ("rulebook.yml", line)
    assert f"cannot load the rules core '{module}:RULESET'" in str(problem) and named in str(problem)


def _engine_imports(path: Path) -> set[str]:
    imported: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    return {name for name in imported if name == "validator" or name.startswith("validator.")}


def test_the_bundled_core_imports_only_the_public_api() -> None:
    files = sorted((ROOT / "rules-core" / "whfb6").rglob("*.py"))
    assert files
    reaching_in = {path.relative_to(ROOT).as_posix(): sorted(imports - {"validator.api"})
                   for path in files if (imports := _engine_imports(path)) - {"validator.api"}}
    assert reaching_in == {}


def test_the_engine_does_not_import_the_bundled_core() -> None:
    importing = [path.relative_to(ROOT).as_posix() for path in sorted((ROOT / "validator").rglob("*.py"))
                 if "whfb6" in path.read_text(encoding="utf-8")]
    assert importing == []
