"""Characters on their own, and shooting at characters alone or in units.

Sources: the Spanish compilation of the character rules (characters as
independent models, charging lone characters) and the Polish summary of the
rules for characters (section 5, shooting at characters).  Each function names
the rule ids it implements; the rule text lives in
``docs/rules/characters-alone.yml`` and ``docs/rules/shooting-at-characters.yml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from validator.api import DieResult, Distance, RollModifier, RollNeeded, implements
from whfb6.dice import Distribution, binomial, chance_of_at_least_one, chance_of_faces, check_d6
from whfb6.rulings import ADOPTED, Rulings
from whfb6.tables import Cover, shooting_hit_chance, shooting_modifier, shooting_to_hit

SHIELDING_UNIT_MODELS = 5
"""A unit of this many models or more shields a character: in it he cannot be picked out,
and near it he may only be shot at as the closest target.  For a unit he is in, the
rulings say whether he counts towards the five (the Polish summary) or not (the English
rulebook)."""

SHIELDING_DISTANCE = 5
"""Inches: a lone character this close or closer to a shielding friendly unit is protected."""

SINGLE_MODEL_MODIFIER = -1
"""To hit for shooting at a single model, on foot or on a horse."""

CHARACTER_FACES = frozenset({6})
"""Look out, Sir!: the D6 faces on which the character is hit after all under the adopted
reading (the Polish summary); on 1-5 he dodges.  The English rulebook's variant hits him
on the face its rulings name instead."""


# --- Characters as independent models ---------------------------------------------------


class TroopType(StrEnum):
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    MONSTROUS_INFANTRY = "monstrous-infantry"
    MONSTROUS_CAVALRY = "monstrous-cavalry"
    MONSTER = "monster"
    CHARIOT = "chariot"


class LoneMovement(StrEnum):
    """Which movement rules a character on his own follows."""

    SKIRMISHER = "skirmisher"
    SINGLE_MODEL = "single-model"


@implements("characters-alone/single-model", "characters-alone/moving-alone")
def lone_character_movement(troop_type: TroopType) -> LoneMovement:
    """A lone infantry character follows the skirmisher rules in every respect; a lone
    character of any other troop type moves as a single model in the usual way."""
    return LoneMovement.SKIRMISHER if troop_type is TroopType.INFANTRY else LoneMovement.SINGLE_MODEL


class ChargeBlock(StrEnum):
    """Why a charge against a lone character may not be made (``none`` when it may)."""

    NONE = "none"
    NO_ROOM = "no-room"
    CHARGE_NOT_POSSIBLE = "charge-not-possible"


@dataclass(frozen=True)
class LoneCharge:
    may_charge: bool
    blocked_by: ChargeBlock


@implements("characters-alone/charging-lone-characters")
def charge_lone_character(room_to_reach: bool, charge_otherwise_possible: bool = True) -> LoneCharge:
    """A lone character may be charged like any other target, as long as the charge
    can be made: there must be room for the chargers to reach him."""
    if not charge_otherwise_possible:
        return LoneCharge(may_charge=False, blocked_by=ChargeBlock.CHARGE_NOT_POSSIBLE)
    if not room_to_reach:
        return LoneCharge(may_charge=False, blocked_by=ChargeBlock.NO_ROOM)
    return LoneCharge(may_charge=True, blocked_by=ChargeBlock.NONE)


# --- Shooting at characters in units ------------------------------------------------------


class HitSharing(StrEnum):
    """How the hits of shots at a unit with a character in it are shared out."""

    UNIT_TAKES_ALL = "unit-takes-all"
    RANDOMISED = "randomised"
    EVEN_SPLIT = "even-split"


def _check_unit_size(models_in_unit: int) -> None:
    if models_in_unit < 2:
        raise ValueError(
            f"a unit with a character in it has at least 2 models (the character included), not {models_in_unit}")


@dataclass(frozen=True)
class InUnitTargeting:
    may_be_picked_out: bool
    picked_out_modifier: RollModifier | None
    hits_on_unit: HitSharing
    chance_per_hit: Fraction


def _unit_shields(models_in_unit: int, rulings: Rulings) -> bool:
    """Five models shield the character: counted with him (the Polish summary) or
    besides him, rank and file only (the English rulebook)."""
    counted = models_in_unit if rulings.unit_shield_counts == "all-models" else models_in_unit - 1
    return counted >= SHIELDING_UNIT_MODELS


def _single_model_modifier(rides_monster: bool) -> int:
    """-1 for shooting at a single model, on foot or on a horse; a monster rider instead
    follows the monstrous mounts chapter (Large Target), so this rule adds nothing."""
    return 0 if rides_monster else SINGLE_MODEL_MODIFIER


@implements("shooting-at-characters/in-units", "shooting-at-characters/randomising-hits",
            "shooting-at-characters/larger-characters",
            says="Shooting at a unit that a character has joined (every model of the unit counts, the character too).")
def character_in_unit_targeting(models_in_unit: int, clearly_larger: bool = False,
                                rides_monster: bool = False, rulings: Rulings = ADOPTED) -> InUnitTargeting:
    """Shooting at a unit that a character has joined (``models_in_unit`` counts every
    model, the character too).

    With 5 models or more the character cannot be chosen as the target and the unit
    takes every hit; with fewer, each hit strikes one of the unit's models at random,
    all equally likely (``chance_per_hit`` is the chance that a single hit strikes
    him).  A character clearly larger than the unit's models may still be picked out,
    at -1 to hit unless he rides a monster.  The rulings may count only the models
    besides him, and may share the hits evenly before randomising the rest.
    """
    _check_unit_size(models_in_unit)
    if _unit_shields(models_in_unit, rulings):
        sharing, chance = HitSharing.UNIT_TAKES_ALL, Fraction(0)
    else:
        sharing = HitSharing.RANDOMISED if rulings.small_unit_hits == "randomised" else HitSharing.EVEN_SPLIT
        chance = Fraction(1, models_in_unit)
    return InUnitTargeting(
        may_be_picked_out=clearly_larger,
        picked_out_modifier=_single_model_modifier(rides_monster) if clearly_larger else None,
        hits_on_unit=sharing,
        chance_per_hit=chance,
    )


@implements("shooting-at-characters/in-units", "shooting-at-characters/randomising-hits",
            says=("Exact chance that a character in a unit takes at least one of the hits scored on the unit: none"
                  " when the unit shields him, otherwise as the hits are shared out among its models."))
def character_hit_chance(hits: int, models_in_unit: int, rulings: Rulings = ADOPTED) -> Fraction:
    """Exact chance that a character in a unit takes at least one of ``hits`` hits
    scored on the unit: none in a unit that shields him; else 1 - ((m - 1) / m) ** n
    when every hit is randomised, or, with the even split, certain once there are as
    many hits as models and n / m below that (one of n left-over hits on different
    models)."""
    if hits < 0:
        raise ValueError("the number of hits cannot be negative")
    targeting = character_in_unit_targeting(models_in_unit, rulings=rulings)
    if targeting.hits_on_unit is HitSharing.EVEN_SPLIT:
        return Fraction(1) if hits >= models_in_unit else Fraction(hits, models_in_unit)
    return chance_of_at_least_one(targeting.chance_per_hit, hits)


@implements("shooting-at-characters/in-units", "shooting-at-characters/randomising-hits",
            says=("How many of the hits strike the character: none when the unit shields him, otherwise as the"
                  " hits are shared out among its models."))
def character_hits_distribution(hits: int, models_in_unit: int, rulings: Rulings = ADOPTED) -> Distribution:
    """How many of ``hits`` hits strike the character: always none in a unit that
    shields him; binomial with chance 1/m per hit in a unit of m models when every hit
    is randomised.  With the even split each model takes n // m hits, and the n % m
    hits left over go to as many different models at random, so the character takes
    one more with a chance of (n % m) / m."""
    if hits < 0:
        raise ValueError("the number of hits cannot be negative")
    targeting = character_in_unit_targeting(models_in_unit, rulings=rulings)
    if targeting.hits_on_unit is HitSharing.UNIT_TAKES_ALL:
        return Distribution({0: Fraction(1)})
    if targeting.hits_on_unit is HitSharing.EVEN_SPLIT:
        each, left_over = divmod(hits, models_in_unit)
        if left_over == 0:
            return Distribution({each: Fraction(1)})
        extra = Fraction(left_over, models_in_unit)
        return Distribution({each: 1 - extra, each + 1: extra})
    return binomial(hits, targeting.chance_per_hit)


# --- Shooting at lone characters ----------------------------------------------------------


@dataclass(frozen=True)
class FriendlyUnit:
    """A friendly unit near a lone character: its distance in inches and its models."""

    distance: Distance
    models: int


class TargetBasis(StrEnum):
    """On what grounds a lone character may be chosen as a target."""

    UNRESTRICTED = "unrestricted"
    CLOSEST_TARGET = "closest-target"
    CLEARLY_LARGER = "clearly-larger"
    NOT_ALLOWED = "not-allowed"


@dataclass(frozen=True)
class LoneTargeting:
    protected: bool
    may_be_targeted: bool
    basis: TargetBasis
    modifier: RollModifier | None


def _check_units(friendly_units: tuple[FriendlyUnit, ...]) -> None:
    for unit in friendly_units:
        if unit.distance < 0:
            raise ValueError(f"a distance cannot be negative, not {unit.distance}")
        if unit.models < 1:
            raise ValueError(f"a unit has at least one model, not {unit.models}")


@implements("shooting-at-characters/lone-characters", "shooting-at-characters/larger-characters")
def lone_character_targeting(friendly_units: tuple[FriendlyUnit, ...], closest_possible_target: bool,
                             clearly_larger: bool = False, rides_monster: bool = False) -> LoneTargeting:
    """May a lone character be chosen as a target, and with what to-hit modifier?

    More than 5" from every friendly unit of 5 or more models he is shot at normally;
    5" or closer to one he may be targeted only as the closest possible target, unless
    he is clearly larger than that unit's models.  Shots at him take -1 to hit for a
    single model, on foot or on a horse, but not when he rides a monster.
    """
    _check_units(friendly_units)
    protected = any(unit.models >= SHIELDING_UNIT_MODELS and unit.distance <= SHIELDING_DISTANCE
                    for unit in friendly_units)
    if not protected:
        basis = TargetBasis.UNRESTRICTED
    elif closest_possible_target:
        basis = TargetBasis.CLOSEST_TARGET
    elif clearly_larger:
        basis = TargetBasis.CLEARLY_LARGER
    else:
        basis = TargetBasis.NOT_ALLOWED
    allowed = basis is not TargetBasis.NOT_ALLOWED
    return LoneTargeting(
        protected=protected,
        may_be_targeted=allowed,
        basis=basis,
        modifier=_single_model_modifier(rides_monster) if allowed else None,
    )


@dataclass(frozen=True)
class LoneShot:
    may_be_targeted: bool
    modifier: RollModifier | None
    needed: RollNeeded | None
    then: RollNeeded | None
    probability: Fraction


@implements("shooting-at-characters/lone-characters", "shooting-at-characters/larger-characters")
def lone_character_shot(
    ballistic_skill: int,
    friendly_units: tuple[FriendlyUnit, ...] = (),
    closest_possible_target: bool = False,
    clearly_larger: bool = False,
    rides_monster: bool = False,
    large_target: bool = False,
    moved: bool = False,
    long_range: bool = False,
    cover: Cover = Cover.NONE,
) -> LoneShot:
    """One shot at a lone character: whether he may be the target, the total to-hit
    modifier, the roll needed (from the shared to-hit table) and the exact chance.

    The -1 for a single model adds to the usual modifiers; a monster rider gets no -1
    and may instead be a Large Target (+1), as the monstrous mounts chapter says.
    """
    if large_target and not rides_monster:
        raise ValueError("here only a character riding a monster can count as a Large Target")
    targeting = lone_character_targeting(friendly_units, closest_possible_target, clearly_larger, rides_monster)
    if not targeting.may_be_targeted:
        return LoneShot(may_be_targeted=False, modifier=None, needed=None, then=None, probability=Fraction(0))
    modifier = shooting_modifier(
        large_target=large_target,
        moved=moved,
        long_range=long_range,
        single_character_or_skirmishers=not rides_monster,
        cover=cover,
    )
    roll = shooting_to_hit(ballistic_skill, modifier)
    return LoneShot(
        may_be_targeted=True,
        modifier=modifier,
        needed=roll.first,
        then=roll.then,
        probability=shooting_hit_chance(ballistic_skill, modifier),
    )


# --- Look out, Sir! -----------------------------------------------------------------------


@dataclass(frozen=True)
class LookOutSir:
    character_hit: bool
    ordinary_model_hit: bool


@implements("shooting-at-characters/look-out-sir",
            says=("The faces of the Look out, Sir! roll on which the character is hit after all: a 6, as the "
                  "Polish summary says, or the face the reading in force names instead (a 1 in the English "
                  "rulebook)."))
def look_out_sir_faces(rulings: Rulings = ADOPTED) -> frozenset[int]:
    """The faces of the Look out, Sir! roll on which the character is hit after all:
    a 6 as the Polish summary says (:data:`CHARACTER_FACES`), or the one face the
    rulings name instead (a 1 in the English rulebook)."""
    if rulings.look_out_sir_hit_face == 6:
        return CHARACTER_FACES
    return frozenset({rulings.look_out_sir_hit_face})


@implements("shooting-at-characters/look-out-sir")
def look_out_sir_applies(similar_size: bool, rulings: Rulings = ADOPTED) -> bool:
    """Whether the character gets the roll at all: only among models of his own size
    (Warhammer Chronicles 2004, page 113), unless the rulings give it to any character
    in a unit.  The rulings are read only for a character bigger than his unit."""
    return similar_size or not rulings.look_out_sir_similar_size_only


@implements("shooting-at-characters/look-out-sir")
def look_out_sir(die: DieResult, rulings: Rulings = ADOPTED, similar_size: bool = True) -> LookOutSir:
    """A character in a unit struck by a weapon that does not pick its target in the
    normal way (stone thrower, cannon, some spells): on a 6 he is hit as usual, on
    1-5 he dodges and an ordinary model of the unit takes the hit.  Under the English
    rulebook he is hit on a 1 and dodges on 2-6.  A character bigger than the models
    of his unit (``similar_size`` false) has no such roll: the hit is his."""
    check_d6(die)
    if not look_out_sir_applies(similar_size, rulings):
        return LookOutSir(character_hit=True, ordinary_model_hit=False)
    hit = die in look_out_sir_faces(rulings)
    return LookOutSir(character_hit=hit, ordinary_model_hit=not hit)


@implements("shooting-at-characters/look-out-sir",
            says=("Exact chance that the character is hit by at least one of the hits, each rolled for separately:"
                  " 1/6 for one hit, whichever face hits him."))
def look_out_sir_hit_chance(hits: int = 1, rulings: Rulings = ADOPTED, similar_size: bool = True) -> Fraction:
    """Exact chance that the character is hit by at least one of ``hits`` such hits,
    each rolled for separately: 1/6 for one hit, whichever face hits him."""
    if hits < 0:
        raise ValueError("the number of hits cannot be negative")
    if not look_out_sir_applies(similar_size, rulings):
        return Fraction(1 if hits else 0)
    return chance_of_at_least_one(chance_of_faces(look_out_sir_faces(rulings)), hits)
