"""What several commands share: exit statuses, the options some take, and the way a
command writes a file or says that an argument is wrong."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from validator.catalogs.merge import write_bytes_atomically
from validator.content.project import Project
from validator.problems import Problem, ProblemsFound
from validator.resultcache import CACHE_VARIABLE

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


def chooses_language(command: argparse.ArgumentParser) -> None:
    """The command may be limited to one translated language: what its translators act on."""
    command.add_argument("--language", metavar="CODE", help="this translated language alone (default: every one)")


def unknown_language(command: str, code: str | None, project: Project) -> bool:
    """Whether ``--language`` names no translated language of the book (said in one line)."""
    codes = [language.code for language in project.translated_languages]
    if code is None or code in codes:
        return False
    print(f"validator {command}: unknown language '{code}'. Fix: use one of {', '.join(codes) or 'none'} "
          "(the translated languages of rulebook.yml)", file=sys.stderr)
    return True


def keeps_results(command: argparse.ArgumentParser) -> None:
    """The command keeps what its checks made between runs (see validator.resultcache)."""
    command.add_argument("--no-cache", action="store_true",
                         help=f"neither use nor keep the results of earlier runs (or set {CACHE_VARIABLE} empty)")
    command.set_defaults(keeps_results=True)


def report(found: ProblemsFound) -> None:
    """Every problem, one line each, and how many."""
    for problem in found.problems:
        print(problem, file=sys.stderr)
    count = len(found.problems)
    print(f"{count} problem{'s' if count != 1 else ''} found.", file=sys.stderr)


def report_warnings(count: int) -> None:
    """The one line of a check or build that found ``count`` translation warnings."""
    if count:
        print(f"{count} translation warning{'s' if count != 1 else ''} "
              "(validator lint lists them).", file=sys.stderr)


def refuse_on_problems(problems: Sequence[Problem], not_done: str) -> None:
    if problems:
        print(f"Checks failed; the site was not {not_done}.", file=sys.stderr)
        raise ProblemsFound(problems)


def absolute(path: Path) -> Path:
    """A path given on the command line, against the folder the command runs in."""
    return path if path.is_absolute() else Path.cwd() / path


def not_a_new_file(path: Path, example: str) -> str | None:
    """Why ``path`` cannot be written as a file, if it cannot: a folder, or a place
    whose folder does not exist, is named for what it is."""
    if path.is_dir():
        return f"is a folder. Fix: give the path of a file, such as {example}"
    if not path.parent.is_dir():
        return f"there is no folder {path.parent}. Fix: create it, or give a file in a folder that exists"
    return None


def write_output(data: bytes, output: Path | None) -> None:
    """A file a command makes for another tool: to the standard output as bytes, or
    to ``output`` whole (a crash leaves no half of it for the tool to read)."""
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        write_bytes_atomically(data, output)


def encodes(stream: object, text: str) -> bool:
    """Whether ``stream`` can write ``text`` in its encoding."""
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
