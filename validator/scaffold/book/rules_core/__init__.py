"""The rules core of this book: the rules as code, which every worked example runs against.

It imports only ``validator.api``.  Each function marked with ``@implements`` applies
the rules it names; a scenario is one question a worked example asks (its inputs,
its outcome and the function that computes one from the other).
"""

from __future__ import annotations

from dataclasses import dataclass

from validator.api import COUNT, DIE, Annotated, Ruleset, Scenario, implements


@dataclass(frozen=True)
class Rulings:
    """The readings this book adopts where its sources disagree (docs/discrepancies.yml)."""

    equal_roll_hits: bool = True


@implements("combat/hitting")
def hits(roll: int, defence: int, rulings: Rulings) -> bool:
    """The blow lands when the roll reaches the defence."""
    return roll > defence or (roll == defence and rulings.equal_roll_hits)


@implements("combat/damage")
def damage(roll: int, defence: int) -> int:
    """The roll above the defence, and at least 1."""
    return max(1, roll - defence)


@dataclass(frozen=True)
class Strike:
    roll: Annotated[int, DIE]
    defence: Annotated[int, COUNT]


@dataclass(frozen=True)
class Outcome:
    hit: bool
    damage: int


def strike(given: Strike, rulings: Rulings) -> Outcome:
    hit = hits(given.roll, given.defence, rulings)
    return Outcome(hit, damage(given.roll, given.defence) if hit else 0)


RULESET = Ruleset(
    scenarios=(Scenario("strike", "One blow against a defence", Strike, strike, (hits, damage)),),
    variants={"must-beat": Rulings(equal_roll_hits=False)},
    adopted=Rulings(),
)
