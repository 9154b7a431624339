"""The trace of a worked example: the steps the rules core took, each citing rules
that exist, for every example on the site and every scenario of the core."""

from __future__ import annotations

import json
import re
from typing import Any

from conftest import ProjectCopy
from whfb6.scenarios import RULESET

from validator.api.ruleset import Ruleset, Scenario
from validator.api.trace import Step, step_text, tracing
from validator.checks.run import CheckReport
from validator.workspace import Workspace


def trace_problems(steps: tuple[Step, ...], known_rules: set[str]) -> list[str]:
    """Why a trace cannot be shown as the steps of an outcome: no step at all (the
    scenario computes without any function that names its rules), or a step citing a
    rule the rulebook lacks (its link would lead nowhere)."""
    if not steps:
        return ["no step: the outcome is computed without any function marked with @implements"]
    return [f"step {step.key} cites rule '{rule}', which the rulebook lacks"
            for step in steps for rule in step.rules if rule not in known_rules]


def _known_rules(workspace: Workspace) -> set[str]:
    return {rule.id for rule in workspace.rulebook.rules}


def test_every_example_on_the_site_has_steps_citing_existing_rules(workspace: Workspace,
                                                                    report: CheckReport) -> None:
    known = _known_rules(workspace)
    examples = [(rule.id, example.id) for rule in workspace.rulebook.rules for example in rule.examples]
    assert len(examples) > 100
    for rule_id, example_id in examples:
        steps = report.trace(rule_id, example_id)
        assert trace_problems(steps, known) == [], f"{rule_id}#{example_id}"
        # The example's own rule is among the steps' rules, or a rule those steps link to.
        assert all(step.text and step.key for step in steps)


def _sample(spec: dict[str, Any]) -> Any:
    """The smallest value a JSON schema fragment allows (enough to run a scenario)."""
    if "default" in spec:
        return spec["default"]
    if "enum" in spec:
        return spec["enum"][0]
    if "anyOf" in spec:
        return _sample(next(part for part in spec["anyOf"] if part.get("type") != "null"))
    kind = spec.get("type")
    if kind == "boolean":
        return False
    if kind in ("integer", "number"):
        return max(spec.get("minimum", 1), 1) if spec.get("maximum", 2) >= 1 else spec.get("minimum", 0)
    if kind == "array":
        items = spec.get("prefixItems") or [spec.get("items", {})] * max(spec.get("minItems", 1), 1)
        return [_sample(item) for item in items]
    if kind == "object":
        return {name: _sample(part) for name, part in spec.get("properties", {}).items()
                if name in spec.get("required", ())}
    raise AssertionError(f"no sample for {spec}")


def _given(scenario: Scenario, workspace: Workspace) -> dict[str, Any]:
    for rule in workspace.rulebook.rules:
        for example in rule.examples:
            if example.scenario == scenario.name and example.variant is None:
                return dict(example.given)
    return {name: _sample(spec) for name, spec in scenario.describe()["inputs"].items()}


def test_every_scenario_of_the_core_takes_steps(workspace: Workspace) -> None:
    known = _known_rules(workspace)
    for scenario in RULESET.scenarios:
        _outcome, steps = RULESET.run_traced(scenario.name, _given(scenario, workspace))
        assert trace_problems(steps, known) == [], scenario.name
        assert set(steps[0].rules) <= set(scenario.rule_ids) | known


def _undecorated(die: int) -> int:
    """A core function that forgot to name its rules."""
    return die


def test_a_scenario_without_a_marked_function_has_no_steps_and_is_reported() -> None:
    from whfb6.scenarios.types import HitDiceGiven

    bare = Scenario("bare", "computes without @implements", HitDiceGiven,
                    lambda given, _rulings: {"first": _undecorated(given.dice[0])}, _undecorated)
    ruleset = Ruleset(scenarios=(bare,), variants={}, adopted=object())
    outcome, steps = ruleset.run_traced("bare", {"dice": [3]})
    assert outcome == {"first": 3}
    assert trace_problems(steps, {"x/y"}) == [
        "no step: the outcome is computed without any function marked with @implements"]


def test_a_step_citing_a_missing_rule_is_reported() -> None:
    step = Step("m.f", "Text.", ("gone/rule",), {}, None)
    assert trace_problems((step,), {"x/y"}) == ["step m.f cites rule 'gone/rule', which the rulebook lacks"]


