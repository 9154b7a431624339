"""Scenarios of the shared tables: to hit, to wound, armour saves, Leadership."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from annotated_types import Interval

from validator.api import COUNT, RollModifier, RollNeeded, Scenario
from whfb6 import tables
from whfb6.dice import Distribution, binomial
from whfb6.rulings import Rulings
from whfb6.scenarios.types import D6, Characteristic, Leadership, Needed, Probability, Save

Attacks = Annotated[int, Interval(ge=0, le=100), COUNT]


@dataclass(frozen=True)
class CloseCombatGiven:
    attacker_weapon_skill: Characteristic
    defender_weapon_skill: Characteristic


def _close_combat_to_hit(given: CloseCombatGiven, _rulings: Rulings) -> Needed:
    return Needed(tables.close_combat_to_hit(given.attacker_weapon_skill, given.defender_weapon_skill))


@dataclass(frozen=True)
class ShootingGiven:
    ballistic_skill: Characteristic
    large_target: bool = False
    moved: bool = False
    stand_and_shoot: bool = False
    long_range: bool = False
    single_character_or_skirmishers: bool = False
    cover: tables.Cover = tables.Cover.NONE


@dataclass(frozen=True)
class ShootingOutcome:
    modifier: RollModifier
    needed: RollNeeded | None
    then: RollNeeded | None
    probability: Fraction


def _shooting_to_hit(given: ShootingGiven, _rulings: Rulings) -> ShootingOutcome:
    modifier = tables.shooting_modifier(given.large_target, given.moved, given.stand_and_shoot,
                                        given.long_range, given.single_character_or_skirmishers, given.cover)
    roll = tables.shooting_to_hit(given.ballistic_skill, modifier)
    return ShootingOutcome(modifier=modifier, needed=roll.first, then=roll.then,
                           probability=tables.shooting_hit_chance(given.ballistic_skill, modifier))


@dataclass(frozen=True)
class WoundGiven:
    strength: Characteristic
    toughness: Characteristic


@dataclass(frozen=True)
class RollOutcome:
    needed: RollNeeded | None
    probability: Fraction


def _to_wound(given: WoundGiven, _rulings: Rulings) -> RollOutcome:
    return RollOutcome(tables.to_wound(given.strength, given.toughness),
                       tables.wound_chance(given.strength, given.toughness))


@dataclass(frozen=True)
class SaveGiven:
    save: Save
    strength: Characteristic


@dataclass(frozen=True)
class SaveOutcome:
    modifier: RollModifier
    needed: Save
    probability: Fraction


def _armour_save(given: SaveGiven, _rulings: Rulings) -> SaveOutcome:
    return SaveOutcome(tables.armour_save_modifier(given.strength), tables.modified_save(given.save, given.strength),
                       tables.save_chance(given.save, given.strength))


@dataclass(frozen=True)
class LeadershipGiven:
    dice: tuple[D6, D6]
    leadership: Leadership


@dataclass(frozen=True)
class LeadershipOutcome:
    total: int
    passed: bool


def _leadership_test(given: LeadershipGiven, _rulings: Rulings) -> LeadershipOutcome:
    return LeadershipOutcome(sum(given.dice), tables.leadership_test(given.dice, given.leadership))


@dataclass(frozen=True)
class LeadershipChanceGiven:
    leadership: Leadership


def _leadership_chance(given: LeadershipChanceGiven, _rulings: Rulings) -> Probability:
    return Probability(tables.leadership_pass_chance(given.leadership))


@dataclass(frozen=True)
class AttacksGiven:
    attacks: Attacks
    attacker_weapon_skill: Characteristic
    defender_weapon_skill: Characteristic
    strength: Characteristic
    toughness: Characteristic
    save: Save = 7


@dataclass(frozen=True)
class AttacksOutcome:
    chance_per_attack: Fraction
    distribution: Distribution
    at_least_one: Fraction


def _unsaved_wounds(given: AttacksGiven, _rulings: Rulings) -> AttacksOutcome:
    """Each attack must hit, wound and get past the armour save, independently."""
    needed = tables.close_combat_to_hit(given.attacker_weapon_skill, given.defender_weapon_skill)
    hit = Fraction(7 - needed, 6)
    per_attack = hit * tables.wound_chance(given.strength, given.toughness) * (
        1 - tables.save_chance(given.save, given.strength))
    distribution = binomial(given.attacks, per_attack)
    return AttacksOutcome(chance_per_attack=per_attack, distribution=distribution,
                          at_least_one=distribution.at_least(1))


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("table-close-combat-to-hit", "The roll needed to hit in close combat",
             CloseCombatGiven, _close_combat_to_hit, tables.close_combat_to_hit),
    Scenario("table-shooting-to-hit", "The roll needed to hit with a shot, after modifiers, and its chance",
             ShootingGiven, _shooting_to_hit, (tables.shooting_to_hit, tables.shooting_modifier)),
    Scenario("table-to-wound", "The roll needed to wound, and its chance",
             WoundGiven, _to_wound, tables.to_wound),
    Scenario("table-armour-save", "An armour save against a hit of some Strength, and its chance",
             SaveGiven, _armour_save, tables.modified_save),
    Scenario("table-leadership-test", "A Leadership test from two dice",
             LeadershipGiven, _leadership_test, tables.leadership_test),
    Scenario("table-leadership-chance", "The exact chance of passing a Leadership test",
             LeadershipChanceGiven, _leadership_chance, tables.leadership_pass_chance),
    Scenario("table-close-combat-wounds", "Distribution of unsaved wounds from close combat attacks",
             AttacksGiven, _unsaved_wounds, (tables.close_combat_to_hit, tables.wound_chance, tables.save_chance)),
)
