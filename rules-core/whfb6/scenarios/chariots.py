"""Scenarios of the chapter on characters riding chariots (``whfb6.chariots``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from annotated_types import Ge, MaxLen

from validator.api import DISTANCE, Scenario
from whfb6 import chariots as ch
from whfb6.dice import Distribution
from whfb6.rulings import Rulings
from whfb6.scenarios.types import (
    Characteristic,
    Count,
    HitDiceGiven,
    HitsGiven,
    Probability,
    Save,
    StandAndShootGiven,
    TemplateGiven,
)


def _allocate_hits(given: HitDiceGiven, _rulings: Rulings) -> ch.HitAllocation:
    return ch.allocate_hits(given.dice)


def _character_hit_chance(given: HitsGiven, _rulings: Rulings) -> Probability:
    return Probability(ch.character_hit_chance(given.hits))


@dataclass(frozen=True)
class HitsDistribution:
    distribution: Distribution


def _character_hits_distribution(given: HitsGiven, _rulings: Rulings) -> HitsDistribution:
    return HitsDistribution(ch.character_hits_distribution(given.hits))


@dataclass(frozen=True)
class TemplateOutcome:
    hit: ch.Target | None


def _template_hit(given: TemplateGiven, _rulings: Rulings) -> TemplateOutcome:
    return TemplateOutcome(ch.template_or_cannon_hit(given.touches_base, given.die))


@dataclass(frozen=True)
class SaveGiven:
    save_on_foot: Save
    chariot_save: Save
    in_challenge: bool = False


def _character_save(given: SaveGiven, _rulings: Rulings) -> ch.CharacterSave:
    return ch.character_armour_save(given.save_on_foot, given.chariot_save, given.in_challenge)


@dataclass(frozen=True)
class CloseCombatGiven:
    target: ch.Target
    attacker_weapon_skill: Characteristic
    character_weapon_skill: Characteristic
    crew_weapon_skills: Annotated[tuple[Characteristic, ...], MaxLen(10)]
    steeds_weapon_skill: Characteristic


def _close_combat_roll(given: CloseCombatGiven, _rulings: Rulings) -> ch.CloseCombatRoll:
    return ch.close_combat_roll(given.target, given.attacker_weapon_skill, given.character_weapon_skill,
                                given.crew_weapon_skills, given.steeds_weapon_skill)


@dataclass(frozen=True)
class SteedsGiven:
    enemy_directly_in_front: bool


@dataclass(frozen=True)
class SteedsOutcome:
    may_attack: bool


def _steeds_may_attack(given: SteedsGiven, _rulings: Rulings) -> SteedsOutcome:
    return SteedsOutcome(ch.steeds_may_attack(given.enemy_directly_in_front))


@dataclass(frozen=True)
class ChallengeGiven:
    enemy_in_unit: bool
    enemy_mount_wounds: Count = 0


def _challenge(given: ChallengeGiven, rulings: Rulings) -> ch.ChallengeFromChariot:
    return ch.challenge_from_chariot(given.enemy_in_unit, given.enemy_mount_wounds, rulings)


@dataclass(frozen=True)
class DestroyedGiven:
    in_close_combat: bool
    in_challenge: bool = False


def _destroyed(given: DestroyedGiven, _rulings: Rulings) -> ch.ChariotDestroyed:
    return ch.chariot_destroyed(given.in_close_combat, given.in_challenge)


@dataclass(frozen=True)
class DestructionHitGiven:
    toughness: Characteristic
    armour_save: Save


def _destruction_hit_chance(given: DestructionHitGiven, _rulings: Rulings) -> ch.DestructionHitChance:
    return ch.destruction_hit_chance(given.toughness, given.armour_save)


def _stand_and_shoot(given: StandAndShootGiven, _rulings: Rulings) -> ch.StandAndShootDestruction:
    return ch.destroyed_by_stand_and_shoot(given.declared_within_range)


@dataclass(frozen=True)
class TerrainGiven:
    survives_hit: bool
    unit_distance: Annotated[float, Ge(0), DISTANCE]
    unit_is_charge_target: bool


def _terrain(given: TerrainGiven, _rulings: Rulings) -> ch.TerrainDestruction:
    return ch.destroyed_in_terrain(given.survives_hit, given.unit_distance, given.unit_is_charge_target)


@dataclass(frozen=True)
class CharacterSlainGiven:
    has_crew: bool


def _character_slain(given: CharacterSlainGiven, _rulings: Rulings) -> ch.ChariotWithoutCharacter:
    return ch.chariot_after_character_death(given.has_crew)


@dataclass(frozen=True)
class VictoryPointsGiven:
    character_points: Count
    chariot_points: Count
    character_slain: bool
    chariot_destroyed: bool


def _victory_points(given: VictoryPointsGiven, _rulings: Rulings) -> ch.VictoryPoints:
    return ch.victory_points(given.character_points, given.chariot_points,
                             given.character_slain, given.chariot_destroyed)


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("chariot-allocate-hits", "Split hits between a chariot and its character from one D6 per hit",
             HitDiceGiven, _allocate_hits, ch.allocate_hits),
    Scenario("chariot-character-hit-chance", "Exact chance that the character takes at least one of n hits",
             HitsGiven, _character_hit_chance, ch.character_hit_chance),
    Scenario("chariot-character-hits-distribution", "Distribution of the hits that reach the character",
             HitsGiven, _character_hits_distribution, ch.character_hits_distribution),
    Scenario("chariot-template-hit", "The part of a chariot struck by a template or cannon ball",
             TemplateGiven, _template_hit, ch.template_or_cannon_hit),
    Scenario("chariot-character-save", "The armour save of a character riding a chariot",
             SaveGiven, _character_save, ch.character_armour_save),
    Scenario("chariot-close-combat-to-hit", "The roll to hit a chariot or the character riding it",
             CloseCombatGiven, _close_combat_roll, ch.close_combat_roll),
    Scenario("chariot-steed-attacks", "Whether the steeds of a chariot may attack an enemy",
             SteedsGiven, _steeds_may_attack, ch.steeds_may_attack),
    Scenario("chariot-challenge", "Who strikes whom when a character fights a challenge from a chariot",
             ChallengeGiven, _challenge, ch.challenge_from_chariot),
    Scenario("chariot-destroyed", "What happens to the character when his chariot is destroyed",
             DestroyedGiven, _destroyed, ch.chariot_destroyed),
    Scenario("chariot-destruction-hit-chance", "Exact chance that the Strength 5 hit wounds the character",
             DestructionHitGiven, _destruction_hit_chance, ch.destruction_hit_chance),
    Scenario("chariot-stand-and-shoot", "A charging chariot destroyed by a Stand and Shoot reaction",
             StandAndShootGiven, _stand_and_shoot, ch.destroyed_by_stand_and_shoot),
    Scenario("chariot-terrain-destroyed", "A charging chariot destroyed crossing difficult terrain",
             TerrainGiven, _terrain, ch.destroyed_in_terrain),
    Scenario("chariot-character-slain", "The chariot after the character riding it is slain",
             CharacterSlainGiven, _character_slain, ch.chariot_after_character_death),
    Scenario("chariot-victory-points", "Victory points for a character and his chariot",
             VictoryPointsGiven, _victory_points, ch.victory_points),
)
