"""The rules core for monstrous mounts, checked against the seed's numbers and
against brute-force enumeration of dice (an independent way to the same answer)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from whfb6 import monstrous_mounts as mm
from whfb6.characters import TroopType
from whfb6.dice import two_d6_at_most
from whfb6.rulings import ADOPTED, VARIANTS
from whfb6.scenarios import RULESET

from validator.api.citations import rule_ids_of
from validator.api.ruleset import ScenarioError

SPANISH_FAQ = VARIANTS["spanish-faq-hits-to-character"]


def test_mount_kind_threshold_is_two_wounds() -> None:
    assert mm.mount_kind(1) is mm.MountKind.CAVALRY
    assert mm.mount_kind(2) is mm.MountKind.MONSTROUS
    assert mm.mount_kind(6) is mm.MountKind.MONSTROUS
    with pytest.raises(ValueError):
        mm.mount_kind(0)


@pytest.mark.parametrize(("kind", "on_foot", "mounted"), [
    (mm.MountKind.CAVALRY, 4, 3), (mm.MountKind.CAVALRY, 7, 6), (mm.MountKind.CAVALRY, 1, 1),
    (mm.MountKind.MONSTROUS, 4, 4), (mm.MountKind.MONSTROUS, 7, 7),
])
def test_cavalry_adds_one_to_the_save_monsters_do_not(kind: mm.MountKind, on_foot: int, mounted: int) -> None:
    assert mm.rider_armour_save(kind, on_foot) == mounted


def test_large_target_bonus_only_for_ballistic_skill() -> None:
    assert mm.shooting_to_hit_modifier(large_target=True, uses_ballistic_skill=True) == 1
    assert mm.shooting_to_hit_modifier(large_target=True, uses_ballistic_skill=False) == 0
    assert mm.shooting_to_hit_modifier(large_target=False, uses_ballistic_skill=True) == 0


@pytest.mark.parametrize(("die", "part"), [
    (1, mm.Part.MONSTER), (2, mm.Part.MONSTER), (3, mm.Part.MONSTER), (4, mm.Part.MONSTER),
    (5, mm.Part.RIDER), (6, mm.Part.RIDER),
])
def test_each_die_face_sends_the_hit_where_the_seed_says(die: int, part: mm.Part) -> None:
    assert mm.allocate_hit(die) is part
    assert mm.allocate_hit(die, SPANISH_FAQ) is mm.Part.RIDER


def test_allocate_hits_counts_both_parts() -> None:
    assert mm.allocate_hits((1, 5, 6, 4, 3)) == mm.HitAllocation(monster=3, rider=2)
    assert mm.allocate_hits((1, 5, 6, 4, 3), SPANISH_FAQ) == mm.HitAllocation(monster=0, rider=5)
    with pytest.raises(ValueError):
        mm.allocate_hits((0,))


@pytest.mark.parametrize("hits", range(0, 6))
def test_rider_hit_chance_matches_enumeration(hits: int) -> None:
    outcomes = list(product(range(1, 7), repeat=hits))
    rider_hit = sum(1 for dice in outcomes if any(die >= 5 for die in dice))
    assert mm.rider_hit_chance(hits) == Fraction(rider_hit, len(outcomes))
    assert mm.rider_hit_chance(hits, SPANISH_FAQ) == (1 if hits else 0)


def test_rider_hit_chance_is_exact() -> None:
    assert mm.rider_hit_chance(3) == Fraction(19, 27)
    assert isinstance(mm.rider_hit_chance(3), Fraction)


def test_template_touching_base_makes_one_randomised_hit() -> None:
    assert mm.template_or_cannon_hit(True, 4) is mm.Part.MONSTER
    assert mm.template_or_cannon_hit(True, 5) is mm.Part.RIDER
    assert mm.template_or_cannon_hit(False, 6) is None


@pytest.mark.parametrize(("left", "inflicted", "suffered", "ignored", "slain"), [
    (3, 1, 1, 0, False), (3, 3, 3, 0, True), (2, 5, 2, 3, True), (1, 0, 0, 0, False),
])
def test_extra_wounds_are_lost(left: int, inflicted: int, suffered: int, ignored: int, slain: bool) -> None:
    result = mm.apply_wounds(left, inflicted)
    assert (result.suffered, result.ignored, result.slain) == (suffered, ignored, slain)
    assert result.wounds_left == left - suffered


def test_attacks_are_declared_within_the_total() -> None:
    assert mm.declare_attacks(3, 2) == mm.AttackSplit(on_rider=2, on_monster=1)
    with pytest.raises(ValueError):
        mm.declare_attacks(3, 4)


def test_stand_and_shoot_cases() -> None:
    within = mm.charge_after_mount_slain_by_stand_and_shoot(declared_within_range=True)
    beyond = mm.charge_after_mount_slain_by_stand_and_shoot(declared_within_range=False)
    assert within.rider_may_complete_charge and not within.charge_fails_where_mount_fell
    assert beyond.charge_fails_where_mount_fell and not beyond.rider_may_complete_charge


def test_leadership_test_uses_the_monsters_own_value() -> None:
    assert mm.rider_death_leadership_test((4, 4), 8).passed
    assert not mm.rider_death_leadership_test((4, 5), 8).passed
    assert mm.rider_death_leadership_test((6, 6), 8).leadership_used == 8


@pytest.mark.parametrize("leadership", range(2, 11))
def test_pass_chance_counts_the_36_pairs(leadership: int) -> None:
    passing = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= leadership)
    assert mm.rider_death_pass_chance(leadership) == Fraction(passing, 36)


def test_two_d6_known_values() -> None:
    assert two_d6_at_most(2) == Fraction(1, 36)
    assert two_d6_at_most(7) == Fraction(21, 36)
    assert two_d6_at_most(12) == 1


def test_test_timing() -> None:
    for phase in (mm.Phase.MOVEMENT, mm.Phase.MAGIC, mm.Phase.SHOOTING):
        assert mm.rider_death_test_timing(phase) is mm.TestTiming.END_OF_PHASE
    close = mm.Phase.CLOSE_COMBAT
    assert mm.rider_death_test_timing(close, mm.CombatAftermath.MONSTER_WON) is mm.TestTiming.START_OF_FIRST_NORMAL_TURN
    assert mm.rider_death_test_timing(close, mm.CombatAftermath.MONSTER_FLED) is mm.TestTiming.START_OF_TURN_AFTER_RALLY
    with pytest.raises(ValueError):
        mm.rider_death_test_timing(close)
    with pytest.raises(ValueError):
        mm.rider_death_test_timing(mm.Phase.SHOOTING, mm.CombatAftermath.MONSTER_WON)


@pytest.mark.parametrize(("die", "reaction"), [
    (1, mm.MonsterReaction.LEAVE_THE_BATTLEFIELD), (2, mm.MonsterReaction.LEAVE_THE_BATTLEFIELD),
    (3, mm.MonsterReaction.ATTACK_NEAREST), (4, mm.MonsterReaction.ATTACK_NEAREST),
    (5, mm.MonsterReaction.GUARD_THE_BODY), (6, mm.MonsterReaction.GUARD_THE_BODY),
])
def test_monster_reaction_table(die: int, reaction: mm.MonsterReaction) -> None:
    effects = mm.monster_reaction(die)
    assert effects.reaction is reaction
    assert not effects.counts_as_fleeing
    assert effects.immune_to_break == (reaction is mm.MonsterReaction.GUARD_THE_BODY)
    assert effects.opponent_gains_victory_points_on_leaving == (reaction is mm.MonsterReaction.LEAVE_THE_BATTLEFIELD)


def test_victory_points_count_separately() -> None:
    assert mm.victory_points(150, 200, rider_slain=True, monster_slain=False).total == 150
    assert mm.victory_points(150, 200, rider_slain=False, monster_slain=True).total == 200
    left = mm.victory_points(150, 200, rider_slain=True, monster_slain=False, monster_left_battlefield=True)
    assert left.total == 350


def test_every_core_function_names_its_rules() -> None:
    public = [getattr(mm, name) for name in dir(mm)
              if callable(getattr(mm, name)) and not name.startswith("_")
              and getattr(getattr(mm, name), "__module__", "") == mm.__name__
              and not isinstance(getattr(mm, name), type)]
    assert public
    for function in public:
        assert rule_ids_of(function), f"{function.__name__} does not name the rule it implements"
        assert all(rule_id.startswith("monstrous-mounts/") for rule_id in rule_ids_of(function))


def test_rulings_lookup() -> None:
    assert RULESET.rulings(None) is ADOPTED
    assert RULESET.rulings("spanish-faq-hits-to-character") is SPANISH_FAQ
    with pytest.raises(ScenarioError, match="known variants"):
        RULESET.rulings("nonsense")


# --- Consequences stated by the rules, each an outcome field ---------------------------


def test_only_a_cavalry_steed_is_removed_with_its_rider() -> None:
    assert mm.steed_removed_with_rider(mm.MountKind.CAVALRY)
    assert not mm.steed_removed_with_rider(mm.MountKind.MONSTROUS)


def test_rider_and_mount_move_together_as_the_model_troop_type() -> None:
    moved = mm.mount_movement(TroopType.MONSTROUS_CAVALRY)
    assert moved.moves_as is TroopType.MONSTROUS_CAVALRY and moved.parts_move_together
    with pytest.raises(ValueError, match="monstrous cavalry or a monster"):
        mm.mount_movement(TroopType.INFANTRY)


@pytest.mark.parametrize("large", [False, True])
def test_neither_part_may_be_aimed_at_alone(large: bool) -> None:
    shot = mm.shooting_at_mount(large, uses_ballistic_skill=True)
    assert shot.modifier == (1 if large else 0)
    assert not shot.may_target_rider_alone and not shot.may_target_mount_alone


@pytest.mark.parametrize(("part", "rider", "monster", "inflicted", "expected"), [
    (mm.Part.RIDER, 2, 5, 4, (0, 5, 2, mm.AfterWounds.MONSTER_TESTS_LEADERSHIP)),
    (mm.Part.RIDER, 3, 5, 1, (2, 5, 0, mm.AfterWounds.NOTHING)),
    (mm.Part.MONSTER, 3, 2, 3, (3, 0, 1, mm.AfterWounds.RIDER_FIGHTS_ON_ALONE)),
    (mm.Part.MONSTER, 3, 6, 2, (3, 4, 0, mm.AfterWounds.NOTHING)),
])
def test_wounds_on_one_part_never_reach_the_other(part: mm.Part, rider: int, monster: int, inflicted: int,
                                                  expected: tuple[int, int, int, mm.AfterWounds]) -> None:
    result = mm.wound_part(part, rider, monster, inflicted)
    assert (result.rider_wounds_left, result.monster_wounds_left, result.ignored, result.next_step) == expected
    assert result.passed_to_other_part == 0


def test_rider_of_a_slain_mount_fights_on_where_it_stood() -> None:
    on_foot = mm.rider_after_mount_slain(model_available=True)
    assert on_foot.rider_fights_on and on_foot.lone_character and on_foot.same_facing
    assert on_foot.placement is mm.RiderPlacement.CENTRE_WHERE_MOUNT_STOOD
    assert not mm.rider_after_mount_slain(model_available=False).rider_fights_on


@pytest.mark.parametrize(("dice", "after"), [
    ((3, 4), mm.AfterTest.CONTROLLED_AS_OWN_UNIT), ((4, 5), mm.AfterTest.ROLL_ON_MONSTER_REACTION)])
def test_after_the_rider_test_the_monster_is_controlled_or_reacts(dice: tuple[int, int],
                                                                  after: mm.AfterTest) -> None:
    test = mm.rider_death_leadership_test(dice, 8)
    assert test.next_step is after and not test.tests_again


@pytest.mark.parametrize(("die", "must_charge", "own_will", "never_pursues"), [
    (1, False, False, False), (2, False, False, False), (3, True, True, False), (4, True, True, False),
    (5, False, False, True), (6, False, False, True)])
def test_monster_reaction_charges_and_pursuit(die: int, must_charge: bool, own_will: bool,
                                              never_pursues: bool) -> None:
    effects = mm.monster_reaction(die)
    assert (effects.must_charge_if_able, effects.charges_of_its_own_will, effects.never_pursues) == (
        must_charge, own_will, never_pursues)
    assert effects.fights_in_close_combat


def test_attacks_on_each_part_use_that_part_s_profile() -> None:
    rolls = mm.attack_rolls(attacker_weapon_skill=3, strength=4, rider_weapon_skill=7, rider_toughness=4,
                            monster_weapon_skill=5, monster_toughness=5)
    assert (rolls.rider_to_hit, rolls.rider_to_wound, rolls.monster_to_hit, rolls.monster_to_wound) == (5, 4, 4, 5)
    too_tough = mm.attack_rolls(3, 2, 3, 3, 3, 6)
    assert too_tough.rider_to_wound == 5 and too_tough.monster_to_wound is None


@pytest.mark.parametrize("immune", [False, True])
def test_neither_general_nor_immunity_changes_the_rider_death_test(immune: bool) -> None:
    alone = mm.rider_death_leadership_test((4, 5), 8)
    helped = mm.rider_death_leadership_test((4, 5), 8, general_leadership=10, immune_to_psychology=immune)
    assert helped == alone
    assert helped.test_taken and helped.leadership_used == 8 and not helped.passed
