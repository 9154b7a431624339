"""Characters in units: joining a unit, moving with it and leaving it.

Sources: the Spanish compilation of the character rules (rulebook pages 95-101
and 106) and the Polish summary of the rules for characters (pages 23-24).  Each
function names the rule ids it implements; the rule text lives in
``docs/rules/characters-in-units.yml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from validator.api import Counted, ProfileValue, WholeDistance, implements
from whfb6.rulings import ADOPTED, Rulings


class Mount(StrEnum):
    """What the character stands or rides on."""

    ON_FOOT = "on-foot"
    CAVALRY = "cavalry"
    """A cavalry steed: a horse or a beast of that size."""
    CHARIOT = "chariot"
    MONSTER = "monster"
    """A monstrous mount: any creature bigger than a horse."""


class UnitKind(StrEnum):
    """The unit a character wants to join."""

    TROOPS = "troops"
    """Any ordinary unit of troops that none of the other kinds describes."""
    FLYING = "flying"
    LONE_MONSTER = "lone-monster"
    """A monster fighting on its own, such as a giant: it cannot form a unit."""
    CHARIOTS = "chariots"


class JoinBar(StrEnum):
    """Why a character may not join a unit."""

    FLYING_UNIT = "flying-unit"
    LONE_MONSTER = "lone-monster"
    CHARIOT_JOINS_ONLY_CHARIOTS = "chariot-joins-only-chariots"
    CHARIOT_CHARACTER_ALREADY_JOINED = "chariot-character-already-joined"
    CHARIOTS_TAKE_ONLY_CHARIOT_CHARACTERS = "chariots-take-only-chariot-characters"
    UNIT_FLEEING = "unit-fleeing"
    UNIT_ENGAGED = "unit-engaged"


CLOSED_UNIT_KINDS: Mapping[UnitKind, JoinBar] = MappingProxyType({
    UnitKind.FLYING: JoinBar.FLYING_UNIT,
    UnitKind.LONE_MONSTER: JoinBar.LONE_MONSTER,
})
"""Units no character may ever join, whatever he rides (even if he flies himself)."""

MAX_CHARIOT_CHARACTERS_PER_CHARIOT_UNIT = 1
"""Under the Spanish compilation's earlier reading, a unit of chariots takes a single
character riding a chariot (the official answer sets no such limit)."""

MOUNTS_THAT_FORM_CHARACTER_UNITS = frozenset({Mount.ON_FOOT, Mount.CAVALRY})
"""Only characters on foot or on cavalry steeds may form units among themselves."""


@dataclass(frozen=True)
class JoinVerdict:
    may_join: bool
    reasons: tuple[JoinBar, ...]
    """Every restriction that forbids the join, in the order of the rule text; empty when allowed."""
    may_charge_into_its_combat: bool | None = None
    """For a unit engaged in close combat: he may still enter that fight by charging
    the enemy unit in the usual way.  None when the unit is not engaged."""


@implements("characters-in-units/which-units")
def may_join(
    mount: Mount,
    unit: UnitKind,
    unit_fleeing: bool = False,
    unit_engaged: bool = False,
    chariot_characters_in_unit: int = 0,
    rulings: Rulings = ADOPTED,
) -> JoinVerdict:
    """Whether a character may join a unit, and every reason why not.

    By default any unit will do, whatever the character rides and however big
    the unit.  Never a flying unit or a lone monster; a character in a chariot
    only a unit of chariots, and a unit of chariots only a character in a chariot
    (Warhammer Chronicles 2004, page 113; under the Spanish compilation's earlier
    reading, any character, but one chariot character at most); never a unit that
    is fleeing or engaged in close combat (he may still charge its enemy).
    """
    if chariot_characters_in_unit < 0:
        raise ValueError("the number of chariot characters in the unit cannot be negative")
    if chariot_characters_in_unit and unit is not UnitKind.CHARIOTS:
        raise ValueError("only a unit of chariots can hold a character riding a chariot")
    reasons: list[JoinBar] = []
    if unit in CLOSED_UNIT_KINDS:
        reasons.append(CLOSED_UNIT_KINDS[unit])
    if mount is Mount.CHARIOT and unit is not UnitKind.CHARIOTS:
        reasons.append(JoinBar.CHARIOT_JOINS_ONLY_CHARIOTS)
    elif unit is UnitKind.CHARIOTS:
        if rulings.chariot_unit_joiners == "chariot-characters-only":
            if mount is not Mount.CHARIOT:
                reasons.append(JoinBar.CHARIOTS_TAKE_ONLY_CHARIOT_CHARACTERS)
        elif mount is Mount.CHARIOT and chariot_characters_in_unit >= MAX_CHARIOT_CHARACTERS_PER_CHARIOT_UNIT:
            reasons.append(JoinBar.CHARIOT_CHARACTER_ALREADY_JOINED)
    if unit_fleeing:
        reasons.append(JoinBar.UNIT_FLEEING)
    if unit_engaged:
        reasons.append(JoinBar.UNIT_ENGAGED)
    return JoinVerdict(may_join=not reasons, reasons=tuple(reasons),
                       may_charge_into_its_combat=True if unit_engaged else None)


@dataclass(frozen=True)
class CharacterUnitVerdict:
    may_form: bool
    barred_mounts: tuple[Mount, ...]
    """The mounts, each named once, that keep these characters from forming a unit."""
    each_may_leave: bool | None = None
    """Each character may leave the unit as he would any other; None when no unit forms."""
    must_name_standard_owner: bool | None = None
    """With a captured enemy standard, the player names the character who owns it;
    None when no unit forms."""
    may_still_join_other_units: bool = True
    """Even characters barred from such a unit may join other units as usual."""


@implements("characters-in-units/units-of-characters")
def may_form_unit_of_characters(mounts: tuple[Mount, ...],
                                holds_captured_standard: bool = False) -> CharacterUnitVerdict:
    """Whether these characters may band together as a unit of their own.

    Only characters on foot or on cavalry steeds may; one on a chariot or a
    monster may not, though he may still join other units.  Each may leave such
    a unit as he would leave any other, and a captured enemy standard it holds
    must be given to one of them by name.
    """
    if len(mounts) < 2:
        raise ValueError("a unit of characters needs at least two characters")
    barred = tuple(dict.fromkeys(m for m in mounts if m not in MOUNTS_THAT_FORM_CHARACTER_UNITS))
    if barred and holds_captured_standard:
        raise ValueError("characters who may not form a unit hold no standard as one")
    forms = not barred
    return CharacterUnitVerdict(may_form=forms, barred_mounts=barred,
                                each_may_leave=True if forms else None,
                                must_name_standard_owner=holds_captured_standard if forms else None)


@dataclass(frozen=True)
class JoinMove:
    movement_left: WholeDistance
    """The character's movement left once in contact; stepping into the front rank costs nothing."""
    unit_may_move_at_most: WholeDistance | None
    """How far a unit that has not moved yet may still move; None when it has already moved."""


