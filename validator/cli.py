"""The ``validator`` command: check, build and preview a rules reference.

Exit status: 0 when all is well, 1 when checks find problems, 2 for bad usage.

The commands live in :mod:`validator.commands`, one module each.  The command line
is read in two passes: the first knows the commands by name only, the second adds
the arguments of the one given, from its module, which is imported then and no
other is.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import NoReturn

from validator.api.ruleset import search_book_folder
from validator.commands import COMMANDS
from validator.commands.common import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, encodes, report
from validator.parallel import JOBS_VARIABLE, BadJobsSetting, job_count, jobs_setting, usable_cores
from validator.problems import ProblemsFound
from validator.store import opened

DESCRIPTION = __doc__.splitlines()[0] if __doc__ else ""


def _parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command by name, and the arguments of ``chosen``."""
    parser = argparse.ArgumentParser(prog="validator", description=DESCRIPTION)
    parser.add_argument("--project", type=Path, default=Path("."), metavar="DIR",
                        help="folder holding rulebook.yml (default: the current folder)")
    parser.add_argument("--jobs", type=_job_count, metavar="N",
                        help=f"processes at work at once (default: one per core, or {JOBS_VARIABLE}); "
                        "1 works in one process, with the least memory and about twice the time")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for listed in COMMANDS:
        command = commands.add_parser(listed.name, help=listed.summary, add_help=listed.name == chosen)
        if listed.name == chosen:
            command_module(listed.name).add_arguments(command)
    return parser


def command_module(name: str) -> ModuleType:
    """The module of :mod:`validator.commands` that holds the command ``name``."""
    module = next(command.module for command in COMMANDS if command.name == name)
    return importlib.import_module(f"validator.commands.{module}")


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line read as the command given reads it (``SystemExit`` on bad usage,
    as argparse exits)."""
    words = list(sys.argv[1:] if argv is None else argv)
    known, _rest = _parser().parse_known_args(words)
    return _parser(known.command).parse_args(words)


def _job_count(text: str) -> int:
    """``--jobs``: a whole number of processes, one at least."""
    count = job_count(text)
    if count is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of processes: give a whole number, 1 or more")
    return count


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    if sys.stdout is None:
        print("validator: error: the standard output is closed, and what the command says would be lost. Fix: "
              "run it with its output open (redirect it to a file, or to /dev/null to discard it)", file=sys.stderr)
        return EXIT_USAGE
    _fit_to_terminal(sys.stdout)
    try:
        jobs = jobs_setting(arguments.jobs, os.environ)
    except BadJobsSetting as error:
        print(f"validator: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    if jobs.note is not None:
        print(f"validator: note: {jobs.note}", file=sys.stderr)
    project = arguments.project.resolve()
    if not project.is_dir():
        print(f"validator: error: --project {arguments.project}: no such folder", file=sys.stderr)
        return EXIT_USAGE
    search_book_folder(project)
    keeps_results = getattr(arguments, "keeps_results", False)
    no_cache = keeps_results and arguments.no_cache
    try:
        with opened(project, keeps_results, no_cache, jobs.count or usable_cores()) as store:
            return int(command_module(arguments.command).run(project, arguments, store))
    except ProblemsFound as found:
        report(found)
        return EXIT_PROBLEMS
    except KeyboardInterrupt:
        return EXIT_PROBLEMS
    except BrokenPipeError:
        # The reader (a pager, head) went away: not an error of ours.
        sys.stderr.close()
        return EXIT_OK
    except OSError as error:
        # A file that vanished or became unreadable after the checks looked at it.
        where = error.filename if error.filename else "validator"
        print(f"{where}: cannot use the file ({error.strerror or error}). Fix: check the file and its "
              "permissions, then run again", file=sys.stderr)
        return EXIT_PROBLEMS
    except (RecursionError, MemoryError):
        print("validator: error: an input is too large or too deeply nested to process. Fix: simplify the "
              "file last edited", file=sys.stderr)
        return EXIT_PROBLEMS
    except Exception as error:
        text = " ".join(str(error).split())[:300]
        print(f"validator: internal error ({type(error).__name__}: {text}); please report it with the "
              "command and the input that caused it", file=sys.stderr)
        return EXIT_PROBLEMS


def run() -> NoReturn:
    """The installed command: :func:`main`, then out at once.  The process holds a
    whole rulebook's objects; freeing them one by one at exit costs a large book
    noticeable time, for nothing (the streams are flushed first, every file
    was closed where it was written)."""
    status = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):  # the reader went away, or the stream
            stream.flush()  # was closed by main or before the command started (None)
    os._exit(status)


def _fit_to_terminal(stream: object) -> None:
    """Write a character the stream's encoding lacks (``≈``, a translated name on an
    ASCII terminal, ``PYTHONIOENCODING=ascii``) as an escape rather than fail on it."""
    with contextlib.suppress(AttributeError, ValueError, OSError):
        if not encodes(stream, "\U0010ffff"):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[attr-defined]


if __name__ == "__main__":
    sys.exit(main())
