"""A volley of shots at a character on a monstrous mount, as one exact distribution.

Each shot goes through the whole sequence: the roll to hit (Ballistic Skill, +1
for a Large Target), the D6 that sends the hit to the monster (1-4) or the rider
(5-6) (or, under the Spanish FAQ's reading, always to the rider), the roll to
wound the part struck, and that part's armour save.  Shots are independent, so
the number of unsaved wounds on each part after ``n`` shots follows a multinomial
law over three outcomes per shot (a wound on the rider, on the monster, nothing).

The distribution is computed in integers over one common denominator and only
then turned into fractions, so even a long volley stays exact without paying for
fraction arithmetic on every step (the benchmark compares it with icepool, a dice
library).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import factorial, lcm

from validator.api import ProfileValue, implements
from whfb6 import tables
from whfb6.dice import chance_of_faces
from whfb6.monstrous_mounts import RIDER_FACES, MountKind, rider_armour_save, shooting_to_hit_modifier
from whfb6.rulings import ADOPTED, Rulings
from whfb6.saves import SaveRoll

MAX_SHOTS = 1000
"""More shots than any unit fires; bounds the work (outcomes grow with the square)."""


@dataclass(frozen=True)
class Target:
    """One part of the model as a shot meets it."""

    toughness: ProfileValue
    save: SaveRoll
    """The armour save (7 for none); for the rider, the save on foot (a monstrous
    mount adds nothing to it)."""


@dataclass(frozen=True)
class ShotChances:
    """What one shot does: an unsaved wound on the rider, on the monster, or nothing."""

    rider: Fraction
    monster: Fraction

    @property
    def nothing(self) -> Fraction:
        return 1 - self.rider - self.monster


def _unsaved(strength: int, target: Target, save: SaveRoll) -> Fraction:
    return tables.wound_chance(strength, target.toughness) * (1 - tables.save_chance(save, strength))


@implements("monstrous-mounts/shooting-hit-allocation", "core-tables/shooting-to-hit", "core-tables/to-wound",
            "core-tables/armour-saves",
            says="The chance that one shot wounds the rider, or the monster, through its save.")
def shot_chances(ballistic_skill: ProfileValue, strength: ProfileValue, rider: Target, monster: Target,
                 large_target: bool = True, rulings: Rulings = ADOPTED) -> ShotChances:
    """One shot's chances of an unsaved wound on each part."""
    hit = tables.shooting_hit_chance(ballistic_skill, shooting_to_hit_modifier(large_target, True))
    to_rider = Fraction(1) if rulings.mount_hit_allocation == "character" else chance_of_faces(RIDER_FACES)
    rider_save = rider_armour_save(MountKind.MONSTROUS, rider.save)
    return ShotChances(rider=hit * to_rider * _unsaved(strength, rider, rider_save),
                       monster=hit * (1 - to_rider) * _unsaved(strength, monster, monster.save))


@implements("monstrous-mounts/shooting-hit-allocation",
            says="The exact chance of every pair (wounds on the rider, wounds on the monster) after a volley.")
def volley_distribution(shots: int, chances: ShotChances) -> dict[tuple[int, int], Fraction]:
    """(unsaved wounds on the rider, on the monster) -> exact probability, after
    ``shots`` independent shots (wounds are counted before any part's Wounds run out)."""
    if not 0 <= shots <= MAX_SHOTS:
        raise ValueError(f"the number of shots runs from 0 to {MAX_SHOTS}, not {shots}")
    denominator = lcm(chances.rider.denominator, chances.monster.denominator)
    rider = chances.rider.numerator * (denominator // chances.rider.denominator)
    monster = chances.monster.numerator * (denominator // chances.monster.denominator)
    nothing = denominator - rider - monster
    if rider < 0 or monster < 0 or nothing < 0:
        raise ValueError("the chances of one shot must be probabilities that add up to at most 1")
    rider_powers, monster_powers, nothing_powers = _powers(rider, shots), _powers(monster, shots), \
        _powers(nothing, shots)
    factorials = [factorial(k) for k in range(shots + 1)]
    total = denominator**shots
    distribution: dict[tuple[int, int], Fraction] = {}
    for on_rider in range(shots + 1):
        for on_monster in range(shots - on_rider + 1):
            rest = shots - on_rider - on_monster
            ways = factorials[shots] // (factorials[on_rider] * factorials[on_monster] * factorials[rest])
            weight = ways * rider_powers[on_rider] * monster_powers[on_monster] * nothing_powers[rest]
            if weight:
                distribution[(on_rider, on_monster)] = Fraction(weight, total)
    return distribution


def _powers(base: int, count: int) -> list[int]:
    powers = [1]
    for _ in range(count):
        powers.append(powers[-1] * base)
    return powers