@implements("characters-in-units/joining")
def join_move(character_allowance: int, distance_to_contact: int, unit_has_moved: bool) -> JoinMove:
    """What joining costs the character and the unit, in inches.

    Touching the unit anywhere joins it, and the character then goes into the
    front rank for free.  A unit that has not moved yet may move no further than
    the character's movement left: it lost the rest waiting for him.
    """
    if character_allowance < 0:
        raise ValueError("the character's move allowance cannot be negative")
    if not 0 <= distance_to_contact <= character_allowance:
        raise ValueError(f"the distance to contact must be between 0 and the allowance of {character_allowance}")
    left = character_allowance - distance_to_contact
    return JoinMove(movement_left=left, unit_may_move_at_most=None if unit_has_moved else left)


class Rank(StrEnum):
    FRONT = "front"
    SECOND = "second"


@dataclass(frozen=True)
class Placement:
    rank: Rank
    spaces_filled: Counted
    spaces_counted_for_ranks: Counted
    """The spaces of the joint unit that count for its ranks: his count like its models'."""


@implements("characters-in-units/place-in-the-unit")
def place_in_unit(unit_spaces: int, spaces_covered: int, room_in_front_rank: bool) -> Placement:
    """Where a joining character stands and how many spaces he fills.

    He goes to the front rank, or to the second when the command group and other
    characters leave no room.  He fills as many spaces as models of the unit his
    base covers, and they count for the unit's ranks.
    """
    if unit_spaces < 1:
        raise ValueError("the unit fills at least one space")
    if spaces_covered < 1:
        raise ValueError("the character's base covers at least one space")
    return Placement(
        rank=Rank.FRONT if room_in_front_rank else Rank.SECOND,
        spaces_filled=spaces_covered,
        spaces_counted_for_ranks=unit_spaces + spaces_covered,
    )


@dataclass(frozen=True)
class SecondRankLimits:
    may_fight: bool
    may_use_magic_items: bool
    may_use_magic: bool
    unit_may_use_his_leadership: bool


@implements("characters-in-units/second-rank")
def second_rank_limits(
    engaged_by_flank_or_rear_charge: bool, special_rule_lets_him_fight: bool = False
) -> SecondRankLimits:
    """What a character in the second rank may not do.

    He does not fight (not even with a spear) unless a flank or rear charge
    engages him or his own rules say otherwise; he uses no magic items and no
    magic, and the unit may not use his Leadership for any test.
    """
    return SecondRankLimits(
        may_fight=engaged_by_flank_or_rear_charge or special_rule_lets_him_fight,
        may_use_magic_items=False,
        may_use_magic=False,
        unit_may_use_his_leadership=False,
    )


