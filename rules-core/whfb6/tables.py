"""The shared tables the character rules lean on: to hit, to wound, saves, Leadership.

Source: the English 6th edition rulebook, as the public online rules index
reproduces it (the seeds use these tables without restating them).  Rule text:
``docs/rules/core-tables.yml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from validator.api import DieResult, RollModifier, RollNeeded, implements
from whfb6.dice import chance_of_faces, check_d6, two_d6_at_most
from whfb6.saves import SaveRoll

NATURAL_ONE_FAILS = 2
"""A roll of 1 always misses a shot and always fails a save, so no roll is easier than 2+."""

NO_ROLL_SUCCEEDS = 7


class Cover(StrEnum):
    NONE = "none"
    SOFT = "soft"
    HARD = "hard"


@implements("core-tables/close-combat-to-hit")
def close_combat_to_hit(attacker_weapon_skill: int, defender_weapon_skill: int) -> RollNeeded:
    """The D6 score needed to hit in close combat: 3+ against a lower Weapon Skill,
    5+ against more than double, 4+ otherwise."""
    for skill in (attacker_weapon_skill, defender_weapon_skill):
        if not 1 <= skill <= 10:
            raise ValueError(f"Weapon Skill runs from 1 to 10, not {skill}")
    if attacker_weapon_skill > defender_weapon_skill:
        return 3
    if defender_weapon_skill > 2 * attacker_weapon_skill:
        return 5
    return 4


@implements("core-tables/shooting-modifiers")
def shooting_modifier(
    large_target: bool = False,
    moved: bool = False,
    stand_and_shoot: bool = False,
    long_range: bool = False,
    single_character_or_skirmishers: bool = False,
    cover: Cover = Cover.NONE,
) -> RollModifier:
    """The sum of the to-hit modifiers for a shot (positive helps the shooter)."""
    cover_penalty = {Cover.NONE: 0, Cover.SOFT: -1, Cover.HARD: -2}[cover]
    return (int(large_target) - int(moved) - int(stand_and_shoot) - int(long_range)
            - int(single_character_or_skirmishers) + cover_penalty)


@dataclass(frozen=True)
class ShootingRoll:
    """What a shot needs: ``first`` on one D6 and, for 7+ to 9+, then ``then`` on
    another.  ``first`` is ``None`` when the shot cannot hit (10+)."""

    first: int | None
    then: int | None


@implements("core-tables/shooting-to-hit")
def shooting_to_hit(ballistic_skill: int, modifier: int = 0) -> ShootingRoll:
    """The roll a shot needs: 7 minus Ballistic Skill, less the modifiers; a 1 always
    misses; 7+ is a 6 then 4+, 8+ a 6 then 5+, 9+ a 6 then 6, 10+ impossible."""
    if not 1 <= ballistic_skill <= 10:
        raise ValueError(f"Ballistic Skill runs from 1 to 10, not {ballistic_skill}")
    needed = max(NATURAL_ONE_FAILS, 7 - ballistic_skill - modifier)
    if needed <= 6:
        return ShootingRoll(first=needed, then=None)
    if needed <= 9:
        return ShootingRoll(first=6, then=needed - 3)
    return ShootingRoll(first=None, then=None)


@implements("core-tables/shooting-to-hit",
            says="The chance that the shot hits.")
def shooting_hit_chance(ballistic_skill: int, modifier: int = 0) -> Fraction:
    roll = shooting_to_hit(ballistic_skill, modifier)
    if roll.first is None:
        return Fraction(0)
    chance = chance_of_faces(set(range(roll.first, 7)))
    if roll.then is not None:
        chance *= chance_of_faces(set(range(roll.then, 7)))
    return chance


@implements("core-tables/to-wound",
            says="The D6 score needed to wound, or none when the target is too tough (N).")
def to_wound(strength: int, toughness: int) -> RollNeeded | None:
    """The D6 score needed to wound, or ``None`` when the target is too tough (N)."""
    for value in (strength, toughness):
        if not 1 <= value <= 10:
            raise ValueError(f"Strength and Toughness run from 1 to 10, not {value}")
    difference = strength - toughness
    if difference >= 2:
        return 2
    if difference >= -2:
        return 4 - difference
    if difference == -3:
        return 6
    return None


@implements("core-tables/to-wound",
            says="The chance to wound.")
def wound_chance(strength: int, toughness: int) -> Fraction:
    needed = to_wound(strength, toughness)
    return Fraction(0) if needed is None else chance_of_faces(set(range(needed, 7)))


@implements("core-tables/armour-saves",
            says=("The modifier a hit puts on an armour save: none up to Strength 3, then one point more for "
                  "each point of Strength (S4 -1 ... S10 -7)."))
def armour_save_modifier(strength: int) -> RollModifier:
    """The modifier a hit of ``strength`` puts on an armour save, written as the
    rulebook writes it: none up to 3, then one point more for each point of Strength
    (S4 -1 ... S10 -7); a save of 4+ with -2 needs 6+."""
    if not 1 <= strength <= 10:
        raise ValueError(f"Strength runs from 1 to 10, not {strength}")
    return -max(0, strength - 3)


@implements("core-tables/armour-saves")
def modified_save(save: SaveRoll, strength: int) -> SaveRoll:
    """The roll an armour save needs against a hit; 7 means no save is possible.

    A save better than 2+ (1+ or less) still fails on a roll of 1, but it soaks up
    the modifier: 1+ against Strength 4 saves on 2+.
    """
    needed = save - armour_save_modifier(strength)
    return min(NO_ROLL_SUCCEEDS, max(NATURAL_ONE_FAILS, needed))


@implements("core-tables/armour-saves",
            says="The chance that the armour save is made.")
def save_chance(save: SaveRoll, strength: int) -> Fraction:
    needed = modified_save(save, strength)
    return Fraction(0) if needed >= NO_ROLL_SUCCEEDS else chance_of_faces(set(range(needed, 7)))


@implements("core-tables/leadership-tests")
def leadership_test(dice: tuple[DieResult, DieResult], leadership: int) -> bool:
    """A Leadership test: 2D6, passed on a total equal to or under the Leadership."""
    for die in dice:
        check_d6(die)
    return sum(dice) <= leadership


@implements("core-tables/leadership-tests",
            says="The chance of passing the Leadership test.")
def leadership_pass_chance(leadership: int) -> Fraction:
    return two_d6_at_most(leadership)
