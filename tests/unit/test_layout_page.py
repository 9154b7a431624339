"""The developers' layout page names every module of the engine once, in its package's
place, and nothing that is not there: a module added, moved or removed without the
page fails here, not in a new maintainer's reading."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYOUT = ROOT / "manual" / "docs" / "developers" / "layout.md"
ENGINE = ROOT / "validator"


def engine_entries(text: str) -> dict[str, str]:
    """The page's map of the engine: each entry's path (``validator/site/``,
    ``validator/cli.py``) -> its words, continuation lines included."""
    block = text.split("## The engine", 1)[1].split("```", 2)[1]
    entries: dict[str, str] = {}
    current = ""
    for line in block.splitlines():
        if line.startswith("validator/"):
            current, _, words = line.partition(" ")
            entries[current] = words
        elif current:
            entries[current] += " " + line.strip()
    return entries


def modules() -> dict[str, list[str]]:
    """Each entry the page should have (a top-level module, or a package's folder) ->
    the modules it should name (a package's, by file name; none for a module)."""
    found: dict[str, list[str]] = {}
    for path in sorted(ENGINE.iterdir()):
        if path.suffix == ".py" and path.name not in {"__init__.py", "__main__.py"}:
            found[f"validator/{path.name}"] = []
        elif path.is_dir() and (path / "__init__.py").exists():
            found[f"validator/{path.name}/"] = sorted(
                module.relative_to(path).as_posix() for module in path.rglob("*.py")
                if module.name != "__init__.py" and "__pycache__" not in module.parts)
    return found


def misplaced(text: str) -> list[str]:
    entries = engine_entries(text)
    wanted = modules()
    problems = [f"{entry}: not on the page" for entry in wanted if entry not in entries]
    problems += [f"{entry}: on the page, not in the engine" for entry in entries
                 if entry not in wanted and not (ROOT / entry).exists()]  # a folder of data: locale/, scaffold/
    for entry, names in wanted.items():
        for name in names:
            said = entries.get(entry, "")
            count = len(re.findall(rf"(?<![\w/.]){re.escape(name)}(?!\w)", said))
            short = len(re.findall(rf"(?<![\w/.]){re.escape(Path(name).name)}(?!\w)", said))
            if max(count, short) != 1:
                problems.append(f"{entry}{name}: named {max(count, short)} times in its package's entry")
    return problems


def test_every_module_is_named_once_in_its_package_s_place() -> None:
    assert misplaced(LAYOUT.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("breaking", [
    ("(singlepage.py)", "(one page alone)"),  # a module left out
    ("(search.py)", "(search.py, search.py)"),  # named twice
    ("validator/plain.py    ", "validator/plainer.py  "),  # a module the engine does not have
])
def test_the_check_fails_on_a_page_out_of_step(breaking: tuple[str, str]) -> None:
    text = LAYOUT.read_text(encoding="utf-8")
    assert breaking[0] in text
    assert misplaced(text.replace(breaking[0], breaking[1], 1)) != []


def missing_modules(text: str) -> list[str]:
    """The engine's files (``validator/site/search.py``) and modules or names in them
    (``validator.site.search.fold``) that a page names and the engine does not have."""
    missing = {name for name in re.findall(r"\bvalidator/[\w/]+\.py\b", text) if not (ROOT / name).exists()}
    for dotted in set(re.findall(r"\bvalidator(?:\.[A-Za-z_]\w*)+", text)):
        parts = dotted.split(".")
        found: object = None
        for length in range(len(parts), 0, -1):
            try:
                found = importlib.import_module(".".join(parts[:length]))
            except ImportError:
                continue
            for name in parts[length:]:
                found = getattr(found, name, None)
            break
        if found is None:
            missing.add(dotted)
    return sorted(missing)


@pytest.mark.parametrize("page", sorted((ROOT / "manual" / "docs" / "developers").glob("*.md")),
                         ids=lambda page: page.name)
def test_every_module_a_developers_page_names_exists(page: Path) -> None:
    assert missing_modules(page.read_text(encoding="utf-8")) == []


def test_a_page_naming_a_module_gone_fails() -> None:
    assert missing_modules("see validator/site/gone.py, validator.site.alsogone and validator.site.search.gone"
                           " beside validator.site.search.fold") == [
        "validator.site.alsogone", "validator.site.search.gone", "validator/site/gone.py"]
