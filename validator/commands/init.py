"""``validator init DIR``: a small working book in a new folder, to start from."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from validator.commands.common import EXIT_OK, EXIT_USAGE, absolute
from validator.scaffold import refusal, write_book
from validator.store import Store


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("folder", type=Path, metavar="DIR", help="the new book's folder (new or empty)")


def run(_project: Path, arguments: argparse.Namespace, _store: Store) -> int:
    folder = arguments.folder
    refused = refusal(absolute(folder))
    if refused is not None:
        print(f"validator: error: init {folder}: {refused[0]}. Fix: {refused[1]}", file=sys.stderr)
        return EXIT_USAGE
    try:
        written = write_book(absolute(folder))
    except FileExistsError as error:
        print(f"validator: error: init {folder}: {error.filename} appeared while the book was written. Fix: "
              "give a folder nothing else writes to", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"validator: error: init {folder}: cannot write {error.filename or folder} "
              f"({error.strerror or error}). Fix: give a folder you may write to", file=sys.stderr)
        return EXIT_USAGE
    print(f"Wrote a new book of {len(written)} files to {folder}. Next: cd {folder}, then validator check "
          "and validator build.")
    return EXIT_OK
