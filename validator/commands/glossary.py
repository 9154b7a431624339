"""``validator glossary-tbx``: one language's glossary as TBX, for terminology tools."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from validator.commands.common import EXIT_OK, EXIT_USAGE, absolute, not_a_new_file, write_output
from validator.content.project import load_project
from validator.site.opendata import glossary_tbx
from validator.store import Store
from validator.workspace import load_workspace


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--language", required=True, metavar="CODE", help="a language of rulebook.yml (e.g. es)")
    command.add_argument("--output", type=Path, metavar="FILE",
                         help="the file to write (default: the standard output)")


def run(project: Path, arguments: argparse.Namespace, store: Store) -> int:
    # Both arguments are judged before the whole book is loaded, each in one line.
    codes = [language.code for language in load_project(project).languages]
    if arguments.language not in codes:
        print(f"validator glossary-tbx: unknown language '{arguments.language}'. Fix: use one of {', '.join(codes)} "
              "(the languages of rulebook.yml)", file=sys.stderr)
        return EXIT_USAGE
    output = None if arguments.output is None else absolute(arguments.output)
    wrong = None if output is None else not_a_new_file(output, "glossary.tbx")
    if wrong is not None:
        print(f"validator glossary-tbx: --output {arguments.output}: {wrong}", file=sys.stderr)
        return EXIT_USAGE
    data = glossary_tbx(load_workspace(project, keep_catalogs=False, store=store), arguments.language)
    write_output(data, output)
    return EXIT_OK
