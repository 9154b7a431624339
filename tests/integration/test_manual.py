"""The tool's manual builds strictly, and its reference covers every key and every API name.

The reference pages are generated from the models and from ``validator.api``; these
tests build the manual as a reader would and read the pages, so a key or a name that
the generation skipped, or a key left without a meaning, is caught here.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort
from pydantic import BaseModel

from validator import api
from validator.content.project import Project

MANUAL = Path(__file__).resolve().parents[2] / "manual"


def reference_module() -> ModuleType:
    """The generator the manual's hook imports: the same module object, so a test can patch it."""
    hooks = str(MANUAL / "hooks")
    if hooks not in sys.path:
        sys.path.insert(0, hooks)
    return importlib.import_module("manual_reference")


def build_manual(site: Path) -> Path:
    """Build the manual in strict mode into ``site``: any warning (a broken link, a key
    without a meaning) aborts it."""
    config = load_config(str(MANUAL / "mkdocs.yml"), strict=True, site_dir=str(site))
    build(config)
    return site


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_manual(tmp_path_factory.mktemp("manual"))


def row(key: str) -> str:
    """A key as the first cell of a row of a reference table, not merely named in some text."""
    return f"<td><code>{key}</code></td>"


def html_of(site: Path, page: str) -> str:
    return (site / page.replace(".md", ".html")).read_text(encoding="utf-8")


def keys_in(model: type[BaseModel], seen: set[type[BaseModel]]) -> set[str]:
    """Every key a YAML mapping of ``model`` or of a model inside it may hold."""
    if model in seen:
        return set()
    seen.add(model)
    keys = set()
    for name, field in model.model_fields.items():
        if name == "position":
            continue
        keys.add(field.alias or name)
        for inner in nested_models(field.annotation):
            keys |= keys_in(inner, seen)
    return keys


def nested_models(annotation: object) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for argument in getattr(annotation, "__args__", ()) for model in nested_models(argument)]


def test_every_key_of_every_file_is_in_its_reference_page(site: Path) -> None:
    for page in reference_module().PAGES:
        html = html_of(site, page.page)
        missing = sorted(key for key in keys_in(page.model, set()) if row(key) not in html)
        assert not missing, f"{page.page} leaves out {missing}"


def test_the_reference_names_the_keys_editors_look_for(site: Path) -> None:
    assert row("length_unit") in html_of(site, "reference/rulebook.md")
    assert row("dice") in html_of(site, "reference/rulebook.md")
    assert row("kinds") in html_of(site, "reference/discrepancies.md")


def test_the_api_page_lists_every_public_name(site: Path) -> None:
    html = html_of(site, "reference/api.md")
    missing = [name for name in api.__all__ if f'id="{name}"' not in html]
    assert not missing


def test_the_rules_core_page_shows_the_minimal_core_of_the_api(site: Path) -> None:
    html = html_of(site, "editors/rules-core.md")
    assert "minimal-core" not in html
    assert "RULESET" in html and "hit_chance" in html


class Extended(Project):
    made_up_key: int = 3
    """A key made up to prove that a new field reaches the manual by itself."""


class Undocumented(Project):
    made_up_key: int = 3


def with_rulebook_model(monkeypatch: pytest.MonkeyPatch, model: type[BaseModel]) -> None:
    reference = reference_module()
    pages = tuple(reference.FilePage(page.page, page.title, page.file, model) if page.model is Project else page
                  for page in reference.PAGES)
    monkeypatch.setattr(reference, "PAGES", pages)


def test_a_new_field_appears_in_the_reference(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with_rulebook_model(monkeypatch, Extended)
    html = html_of(build_manual(tmp_path), "reference/rulebook.md")
    assert row("made_up_key") in html
    assert "A key made up to prove" in html


def test_a_field_without_a_meaning_fails_the_strict_build(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with_rulebook_model(monkeypatch, Undocumented)
    with pytest.raises(Abort):
        build_manual(tmp_path)
