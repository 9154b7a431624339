"""Material's own words in the site's language: its language chosen for any site
language, and the permalinks' tooltip set without losing the book's extensions."""

from __future__ import annotations

from pathlib import Path

import yaml  # type: ignore[import-untyped]
from babel.messages.catalog import Catalog
from mkdocs.config import load_config

from validator.content.mkdocs_config import inherited_option
from validator.site.build import config_text
from validator.site.material import interface_words, material_language, permalink_title, with_permalink_title

BOOK = """site_name: A book
markdown_extensions:
  - admonition
  - toc:
      permalink: true
  - pymdownx.emoji:
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
"""


def _extensions(text: str) -> object:
    """The composed node of a configuration's markdown_extensions, None without one."""
    pairs = yaml.compose(text, Loader=yaml.SafeLoader).value
    return {key.value: value for key, value in pairs}.get("markdown_extensions")


def _written(extensions: object) -> dict[str, object]:
    """The extensions as MkDocs reads them back from a written configuration."""
    text = config_text({"markdown_extensions": extensions})
    return dict(yaml.load(text, Loader=yaml.UnsafeLoader))  # the test's own text: the tag must load


def test_every_language_gets_words_material_has() -> None:
    assert [material_language(code) for code in ("de", "cs", "es", "pl", "zh-Hant", "pt-PT")] == \
        ["de", "cs", "es", "pl", "zh-Hant", "pt"]
    assert material_language("gd") == "en" and material_language("x-klingon") == "en"


def test_the_toc_entry_gets_the_title_and_the_rest_stays_as_written() -> None:
    read = _written(with_permalink_title(_extensions(BOOK), "Enlace permanente"))
    extensions = read["markdown_extensions"]
    assert isinstance(extensions, list)
    assert extensions[:2] == ["admonition", {"toc": {"permalink": True, "permalink_title": "Enlace permanente"}}]
    assert callable(extensions[2]["pymdownx.emoji"]["emoji_generator"])


def test_a_title_the_book_sets_is_kept() -> None:
    book = "markdown_extensions:\n  - toc:\n      permalink: true\n      permalink_title: Link here\n"
    read = _written(with_permalink_title(_extensions(book), "Stały odnośnik"))
    assert read["markdown_extensions"] == [{"toc": {"permalink": True, "permalink_title": "Link here"}}]


def test_every_form_of_the_list_gets_the_title() -> None:
    forms = {"markdown_extensions: [toc]\n": [{"toc": {"permalink_title": "T"}}],
             "markdown_extensions:\n  - toc:\n": [{"toc": {"permalink_title": "T"}}],
             "markdown_extensions: [tables]\n": ["tables", {"toc": {"permalink_title": "T"}}],
             "markdown_extensions:\n  toc: {permalink: true}\n": {"toc": {"permalink": True, "permalink_title": "T"}},
             "site_name: x\n": [{"toc": {"permalink_title": "T"}}]}
    for book, expected in forms.items():
        assert _written(with_permalink_title(_extensions(book), "T"))["markdown_extensions"] == expected, book


def test_the_option_is_read_from_the_file_a_configuration_inherits(tmp_path: Path) -> None:
    (tmp_path / "base.yml").write_text(BOOK, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("INHERIT: base.yml\nsite_name: Child\n", encoding="utf-8")
    found = inherited_option(tmp_path / "mkdocs.yml", "markdown_extensions", tmp_path)
    assert isinstance(found, yaml.SequenceNode) and found.value[0].value == "admonition"
    assert inherited_option(tmp_path / "mkdocs.yml", "nosuch", tmp_path) is None
    assert inherited_option(tmp_path / "missing.yml", "markdown_extensions", tmp_path) is None
    # A file outside the book is never read, even for an option.
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "mkdocs.yml").write_text("INHERIT: ../base.yml\n", encoding="utf-8")
    assert inherited_option(tmp_path / "book" / "mkdocs.yml", "markdown_extensions", tmp_path / "book") is None


def test_mkdocs_builds_with_the_title(tmp_path: Path) -> None:
    """MkDocs reads the written list as the book's, with the title given to ``toc``."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "base.yml").write_text(BOOK.replace("  - pymdownx.emoji:\n      emoji_generator: "
                                                    "!!python/name:material.extensions.emoji.to_svg\n", ""),
                                       encoding="utf-8")
    book = inherited_option(tmp_path / "base.yml", "markdown_extensions", tmp_path)
    extensions = with_permalink_title(book, "Enlace")
    (tmp_path / "mkdocs.yml").write_text(config_text({"INHERIT": "base.yml", "markdown_extensions": extensions}),
                                         encoding="utf-8")
    config = load_config(str(tmp_path / "mkdocs.yml"), docs_dir=str(tmp_path / "docs"))
    assert config.mdx_configs["toc"] == {"permalink": True, "permalink_title": "Enlace"}
    assert "admonition" in config.markdown_extensions


def test_the_words_come_from_the_catalogue_and_cannot_open_a_tag() -> None:
    catalog = Catalog(locale="es")
    catalog.add("Permanent link", "Enlace <b>permanente</b>")
    catalog.add("Page not found", "Página no encontrada")
    assert permalink_title(catalog) == "Enlace \u2039b\u203apermanente\u2039/b\u203a"
    words = interface_words(catalog, "gd")
    assert words["not_found"] == "Página no encontrada" and words["home"] == "Go to the home page"
    assert words["material_language"] == "en"
