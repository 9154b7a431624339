"""Scenarios of the chapters implemented in ``whfb6.characters`` and
``whfb6.challenges``: characters alone, shooting at characters, close
combat and challenges."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from annotated_types import Ge, Interval, MaxLen, MinLen

from validator.api import COUNT, DISTANCE, Scenario
from whfb6 import challenges as ch
from whfb6 import characters as chars
from whfb6 import sizes
from whfb6.dice import Distribution
from whfb6.rulings import Rulings
from whfb6.scenarios.types import D6, Characteristic, Count, Hits, Probability
from whfb6.tables import Cover

UnitModels = Annotated[int, Interval(ge=2, le=1000), COUNT]
Inches = Annotated[float, Ge(0), DISTANCE]

# --- Characters alone ---------------------------------------------------------------------


@dataclass(frozen=True)
class MovementGiven:
    troop_type: chars.TroopType


@dataclass(frozen=True)
class MovementOutcome:
    moves_as: chars.LoneMovement


def _lone_movement(given: MovementGiven, _rulings: Rulings) -> MovementOutcome:
    return MovementOutcome(moves_as=chars.lone_character_movement(given.troop_type))


@dataclass(frozen=True)
class ChargeGiven:
    room_to_reach: bool
    charge_otherwise_possible: bool = True


def _lone_charge(given: ChargeGiven, _rulings: Rulings) -> chars.LoneCharge:
    return chars.charge_lone_character(given.room_to_reach, given.charge_otherwise_possible)


# --- Shooting at characters -----------------------------------------------------------------


@dataclass(frozen=True)
class InUnitGiven:
    models_in_unit: UnitModels
    clearly_larger: bool = False
    rides_monster: bool = False


def _in_unit(given: InUnitGiven, rulings: Rulings) -> chars.InUnitTargeting:
    return chars.character_in_unit_targeting(given.models_in_unit, given.clearly_larger, given.rides_monster,
                                             rulings)


@dataclass(frozen=True)
class UnitHitsGiven:
    hits: Hits
    models_in_unit: UnitModels


@dataclass(frozen=True)
class HitChance:
    probability: Fraction
    distribution: Distribution


def _unit_hits(given: UnitHitsGiven, rulings: Rulings) -> HitChance:
    return HitChance(
        probability=chars.character_hit_chance(given.hits, given.models_in_unit, rulings),
        distribution=chars.character_hits_distribution(given.hits, given.models_in_unit, rulings),
    )


@dataclass(frozen=True)
class NearbyUnit:
    distance: Inches
    models: Annotated[int, Ge(1), COUNT]


@dataclass(frozen=True)
class LoneTargetGiven:
    friendly_units: Annotated[tuple[NearbyUnit, ...], MaxLen(50)] = ()
    closest_possible_target: bool = False
    clearly_larger: bool = False
    rides_monster: bool = False


def _units(units: tuple[NearbyUnit, ...]) -> tuple[chars.FriendlyUnit, ...]:
    return tuple(chars.FriendlyUnit(distance=unit.distance, models=unit.models) for unit in units)


def _lone_target(given: LoneTargetGiven, _rulings: Rulings) -> chars.LoneTargeting:
    return chars.lone_character_targeting(_units(given.friendly_units), given.closest_possible_target,
                                          given.clearly_larger, given.rides_monster)


@dataclass(frozen=True)
class LoneShotGiven:
    ballistic_skill: Characteristic
    friendly_units: Annotated[tuple[NearbyUnit, ...], MaxLen(50)] = ()
    closest_possible_target: bool = False
    clearly_larger: bool = False
    rides_monster: bool = False
    large_target: bool = False
    moved: bool = False
    long_range: bool = False
    cover: Cover = Cover.NONE


def _lone_shot(given: LoneShotGiven, _rulings: Rulings) -> chars.LoneShot:
    return chars.lone_character_shot(
        given.ballistic_skill,
        _units(given.friendly_units),
        closest_possible_target=given.closest_possible_target,
        clearly_larger=given.clearly_larger,
        rides_monster=given.rides_monster,
        large_target=given.large_target,
        moved=given.moved,
        long_range=given.long_range,
        cover=given.cover,
    )


@dataclass(frozen=True)
class LookOutDieGiven:
    die: D6
    similar_size: bool = True
    """False for a character bigger than the models of his unit (a rider among foot
    troops, a monster's base among cavalry): no Look out, Sir! for him."""


def _look_out_sir(given: LookOutDieGiven, rulings: Rulings) -> chars.LookOutSir:
    return chars.look_out_sir(given.die, rulings, given.similar_size)


@dataclass(frozen=True)
class LookOutHitsGiven:
    hits: Hits = 1
    similar_size: bool = True


def _look_out_sir_chance(given: LookOutHitsGiven, rulings: Rulings) -> Probability:
    return Probability(probability=chars.look_out_sir_hit_chance(given.hits, rulings, given.similar_size))


# --- Close combat and challenges ----------------------------------------------------------


@dataclass(frozen=True)
class AttacksGiven:
    attacks: Annotated[int, Interval(ge=1, le=20), COUNT]
    on_each_model: Annotated[tuple[Count, ...], MinLen(1), MaxLen(20)]
    declared_before_rolling: bool = True


def _split_attacks(given: AttacksGiven, _rulings: Rulings) -> ch.AttackDeclaration:
    return ch.declare_character_attacks(given.attacks, given.on_each_model, given.declared_before_rolling)


@dataclass(frozen=True)
class EligibleGiven:
    kind: ch.ModelKind
    fighting: bool


@dataclass(frozen=True)
class EligibleOutcome:
    may_take_part: bool


def _eligible(given: EligibleGiven, _rulings: Rulings) -> EligibleOutcome:
    return EligibleOutcome(may_take_part=ch.may_take_part(ch.Fighter(given.kind, given.fighting)))


@dataclass(frozen=True)
class Model:
    kind: ch.ModelKind
    fighting: bool


SideModels = Annotated[tuple[Model, ...], MaxLen(100)]


def _fighters(models: tuple[Model, ...]) -> tuple[ch.Fighter, ...]:
    return tuple(ch.Fighter(model.kind, model.fighting) for model in models)


@dataclass(frozen=True)
class IssueGiven:
    player_in_turn: SideModels
    opponent: SideModels
    player_in_turn_challenges: bool
    opponent_challenges: bool = False
    challenges_already_in_combat: Annotated[int, Interval(ge=0, le=1), COUNT] = 0


def _issue(given: IssueGiven, _rulings: Rulings) -> ch.ChallengeOffer:
    return ch.issue_challenge(_fighters(given.player_in_turn), _fighters(given.opponent),
                              given.player_in_turn_challenges, given.opponent_challenges,
                              given.challenges_already_in_combat)


@dataclass(frozen=True)
class ResponseGiven:
    challenged: Annotated[tuple[Model, ...], MinLen(1), MaxLen(100)]
    response: ch.Response
    accepter: Count | None = None
    withdrawn: Count | None = None
    lone_character: bool = False


def _respond(given: ResponseGiven, _rulings: Rulings) -> ch.ChallengeResponse:
    return ch.respond_to_challenge(_fighters(given.challenged), given.response, given.accepter,
                                   given.withdrawn, given.lone_character)


@dataclass(frozen=True)
class PlacementGiven:
    very_large_models: bool


def _placement(given: PlacementGiven, _rulings: Rulings) -> ch.DuelPlacement:
    return ch.duel_placement(given.very_large_models)


@dataclass(frozen=True)
class AttackGiven:
    attacker_in_duel: bool
    target_in_duel: bool


@dataclass(frozen=True)
class AttackOutcome:
    may_attack: bool


def _may_attack(given: AttackGiven, _rulings: Rulings) -> AttackOutcome:
    return AttackOutcome(may_attack=ch.may_attack(given.attacker_in_duel, given.target_in_duel))


@dataclass(frozen=True)
class ChallengeResolutionGiven:
    wounds_left: Annotated[int, Ge(1)]
    unsaved_wounds: tuple[Annotated[int, Ge(1)], ...] = ()
    """The wounds each unsaved hit caused (a Killing Blow aside), once multiplied."""
    killing_blows: Count = 0


def _challenge_resolution(given: ChallengeResolutionGiven, _rulings: Rulings) -> ch.ChallengeResolution:
    return ch.challenge_combat_resolution(given.wounds_left, given.unsaved_wounds, given.killing_blows)


@dataclass(frozen=True)
class CharacterSizeGiven:
    mount: sizes.Mount
    mount_wounds: Count = 0
    base_mm: Annotated[int, Interval(ge=1, le=300)] = 20
    large_target: bool = False
    unit: sizes.Mount = sizes.Mount.ON_FOOT
    """What the models of his unit (or the unit beside him) ride."""
    unit_mount_wounds: Count = 0
    unit_base_mm: Annotated[int, Interval(ge=1, le=300)] = 20


@dataclass(frozen=True)
class CharacterSizeOutcome:
    character_size: str
    unit_size: str
    bigger_than_unit: bool
    similar_size: bool
    look_out_sir: bool
    """Whether a hit from a cannon or the like may be passed on by the roll."""


def _character_size(given: CharacterSizeGiven, rulings: Rulings) -> CharacterSizeOutcome:
    character = sizes.character_size(given.mount, given.mount_wounds, given.base_mm, given.large_target)
    unit = sizes.character_size(given.unit, given.unit_mount_wounds, given.unit_base_mm)
    verdict = sizes.against_unit(character, unit)
    return CharacterSizeOutcome(character_size=character.name.lower().replace("_", "-"),
                                unit_size=unit.name.lower().replace("_", "-"),
                                bigger_than_unit=verdict.bigger_than_unit, similar_size=verdict.similar_size,
                                look_out_sir=chars.look_out_sir_applies(verdict.similar_size, rulings))


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("lone-movement", "Which movement rules a lone character follows",
             MovementGiven, _lone_movement, chars.lone_character_movement),
    Scenario("lone-charge", "Whether a lone character may be charged",
             ChargeGiven, _lone_charge, chars.charge_lone_character),
    Scenario("shooting-character-in-unit", "Whether a character in a unit may be shot at, and how hits are shared",
             InUnitGiven, _in_unit, chars.character_in_unit_targeting),
    Scenario("shooting-character-in-unit-hits", "Exact chance and distribution of hits on a character in a unit",
             UnitHitsGiven, _unit_hits, chars.character_hit_chance),
    Scenario("shooting-lone-character-target", "Whether a lone character may be chosen as a target",
             LoneTargetGiven, _lone_target, chars.lone_character_targeting),
    Scenario("shooting-lone-character-to-hit", "The roll and exact chance to hit a lone character",
             LoneShotGiven, _lone_shot, chars.lone_character_shot),
    Scenario("shooting-look-out-sir", "The Look out, Sir! roll for a character in a unit",
             LookOutDieGiven, _look_out_sir, chars.look_out_sir),
    Scenario("shooting-look-out-sir-chance", "Exact chance that Look out, Sir! fails for at least one of n hits",
             LookOutHitsGiven, _look_out_sir_chance, chars.look_out_sir_hit_chance),
    Scenario("challenge-split-attacks", "A character's attacks split among the models in contact",
             AttacksGiven, _split_attacks, ch.declare_character_attacks),
    Scenario("challenge-eligible", "Whether a model may issue or accept a challenge",
             EligibleGiven, _eligible, ch.may_take_part),
    Scenario("challenge-issue", "Who may issue the challenge of one combat",
             IssueGiven, _issue, ch.issue_challenge),
    Scenario("challenge-response", "Accepting or refusing a challenge, and who withdraws",
             ResponseGiven, _respond, ch.respond_to_challenge),
    Scenario("challenge-placement", "Where the duellists are placed",
             PlacementGiven, _placement, ch.duel_placement),
    Scenario("challenge-may-attack", "Whether a model may attack another while a duel is fought",
             AttackGiven, _may_attack, ch.may_attack),
    Scenario("challenge-combat-resolution", "What the wounds on a character in a challenge add to combat resolution",
             ChallengeResolutionGiven, _challenge_resolution, ch.challenge_combat_resolution),
    Scenario("character-size", "Whether a character counts as bigger than his unit, from what each rides",
             CharacterSizeGiven, _character_size, (sizes.character_size, sizes.against_unit)),
)
