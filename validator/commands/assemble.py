"""``validator assemble``: one site from the language sites of ``build --language`` jobs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from validator.checks.run import check_workspace
from validator.commands.common import EXIT_OK, absolute, keeps_results, refuse_on_problems
from validator.pipeline import assemble_sites
from validator.site.build import language_parts
from validator.site.output import OutputError, check_site_dir, project_inputs
from validator.site.reproducible import build_epoch
from validator.store import Store
from validator.workspace import load_workspace


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("parts", nargs="+", type=Path, metavar="PART",
                         help="the --site-dir folder of each build --language job")
    command.add_argument("--site-dir", type=Path, default=Path("site"), metavar="DIR",
                         help="where the assembled site goes (default: site/)")
    keeps_results(command)


def run(project: Path, arguments: argparse.Namespace, store: Store) -> int:
    workspace = load_workspace(project, store=store)
    parts = [absolute(part) for part in arguments.parts]
    site_dir = absolute(arguments.site_dir)
    try:
        check_site_dir(site_dir, project, project_inputs(project, workspace.project))
        build_epoch()
        language_parts(workspace, parts)  # every language once, before the check's time is spent
        # The open data carries the checked outcomes of the examples: the check runs again here.
        report = check_workspace(workspace, store=store)
        refuse_on_problems(report.problems, "assembled")
        folders = assemble_sites(workspace, report, parts, site_dir)
    except OutputError as error:
        print(error.line, file=sys.stderr)
        return error.exit_code
    for folder in folders:
        print(f"assembled {folder}")
    return EXIT_OK
