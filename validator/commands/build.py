"""``validator build``: check, then one site per language, swapped in together."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from validator.commands.common import (
    EXIT_OK,
    EXIT_USAGE,
    absolute,
    keeps_results,
    refuse_on_problems,
    report_warnings,
)
from validator.pipeline import ChecksFailed, check_and_build
from validator.site.incremental import content_folders, read_besides
from validator.site.output import OutputError, check_site_dir, project_inputs, site_path
from validator.site.reproducible import build_epoch
from validator.site.uptodate import Options, Said, keep, up_to_date
from validator.store import Store
from validator.workspace import load_workspace


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--site-dir", type=Path, default=Path("site"), metavar="DIR",
                         help="where the sites go (default: site/)")
    command.add_argument("--language", metavar="CODE", help="build only this language's site (one job per language)")
    keeps_results(command)


def run(project: Path, arguments: argparse.Namespace, store: Store) -> int:
    site_dir = absolute(arguments.site_dir)
    try:
        options = Options(arguments.language, build_epoch())
        said = up_to_date(store, project, site_path(site_dir), options)
    except OutputError as error:
        print(error.line, file=sys.stderr)
        return error.exit_code
    if said is not None:
        # Nothing the site was built from changed, and it is as the build left it.
        report_warnings(said.warnings)
        print("\n".join(f"built {folder}" for folder in said.built))
        return EXIT_OK
    # The pages read the compact catalogues: the parsed ones are let go (see
    # validator.catalogs.parsed), and the lint, in a job of its own, makes its language's again.
    workspace = load_workspace(project, keep_catalogs=False, store=store)
    codes = [language.code for language in workspace.project.languages]
    if arguments.language is not None and arguments.language not in codes:
        print(f"validator build: unknown language '{arguments.language}'. Fix: use one of {', '.join(codes)} "
              f"(the languages of rulebook.yml)", file=sys.stderr)
        return EXIT_USAGE
    try:
        # Refuse a place the build may not write before spending time on the check.
        check_site_dir(site_dir, project, project_inputs(project, workspace.project))
        build_epoch()
        try:
            built = check_and_build(workspace, site_dir, arguments.language, store)
        except ChecksFailed as failed:
            report_warnings(len(failed.warnings))
            refuse_on_problems(failed.problems, "built")
            raise
        report_warnings(len(built.warnings))
    except OutputError as error:
        print(error.line, file=sys.stderr)
        return error.exit_code
    keep(store, project, site_path(site_dir), workspace.readings.input_digests, read_besides(workspace),
         content_folders(workspace), workspace.project.ruleset, options,
         Said(len(built.warnings), tuple(str(folder) for folder in built.folders)))
    for folder in built.folders:
        print(f"built {folder}")
    return EXIT_OK
