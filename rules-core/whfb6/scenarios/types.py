"""Constrained input types shared by the scenarios: the engine checks them before
the core runs, and names the field when a value is out of range."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from annotated_types import Interval, MaxLen, MinLen

from validator.api import CHARACTERISTIC, COUNT, DIE, ROLL
from whfb6.saves import SAVE

D6 = Annotated[int, Interval(ge=1, le=6), DIE]
Count = Annotated[int, Interval(ge=0, le=10_000), COUNT]
"""A number of models, wounds, attacks or points: far above any army, far below a
number that would make the core (or a distribution) slow."""
Characteristic = Annotated[int, Interval(ge=1, le=10), CHARACTERISTIC]
Leadership = Annotated[int, Interval(ge=2, le=10), CHARACTERISTIC]
Save = Annotated[int, Interval(ge=1, le=7), SAVE]
"""An armour save as the roll it needs (1+ to 6+); 7 means no save."""


@dataclass(frozen=True)
class Probability:
    """The outcome of a "how likely" question: one exact probability."""

    probability: Fraction


@dataclass(frozen=True)
class Needed:
    """The D6 score a roll needs (``None`` when no roll can succeed)."""

    needed: Annotated[int | None, ROLL]


Hits = Annotated[int, Interval(ge=0, le=200), COUNT]
"""A number of hits; bounded so that an exact distribution stays quick to compute."""


@dataclass(frozen=True)
class HitDiceGiven:
    """One D6 per hit, rolled to see which part of a model each hit strikes."""

    dice: Annotated[tuple[D6, ...], MinLen(1), MaxLen(200)]


@dataclass(frozen=True)
class HitsGiven:
    hits: Hits


@dataclass(frozen=True)
class TemplateGiven:
    touches_base: bool
    die: D6


@dataclass(frozen=True)
class StandAndShootGiven:
    """A charge whose charger is destroyed by a Stand and Shoot reaction."""

    declared_within_range: bool
