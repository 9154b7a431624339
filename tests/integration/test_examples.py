"""The example runner: every embedded example passes, and a wrong stated outcome
makes `validator check` fail naming the file, line and rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, ProjectCopy
from whfb6.scenarios import RULESET

from validator.checks import examples as examples_module
from validator.checks.examples import run_examples, same_value
from validator.checks.rulescore import RulesCore
from validator.checks.run import check_workspace
from validator.store import Store
from validator.workspace import load_workspace

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book


CHAPTER = "docs/rules/monstrous-mounts.yml"


def test_bundled_examples_all_pass() -> None:
    report = check_workspace(load_workspace(ROOT))
    assert report.ok, [str(problem) for problem in report.problems]
    assert len(report.runs) >= 6
    scenarios = {run.example.scenario for run in report.runs}
    for required in ("mount-allocate-hits", "mount-rider-hit-chance", "mount-apply-wounds",
                     "rider-death-leadership-test", "monster-reaction"):
        assert required in scenarios
    assert any(run.example.variant for run in report.runs), "an example must show a ruling variant"


def test_check_command_succeeds_on_the_bundled_rulebook(project: ProjectCopy) -> None:
    run = project.command("check")
    assert run.code == 0, run.err
    assert "worked examples verified" in run.out


def test_changed_outcome_fails_with_file_line_rule(project: ProjectCopy) -> None:
    line = project.replace(CHAPTER, "expect: {monster: 2, rider: 2}", "expect: {monster: 3, rider: 1}")
    run = project.command("check")
    assert run.code == 1
    assert (f"{CHAPTER}:{line}: [monstrous-mounts/shooting-hit-allocation] example 'four-hits' "
            "(mount-allocate-hits): expected monster = 3, computed 2") in run.err
    assert "expected rider = 1, computed 2" in run.err


def test_changed_probability_fails(project: ProjectCopy) -> None:
    line = project.replace(CHAPTER, "expect: {probability: 19/27}", "expect: {probability: 2/3}")
    run = project.command("check")
    assert run.code == 1
    assert f"{CHAPTER}:{line}: [monstrous-mounts/shooting-hit-allocation]" in run.err
    assert "expected probability = 2/3, computed 19/27" in run.err


def test_block_style_expect_points_at_the_key(project: ProjectCopy) -> None:
    line = project.replace(CHAPTER, "          may_move: false", "          may_move: true")
    run = project.command("check")
    assert run.code == 1
    assert f"{CHAPTER}:{line}: [monstrous-mounts/monster-reaction] example 'reaction-guard'" in run.err


def test_unknown_scenario_and_bad_input_are_reported(project: ProjectCopy) -> None:
    project.replace(CHAPTER, "scenario: mount-classify", "scenario: mount-clasify")
    line = project.replace(CHAPTER, "given: {dice: [2, 5, 4, 6]}", "given: {dice: [2, 5, 4, 9]}")
    run = project.command("check")
    assert run.code == 1
    assert "unknown scenario 'mount-clasify'" in run.err
    assert f"{CHAPTER}:{line}: [monstrous-mounts/shooting-hit-allocation]" in run.err
    assert "dice[3]: Input should be less than or equal to 6" in run.err


def test_unknown_outcome_field_is_reported(project: ProjectCopy) -> None:
    project.replace(CHAPTER, "expect: {modifier: 1}", "expect: {modifer: 1}")
    run = project.command("check")
    assert run.code == 1
    assert "the outcome has no field 'modifer' (it has: modifier, may_target_rider_alone, may_target_mount_alone)" \
        in run.err


def test_a_changed_threshold_in_the_core_is_caught(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """If the core sent 4s to the rider, the bundled examples would notice."""
    from whfb6 import monstrous_mounts

    monkeypatch.setattr(monstrous_mounts, "RIDER_FACES", frozenset({4, 5, 6}))
    report = check_workspace(load_workspace(ROOT))
    assert not report.ok
    assert any("four-hits" in str(problem) for problem in report.problems)


def test_same_value_is_exact_and_typed() -> None:
    from fractions import Fraction

    assert same_value("19/27", Fraction(19, 27))
    assert same_value(1, Fraction(1))
    assert not same_value(True, Fraction(1))
    assert not same_value(1, True)
    assert not same_value("0.7037", Fraction(19, 27))
    assert same_value([1, 2], [1, 2]) and not same_value([1, 2], [2, 1])


def test_scenarios_report_the_rules_they_implement() -> None:
    rulebook_ids = {rule.id for rule in load_workspace(ROOT).rulebook.rules}
    for scenario in RULESET.scenarios:
        assert scenario.rule_ids, scenario.name
        assert set(scenario.rule_ids) <= rulebook_ids, scenario.name


def test_given_fields_are_named_in_errors() -> None:
    import pytest

    from validator.api.ruleset import ScenarioError

    with pytest.raises(ScenarioError, match="monster_leadership"):
        RULESET.run("rider-death-pass-chance", {"monster_leadership": "8"})
    with pytest.raises(ScenarioError, match="unknown ruling variant"):
        RULESET.run("mount-allocate-hits", {"dice": [1]}, "nope")


def test_paths_in_messages_are_relative(project: ProjectCopy) -> None:
    project.replace(CHAPTER, "expect: {modifier: 1}", "expect: {modifier: 0}")
    run = project.command("check")
    assert str(Path(project.root)) not in run.err


def _runs_seen(runs: list) -> list[tuple]:  # type: ignore[type-arg]
    return [(run.rule_id, run.example.id, run.computed, run.problems, run.trace) for run in runs]


def _pairs_with_one_wrong() -> list:  # type: ignore[type-arg]
    """Every example of the bundled rulebook, one of them stating a wrong outcome."""
    workspace = load_workspace(ROOT)
    pairs = [(rule.id, example) for rule in workspace.rulebook.rules for example in rule.examples]
    index, key = next((index, key) for index, (_rule, example) in enumerate(pairs) if index > 2
                      for key, value in example.expect.items() if type(value) is int)
    rule_id, example = pairs[index]
    pairs[index] = (rule_id, example.model_copy(update={"expect": {**example.expect, key: example.expect[key] + 1}}))
    return pairs


def test_examples_on_every_core_run_as_on_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shared out to two processes, the runs (outcomes, problems, steps) come back whole
    and in order, a wrong stated outcome among them reported as on one core."""
    pairs = _pairs_with_one_wrong()
    monkeypatch.setattr(examples_module, "PARALLEL_FROM", 1)
    ran_here = _count_runs(monkeypatch)
    shared = run_examples(RulesCore(lambda: RULESET, store=Store(workers=2)), pairs, parallel=True)
    assert ran_here == []  # every example was run in the other processes
    alone = run_examples(RULESET, pairs)
    assert _runs_seen(shared) == _runs_seen(alone)
    assert [run.problems for run in shared if run.problems] and len(ran_here) == len(pairs)


def _count_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The examples this process runs from now on (a forked process's are not seen)."""
    ran: list[str] = []
    original = examples_module.run_example

    def counting(ruleset: object, rule_id: str, example: object) -> object:
        ran.append(rule_id)
        return original(ruleset, rule_id, example)  # type: ignore[arg-type]

    monkeypatch.setattr(examples_module, "run_example", counting)
    return ran


def test_a_share_whose_process_dies_is_run_here(monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal

    pairs = _pairs_with_one_wrong()
    monkeypatch.setattr(examples_module, "PARALLEL_FROM", 1)
    parent = os.getpid()
    original = examples_module.run_example

    def dying(ruleset: object, rule_id: str, example: object) -> object:
        if os.getpid() != parent and rule_id == pairs[1][0]:
            os.kill(os.getpid(), signal.SIGKILL)
        return original(ruleset, rule_id, example)  # type: ignore[arg-type]

    monkeypatch.setattr(examples_module, "run_example", dying)
    shared = run_examples(RulesCore(lambda: RULESET, store=Store(workers=2)), pairs, parallel=True)
    assert _runs_seen(shared) == _runs_seen(run_examples(RULESET, pairs))
