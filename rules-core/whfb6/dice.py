"""Exact dice arithmetic: every probability is a :class:`~fractions.Fraction`.

Floating point would make ``1 - (2/3)**3`` print as ``0.7037037037037037`` and
compare unequal to the stated ``19/27`` of a worked example; fractions keep the
examples exact and the comparisons honest.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from itertools import product
from math import comb

D6_FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


def check_d6(die: int) -> None:
    """Reject a die result that a D6 cannot show."""
    if not 1 <= die <= 6:
        raise ValueError(f"a D6 shows 1 to 6, not {die}")


def chance_of_faces(faces: frozenset[int] | set[int], sides: int = 6) -> Fraction:
    """Probability that one die of ``sides`` faces shows one of ``faces``.

    >>> chance_of_faces({5, 6})
    Fraction(1, 3)
    """
    if any(face < 1 or face > sides for face in faces):
        raise ValueError(f"faces must lie between 1 and {sides}")
    return Fraction(len(faces), sides)


def chance_of_at_least_one(single: Fraction, trials: int) -> Fraction:
    """Probability that at least one of ``trials`` independent events happens.

    >>> chance_of_at_least_one(Fraction(1, 3), 2)
    Fraction(5, 9)
    """
    if trials < 0:
        raise ValueError("trials cannot be negative")
    return 1 - (1 - single) ** trials


def two_d6_at_most(target: int) -> Fraction:
    """Probability that the total of 2D6 is ``target`` or less.

    Counted over the 36 equally likely pairs rather than from a formula, so the
    function is its own specification.

    >>> two_d6_at_most(7)
    Fraction(7, 12)
    """
    pairs = list(product(D6_FACES, repeat=2))
    return Fraction(sum(1 for a, b in pairs if a + b <= target), len(pairs))


class Distribution(Mapping[int | str, Fraction]):
    """An exact probability distribution: outcome -> probability.

    Immutable and ordered by outcome, so two equal distributions print alike.

    >>> binomial(2, Fraction(1, 3))
    Distribution({0: Fraction(4, 9), 1: Fraction(4, 9), 2: Fraction(1, 9)})
    """

    def __init__(self, probabilities: Mapping[int, Fraction] | Mapping[str, Fraction]) -> None:
        self._probabilities: dict[int | str, Fraction] = dict(
            sorted(probabilities.items(), key=lambda item: (isinstance(item[0], str), item[0])))

    def __getitem__(self, outcome: int | str) -> Fraction:
        return self._probabilities[outcome]

    def __iter__(self) -> Iterator[int | str]:
        return iter(self._probabilities)

    def __len__(self) -> int:
        return len(self._probabilities)

    def __repr__(self) -> str:
        return f"Distribution({self._probabilities!r})"

    def at_least(self, threshold: int) -> Fraction:
        """Probability of an integer outcome of ``threshold`` or more."""
        return sum((p for value, p in self.items() if isinstance(value, int) and value >= threshold), Fraction(0))


def binomial(trials: int, success: Fraction) -> Distribution:
    """Exact distribution of the number of successes in ``trials`` independent tries."""
    if trials < 0:
        raise ValueError("trials cannot be negative")
    return Distribution({k: comb(trials, k) * success**k * (1 - success) ** (trials - k) for k in range(trials + 1)})
