"""A site in a language Material for MkDocs ships no words for still builds: Material's
words fall back to its nearest language (English at worst), the page keeps the site's
own language, and the engine's words (the permalinks, the footer, the page not found)
come from the interface catalogue all the same."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]
from babel.messages.catalog import Catalog
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config

from validator.site.build import OVERRIDES, config_text
from validator.site.material import interface_words, permalink_title, with_permalink_title

PERMALINKS = yaml.compose("- toc:\n    permalink: true\n", Loader=yaml.SafeLoader)


@pytest.mark.parametrize(("code", "words"), [("gd", "en"), ("de", "de"), ("cs", "cs")])
def test_a_language_material_may_not_know_builds(tmp_path: Path, code: str, words: str) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n## Part\n", encoding="utf-8")
    catalog = Catalog(locale="en")
    catalog.add("Permanent link", f"link-{code}")
    catalog.add("Page not found", f"missing-{code}")
    config = {"site_name": "Book", "docs_dir": str(tmp_path / "docs"), "site_dir": str(tmp_path / "site"),
              "use_directory_urls": False,
              "theme": {"name": "material", "language": code, "custom_dir": str(OVERRIDES)},
              "markdown_extensions": with_permalink_title(PERMALINKS, permalink_title(catalog)),
              "extra": {"interface": interface_words(catalog, code)}}
    (tmp_path / "mkdocs.yml").write_text(config_text(config), encoding="utf-8")
    mkdocs_build(load_config(str(tmp_path / "mkdocs.yml")))
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert f'<html lang="{code}"' in page and f'title="link-{code}"' in page
    assert interface_words(catalog, code)["material_language"] == words
    search = {"en": "Search", "de": "Suche", "cs": "Hledat"}[words]  # Material's word, in the search box
    assert f'placeholder="{search}"' in page
    missing = (tmp_path / "site" / "404.html").read_text(encoding="utf-8")
    assert f"<h1>missing-{code}</h1>" in missing and 'href="index.html"' in missing
