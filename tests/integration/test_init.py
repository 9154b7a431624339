"""`validator init DIR` writes a small book that passes `check` and builds in every
language it names, and never writes over anything."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import yaml
from babel.messages.pofile import read_po

from validator.catalogs.interface import engine_catalog_path


def _validator(cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "validator", *arguments], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def _text(page: Path) -> str:
    """A page's words, without markup, one space between them."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))).split())


def _translations(path: Path) -> dict[str, str]:
    with path.open("rb") as handle:
        return {str(message.context or message.id): str(message.string) for message in read_po(handle) if message.id}


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """The book's files, leaving out the bytecode Python writes when it imports the core
    (the book's .gitignore leaves it out too)."""
    return {path.relative_to(folder).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
            for path in folder.rglob("*") if path.is_file() and "__pycache__" not in path.parts}


def test_a_new_book_checks_builds_both_languages_and_is_never_written_over(tmp_path: Path) -> None:
    book = tmp_path / "book"
    done = _validator(tmp_path, "init", "book")
    assert done.returncode == 0, done.stderr
    assert (book / "rulebook.yml").is_file() and not (book / "locales" / "es" / "LC_MESSAGES" / "ui.po").exists()

    done = _validator(book, "check")
    assert done.returncode == 0 and "no problems" in done.stdout, done.stdout + done.stderr
    done = _validator(book, "build")
    assert done.returncode == 0, done.stderr

    project = yaml.safe_load((book / "rulebook.yml").read_text(encoding="utf-8"))
    chapter = yaml.safe_load(next((book / "docs" / "rules").glob("*.yml")).read_text(encoding="utf-8"))
    rule = next(rule for rule in chapter["rules"] if rule.get("examples"))
    example = rule["examples"][0]
    labels = _translations(book / "locales" / "es" / "LC_MESSAGES" / "labels.po")
    interface = _translations(engine_catalog_path("es"))
    for language in (entry["code"] for entry in project["languages"]):
        page = _text(book / "site" / language / f"{chapter['chapter']['id']}.html")
        for field, value in example["expect"].items():
            if isinstance(value, bool):
                continue  # shown as a word of the interface
            name = field if language == "en" else labels[f"labels/{field}"]
            assert f"{name} {value}" in page, (language, field, value)
    spanish = _text(book / "site" / "es" / f"{chapter['chapter']['id']}.html")
    assert interface["Answer"] in spanish and interface["Step by step"] in spanish

    before = _snapshot(book)
    again = _validator(tmp_path, "init", "book")
    assert again.returncode == 2
    assert again.stderr.count("\n") == 1 and "not empty" in again.stderr and "Fix: " in again.stderr
    assert _snapshot(book) == before


def test_a_new_books_catalogues_are_up_to_date(tmp_path: Path) -> None:
    """`validator i18n update` on a new book finds nothing to change: the translation it
    ships is complete and matches its texts as the engine extracts them."""
    assert _validator(tmp_path, "init", "book").returncode == 0
    before = _snapshot(tmp_path / "book")
    done = _validator(tmp_path / "book", "i18n", "update")
    assert done.returncode == 0, done.stderr
    assert " 0 untranslated" in done.stdout and " 0 fuzzy" in done.stdout
    assert {name: data for name, (data, _time) in _snapshot(tmp_path / "book").items()} == \
        {name: data for name, (data, _time) in before.items()}
