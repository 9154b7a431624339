"""Scenarios of the chapter on characters joining, moving with and leaving units."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from annotated_types import Interval, MaxLen, MinLen

from validator.api import COUNT, DISTANCE, Scenario
from whfb6 import units as cu
from whfb6.rulings import Rulings
from whfb6.scenarios.types import Characteristic, Count

Inches = Annotated[int, Interval(ge=0, le=72), DISTANCE]
Spaces = Annotated[int, Interval(ge=1, le=200), COUNT]


@dataclass(frozen=True)
class JoinGiven:
    mount: cu.Mount
    unit: cu.UnitKind
    unit_fleeing: bool = False
    unit_engaged: bool = False
    chariot_characters_in_unit: Count = 0


def _may_join(given: JoinGiven, rulings: Rulings) -> cu.JoinVerdict:
    return cu.may_join(given.mount, given.unit, given.unit_fleeing, given.unit_engaged,
                       given.chariot_characters_in_unit, rulings)


@dataclass(frozen=True)
class CharacterUnitGiven:
    mounts: Annotated[tuple[cu.Mount, ...], MinLen(2), MaxLen(50)]
    holds_captured_standard: bool = False


def _unit_of_characters(given: CharacterUnitGiven, _rulings: Rulings) -> cu.CharacterUnitVerdict:
    return cu.may_form_unit_of_characters(given.mounts, given.holds_captured_standard)


@dataclass(frozen=True)
class JoinMoveGiven:
    character_allowance: Inches
    distance_to_contact: Inches
    unit_has_moved: bool


def _join_move(given: JoinMoveGiven, _rulings: Rulings) -> cu.JoinMove:
    return cu.join_move(given.character_allowance, given.distance_to_contact, given.unit_has_moved)


@dataclass(frozen=True)
class PlacementGiven:
    unit_spaces: Spaces
    spaces_covered: Spaces
    room_in_front_rank: bool


def _placement(given: PlacementGiven, _rulings: Rulings) -> cu.Placement:
    return cu.place_in_unit(given.unit_spaces, given.spaces_covered, given.room_in_front_rank)


@dataclass(frozen=True)
class SecondRankGiven:
    engaged_by_flank_or_rear_charge: bool
    special_rule_lets_him_fight: bool = False


def _second_rank(given: SecondRankGiven, _rulings: Rulings) -> cu.SecondRankLimits:
    return cu.second_rank_limits(given.engaged_by_flank_or_rear_charge, given.special_rule_lets_him_fight)


@dataclass(frozen=True)
class JointMovementGiven:
    unit_movement: Characteristic
    character_movements: Annotated[tuple[Characteristic, ...], MinLen(1), MaxLen(20)]
    """Each character's ground Movement: a flyer cannot fly with the unit."""
    character_flies: bool = False


def _joint_movement(given: JointMovementGiven, _rulings: Rulings) -> cu.JointMovement:
    return cu.joint_move(given.unit_movement, given.character_movements, given.character_flies)


@dataclass(frozen=True)
class ChangePlaceGiven:
    state: cu.UnitState
    character_movement: Characteristic
    already_fighting: bool = False


def _change_place(given: ChangePlaceGiven, _rulings: Rulings) -> cu.PlaceChange:
    return cu.change_place(given.state, given.character_movement, given.already_fighting)


@dataclass(frozen=True)
class LeaveGiven:
    in_movement_phase: bool = True
    joined_this_turn: bool = False
    unit_cannot_move: bool = False
    forced_move: cu.ForcedMove | None = None
    in_close_combat: bool = False
    character_flies: bool = False


def _may_leave(given: LeaveGiven, _rulings: Rulings) -> cu.LeaveVerdict:
    return cu.may_leave(given.in_movement_phase, given.joined_this_turn, given.unit_cannot_move,
                        given.forced_move, given.in_close_combat, given.character_flies)


@dataclass(frozen=True)
class PursuitGiven:
    unit_moves: bool
    explicit_exception: bool = False


def _pursuit(given: PursuitGiven, _rulings: Rulings) -> cu.PursuitChoice:
    return cu.pursuit_or_overrun(given.unit_moves, given.explicit_exception)


@dataclass(frozen=True)
class ChargeOutGiven:
    unit_declares_charge: bool
    character_flies: bool = False
    forced_by_special_rule: bool = False


def _charge_out(given: ChargeOutGiven, rulings: Rulings) -> cu.ChargeFromUnit:
    return cu.charge_from_unit(given.unit_declares_charge, given.character_flies,
                               given.forced_by_special_rule, rulings)


@dataclass(frozen=True)
class DestroyedGiven:
    was_fleeing: bool


def _destroyed(given: DestroyedGiven, _rulings: Rulings) -> cu.UnitDestroyed:
    return cu.after_unit_destroyed(given.was_fleeing)


@dataclass(frozen=True)
class ChariotUnitGiven:
    rank_and_file_chariots: Count
    chariot_destroyed: bool = False


def _chariot_unit_character(given: ChariotUnitGiven, _rulings: Rulings) -> cu.InChariotUnit:
    return cu.character_in_chariot_unit(given.rank_and_file_chariots, given.chariot_destroyed)


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("unit-may-join", "Whether a character may join a unit, and why not",
             JoinGiven, _may_join, cu.may_join),
    Scenario("unit-of-characters", "Whether characters may form a unit among themselves",
             CharacterUnitGiven, _unit_of_characters, cu.may_form_unit_of_characters),
    Scenario("unit-join-move", "Movement left to a joining character and to the unit he joins",
             JoinMoveGiven, _join_move, cu.join_move),
    Scenario("unit-placement", "The rank a joining character takes and the spaces he fills",
             PlacementGiven, _placement, cu.place_in_unit),
    Scenario("unit-second-rank", "What a character in the second rank may not do",
             SecondRankGiven, _second_rank, cu.second_rank_limits),
    Scenario("unit-joint-movement", "The Movement of a unit that includes characters",
             JointMovementGiven, _joint_movement, (cu.joint_move, cu.joint_movement)),
    Scenario("unit-change-place", "Whether a character may change place inside his unit",
             ChangePlaceGiven, _change_place, cu.change_place),
    Scenario("unit-may-leave", "Whether a character may leave his unit now, and why not",
             LeaveGiven, _may_leave, cu.may_leave),
    Scenario("unit-pursuit", "A character and his unit's pursuit or overrun",
             PursuitGiven, _pursuit, cu.pursuit_or_overrun),
    Scenario("unit-charge-out", "A character's charge while he is part of a unit",
             ChargeOutGiven, _charge_out, cu.charge_from_unit),
    Scenario("unit-destroyed", "A character whose unit is destroyed",
             DestroyedGiven, _destroyed, cu.after_unit_destroyed),
    Scenario("chariot-unit-character", "A character in a unit of chariots: Look out, Sir! and leaving it",
             ChariotUnitGiven, _chariot_unit_character, cu.character_in_chariot_unit),
)
