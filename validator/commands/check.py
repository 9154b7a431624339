"""``validator check``: every input, every worked example, every reference, the lint."""

from __future__ import annotations

import argparse
import stat
import sys
from pathlib import Path

from validator.checks.run import check_workspace
from validator.commands.common import EXIT_OK, EXIT_USAGE, keeps_results, report_warnings
from validator.content.yamlsource import special_kind
from validator.problems import ProblemsFound
from validator.store import Store
from validator.workspace import load_workspace


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--examples", type=Path, nargs="+", default=[], metavar="FILE",
                         help="also run the examples of these files (kept outside the rulebook)")
    keeps_results(command)


def run(project: Path, arguments: argparse.Namespace, store: Store) -> int:
    for path in arguments.examples:
        wrong = _not_a_file(path)
        if wrong:
            print(f"validator: error: --examples {path}: {wrong}", file=sys.stderr)
            return EXIT_USAGE
    report = check_workspace(load_workspace(project, store=store), arguments.examples, store=store)
    report_warnings(len(report.warnings))
    if not report.ok:
        raise ProblemsFound(report.problems)
    print(f"{len(report.runs)} worked examples verified against the rules core; no problems.")
    return EXIT_OK


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` cannot be a file of examples, if it cannot: it is checked before the
    load, so that a folder, a FIFO or a device is named for what it is."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "no such file. Fix: give the path of a YAML file of examples"
    except OSError as error:
        return f"cannot be read ({error.strerror or error}). Fix: check the path and its permissions"
    if stat.S_ISREG(mode):
        return None
    return f"is {special_kind(mode)}, not a file. Fix: give the path of a YAML file of examples"