@dataclass(frozen=True)
class JointMovement:
    movement: ProfileValue
    character_may_fly: bool | None
    """A character who flies, or rides a flyer, may not fly while he moves with the
    unit (False); None when no character in the unit flies."""


@implements("characters-in-units/moving-together")
def joint_move(unit_movement: int, character_movements: tuple[int, ...],
               character_flies: bool = False) -> JointMovement:
    """The unit's Movement with its characters, and whether a flying one may fly:
    he may not, he uses his ground Movement and keeps the unit's pace."""
    return JointMovement(movement=joint_movement(unit_movement, character_movements),
                         character_may_fly=False if character_flies else None)


@implements("characters-in-units/moving-together")
def joint_movement(unit_movement: int, character_movements: tuple[int, ...]) -> int:
    """The Movement of a unit with characters: the lowest of all its members.

    It holds for every move, charges and compulsory moves included.  A flying
    character counts with his ground Movement, since he cannot fly with the unit.
    """
    if not character_movements:
        raise ValueError("name the Movement of at least one character in the unit")
    if min(unit_movement, *character_movements) < 1:
        raise ValueError("a Movement characteristic is at least 1")
    return min(unit_movement, *character_movements)


class UnitState(StrEnum):
    """What the unit is doing while the character wants to change place in it."""

    MOVING = "moving"
    """A normal move of its own, marching included."""
    CHARGING = "charging"
    COMPULSORY_MOVE = "compulsory-move"
    ENGAGED = "engaged"


class PlaceChangeRule(StrEnum):
    WITHIN_HIS_MOVEMENT = "within-his-movement"
    MAKE_WAY = "make-way"
    NOT_ALLOWED = "not-allowed"


@dataclass(frozen=True)
class PlaceChange:
    allowed: bool
    rule: PlaceChangeRule
    max_distance: WholeDistance | None
    """The most he may move inside the unit; None when no distance applies."""


@implements("characters-in-units/moving-inside-the-unit", "characters-in-units/moving-together")
def change_place(state: UnitState, character_movement: int, already_fighting: bool = False) -> PlaceChange:
    """Whether a character may change his place inside his unit, and how far.

    During the unit's own move he may, within his own Movement (a unit marching
    twice its Movement gives him nothing extra).  While it charges or moves
    compulsorily he may not.  In an engaged unit he may move to fight under Make
    Way, but a character who already fights stays where he is.
    """
    if character_movement < 1:
        raise ValueError("a Movement characteristic is at least 1")
    if already_fighting and state is not UnitState.ENGAGED:
        raise ValueError("only a character in an engaged unit can already be fighting")
    if state is UnitState.MOVING:
        return PlaceChange(True, PlaceChangeRule.WITHIN_HIS_MOVEMENT, character_movement)
    if state is UnitState.ENGAGED and not already_fighting:
        return PlaceChange(True, PlaceChangeRule.MAKE_WAY, None)
    return PlaceChange(False, PlaceChangeRule.NOT_ALLOWED, None)


class ForcedMove(StrEnum):
    """A move the unit is bound to, during which nobody leaves it."""

    COMPULSORY_MOVE = "compulsory-move"
    CHARGE = "charge"
    PURSUIT = "pursuit"
    OVERRUN = "overrun"


class LeaveBar(StrEnum):
    NOT_MOVEMENT_PHASE = "not-movement-phase"
    JOINED_THIS_TURN = "joined-this-turn"
    UNIT_CANNOT_MOVE = "unit-cannot-move"
    COMPULSORY_MOVE = "compulsory-move"
    CHARGE = "charge"
    PURSUIT = "pursuit"
    OVERRUN = "overrun"
    CLOSE_COMBAT = "close-combat"


@dataclass(frozen=True)
class LeaveVerdict:
    may_leave: bool
    reasons: tuple[LeaveBar, ...]
    """Every restriction that keeps him in the unit, in the order of the rule text."""
    may_use_flying_move: bool | None = None
    """For a flying character who may leave: he may fly out, in the remaining moves
    part of the Movement phase.  None when he does not fly or may not leave."""


