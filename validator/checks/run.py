"""All checks in one pass over the loaded workspace."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from validator.api.trace import Step
from validator.checks.examples import ExampleRun, run_examples
from validator.checks.handwritten import handwritten_problems
from validator.checks.lint import Finding, Severity
from validator.checks.lintparts import blocking_problems, lint_workspace
from validator.checks.references import reference_problems
from validator.checks.rulescore import RulesCore
from validator.content.model import CaseExample, CaseFile
from validator.content.yamlsource import read_yaml, validate
from validator.problems import Problem, ProblemsFound
from validator.store import Store
from validator.workspace import Workspace


@dataclass(frozen=True)
class CheckReport:
    runs: tuple[ExampleRun, ...]
    problems: tuple[Problem, ...]
    warnings: tuple[Finding, ...] = ()
    """Translation lint findings that do not block publishing."""
    linted: bool = True
    """False when the lint was left out (``check_workspace(..., lint=False)``): the build
    then runs it as jobs of its own, beside the pages."""

    @property
    def ok(self) -> bool:
        return not self.problems

    def computed(self, rule_id: str, example_id: str) -> dict[str, object]:
        return self._computed[(rule_id, example_id)]

    def trace(self, rule_id: str, example_id: str) -> tuple[Step, ...]:
        """The steps the core took for an example's outcome (see :mod:`validator.api.trace`)."""
        try:
            return self._traces[(rule_id, example_id)]
        except KeyError:
            raise KeyError(f"{rule_id}#{example_id}") from None

    @cached_property
    def _traces(self) -> dict[tuple[str, str], tuple[Step, ...]]:
        """(rule id, example id) -> the first computed run's steps, built once."""
        found: dict[tuple[str, str], tuple[Step, ...]] = {}
        for run in self.runs:
            if run.computed is not None:
                found.setdefault((run.rule_id, run.example.id), run.trace)
        return found

    @cached_property
    def _computed(self) -> _ComputedIndex:
        """(rule id, example id) -> the computed outcome, built once: every example on
        every page looks its outcome up here."""
        return _ComputedIndex(self.runs)


class _ComputedIndex(dict[tuple[str, str], dict[str, object]]):
    """The first computed outcome of each (rule id, example id), in run order."""

    def __init__(self, runs: tuple[ExampleRun, ...]) -> None:
        super().__init__()
        for run in runs:
            if run.computed is not None:
                self.setdefault((run.rule_id, run.example.id), run.computed)

    def __missing__(self, key: tuple[str, str]) -> dict[str, object]:
        raise KeyError(f"{key[0]}#{key[1]}")


def check_workspace(workspace: Workspace, case_files: Sequence[Path] = (), lint: bool = True,
                    store: Store | None = None) -> CheckReport:
    """Every check of the rulebook, plus the examples of ``case_files`` kept outside it;
    the translation lint too unless ``lint`` is false.  What ``store`` kept of earlier
    runs is not made again."""
    store = store or Store()
    runs, problems = _examples_and_references(workspace, case_files, store)
    if not lint:
        # The lint runs beside the pages then: what would stop a page from rendering is looked for first.
        problems.extend(blocking_problems(workspace))
        return CheckReport(runs, tuple(sorted(set(problems))), linted=False)
    errors, warnings = lint_findings(workspace, parallel=True, store=store)
    return CheckReport(runs, tuple(sorted(set(problems) | set(errors))), warnings)


def _examples_and_references(workspace: Workspace, case_files: Sequence[Path],
                              store: Store) -> tuple[tuple[ExampleRun, ...], list[Problem]]:
    """Every worked example's run (the rulebook's, then those of ``case_files``) and
    the problems of the runs and of the references between the inputs."""
    rulebook = workspace.rulebook
    digests = workspace.readings.input_digests
    # Imported only if something must run; its results kept by its name.
    core = RulesCore(lambda: workspace.ruleset, workspace.project.ruleset, store)
    runs = tuple(run_examples(core, ((rule.id, example) for rule in rulebook.rules for example in rule.examples),
                              parallel=True, digests=digests))
    runs += tuple(run_examples(core,  # official answers' examples, named faq/<id>
                               ((entry.subject, example) for entry in rulebook.faq.faq for example in entry.examples),
                               digests=digests))
    problems = [problem for run in runs for problem in run.problems]
    case_runs, case_problems = _run_case_files(workspace, core, case_files)
    runs += case_runs
    problems.extend(case_problems)
    problems.extend(reference_problems(rulebook, core))
    project = workspace.project
    problems.extend(handwritten_problems(workspace.root, project.content_dir, project.mkdocs_config))
    return runs, problems


def lint_findings(workspace: Workspace, parallel: bool = False,
                  store: Store | None = None) -> tuple[tuple[Problem, ...], tuple[Finding, ...]]:
    """The translation lint's errors, as problems, and its warnings (``parallel``: its
    parts on every core, see :func:`lint_workspace`)."""
    return by_severity(lint_workspace(workspace, parallel, store=store))


def by_severity(findings: Iterable[Finding]) -> tuple[tuple[Problem, ...], tuple[Finding, ...]]:
    """Lint findings as the errors (problems that stop a check) and the warnings, sorted."""
    ordered = sorted(findings)
    errors = tuple(finding.as_problem() for finding in ordered if finding.severity is Severity.ERROR)
    return errors, tuple(finding for finding in ordered if finding.severity is Severity.WARNING)


def _run_case_files(workspace: Workspace, core: RulesCore,
                    paths: Sequence[Path]) -> tuple[tuple[ExampleRun, ...], list[Problem]]:
    runs: list[ExampleRun] = []
    problems: list[Problem] = []
    known_rules = {name for rule in workspace.rulebook.rules for name in (rule.id, *rule.aliases)}
    for path in paths:
        shown = workspace.shown(path.resolve())
        try:
            cases = validate(CaseFile, read_yaml(path, shown), shown)
        except ProblemsFound as found:
            problems.extend(found.problems)
            continue
        seen: set[str] = set()
        pairs: list[tuple[str, CaseExample]] = []
        for case in cases.examples:
            subject = case.rule or ""
            if case.id in seen:
                problems.append(Problem(shown, case.position.line, subject, f"duplicate example id '{case.id}'",
                                        "give each example a distinct id"))
            seen.add(case.id)
            if case.rule is not None and case.rule not in known_rules:
                problems.append(Problem(shown, case.position.of("rule").line, case.rule,
                                        "names a rule the rulebook does not have", "use an existing rule id"))
            pairs.append((subject, case))
        runs.extend(run_examples(core, pairs))  # one file's: kept together
    problems.extend(problem for run in runs for problem in run.problems)
    return tuple(runs), problems
