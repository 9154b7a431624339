"""The scenario registry as a whole: every scenario is typed, exampled, and its
probabilities are exact and well-formed for any valid input (property-based)."""

from __future__ import annotations

import dataclasses
import typing
from fractions import Fraction

import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from whfb6.dice import Distribution
from whfb6.scenarios import RULESET

from validator.api.ruleset import Scenario, ScenarioError
from validator.checks.run import check_workspace
from validator.workspace import load_workspace

SCENARIOS = RULESET.scenarios
NAMES = [scenario.name for scenario in SCENARIOS]


@pytest.mark.integration  # checks the whole bundled book
def test_every_scenario_has_an_embedded_example() -> None:
    used = {run.example.scenario for run in check_workspace(load_workspace(ROOT)).runs}
    assert set(NAMES) <= used, f"scenarios without a worked example: {sorted(set(NAMES) - used)}"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=NAMES)
def test_scenario_is_typed_and_cited(scenario: Scenario) -> None:
    assert dataclasses.is_dataclass(scenario.given)
    returned = typing.get_type_hints(scenario.compute)["return"]
    assert dataclasses.is_dataclass(returned), f"{scenario.name} must return a dataclass, not {returned}"
    assert scenario.rule_ids


def _probabilities(value: object) -> list[Fraction]:
    if isinstance(value, Fraction):
        return [value]
    if isinstance(value, Distribution):
        return list(value.values())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [p for field in dataclasses.fields(value) for p in _probabilities(getattr(value, field.name))]
    return []


def _distributions(value: object) -> list[Distribution]:
    if isinstance(value, Distribution):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [d for field in dataclasses.fields(value) for d in _distributions(getattr(value, field.name))]
    return []


@pytest.mark.parametrize("scenario", SCENARIOS, ids=NAMES)
def test_probabilities_are_exact_and_bounded_for_any_input(scenario: Scenario) -> None:
    variants = [None, *sorted(RULESET.variants)]

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.from_type(scenario.given), st.sampled_from(variants))
    def check(typed: object, variant: str | None) -> None:
        try:
            outcome = scenario.compute(typed, RULESET.rulings(variant))
        except ValueError:
            return  # an input the rule itself rejects (e.g. more attacks on the rider than in total)
        for probability in _probabilities(outcome):
            assert isinstance(probability, Fraction)
            assert 0 <= probability <= 1
        for distribution in _distributions(outcome):
            assert sum(distribution.values()) == 1
            assert len(distribution) >= 1

    check()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=NAMES)
def test_unknown_input_field_is_named(scenario: Scenario) -> None:
    with pytest.raises(ScenarioError, match="no_such_field"):
        scenario.validate({"no_such_field": 1})


@pytest.mark.integration  # checks the whole bundled book
def test_variants_of_the_core_are_all_recorded_as_readings() -> None:
    readings = {reading.variant for entry in load_workspace(ROOT).rulebook.discrepancies.discrepancies
                for reading in entry.readings if reading.variant}
    assert set(RULESET.variants) == readings