def test_a_volley_lists_each_die_as_a_step_under_it() -> None:
    outcome, steps = RULESET.run_traced("mount-allocate-hits", {"dice": [2, 5]})
    assert outcome == {"monster": 1, "rider": 1}
    assert [(step.key, step.depth, step.result) for step in steps] == [
        ("monstrous_mounts.allocate_hits", 1, {"monster": 1, "rider": 1}),
        ("monstrous_mounts.allocate_hit", 2, "monster"),
        ("monstrous_mounts.allocate_hit", 2, "rider")]
    assert steps[1].params == {"die": 2}  # the rulings in force are not a parameter to show


def test_calc_gives_the_trace_in_json_and_on_request_in_text(project: ProjectCopy) -> None:
    run = project.command("calc", "mount-classify", "--given", '{"mount_wounds": 3, "rider_save_on_foot": 4}',
                            "--format", "json")
    trace = json.loads(run.out)["trace"]
    keys = [step["key"] for step in trace]
    assert keys[:2] == ["monstrous_mounts.mount_kind", "monstrous_mounts.rider_armour_save"]
    assert trace[0]["rules"][0] == "monstrous-mounts/mount-kinds" and trace[0]["result"] == "monstrous"
    text = project.command("calc", "mount-classify", "--given", '{"mount_wounds": 1}', "--trace").out
    assert "steps:\n  - Classify a mount by its Wounds" in text and "[monstrous-mounts/mount-kinds" in text
    plain = project.command("calc", "mount-classify", "--given", '{"mount_wounds": 1}').out
    assert "steps:" not in plain


def test_step_text_is_the_first_sentence_of_the_docstring() -> None:
    def core(x: int) -> int:
        """Roll a ``D6`` (1-4 miss. 5-6 hit). Then more for programmers.

        Detail."""
        return x

    assert step_text(core) == "Roll a D6 (1-4 miss. 5-6 hit)."


def test_a_function_without_docstring_is_named_by_its_name() -> None:
    def save_chance(x: int) -> int:
        return x

    assert step_text(save_chance) == "Save chance."


CODE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\bNone\b|\*\*|[A-Z]{2,}_[A-Z_]+")
"""What a step text must not show players: a Python name, None, an operator, a constant."""


def test_no_step_text_on_the_site_names_code(workspace: Workspace, report: CheckReport) -> None:
    texts = {step.text for rule in workspace.rulebook.rules for example in rule.examples
             for step in report.trace(rule.id, example.id)}
    assert len(texts) > 40
    assert [text for text in texts if CODE.search(text)] == []


def test_code_in_a_step_text_would_be_found() -> None:
    for text in ("against the chariot's Weapon Skill (see chariot_weapon_skill)", "or None when too tough",
                 "1 - ((m - 1) / m) ** n", "a 6 (CHARACTER_FACES)"):
        assert CODE.search(text), text


def test_says_gives_players_a_step_text_of_its_own() -> None:
    from validator.api.citations import implements

    @implements("x/y", says="The chance that the shot hits.")
    def shot_chance(ballistic_skill: int) -> int:
        """Programmers' words with ballistic_skill in them."""
        return ballistic_skill

    with tracing() as trace:
        assert shot_chance(3) == 3
    assert [(step.text, step.params) for step in trace.steps] == [("The chance that the shot hits.",
                                                                   {"ballistic_skill": 3})]


def test_every_computed_example_has_steps_official_answers_included(workspace: Workspace,
                                                                     report: CheckReport) -> None:
    known = _known_rules(workspace)
    computed = [run for run in report.runs if run.computed is not None]
    assert len(computed) > len([e for rule in workspace.rulebook.rules for e in rule.examples])
    for run in computed:
        assert trace_problems(run.trace, known) == [], f"{run.rule_id}#{run.example.id}"


def test_a_step_names_the_function_that_made_it_so_its_declared_kinds_can_be_read() -> None:
    """A page shows a step's arguments by the kinds its function declares: each step of
    a run finds its function where it is defined; one made inside another finds none."""
    import importlib
    import inspect

    from validator.api.citations import implements
    from validator.api.trace import step_function

    _outcome, steps = RULESET.run_traced("mount-allocate-hits", {"dice": [2, 5]})
    assert steps
    for step in steps:
        module, _, name = step.function.partition(":")
        assert step_function(step) is inspect.unwrap(getattr(importlib.import_module(module), name)), step.key

    @implements("volley/inner")
    def inner() -> int:
        return 1

    with tracing() as trace:
        inner()
    assert [step_function(step) for step in trace.steps] == [None]
