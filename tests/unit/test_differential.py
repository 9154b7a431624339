"""Differential test: every probability the core computes is recomputed with icepool,
an independent exact dice library, for a spread of inputs, and compared exactly."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import product
from typing import Any

import icepool
import pytest
from icepool import d6
from whfb6.dice import Distribution
from whfb6.scenarios import RULESET

from validator.api.ruleset import ScenarioError

Oracle = Callable[[dict[str, Any], str | None], dict[str, Any]]
ORACLES: dict[str, tuple[Oracle, list[dict[str, Any]]]] = {}


def oracle(name: str, inputs: list[dict[str, Any]]) -> Callable[[Oracle], Oracle]:
    def register(function: Oracle) -> Oracle:
        ORACLES[name] = (function, inputs)
        return function
    return register


def at_least(die: icepool.Die, target: int) -> Fraction:
    return Fraction((die >= target).probability(True))


def counts(die: icepool.Die) -> dict[str, Fraction]:
    return {str(outcome): Fraction(die.probability(outcome)) for outcome in die.outcomes()}


# -- monstrous mounts --------------------------------------------------------------

@oracle("mount-rider-hit-chance", [{"hits": n} for n in range(0, 7)])
def _rider_hit(given: dict[str, Any], variant: str | None) -> dict[str, Any]:
    if given["hits"] == 0:
        return {"probability": Fraction(0)}
    if variant == "spanish-faq-hits-to-character":
        return {"probability": Fraction(1)}
    return {"probability": at_least(given["hits"] @ (d6 >= 5), 1)}


@oracle("rider-death-pass-chance", [{"monster_leadership": ld} for ld in range(2, 11)])
def _monster_pass(given: dict[str, Any], _variant: str | None) -> dict[str, Any]:
    return {"probability": Fraction((2 @ d6 <= given["monster_leadership"]).probability(True))}


# -- shared tables -----------------------------------------------------------------

@oracle("table-leadership-chance", [{"leadership": ld} for ld in range(2, 11)])
def _leadership(given: dict[str, Any], _variant: str | None) -> dict[str, Any]:
    return {"probability": Fraction((2 @ d6 <= given["leadership"]).probability(True))}


def _shot_die(ballistic_skill: int, modifier: int) -> icepool.Die:
    """A shot as icepool sees it: the modified roll, then a second die for 7+ to 9+."""
    needed = 7 - ballistic_skill - modifier

    def first(face: int) -> Any:
        if face == 1:
            return False  # a 1 always misses
        if needed <= 6:
            return face >= needed
        if needed <= 9 and face == 6:
            return d6 >= needed - 3
        return False
    return d6.map(first)


@oracle("table-shooting-to-hit", [
    {"ballistic_skill": bs, "long_range": long_range, "cover": cover, "large_target": large}
    for bs in (1, 3, 5, 7) for long_range in (False, True) for cover in ("none", "hard") for large in (False, True)])
def _shooting(given: dict[str, Any], _variant: str | None) -> dict[str, Any]:
    modifier = (int(given.get("large_target", False)) - int(given.get("long_range", False))
                - {"none": 0, "soft": 1, "hard": 2}[given.get("cover", "none")])
    return {"probability": Fraction(_shot_die(given["ballistic_skill"], modifier).probability(True))}


def _wound_die(strength: int, toughness: int) -> icepool.Die:
    chart_row = {2: 2, 1: 3, 0: 4, -1: 5, -2: 6, -3: 6}
    difference = max(-4, min(2, strength - toughness))
    needed = chart_row.get(difference)
    return d6.map(lambda face: needed is not None and face >= needed)


@oracle("table-to-wound", [{"strength": s, "toughness": t} for s, t in product(range(1, 11), repeat=2)])
def _wound(given: dict[str, Any], _variant: str | None) -> dict[str, Any]:
    return {"probability": Fraction(_wound_die(given["strength"], given["toughness"]).probability(True))}


def _save_die(save: int, strength: int) -> icepool.Die:
    needed = save + max(0, strength - 3)
    return d6.map(lambda face: face != 1 and face >= needed)


@oracle("table-armour-save", [{"save": sv, "strength": s} for sv in range(1, 8) for s in range(1, 11)])
def _save(given: dict[str, Any], _variant: str | None) -> dict[str, Any]:
    return {"probability": Fraction(_save_die(given["save"], given["strength"]).probability(True))}


@oracle("table-close-combat-wounds", [
    {"attacks": a, "attacker_weapon_skill": ws, "defender_weapon_skill": dws, "strength": s, "toughness": t,
     "save": sv}
    for a in (0, 1, 3) for ws, dws in ((4, 3), (3, 3), (2, 5)) for s, t in ((3, 4), (5, 3)) for sv in (4, 7)])
def _combat(given: dict[str, Any], _variant: str | None) -> dict[str, Any]:
    ws, dws = given["attacker_weapon_skill"], given["defender_weapon_skill"]
    to_hit = 3 if ws > dws else 5 if dws > 2 * ws else 4

    def attack(hit: int, wound: bool, saved: bool) -> int:
        return int(hit >= to_hit and wound and not saved)
    one = icepool.map(attack, d6, _wound_die(given["strength"], given["toughness"]),
                      _save_die(given["save"], given["strength"]))
    total = given["attacks"] @ one
    return {"chance_per_attack": Fraction(one.probability(1)), "distribution": counts(total),
            "at_least_one": at_least(total, 1) if given["attacks"] else Fraction(0)}


# -- chariots ----------------------------------------------------------------------

@oracle("chariot-character-hit-chance", [{"hits": n} for n in range(0, 7)])
def _chariot_character_hit(given: dict[str, Any], _variant: str | None) -> dict[str, Any]:
    if given["hits"] == 0:
        return {"probability": Fraction(0)}
    return {"probability": at_least(given["hits"] @ (d6 == 6), 1)}


@oracle("chariot-character-hits-distribution", [{"hits": n} for n in range(0, 7)])
def _chariot_hits_distribution(given: dict[str, Any], _variant: str | None) -> dict[str, Any]:
    if given["hits"] == 0:
        return {"distribution": {"0": Fraction(1)}}
    return {"distribution": counts(given["hits"] @ d6.map(lambda face: int(face == 6)))}


@oracle("chariot-destruction-hit-chance",
        [{"toughness": t, "armour_save": s} for t in range(1, 11) for s in range(1, 8)])
def _chariot_destruction_hit(given: dict[str, Any], _variant: str | None) -> dict[str, Any]:
    """The Strength 5 hit: wound on the chart, then an armour save worsened by 2."""
    wound = _wound_die(5, given["toughness"])
    saved = _save_die(given["armour_save"], 5)
    unsaved = icepool.map(lambda wounded, save: wounded and not save, wound, saved)
    return {"wound_probability": Fraction(wound.probability(True)),
            "probability": Fraction(unsaved.probability(True))}


# -- shooting at characters -------------------------------------------------------

def _unit_shields_character(models: int, variant: str | None) -> bool:
    """Five models shield him: all of them with him (adopted), or five besides him."""
    counted = models - 1 if variant == "english-rulebook-rank-and-file" else models
    return counted >= 5


def _hits_on_character(hits: int, models: int, variant: str | None) -> icepool.Die:
    """How many of the hits on his unit strike the character (model 0)."""
    if _unit_shields_character(models, variant):
        return icepool.Die([0])
    if variant == "english-rulebook-even-split":
        # one hit to every model while there are enough, then the rest dealt to distinct models
        each, left_over = divmod(hits, models)
        dealt = icepool.Deck(range(models)).deal(left_over).expand()
        return dealt.map(lambda picked: each + picked.count(0))
    return hits @ icepool.d(models).map(lambda face: int(face == 1))


@oracle("shooting-character-in-unit", [
    {"models_in_unit": m, "clearly_larger": larger, "rides_monster": monster}
    for m in range(2, 9) for larger in (False, True) for monster in (False, True)])
def _character_in_unit(given: dict[str, Any], variant: str | None) -> dict[str, Any]:
    models = given["models_in_unit"]
    if _unit_shields_character(models, variant):
        sharing = "unit-takes-all"
    else:
        sharing = "even-split" if variant == "english-rulebook-even-split" else "randomised"
    larger = given["clearly_larger"]
    return {"chance_per_hit": at_least(_hits_on_character(1, models, variant), 1), "hits_on_unit": sharing,
            "may_be_picked_out": larger,
            "picked_out_modifier": (0 if given["rides_monster"] else -1) if larger else None}


@oracle("shooting-character-in-unit-hits", [{"hits": n, "models_in_unit": m} for n in range(0, 9) for m in range(2, 7)])
def _character_in_unit_hits(given: dict[str, Any], variant: str | None) -> dict[str, Any]:
    on_character = _hits_on_character(given["hits"], given["models_in_unit"], variant)
    return {"probability": at_least(on_character, 1), "distribution": counts(on_character)}


@oracle("shooting-lone-character-to-hit", [
    {"ballistic_skill": bs, "friendly_units": units, "closest_possible_target": closest,
     "clearly_larger": larger, "rides_monster": monster, "large_target": large,
     "moved": moved, "long_range": long_range, "cover": cover}
    for bs in (1, 3, 5, 7)
    for units in ([], [{"distance": 8, "models": 20}], [{"distance": 5, "models": 10}],
                  [{"distance": 2, "models": 4}, {"distance": 4.5, "models": 5}])
    for closest in (False, True) for larger in (False, True)
    for monster, large in ((False, False), (True, False), (True, True))
    for moved, long_range, cover in ((False, False, "none"), (True, True, "soft"), (False, True, "hard"))])
def _lone_character_shot(given: dict[str, Any], _variant: str | None) -> dict[str, Any]:
    protected = any(unit["models"] >= 5 and unit["distance"] <= 5 for unit in given["friendly_units"])
    if protected and not given["closest_possible_target"] and not given["clearly_larger"]:
        return {"may_be_targeted": False, "modifier": None, "probability": Fraction(0)}
    modifier = (int(given["large_target"]) - int(given["moved"]) - int(given["long_range"])
                - int(not given["rides_monster"]) - {"none": 0, "soft": 1, "hard": 2}[given["cover"]])
    return {"may_be_targeted": True, "modifier": modifier,
            "probability": Fraction(_shot_die(given["ballistic_skill"], modifier).probability(True))}


@oracle("shooting-look-out-sir-chance", [{"hits": n} for n in range(0, 7)])
def _look_out_sir_chance(given: dict[str, Any], variant: str | None) -> dict[str, Any]:
    face = 1 if variant == "english-rulebook-look-out-sir-on-one" else 6
    return {"probability": at_least(given["hits"] @ (d6 == face), 1)}


# -- the test ----------------------------------------------------------------------

def _has_probabilities(annotation: object) -> bool:
    hints = typing.get_type_hints(annotation) if dataclasses.is_dataclass(annotation) else {}
    return any(hint in (Fraction, Distribution) for hint in hints.values())


def test_every_probability_scenario_has_an_oracle() -> None:
    with_probabilities = {scenario.name for scenario in RULESET.scenarios
                          if _has_probabilities(typing.get_type_hints(scenario.compute)["return"])}
    assert with_probabilities <= ORACLES.keys(), sorted(with_probabilities - ORACLES.keys())


def _cases() -> Iterator[tuple[str, dict[str, Any]]]:
    for name, (_function, inputs) in sorted(ORACLES.items()):
        for given in inputs:
            yield name, given


def _ignores_variants(function: Oracle) -> bool:
    """An oracle whose second parameter is ``_variant`` gives one answer for every reading."""
    return next(iter(list(inspect.signature(function).parameters)[1:]), "").startswith("_")


def _agrees(name: str, given: dict[str, Any], variant: str | None, computed: dict[str, Any],
            expected: dict[str, Any]) -> None:
    for field, value in expected.items():
        assert computed[field] == value, f"{name} {given} {variant}: {field}"


@pytest.mark.parametrize(("name", "given"), list(_cases()))
def test_core_agrees_with_icepool(name: str, given: dict[str, Any]) -> None:
    """The adopted reading and every ruling variant, for one input.

    A variant the core refuses for this input (it consults none of the rulings the
    variant changes) must change nothing in the oracle's answer either; an oracle that
    takes no variant at all says so by its signature, and is not asked again."""
    function, _inputs = ORACLES[name]
    adopted = function(given, None)
    _agrees(name, given, None, RULESET.run(name, given, None), adopted)
    for variant in sorted(RULESET.variants):
        try:
            computed = RULESET.run(name, given, variant)
        except ScenarioError as error:
            assert "does not use ruling variant" in str(error)
            if not _ignores_variants(function):
                assert function(given, variant) == adopted, f"{name} {given}: {variant} changes the oracle only"
            continue
        _agrees(name, given, variant, computed, function(given, variant))


def test_an_oracle_that_ignores_variants_is_told_apart() -> None:
    assert _ignores_variants(_leadership) and not _ignores_variants(_rider_hit)
