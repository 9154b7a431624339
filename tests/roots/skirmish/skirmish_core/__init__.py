"""The rules core of Border Skirmish, a small made-up game played with ten-sided dice.

It imports only ``validator.api`` (and ``annotated_types`` for the inputs' ranges), as
every book's core must, so that this book proves the engine needs nothing of the
bundled game: another die, another unit of length, its own meanings of values.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from annotated_types import Interval

from validator.api import DIE, DISTANCE, Annotated, Ruleset, Scenario, Shown, WholeDistance, implements

SIDES = 10
"""The game rolls ten-sided dice, numbered 1 to 10."""

NEEDED = Shown("roll", at_least=(SIDES + 1, "out of reach"))
"""A roll needed past the die's highest face: no roll can hit, and the page says so in words."""

Skill = Annotated[int, Interval(ge=2, le=10), Shown("roll")]
Nerve = Annotated[int, Interval(ge=2, le=20), Shown("characteristic")]
Pace = Annotated[int, Interval(ge=5, le=20), DISTANCE]


@dataclass(frozen=True)
class Rulings:
    """The readings this book adopts where its sources disagree (docs/discrepancies.yml)."""

    cover_adds_one: bool = True


@implements("actions/to-hit")
def to_hit(skill: int) -> Fraction:
    """The chance that one die scores the shooter's skill or more."""
    return Fraction(max(0, SIDES + 1 - skill), SIDES)


@implements("actions/cover")
def needed_in_cover(skill: int, rulings: Rulings) -> Annotated[int, NEEDED]:
    """A target in cover is harder to hit: the roll needed goes up."""
    return skill + (1 if rulings.cover_adds_one else 2)


@implements("actions/dash")
def dash(pace: int, roll: int) -> int:
    """A dashing fighter moves its pace plus the roll of one die, in centimetres."""
    return pace + roll


@implements("morale/test")
def morale_chance(nerve: int) -> Fraction:
    """The chance that two dice total the fighter's nerve or less."""
    totals = sum(1 for first in range(1, SIDES + 1) for second in range(1, SIDES + 1) if first + second <= nerve)
    return Fraction(totals, SIDES * SIDES)


@dataclass(frozen=True)
class Shot:
    skill: Skill
    cover: bool = False


@dataclass(frozen=True)
class ShotOutcome:
    needed: Annotated[int, NEEDED]
    probability: Fraction


def shot(given: Shot, rulings: Rulings) -> ShotOutcome:
    needed = needed_in_cover(given.skill, rulings) if given.cover else given.skill
    return ShotOutcome(needed, to_hit(needed))


@dataclass(frozen=True)
class Dash:
    pace: Pace
    roll: Annotated[int, Interval(ge=1, le=10), DIE]


@dataclass(frozen=True)
class DashOutcome:
    distance: WholeDistance


def run_dash(given: Dash, rulings: Rulings) -> DashOutcome:
    return DashOutcome(dash(given.pace, given.roll))


@dataclass(frozen=True)
class Morale:
    nerve: Nerve


@dataclass(frozen=True)
class MoraleOutcome:
    probability: Fraction


def morale(given: Morale, rulings: Rulings) -> MoraleOutcome:
    return MoraleOutcome(morale_chance(given.nerve))


RULESET = Ruleset(
    scenarios=(
        Scenario("shot", "Chance to hit with one shot", Shot, shot, (to_hit, needed_in_cover)),
        Scenario("dash", "How far a dash goes", Dash, run_dash, dash),
        Scenario("morale", "Chance to pass a morale test", Morale, morale, morale_chance),
    ),
    variants={"cover-adds-two": Rulings(cover_adds_one=False)},
    adopted=Rulings(),
)
