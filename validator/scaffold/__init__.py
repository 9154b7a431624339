"""`validator init DIR`: a small book that works, for a rules editor to start from.

The files are kept in this package as they are written (``book/``): two rules, a
glossary term, a register entry, a source, a rules core of a few lines and its worked
example, and a Spanish translation of it all.  They pass ``validator check`` and build
as they are, so every edit the editor makes starts from a book that worked.
"""

from __future__ import annotations

from pathlib import Path

BOOK = Path(__file__).resolve().parent / "book"
"""The new book's files, each commented for the editor."""

_LEFT_OUT = ("__pycache__",)
"""What importing the book's rules core may leave beside its files."""


def book_files() -> list[Path]:
    """The files of a new book, relative to its folder."""
    return sorted(path.relative_to(BOOK) for path in BOOK.rglob("*")
                  if path.is_file() and not any(part in _LEFT_OUT for part in path.relative_to(BOOK).parts))


def refusal(target: Path) -> tuple[str, str] | None:
    """Why ``target`` cannot take a new book, and how to fix that (None when it can):
    nothing that is there is ever overwritten."""
    if target.is_symlink() and not target.exists():
        return "is a broken symbolic link", "give the path of a new or empty folder"
    if target.exists() and not target.is_dir():
        return "is a file, not a folder", "give the path of a new or empty folder"
    if target.is_dir() and any(target.iterdir()):
        return "the folder is not empty", "give a new folder, or an empty one (init never overwrites a file)"
    return None


def write_book(target: Path) -> list[Path]:
    """Write a new book into ``target`` (made if need be, see :func:`refusal`); returns
    the files written.  Each is created exclusively, so a file that appeared meanwhile
    stops the writing rather than being replaced."""
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for relative in book_files():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("xb") as handle:
            handle.write((BOOK / relative).read_bytes())
        written.append(path)
    return written
