"""``validator status``: translated, fuzzy and untranslated messages per language and chapter."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from validator.catalogs.status import Totals, status_json, translation_status
from validator.commands.common import EXIT_OK, EXIT_USAGE, chooses_language, unknown_language
from validator.store import Store
from validator.workspace import load_workspace


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--format", choices=("text", "json"), default="text")
    chooses_language(command)


def run(project: Path, arguments: argparse.Namespace, store: Store) -> int:
    workspace = load_workspace(project, store=store)
    if unknown_language("status", arguments.language, workspace.project):
        return EXIT_USAGE
    status = translation_status(workspace, arguments.language)
    if arguments.format == "json":
        print(json.dumps(status_json(status), indent=2))
        return EXIT_OK
    print(f"{'language':<9}{'domain':<8}{'chapter':<26}{'translated':>11}{'fuzzy':>7}{'untranslated':>14}{'done':>8}")
    for language, groups in status.items():
        rows = [(group.domain, group.group, Totals.of([group])) for group in groups]
        for domain, name, totals in [*rows, ("all", "", Totals.of(groups))]:
            print(f"{language:<9}{domain:<8}{name:<26}{totals.translated:>11}{totals.fuzzy:>7}"
                  f"{totals.untranslated:>14}{totals.percent:>7.1f}%")
    return EXIT_OK
