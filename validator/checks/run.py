"""All checks in one pass over the loaded workspace."""

from __future__ import annotations

from dataclasses import dataclass

from validator.checks.examples import ExampleRun, run_examples
from validator.checks.references import reference_problems, translation_token_problems
from validator.content.catalogs import RULES_DOMAIN, catalog_path
from validator.problems import Problem
from validator.workspace import Workspace


@dataclass(frozen=True)
class CheckReport:
    runs: tuple[ExampleRun, ...]
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def computed(self, rule_id: str, example_id: str) -> dict[str, object]:
        for run in self.runs:
            if run.rule_id == rule_id and run.example.id == example_id and run.computed is not None:
                return run.computed
        raise KeyError(f"{rule_id}#{example_id}")


def check_workspace(workspace: Workspace) -> CheckReport:
    rulebook = workspace.rulebook
    runs = tuple(run_examples(workspace.ruleset,
                              ((rule.id, example) for rule in rulebook.rules for example in rule.examples)))
    problems = [problem for run in runs for problem in run.problems]
    problems.extend(reference_problems(rulebook, workspace.ruleset))
    locales = workspace.root / workspace.project.locales_dir
    for language, catalog in workspace.raw_rule_catalogs.items():
        shown = workspace.shown(catalog_path(locales, language, RULES_DOMAIN))
        problems.extend(translation_token_problems(rulebook, catalog, shown))
    return CheckReport(runs, tuple(sorted(set(problems))))
