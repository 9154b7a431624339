"""``validator lint``: the translation lint alone, in the translator's language."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from validator.checks.lint import Severity
from validator.checks.lintparts import lint_workspace
from validator.checks.said import in_language, lint_translations
from validator.commands.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    chooses_language,
    keeps_results,
    unknown_language,
)
from validator.store import Store
from validator.workspace import load_workspace


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--format", choices=("text", "json"), default="text")
    chooses_language(command)
    keeps_results(command)


def run(project: Path, arguments: argparse.Namespace, store: Store) -> int:
    workspace = load_workspace(project, store=store)
    if unknown_language("lint", arguments.language, workspace.project):
        return EXIT_USAGE
    # Said in the translator's language where the engine has it (--language, else the environment's).
    translations = lint_translations(arguments.language)
    findings = [dataclasses.replace(f, message=in_language(f.message, translations),
                                    fix=in_language(f.fix, translations))
                for f in lint_workspace(workspace, language=arguments.language, store=store)]
    if arguments.format == "json":
        print(json.dumps([{"file": f.file, "line": f.line, "msgctxt": f.context, "check": f.check,
                           "severity": str(f.severity), "message": f.message, "fix": f.fix} for f in findings],
                         indent=2, ensure_ascii=False))
    else:
        for finding in findings:
            print(finding)
        errors = sum(1 for f in findings if f.severity is Severity.ERROR)
        print(f"{errors} error{'s' if errors != 1 else ''}, {len(findings) - errors} "
              f"warning{'s' if len(findings) - errors != 1 else ''}.")
    return EXIT_PROBLEMS if any(f.severity is Severity.ERROR for f in findings) else EXIT_OK
