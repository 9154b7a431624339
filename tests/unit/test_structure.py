"""The engine's modules stand in layers without cycles, and every package they
import is one the project declares.

Every import counts: at the top of a module, inside a function, and under
``TYPE_CHECKING``.  An import hidden in a function still ties the two modules
together; it only hides the tie from a reader.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator, Mapping
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "validator"
CORE = ROOT / "rules-core" / "whfb6"
"""The bundled book's rules core, a distribution of its own."""

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # What every layer may use: problems, plain data, and what makes a second run fast.
    ("foundation", ("validator.problems", "validator.plain", "validator.derived", "validator.resultcache",
                    "validator.cachefiles", "validator.parallel", "validator.store")),
    # The engine's view of a rules core (what a core imports, and the words of its names).
    ("rules core", ("validator.api", "validator.scaffold")),
    # The book's inputs, read and validated: never the checks or the loaded project.
    ("content", ("validator.content", "validator.catalogs")),
    # A loaded project: its content, catalogues and rules core together.
    ("workspace", ("validator.workspace",)),
    ("checks", ("validator.checks",)),
    ("site", ("validator.site",)),
    # The build's stages in order, the preview that runs them again, and the update of
    # the catalogues (whose templates hold what the examples show).
    ("pipeline", ("validator.pipeline", "validator.serve", "validator.catalogs.update")),
    # What a command runs: the command line.
    ("commands", ("validator.cli", "validator.commands", "validator.__main__", "validator")),
)
"""The layers, lowest first: a module imports only from its own layer and those below."""


def module_name(path: Path, top: Path = ROOT) -> str:
    parts = list(path.relative_to(top).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    return {module_name(path, package.parent): path for path in sorted(package.rglob("*.py"))}


def imported(path: Path, name: str) -> Iterator[tuple[str, int]]:
    """Every module name ``path`` imports (``name`` is its own), with the line; relative
    imports resolved.  ``from package import name`` names ``package.name``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            yield source, node.lineno
            for alias in node.names:
                yield f"{source}.{alias.name}", node.lineno


def graph(known: Mapping[str, Path]) -> dict[str, dict[str, int]]:
    """Module -> the engine's modules it imports, each with the first line that does."""
    edges: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        found: dict[str, int] = {}
        names = list(imported(path, name))
        for target, line in names:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if not target or target == name:
                continue
            submodule = any(other.startswith(f"{target}.") and other in known for other, _ in names)
            if target in {"validator"} and submodule:
                continue  # ``from validator import resultcache`` imports the module, not the package's text
            found.setdefault(target, line)
        edges[name] = found
    return edges


def cycles(edges: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """The groups of modules that import one another, directly or round about (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in edges.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(edges) + 100))
    try:
        for node in sorted(edges):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def layer_of(name: str) -> int:
    """The index in :data:`LAYERS` of the most specific prefix naming ``name``."""
    best: tuple[int, int] | None = None
    for number, (_layer, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            # The package itself names only its own __init__: a new module of it is placed by hand.
            names_it = name == prefix or (prefix != "validator" and name.startswith(f"{prefix}."))
            if names_it and (best is None or len(prefix) > best[0]):
                best = (len(prefix), number)
    assert best is not None, f"{name} is in no layer: add it to LAYERS"
    return best[1]


def upward(edges: Mapping[str, Mapping[str, int]], known: Mapping[str, Path]) -> list[str]:
    return [f"{known[name].relative_to(ROOT)}:{line}: {name} ({LAYERS[layer_of(name)][0]}) imports {target} "
            f"({LAYERS[layer_of(target)][0]})"
            for name, targets in sorted(edges.items()) for target, line in sorted(targets.items())
            if layer_of(target) > layer_of(name)]


def test_no_module_of_the_engine_imports_itself_round_about() -> None:
    assert cycles(graph(modules())) == []


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    known = modules()
    assert upward(graph(known), known) == []


def write(folder: Path, files: Mapping[str, str]) -> dict[str, Path]:
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return modules(folder / "validator")


def test_a_cycle_hidden_in_a_function_or_under_type_checking_is_found(tmp_path: Path) -> None:
    known = write(tmp_path, {
        "validator/__init__.py": "",
        "validator/content/__init__.py": "",
        "validator/content/faq.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                    "    from validator.content.loader import Rulebook\n",
        "validator/content/loader.py": "from validator.content import faq\n",
        "validator/api/__init__.py": "",
        "validator/api/trace.py": "def f():\n    from .ruleset import to_json\n",
        "validator/api/ruleset.py": "from validator.api.trace import f\n",
        "validator/problems.py": "import validator.plain\n",
        "validator/plain.py": "",
    })
    assert cycles(graph(known)) == [["validator.api.ruleset", "validator.api.trace"],
                                    ["validator.content.faq", "validator.content.loader"]]


def test_an_upward_import_is_named_with_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    known = write(tmp_path, {
        "validator/__init__.py": "",
        "validator/workspace.py": "",
        "validator/content/__init__.py": "",
        "validator/catalogs/status.py": "import os\n\ndef f():\n    from validator.workspace import Workspace\n",
    })
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert upward(graph(known), known) == [
        "validator/catalogs/status.py:4: validator.catalogs.status (content) imports validator.workspace (workspace)"]


def declared(folder: Path = ROOT) -> set[str]:
    """The distributions the project in ``folder`` depends on, normalised."""
    project = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {normalised(re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0])
            for requirement in project["dependencies"]}


def normalised(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def third_party(folders: tuple[Path, ...]) -> dict[str, str]:
    """Each top-level module the engine and the bundled core import from outside the
    standard library and themselves -> the first file that does."""
    own = {folder.name for folder in folders}
    found: dict[str, str] = {}
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            for name, line in imported(path, module_name(path, folder.parent)):
                top = name.split(".")[0]
                if top and top not in sys.stdlib_module_names and top not in own and not name.startswith("."):
                    found.setdefault(top, f"{path.relative_to(ROOT)}:{line}")
    return found


@pytest.mark.parametrize(("distribution", "package"), [(ROOT, PACKAGE), (CORE.parent, CORE)],
                         ids=["engine", "bundled core"])
def test_every_package_imported_is_declared(distribution: Path, package: Path) -> None:
    """The engine's imports are its pyproject.toml's, and the bundled core's are its own
    distribution's (the engine, and nothing else)."""
    distributions = {**packages_distributions(), "validator": ["rulebook-validator"]}
    wanted = declared(distribution)
    missing = [f"{where}: imports {top}, from {distributions.get(top, ['an unknown distribution'])}, which "
               f"{(distribution / 'pyproject.toml').relative_to(ROOT)} does not declare"
               for top, where in sorted(third_party((package,)).items())
               if not {normalised(name) for name in distributions.get(top, [top])} & wanted]
    assert missing == []


def test_the_engines_package_ships_no_game() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["setuptools"]["packages"]["find"]["include"] == ["validator*"]
    assert not (ROOT / "whfb6").exists() and (CORE / "__init__.py").is_file()


def test_an_undeclared_import_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("import yaml\nimport json\nfrom pkg import b\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert third_party((tmp_path / "pkg",)) == {"yaml": "pkg/a.py:1"}
