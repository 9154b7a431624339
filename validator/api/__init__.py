"""All that a rules core may import from the engine.

A rules core is the book's own Python package that answers the questions its worked
examples ask. The engine runs it; the core never reaches into the engine's other
modules, so the engine can change inside without breaking a book. What is named
here is kept stable across minor versions (``API_VERSION`` changes when it is not);
everything else in ``validator`` is internal.

The pieces, in the order a core uses them:

- :func:`implements` marks a function of the core with the rule ids it applies. A
  page links the rule to it, and a worked example's steps show each call.
- Kinds of values (:data:`DIE`, :data:`ROLL`, :data:`COUNT`, ... and the ready-made
  aliases such as :data:`RollNeeded`) tell a page how to show a number: a die face,
  a roll needed (``4+``), a distance, a count. They go in ``typing.Annotated``.
  A value with a meaning of its own in the game is declared in its kind, and shown
  as words translated in the ``labels`` catalogue: ``Shown("roll", at_least=(7,
  "impossible"))`` for every value from 7 up, ``Shown("roll", meanings=((1,
  "automatic hit"),))`` for one value.
- :class:`Scenario` is one question: a dataclass of typed inputs, a function that
  computes a dataclass of outcomes from them and the rulings in force, and the
  implementing functions.
- :class:`Ruleset` gathers the scenarios, the adopted rulings and the ruling
  variants (other readings of the rules, by name). ``rulebook.yml`` names it as
  ``ruleset: package.module:ATTRIBUTE``.
- Values with decimals: an outcome or a step's argument may be a ``Decimal`` (exact,
  shown with all its digits in the reader's way of writing numbers: ``2,5`` in
  Spanish) or a ``float``, taken as the decimal it prints as (``2.5``; the sum
  ``0.1 + 0.2`` shows as ``0.30000000000000004``, so use ``Decimal`` where the
  arithmetic must be exact). ``nan`` and infinities are refused as a fault of the
  core. An example's stated value is compared with the decimal exactly.
- :class:`ScenarioError` is what a scenario raises (or a ``ValueError``) when an
  input is outside what the rules allow.

A complete core, as small as it gets (``mycore/__init__.py`` beside ``rulebook.yml``;
the engine finds a package there without installing it)::

    from dataclasses import dataclass
    from fractions import Fraction

    from validator.api import ROLL, Annotated, Ruleset, Scenario, implements

    @implements("combat/to-hit")
    def hit_chance(needed: int) -> Fraction:
        '''The chance that one six-sided die scores at least the number needed.'''
        return Fraction(max(0, 7 - needed), 6)

    @dataclass(frozen=True)
    class Attack:
        needed: Annotated[int, ROLL]

    @dataclass(frozen=True)
    class Chance:
        probability: Fraction

    def attack(given: Attack, rulings: object) -> Chance:
        return Chance(hit_chance(given.needed))

    @dataclass(frozen=True)
    class Rulings:
        pass

    RULESET = Ruleset(
        scenarios=(Scenario("to-hit", "Chance to hit", Attack, attack, hit_chance),),
        variants={}, adopted=Rulings())
"""

from __future__ import annotations

from typing import Annotated

from validator.api.citations import implements, rule_ids_of
from validator.api.ruleset import Ruleset, Scenario, ScenarioError
from validator.api.shown import (
    CHARACTERISTIC,
    COUNT,
    DIE,
    DISTANCE,
    MODIFIER,
    ROLL,
    Counted,
    DieResult,
    Distance,
    ProfileValue,
    RollModifier,
    RollNeeded,
    Shown,
    WholeDistance,
)
from validator.api.trace import Step, tracing

API_VERSION = 2
"""Raised when a name here changes in a way that breaks a core written for the previous one
(2: the kind and alias of one game's save left the engine, a core declares what its values mean,
and distances are in the book's unit: Distance and WholeDistance)."""

__all__ = (
    "API_VERSION",
    "CHARACTERISTIC",
    "COUNT",
    "DIE",
    "DISTANCE",
    "MODIFIER",
    "ROLL",
    "Annotated",
    "Counted",
    "DieResult",
    "Distance",
    "ProfileValue",
    "RollModifier",
    "RollNeeded",
    "Ruleset",
    "Scenario",
    "ScenarioError",
    "Shown",
    "Step",
    "WholeDistance",
    "implements",
    "rule_ids_of",
    "tracing",
)