@implements("characters-in-units/leaving")
def may_leave(
    in_movement_phase: bool = True,
    joined_this_turn: bool = False,
    unit_cannot_move: bool = False,
    forced_move: ForcedMove | None = None,
    in_close_combat: bool = False,
    character_flies: bool = False,
) -> LeaveVerdict:
    """Whether a character may leave his unit now, and every reason why not.

    He leaves in the Movement phase, but not in the turn he joined this unit,
    not while the unit may not move (a spell, a rally this turn), not during a
    compulsory move, charge, pursuit or overrun, and not from the start of a
    close combat until it and its flee, pursuit and overrun moves are resolved.
    A flying character who may leave may use his flying move to do so.
    """
    reasons: list[LeaveBar] = []
    if not in_movement_phase:
        reasons.append(LeaveBar.NOT_MOVEMENT_PHASE)
    if joined_this_turn:
        reasons.append(LeaveBar.JOINED_THIS_TURN)
    if unit_cannot_move:
        reasons.append(LeaveBar.UNIT_CANNOT_MOVE)
    if forced_move is not None:
        reasons.append(LeaveBar(forced_move.value))
    if in_close_combat:
        reasons.append(LeaveBar.CLOSE_COMBAT)
    return LeaveVerdict(may_leave=not reasons, reasons=tuple(reasons),
                        may_use_flying_move=True if character_flies and not reasons else None)


@dataclass(frozen=True)
class PursuitChoice:
    moves_with_unit: bool
    may_move_alone: bool


@implements("characters-in-units/pursuit-and-overrun")
def pursuit_or_overrun(unit_moves: bool, explicit_exception: bool = False) -> PursuitChoice:
    """A character and his unit's pursuit or overrun.

    When the unit pursues or overruns he goes with it, since he may not leave it
    during that move.  He never pursues or overruns without it unless a rule
    explicitly allows him to.
    """
    return PursuitChoice(moves_with_unit=unit_moves, may_move_alone=not unit_moves and explicit_exception)


@dataclass(frozen=True)
class ChargeFromUnit:
    must_charge_with_unit: bool
    may_charge_out: bool
    may_use_flying_move: bool
    unit_may_declare_charge: bool | None
    """Whether the unit may still declare a charge in this Movement phase once he
    has charged out; None when he may not charge out."""
    unit_may_move_normally: bool | None = None
    """Once he has charged out, the unit may still make its normal move; None when
    he may not charge out."""


@implements("characters-in-units/charging-out")
def charge_from_unit(
    unit_declares_charge: bool,
    character_flies: bool = False,
    forced_by_special_rule: bool = False,
    rulings: Rulings = ADOPTED,
) -> ChargeFromUnit:
    """A character's charge while he is part of a unit.

    If the unit declares a charge he charges with it.  If it declares none, the
    adopted reading lets him declare a charge of his own and so leave the unit,
    with his flying move if he has one; the unit then moves normally but declares
    no charge in that Movement phase.  Under the Polish summary he may charge out
    only when a special rule such as frenzy forces him to.
    """
    if unit_declares_charge:
        return ChargeFromUnit(must_charge_with_unit=True, may_charge_out=False, may_use_flying_move=False,
                              unit_may_declare_charge=None)
    allowed = rulings.character_may_charge_out_of_unit or forced_by_special_rule
    return ChargeFromUnit(
        must_charge_with_unit=False,
        may_charge_out=allowed,
        may_use_flying_move=allowed and character_flies,
        unit_may_declare_charge=False if allowed else None,
        unit_may_move_normally=True if allowed else None,
    )


@dataclass(frozen=True)
class UnitDestroyed:
    lone_character: bool
    may_try_to_rally: bool


@implements("characters-in-units/unit-destroyed")
def after_unit_destroyed(was_fleeing: bool) -> UnitDestroyed:
    """A character whose unit is wiped out is a lone character at once; if he was
    fleeing with it, he is now a unit of his own and may try to rally."""
    return UnitDestroyed(lone_character=True, may_try_to_rally=was_fleeing)


CHARIOTS_FOR_LOOK_OUT_SIR = 5
"""Rank-and-file chariots a unit needs before a character in it may roll "Look out, Sir!"."""


class Membership(StrEnum):
    """How long a character stays in a unit of chariots."""

    STAYS = "stays"
    LEAVES_AT_END_OF_PHASE = "leaves-at-end-of-phase"


@dataclass(frozen=True)
class InChariotUnit:
    look_out_sir: bool
    membership: Membership


@implements("characters-in-units/which-units", "shooting-at-characters/look-out-sir")
def character_in_chariot_unit(rank_and_file_chariots: int, chariot_destroyed: bool = False) -> InChariotUnit:
    """A character in his chariot within a unit of chariots (the answer reproduced at
    6th.whfb.app/special-rules/chariot-units-tomb-kings): "Look out, Sir!" only with five
    or more rank-and-file chariots beside him; without his chariot he may not stay in
    such a unit, and leaves it at the end of the phase (what the roll does for him
    until then the answer does not say, so only the unit's chariots count here)."""
    if rank_and_file_chariots < 0:
        raise ValueError("a unit cannot have fewer than no chariots")
    return InChariotUnit(
        look_out_sir=rank_and_file_chariots >= CHARIOTS_FOR_LOOK_OUT_SIR,
        membership=Membership.LEAVES_AT_END_OF_PHASE if chariot_destroyed else Membership.STAYS,
    )
