"""Exact dice arithmetic: every probability is a :class:`~fractions.Fraction`.

Floating point would make ``1 - (2/3)**3`` print as ``0.7037037037037037`` and
compare unequal to the stated ``19/27`` of a worked example; fractions keep the
examples exact and the comparisons honest.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

D6_FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


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
