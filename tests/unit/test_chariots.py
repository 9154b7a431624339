"""The rules core for characters riding chariots, checked against the seed's numbers
and against brute-force enumeration of dice (an independent way to the same answer)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import product
from math import comb
from pathlib import Path

import pytest
from conftest import ROOT
from whfb6 import chariots as ch
from whfb6.scenarios import RULESET
from whfb6.scenarios import chariots as chariot_scenarios

from validator.api.citations import rule_ids_of
from validator.api.ruleset import ScenarioError
from validator.checks.run import check_workspace
from validator.workspace import load_workspace

FACES = range(1, 7)
CHAPTER = "docs/rules/chariots.yml"


# --- shooting ------------------------------------------------------------------

@pytest.mark.parametrize(("die", "target"), [
    (1, ch.Target.CHARIOT), (2, ch.Target.CHARIOT), (3, ch.Target.CHARIOT),
    (4, ch.Target.CHARIOT), (5, ch.Target.CHARIOT), (6, ch.Target.CHARACTER),
])
def test_only_a_six_hits_the_character(die: int, target: ch.Target) -> None:
    assert ch.allocate_hit(die) is target


def test_allocate_hits_counts_both_parts() -> None:
    assert ch.allocate_hits((3, 6, 1, 5)) == ch.HitAllocation(chariot=3, character=1)
    assert ch.allocate_hits((6, 6)) == ch.HitAllocation(chariot=0, character=2)
    assert ch.allocate_hits(()) == ch.HitAllocation(chariot=0, character=0)


@pytest.mark.parametrize("hits", range(0, 6))
def test_character_hit_chance_matches_enumeration(hits: int) -> None:
    outcomes = list(product(FACES, repeat=hits))
    struck = sum(1 for dice in outcomes if 6 in dice)
    assert ch.character_hit_chance(hits) == Fraction(struck, len(outcomes))


@pytest.mark.parametrize(("hits", "chance"), [
    (0, Fraction(0)), (1, Fraction(1, 6)), (2, Fraction(11, 36)), (3, Fraction(91, 216)),
])
def test_character_hit_chance_by_hand(hits: int, chance: Fraction) -> None:
    result = ch.character_hit_chance(hits)
    assert isinstance(result, Fraction)
    assert result == chance


@pytest.mark.parametrize("hits", range(0, 6))
def test_character_hits_distribution_matches_enumeration(hits: int) -> None:
    outcomes = list(product(FACES, repeat=hits))
    distribution = ch.character_hits_distribution(hits)
    assert list(distribution) == list(range(hits + 1))
    for count in range(hits + 1):
        ways = sum(1 for dice in outcomes if dice.count(6) == count)
        assert distribution[count] == Fraction(ways, len(outcomes))
    assert sum(distribution.values()) == 1
    assert distribution.at_least(1) == ch.character_hit_chance(hits)


def test_three_hits_distribution_by_hand() -> None:
    # 5^3, 3 * 5^2, 3 * 5 and 1 ways out of 216.
    expected = {0: Fraction(125, 216), 1: Fraction(75, 216), 2: Fraction(15, 216), 3: Fraction(1, 216)}
    assert dict(ch.character_hits_distribution(3)) == expected
    assert all(ch.character_hits_distribution(3)[k] == comb(3, k) * Fraction(5) ** (3 - k) / 216 for k in range(4))


@pytest.mark.parametrize(("touches", "die", "hit"), [
    (True, 6, ch.Target.CHARACTER), (True, 5, ch.Target.CHARIOT), (True, 1, ch.Target.CHARIOT),
    (False, 6, None), (False, 2, None),
])
def test_template_or_cannon_makes_one_randomised_hit(touches: bool, die: int, hit: ch.Target | None) -> None:
    assert ch.template_or_cannon_hit(touches, die) is hit


# --- armour save ---------------------------------------------------------------

@pytest.mark.parametrize(("on_foot", "chariot", "save", "source"), [
    (5, 5, 3, ch.SaveSource.OWN_IMPROVED),   # heavy armour: 5+ becomes 3+ (the seed's example)
    (7, 3, 3, ch.SaveSource.CHARIOT),        # no armour on a 3+ chariot: 3+ (the seed's example)
    (7, 7, 5, ch.SaveSource.OWN_IMPROVED),   # no armour becomes 5+
    (7, 5, 5, ch.SaveSource.OWN_IMPROVED),   # a tie keeps his own improved save
    (6, 4, 4, ch.SaveSource.OWN_IMPROVED),   # light armour 6+ becomes 4+, tie with the chariot
    (6, 3, 3, ch.SaveSource.CHARIOT),
    (4, 5, 2, ch.SaveSource.OWN_IMPROVED),
    (2, 4, 1, ch.SaveSource.OWN_IMPROVED),   # 1+ is the best save written
])
def test_character_save_on_the_chariot(on_foot: int, chariot: int, save: int, source: ch.SaveSource) -> None:
    result = ch.character_armour_save(on_foot, chariot)
    assert (result.save, result.source) == (save, source)
    assert result.hinders_spellcasting is False


@pytest.mark.parametrize(("on_foot", "chariot"), [(5, 5), (7, 3), (4, 6)])
def test_challenge_loses_the_chariot_bonus(on_foot: int, chariot: int) -> None:
    result = ch.character_armour_save(on_foot, chariot, in_challenge=True)
    assert (result.save, result.source) == (on_foot, ch.SaveSource.ON_FOOT)


# --- close combat --------------------------------------------------------------

@pytest.mark.parametrize(("crew", "steeds", "skill"), [
    ((3, 4), 3, 4), ((5,), 3, 5), ((), 3, 3), ((2, 2, 2), 4, 2),
])
def test_chariot_weapon_skill(crew: tuple[int, ...], steeds: int, skill: int) -> None:
    assert ch.chariot_weapon_skill(crew, steeds) == skill


@pytest.mark.parametrize(("target", "attacker", "defender", "to_hit"), [
    (ch.Target.CHARIOT, 5, 4, 3),     # WS5 against the crew's best 4: 3+
    (ch.Target.CHARACTER, 5, 6, 4),   # WS5 against the hero's 6: 4+
    (ch.Target.CHARACTER, 2, 6, 5),   # 6 is more than double 2: 5+
    (ch.Target.CHARIOT, 4, 4, 4),     # equal: 4+
])
def test_close_combat_roll(target: ch.Target, attacker: int, defender: int, to_hit: int) -> None:
    roll = ch.close_combat_roll(target, attacker, character_weapon_skill=6, crew_weapon_skills=(3, 4),
                                steeds_weapon_skill=3)
    assert roll == ch.CloseCombatRoll(defender_weapon_skill=defender, to_hit=to_hit)


def test_steeds_attack_only_to_their_front() -> None:
    assert ch.steeds_may_attack(True) is True
    assert ch.steeds_may_attack(False) is False


# --- challenges ----------------------------------------------------------------

def test_challenge_against_a_lone_character() -> None:
    result = ch.challenge_from_chariot(enemy_in_unit=False)
    assert result.character_fights_on_foot and not result.keeps_chariot_save_bonus
    assert result.impact_hits_on is ch.Recipient.ENEMY_CHARACTER
    assert result.crew_and_steed_attacks_on is ch.Recipient.ENEMY_CHARACTER
    assert result.enemy_character_may_attack_character and result.enemy_character_may_attack_chariot
    assert result.unit_may_attack_chariot is None and result.unit_may_attack_character is None
    assert result.strength_5_hit_if_chariot_destroyed is False


@pytest.mark.parametrize(("wounds", "impact"), [
    (0, ch.Recipient.ENEMY_CHARACTER), (1, ch.Recipient.ENEMY_CHARACTER), (2, ch.Recipient.ENEMY_CHARACTER),
    (3, ch.Recipient.ENEMY_MOUNT), (6, ch.Recipient.ENEMY_MOUNT),
])
def test_impact_hits_on_a_mount_with_more_than_two_wounds(wounds: int, impact: ch.Recipient) -> None:
    result = ch.challenge_from_chariot(enemy_in_unit=False, enemy_mount_wounds=wounds)
    assert result.impact_hits_on is impact
    assert result.crew_and_steed_attacks_on is ch.Recipient.ENEMY_CHARACTER


@pytest.mark.parametrize("wounds", [0, 4])
def test_challenge_against_a_character_in_a_unit(wounds: int) -> None:
    result = ch.challenge_from_chariot(enemy_in_unit=True, enemy_mount_wounds=wounds)
    assert result.impact_hits_on is ch.Recipient.UNIT_TROOPS
    assert result.crew_and_steed_attacks_on is ch.Recipient.UNIT_TROOPS
    assert result.enemy_character_may_attack_character is True
    assert result.enemy_character_may_attack_chariot is False
    assert result.unit_may_attack_chariot is True
    assert result.unit_may_attack_character is False


# --- destruction ---------------------------------------------------------------

def test_destroyed_outside_combat() -> None:
    assert ch.chariot_destroyed(in_close_combat=False) == ch.ChariotDestroyed(
        takes_hit=True, hit_strength=5, fights_on_foot=True, placement=ch.Placement.NEAR_CHARIOT, placement_distance=2)


def test_destroyed_in_combat_and_in_challenge() -> None:
    in_combat = ch.chariot_destroyed(in_close_combat=True)
    assert (in_combat.takes_hit, in_combat.hit_strength, in_combat.placement) == (
        True, 5, ch.Placement.CHARIOTS_PLACE)
    in_challenge = ch.chariot_destroyed(in_close_combat=True, in_challenge=True)
    assert (in_challenge.takes_hit, in_challenge.hit_strength) == (False, None)


@pytest.mark.parametrize(("toughness", "wound"), [
    (3, Fraction(5, 6)), (4, Fraction(2, 3)), (5, Fraction(1, 2)), (6, Fraction(1, 3)), (7, Fraction(1, 6)),
])
def test_strength_5_hit_wound_chance_by_hand(toughness: int, wound: Fraction) -> None:
    assert ch.destruction_hit_chance(toughness, 7) == ch.DestructionHitChance(wound, wound)


@pytest.mark.parametrize(("toughness", "save"), [(t, s) for t in (3, 4, 5, 8) for s in range(1, 8)])
def test_strength_5_hit_matches_enumeration(toughness: int, save: int) -> None:
    # Strength 5: wounds on 4 - (5 - T) for T 3 to 7 (2+ at T3), 6+ at T8; the save worsens by 2.
    needed_to_wound = {3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 6}[toughness]
    needed_to_save = max(2, save + 2)
    pairs = list(product(FACES, repeat=2))
    unsaved = sum(1 for w, s in pairs if w >= needed_to_wound and s < needed_to_save)
    wounded = sum(1 for w, _ in pairs if w >= needed_to_wound)
    result = ch.destruction_hit_chance(toughness, save)
    assert result.wound_probability == Fraction(wounded, 36)
    assert result.probability == Fraction(unsaved, 36)


def test_stand_and_shoot_cases() -> None:
    within = ch.destroyed_by_stand_and_shoot(declared_within_range=True)
    assert (within.charge_move_begun, within.may_complete_charge_on_foot, within.charge_fails) == (False, True, False)
    beyond = ch.destroyed_by_stand_and_shoot(declared_within_range=False)
    assert (beyond.charge_move_begun, beyond.may_complete_charge_on_foot, beyond.charge_fails) == (True, False, True)
    assert within.placement_distance == beyond.placement_distance == 2


@pytest.mark.parametrize(("survives", "distance", "target", "placement", "completed"), [
    (True, 1.5, True, ch.Placement.BASE_CONTACT_WITH_TARGET, True),
    (True, 2, True, ch.Placement.BASE_CONTACT_WITH_TARGET, True),
    (True, 2.5, True, ch.Placement.NEAR_CHARIOT, False),
    (True, 1, False, ch.Placement.NEAR_CHARIOT, False),
    (False, 1, True, None, False),
])
def test_destroyed_in_terrain(survives: bool, distance: float, target: bool,
                              placement: ch.Placement | None, completed: bool) -> None:
    assert ch.destroyed_in_terrain(survives, distance, target) == ch.TerrainDestruction(placement, completed)


# --- death of the character and victory points ---------------------------------

@pytest.mark.parametrize("has_crew", [True, False])
def test_chariot_goes_on_alone(has_crew: bool) -> None:
    result = ch.chariot_after_character_death(has_crew)
    assert result.separate_unit and result.may_move and result.may_charge and result.may_attack
    assert result.controlled_by_player and result.separate_victory_points
    assert result.monster_reaction_roll is False


@pytest.mark.parametrize(("character_slain", "chariot_destroyed", "total"), [
    (True, False, 145), (False, True, 90), (True, True, 235), (False, False, 0),
])
def test_victory_points_count_separately(character_slain: bool, chariot_destroyed: bool, total: int) -> None:
    assert ch.victory_points(145, 90, character_slain, chariot_destroyed).total == total


# --- wrong input ---------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: ch.allocate_hit(0),
    lambda: ch.allocate_hits((6, 7)),
    lambda: ch.character_hit_chance(-1),
    lambda: ch.character_hits_distribution(-2),
    lambda: ch.template_or_cannon_hit(True, 7),
    lambda: ch.character_armour_save(8, 5),
    lambda: ch.character_armour_save(5, 0),
    lambda: ch.chariot_weapon_skill((3, 11), 3),
    lambda: ch.chariot_weapon_skill((), 0),
    lambda: ch.close_combat_roll(ch.Target.CHARACTER, 4, 0, (3,), 3),
    lambda: ch.challenge_from_chariot(False, -1),
    lambda: ch.chariot_destroyed(in_close_combat=False, in_challenge=True),
    lambda: ch.destruction_hit_chance(4, 0),
    lambda: ch.destruction_hit_chance(0, 5),
    lambda: ch.destroyed_in_terrain(True, -1, True),
    lambda: ch.victory_points(-1, 90, True, True),
])
def test_wrong_input_raises_value_error(call: Callable[[], object]) -> None:
    with pytest.raises(ValueError):
        call()


def test_scenario_rejects_bad_input_naming_the_field() -> None:
    with pytest.raises(ScenarioError, match="die"):
        RULESET.run("chariot-template-hit", {"touches_base": True, "die": 7})
    with pytest.raises(ScenarioError, match="rejected its input"):
        RULESET.run("chariot-destroyed", {"in_close_combat": False, "in_challenge": True})


# --- wiring --------------------------------------------------------------------

def test_every_core_function_names_its_rules() -> None:
    public = [getattr(ch, name) for name in dir(ch)
              if callable(getattr(ch, name)) and not name.startswith("_")
              and getattr(getattr(ch, name), "__module__", "") == ch.__name__
              and not isinstance(getattr(ch, name), type)]
    assert public
    for function in public:
        assert rule_ids_of(function), f"{function.__name__} does not name the rule it implements"
        assert all(rule_id.startswith("chariots/") for rule_id in rule_ids_of(function))


def _chariot_problems(root: Path) -> list[str]:
    report = check_workspace(load_workspace(root))
    return [str(problem) for problem in report.problems if "chariots/" in str(problem)]


@pytest.mark.integration  # checks the whole bundled book
def test_chapter_examples_pass_and_use_every_scenario() -> None:
    report = check_workspace(load_workspace(ROOT))
    runs = [run for run in report.runs if run.rule_id.startswith("chariots/")]
    assert runs
    assert [str(p) for run in runs for p in run.problems] == []
    used = {run.example.scenario for run in runs}
    assert {scenario.name for scenario in chariot_scenarios.SCENARIOS} <= used


@pytest.mark.parametrize(("constant", "broken", "example"), [
    ("CHARACTER_FACES", frozenset({5, 6}), "four-hits"),
    ("CHARACTER_FACES", frozenset({5, 6}), "three-hits-chance"),
    ("CHARIOT_ARMOUR_BONUS", 1, "heavy-armour"),
    ("DESTRUCTION_HIT_STRENGTH", 4, "hit-on-toughness-4"),
    ("PLACEMENT_DISTANCE", 1, "frenzied-through-woods"),
    ("IMPACT_HITS_ON_MOUNT_ABOVE_WOUNDS", 4, "lone-enemy-on-griffon"),
])
@pytest.mark.integration  # checks the whole bundled book
def test_changing_a_threshold_breaks_an_example(monkeypatch: pytest.MonkeyPatch, constant: str, broken: object,
                                                example: str) -> None:
    monkeypatch.setattr(ch, constant, broken)
    problems = _chariot_problems(ROOT)
    assert any(f"example '{example}'" in problem for problem in problems), problems
