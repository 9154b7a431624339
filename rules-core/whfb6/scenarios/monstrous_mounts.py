"""Scenarios of the chapter on characters riding monstrous mounts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from annotated_types import Ge, Interval

from validator.api import Scenario
from whfb6 import monstrous_mounts as mm
from whfb6 import psychology as psy
from whfb6.characters import TroopType
from whfb6.rulings import Rulings
from whfb6.scenarios.types import (
    D6,
    Characteristic,
    Count,
    HitDiceGiven,
    HitsGiven,
    Leadership,
    Probability,
    Save,
    StandAndShootGiven,
    TemplateGiven,
)


@dataclass(frozen=True)
class MountGiven:
    mount_wounds: Annotated[int, Ge(1)]
    rider_save_on_foot: Save = 7


@dataclass(frozen=True)
class MountOutcome:
    kind: mm.MountKind
    rider_save: Save
    mount_keeps_own_profile: bool
    removed_whole_when_rider_slain: bool


def _classify_mount(given: MountGiven, _rulings: Rulings) -> MountOutcome:
    kind = mm.mount_kind(given.mount_wounds)
    return MountOutcome(
        kind=kind,
        rider_save=mm.rider_armour_save(kind, given.rider_save_on_foot),
        mount_keeps_own_profile=kind is mm.MountKind.MONSTROUS,
        removed_whole_when_rider_slain=mm.steed_removed_with_rider(kind),
    )


@dataclass(frozen=True)
class MountMovementGiven:
    troop_type: Literal["monstrous-cavalry", "monster"]
    """The troop type of the whole model, character and mount together."""


def _mount_movement(given: MountMovementGiven, _rulings: Rulings) -> mm.MountMovement:
    return mm.mount_movement(TroopType(given.troop_type))


@dataclass(frozen=True)
class ToHitGiven:
    large_target: bool
    uses_ballistic_skill: bool = True


def _to_hit_modifier(given: ToHitGiven, _rulings: Rulings) -> mm.ShootingAtMount:
    return mm.shooting_at_mount(given.large_target, given.uses_ballistic_skill)


def _allocate_hits(given: HitDiceGiven, rulings: Rulings) -> mm.HitAllocation:
    return mm.allocate_hits(given.dice, rulings)


def _rider_hit_chance(given: HitsGiven, rulings: Rulings) -> Probability:
    return Probability(mm.rider_hit_chance(given.hits, rulings))


@dataclass(frozen=True)
class TemplateOutcome:
    hit: mm.Part | None


def _template_hit(given: TemplateGiven, rulings: Rulings) -> TemplateOutcome:
    return TemplateOutcome(mm.template_or_cannon_hit(given.touches_base, given.die, rulings))


@dataclass(frozen=True)
class WoundsGiven:
    wounds_left: Annotated[int, Ge(1)]
    wounds_inflicted: Count


def _apply_wounds(given: WoundsGiven, _rulings: Rulings) -> mm.WoundsResult:
    return mm.apply_wounds(given.wounds_left, given.wounds_inflicted)


@dataclass(frozen=True)
class AttackRollsGiven:
    attacker_weapon_skill: Characteristic
    strength: Characteristic
    rider_weapon_skill: Characteristic
    rider_toughness: Characteristic
    monster_weapon_skill: Characteristic
    monster_toughness: Characteristic


def _attack_rolls(given: AttackRollsGiven, _rulings: Rulings) -> mm.AttackRolls:
    return mm.attack_rolls(given.attacker_weapon_skill, given.strength, given.rider_weapon_skill,
                           given.rider_toughness, given.monster_weapon_skill, given.monster_toughness)


@dataclass(frozen=True)
class PartWoundsGiven:
    part: mm.Part
    rider_wounds_left: Annotated[int, Interval(ge=1, le=10_000)]
    monster_wounds_left: Annotated[int, Interval(ge=1, le=10_000)]
    wounds_inflicted: Count


def _wound_part(given: PartWoundsGiven, _rulings: Rulings) -> mm.PartWounds:
    return mm.wound_part(given.part, given.rider_wounds_left, given.monster_wounds_left, given.wounds_inflicted)


@dataclass(frozen=True)
class MountSlainGiven:
    model_available: bool = True
    """Whether a model to show the rider on his own is at hand."""


def _mount_slain(given: MountSlainGiven, _rulings: Rulings) -> mm.RiderAfterMount:
    return mm.rider_after_mount_slain(given.model_available)


@dataclass(frozen=True)
class AttacksGiven:
    attacks: Count
    on_rider: Count


def _declare_attacks(given: AttacksGiven, _rulings: Rulings) -> mm.AttackSplit:
    return mm.declare_attacks(given.attacks, given.on_rider)


def _charge_after_mount_slain(given: StandAndShootGiven, _rulings: Rulings) -> mm.ChargeAfterMountSlain:
    return mm.charge_after_mount_slain_by_stand_and_shoot(given.declared_within_range)


@dataclass(frozen=True)
class LeadershipGiven:
    dice: tuple[D6, D6]
    monster_leadership: Leadership
    general_leadership: Leadership | None = None
    """The Leadership of a General close by, which the monster may not use."""
    immune_to_psychology: bool = False


def _leadership_test(given: LeadershipGiven, _rulings: Rulings) -> mm.LeadershipTest:
    return mm.rider_death_leadership_test(given.dice, given.monster_leadership, given.general_leadership,
                                          given.immune_to_psychology)


@dataclass(frozen=True)
class LeadershipChanceGiven:
    monster_leadership: Leadership


def _leadership_chance(given: LeadershipChanceGiven, _rulings: Rulings) -> Probability:
    return Probability(mm.rider_death_pass_chance(given.monster_leadership))


@dataclass(frozen=True)
class TimingGiven:
    phase: mm.Phase
    aftermath: mm.CombatAftermath | None = None


@dataclass(frozen=True)
class TimingOutcome:
    when: mm.TestTiming


def _test_timing(given: TimingGiven, _rulings: Rulings) -> TimingOutcome:
    return TimingOutcome(mm.rider_death_test_timing(given.phase, given.aftermath))


@dataclass(frozen=True)
class ReactionGiven:
    die: D6


def _monster_reaction(given: ReactionGiven, _rulings: Rulings) -> mm.ReactionEffects:
    return mm.monster_reaction(given.die)


def _reaction_timing(given: ReactionGiven, _rulings: Rulings) -> mm.ReactionTiming:
    return mm.reaction_timing(given.die)


NO_PSYCHOLOGY = psy.Psyche()
"""A part with no psychology rules of its own."""


@dataclass(frozen=True)
class RiddenPsychologyGiven:
    rider: psy.Psyche = NO_PSYCHOLOGY
    mount: psy.Psyche = NO_PSYCHOLOGY
    """The monster or the chariot (its crew and the creatures pulling it)."""


def _ridden_psychology(given: RiddenPsychologyGiven, rulings: Rulings) -> psy.RiddenModelPsychology:
    return psy.ridden_model_psychology(given.rider, given.mount, rulings)


@dataclass(frozen=True)
class VictoryPointsGiven:
    rider_points: Count
    monster_points: Count
    rider_slain: bool
    monster_slain: bool
    monster_left_battlefield: bool = False


def _victory_points(given: VictoryPointsGiven, _rulings: Rulings) -> mm.VictoryPoints:
    return mm.victory_points(
        given.rider_points,
        given.monster_points,
        given.rider_slain,
        given.monster_slain,
        given.monster_left_battlefield,
    )


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("mount-classify", "Cavalry steed or monstrous mount, and the rider's armour save",
             MountGiven, _classify_mount, (mm.rider_armour_save, mm.steed_removed_with_rider)),
    Scenario("mount-movement", "Which movement rules a character and his monstrous mount follow",
             MountMovementGiven, _mount_movement, mm.mount_movement),
    Scenario("mount-shooting-modifier", "To-hit modifier for shooting at a monster and its rider",
             ToHitGiven, _to_hit_modifier, (mm.shooting_at_mount, mm.shooting_to_hit_modifier)),
    Scenario("mount-allocate-hits", "Split hits between monster and rider from one D6 per hit",
             HitDiceGiven, _allocate_hits, mm.allocate_hits),
    Scenario("mount-rider-hit-chance", "Exact chance that the rider takes at least one of n hits",
             HitsGiven, _rider_hit_chance, mm.rider_hit_chance),
    Scenario("mount-template-hit", "The part struck by a template or cannon ball",
             TemplateGiven, _template_hit, mm.template_or_cannon_hit),
    Scenario("mount-apply-wounds", "Wounds on rider or monster; extra wounds are lost",
             WoundsGiven, _apply_wounds, mm.apply_wounds),
    Scenario("mount-wounds-on-part", "Wounds on one part of a ridden monster, and what the other part keeps",
             PartWoundsGiven, _wound_part, mm.wound_part),
    Scenario("mount-declare-attacks", "Split close combat attacks between rider and monster",
             AttacksGiven, _declare_attacks, mm.declare_attacks),
    Scenario("mount-attack-rolls", "The rolls to hit and wound the rider and the monster in close combat",
             AttackRollsGiven, _attack_rolls, mm.attack_rolls),
    Scenario("mount-slain-charge", "A charge whose monster dies to a Stand and Shoot reaction",
             StandAndShootGiven, _charge_after_mount_slain,
             mm.charge_after_mount_slain_by_stand_and_shoot),
    Scenario("mount-slain", "The rider of a monster that is slain",
             MountSlainGiven, _mount_slain, mm.rider_after_mount_slain),
    Scenario("rider-death-leadership-test", "The monster's Leadership test when its rider dies",
             LeadershipGiven, _leadership_test, mm.rider_death_leadership_test),
    Scenario("rider-death-pass-chance", "Exact chance that the monster passes that test",
             LeadershipChanceGiven, _leadership_chance, mm.rider_death_pass_chance),
    Scenario("rider-death-test-timing", "When the monster takes its Leadership test",
             TimingGiven, _test_timing, mm.rider_death_test_timing),
    Scenario("monster-reaction", "The Monster Reaction table",
             ReactionGiven, _monster_reaction, mm.monster_reaction),
    Scenario("monster-reaction-timing", "When the Monster Reaction result rolled takes effect",
             ReactionGiven, _reaction_timing, mm.reaction_timing),
    Scenario("ridden-model-psychology", "Whose psychology a character and his monster or chariot follow",
             RiddenPsychologyGiven, _ridden_psychology, psy.ridden_model_psychology),
    Scenario("mount-victory-points", "Victory points for a character and his monstrous mount",
             VictoryPointsGiven, _victory_points, mm.victory_points),
)
