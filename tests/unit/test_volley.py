"""A volley at a character on a monstrous mount: the exact distribution of wounds on
rider and monster agrees with the dice rolled one by one and with icepool."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import icepool
import pytest
from whfb6 import tables
from whfb6.monstrous_mounts import MountKind, Part, allocate_hit, rider_armour_save
from whfb6.rulings import ADOPTED, VARIANTS, Rulings
from whfb6.volley import ShotChances, Target, shot_chances, volley_distribution

D6 = range(1, 7)


def rolled_one_shot(ballistic_skill: int, strength: int, rider: Target, monster: Target,
                    rulings: Rulings) -> ShotChances:
    """Every D6 of one shot enumerated (to hit, and a second to-hit die for 7+; which
    part; to wound; the save), each step decided by the core's own table function."""
    roll = tables.shooting_to_hit(ballistic_skill, 1)
    counts = {Part.RIDER: 0, Part.MONSTER: 0}
    total = 0
    for first, then, which, wound, save in product(D6, D6, D6, D6, D6):
        total += 1
        if roll.first is None or first < roll.first or (roll.then is not None and then < roll.then):
            continue
        part = allocate_hit(which, rulings)
        target = rider if part is Part.RIDER else monster
        needed = tables.to_wound(strength, target.toughness)
        if needed is None or wound < needed:
            continue
        armour = rider_armour_save(MountKind.MONSTROUS, target.save) if part is Part.RIDER else target.save
        if save >= tables.modified_save(armour, strength) and tables.modified_save(armour, strength) < 7:
            continue
        counts[part] += 1
    return ShotChances(rider=Fraction(counts[Part.RIDER], total), monster=Fraction(counts[Part.MONSTER], total))


CASES = [
    (3, 4, Target(4, 4), Target(6, 3)),   # a BS3 S4 volley at a T4 hero in heavy armour on a T6 monster
    (5, 3, Target(3, 5), Target(5, 7)),   # BS5: hits on a 2+ with the Large Target bonus; a monster without save
    (1, 7, Target(4, 2), Target(5, 4)),   # BS1 + 1: 5+; S7 makes every save worse
    (2, 2, Target(6, 4), Target(6, 4)),   # S2 against T6: wounds on a 6 only
]


@pytest.mark.parametrize("rulings", [ADOPTED, VARIANTS["spanish-faq-hits-to-character"]])
@pytest.mark.parametrize("case", CASES)
def test_one_shot_is_the_dice_rolled_one_by_one(case: tuple[int, int, Target, Target], rulings: Rulings) -> None:
    assert shot_chances(*case, rulings=rulings) == rolled_one_shot(*case, rulings=rulings)


def test_sixty_shots_agree_with_icepool() -> None:
    chances = shot_chances(*CASES[0])
    ours = volley_distribution(60, chances)
    denominator = chances.rider.denominator * chances.monster.denominator
    shot = icepool.Die({icepool.Vector((1, 0)): int(chances.rider * denominator),
                        icepool.Vector((0, 1)): int(chances.monster * denominator),
                        icepool.Vector((0, 0)): int(chances.nothing * denominator)})
    theirs = 60 @ shot
    assert ours == {tuple(outcome): Fraction(count, theirs.denominator()) for outcome, count in theirs.items()}
    assert len(ours) == 61 * 62 // 2 and sum(ours.values()) == 1


def test_small_volleys_by_convolution_and_the_spanish_reading() -> None:
    chances = shot_chances(*CASES[1])
    one = {(1, 0): chances.rider, (0, 1): chances.monster, (0, 0): chances.nothing}
    expected = {(0, 0): Fraction(1)}
    for _ in range(4):
        step: dict[tuple[int, int], Fraction] = {}
        for (r, m), p in expected.items():
            for (dr, dm), q in one.items():
                step[(r + dr, m + dm)] = step.get((r + dr, m + dm), Fraction(0)) + p * q
        expected = {key: value for key, value in step.items() if value}
    assert volley_distribution(4, chances) == expected
    # Under the Spanish FAQ every hit is the rider's: the monster is never wounded.
    spanish = volley_distribution(10, shot_chances(*CASES[1], rulings=VARIANTS["spanish-faq-hits-to-character"]))
    assert all(monster == 0 for _, monster in spanish)


@pytest.mark.parametrize("shots", [-1, 1001])
def test_a_volley_out_of_bounds_is_refused(shots: int) -> None:
    with pytest.raises(ValueError, match="number of shots"):
        volley_distribution(shots, shot_chances(*CASES[0]))
