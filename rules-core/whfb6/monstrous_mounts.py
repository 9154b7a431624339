"""Characters on mounts: cavalry steeds and monstrous mounts.

Source: the Spanish compilation of the character rules (rulebook pages 95-98,
103-105 and 127-128).  Each function names the rule ids it implements; the rule
text lives in ``docs/rules/monstrous-mounts.yml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from validator.api import Counted, DieResult, ProfileValue, RollModifier, RollNeeded, implements
from whfb6 import tables
from whfb6.characters import TroopType
from whfb6.dice import chance_of_at_least_one, chance_of_faces, check_d6, two_d6_at_most
from whfb6.rulings import ADOPTED, Rulings
from whfb6.saves import NO_SAVE, SaveRoll

MONSTROUS_MOUNT_MIN_WOUNDS = 2
"""A mount with this many wounds or more is monstrous; with fewer it is a cavalry steed."""

RIDER_FACES = frozenset({5, 6})
"""D6 results that send a hit to the rider; 1-4 hit the monster."""

CAVALRY_ARMOUR_BONUS = 1
LARGE_TARGET_TO_HIT_BONUS = 1


class MountKind(StrEnum):
    CAVALRY = "cavalry"
    MONSTROUS = "monstrous"


class Part(StrEnum):
    """The two parts of one model made of a monster and its rider."""

    MONSTER = "monster"
    RIDER = "rider"


class Phase(StrEnum):
    MOVEMENT = "movement"
    MAGIC = "magic"
    SHOOTING = "shooting"
    CLOSE_COMBAT = "close-combat"


class CombatAftermath(StrEnum):
    """How the close combat in which the rider died ended for the monster."""

    MONSTER_WON = "monster-won"
    MONSTER_FLED = "monster-fled"
    MONSTER_CAUGHT = "monster-caught"


class TestTiming(StrEnum):
    END_OF_PHASE = "end-of-phase"
    START_OF_FIRST_NORMAL_TURN = "start-of-first-normal-turn"
    START_OF_TURN_AFTER_RALLY = "start-of-turn-after-rally"
    NO_TEST = "no-test"


class MonsterReaction(StrEnum):
    LEAVE_THE_BATTLEFIELD = "leave-the-battlefield"
    ATTACK_NEAREST = "attack-nearest"
    GUARD_THE_BODY = "guard-the-body"


@implements("monstrous-mounts/mount-kinds", "monstrous-mounts/cavalry")
def mount_kind(mount_wounds: int) -> MountKind:
    """Classify a mount by its Wounds: one wound is cavalry, two or more monstrous."""
    if mount_wounds < 1:
        raise ValueError("a mount has at least one wound")
    return MountKind.MONSTROUS if mount_wounds >= MONSTROUS_MOUNT_MIN_WOUNDS else MountKind.CAVALRY


@implements("monstrous-mounts/cavalry", "monstrous-mounts/mount-kinds")
def rider_armour_save(kind: MountKind, save_on_foot: SaveRoll) -> SaveRoll:
    """The rider's armour save once mounted.

    A cavalry steed adds 1 to the rider's save (a rider without armour gets 6+);
    a monstrous mount adds nothing, because the monster keeps its own profile.
    """
    if not 1 <= save_on_foot <= NO_SAVE:
        raise ValueError("an armour save needs 1+ to 6+, or 7 for no save")
    bonus = CAVALRY_ARMOUR_BONUS if kind is MountKind.CAVALRY else 0
    return max(1, save_on_foot - bonus)


@implements("monstrous-mounts/cavalry", "monstrous-mounts/mount-kinds")
def steed_removed_with_rider(kind: MountKind) -> bool:
    """Whether slaying the rider removes the whole model, steed and all: so for a
    cavalry steed (a goblin's wolf never survives him, nor he it); a monstrous mount
    keeps its own Wounds and stays when its rider dies."""
    return kind is MountKind.CAVALRY


MOUNTED_TROOP_TYPES = frozenset({TroopType.MONSTROUS_CAVALRY, TroopType.MONSTER})
"""The troop types a character and his monstrous mount can have as one model."""


@dataclass(frozen=True)
class MountMovement:
    moves_as: TroopType
    """The troop type whose movement rules the whole model follows."""
    parts_move_together: bool
    """Rider and mount never move apart."""


@implements("monstrous-mounts/movement")
def mount_movement(troop_type: TroopType) -> MountMovement:
    """A character and his monstrous mount move together, under the rules of the troop
    type of the whole model (monstrous cavalry, monster)."""
    if troop_type not in MOUNTED_TROOP_TYPES:
        raise ValueError(f"a character on a monstrous mount is monstrous cavalry or a monster, not {troop_type}")
    return MountMovement(moves_as=troop_type, parts_move_together=True)


@dataclass(frozen=True)
class ShootingAtMount:
    modifier: RollModifier
    may_target_rider_alone: bool
    may_target_mount_alone: bool


@implements("monstrous-mounts/shooting-one-target")
def shooting_at_mount(large_target: bool, uses_ballistic_skill: bool) -> ShootingAtMount:
    """Shots at a monster and its rider: one model, one target, so neither part may be
    aimed at alone; +1 to hit for a Large Target with Ballistic Skill."""
    return ShootingAtMount(modifier=shooting_to_hit_modifier(large_target, uses_ballistic_skill),
                           may_target_rider_alone=False, may_target_mount_alone=False)


@implements("monstrous-mounts/shooting-one-target")
def shooting_to_hit_modifier(large_target: bool, uses_ballistic_skill: bool) -> RollModifier:
    """The to-hit modifier for shooting at a monster and rider: +1 if the monster is a
    Large Target and the shot uses Ballistic Skill, 0 otherwise."""
    return LARGE_TARGET_TO_HIT_BONUS if large_target and uses_ballistic_skill else 0


@implements("monstrous-mounts/shooting-hit-allocation")
def allocate_hit(die: DieResult, rulings: Rulings = ADOPTED) -> Part:
    """Which part a hit strikes, from the D6 rolled for it (1-4 monster, 5-6 rider).

    Under the Spanish FAQ translation every hit goes to the character, whatever
    the die shows.
    """
    check_d6(die)
    if rulings.mount_hit_allocation == "character":
        return Part.RIDER
    return Part.RIDER if die in RIDER_FACES else Part.MONSTER


@dataclass(frozen=True)
class HitAllocation:
    monster: Counted
    rider: Counted


@implements("monstrous-mounts/shooting-hit-allocation")
def allocate_hits(dice: tuple[DieResult, ...], rulings: Rulings = ADOPTED) -> HitAllocation:
    """Split a volley of hits between monster and rider, one D6 per hit."""
    parts = [allocate_hit(die, rulings) for die in dice]
    return HitAllocation(monster=parts.count(Part.MONSTER), rider=parts.count(Part.RIDER))


@implements("monstrous-mounts/shooting-hit-allocation",
            says="Exact chance that the rider takes at least one of the hits.")
def rider_hit_chance(hits: int, rulings: Rulings = ADOPTED) -> Fraction:
    """Exact probability that the rider takes at least one of ``hits`` hits."""
    if hits < 0:
        raise ValueError("the number of hits cannot be negative")
    if rulings.mount_hit_allocation == "character":
        return Fraction(1) if hits else Fraction(0)
    return chance_of_at_least_one(chance_of_faces(RIDER_FACES), hits)


@implements("monstrous-mounts/templates-and-cannon")
def template_or_cannon_hit(touches_base: bool, die: DieResult, rulings: Rulings = ADOPTED) -> Part | None:
    """The part struck by a template or cannon ball that lands on the model.

    Anything that touches the monster's base (even where the rider is not under
    it) makes one hit, randomised like a shot; the other part is not hit.
    Nothing touching the base means no hit at all.
    """
    check_d6(die)
    return allocate_hit(die, rulings) if touches_base else None


@dataclass(frozen=True)
class WoundsResult:
    suffered: Counted
    ignored: Counted
    wounds_left: Counted
    slain: bool


@implements("monstrous-mounts/extra-wounds")
def apply_wounds(wounds_left: int, wounds_inflicted: int) -> WoundsResult:
    """Wounds on one part of the model; those beyond its last wound are lost.

    Extra wounds never pass from rider to monster, from monster to rider, or to a
    second rider.
    """
    if wounds_left < 1:
        raise ValueError("a part that is still in play has at least one wound left")
    if wounds_inflicted < 0:
        raise ValueError("wounds inflicted cannot be negative")
    suffered = min(wounds_left, wounds_inflicted)
    remaining = wounds_left - suffered
    return WoundsResult(
        suffered=suffered,
        ignored=wounds_inflicted - suffered,
        wounds_left=remaining,
        slain=remaining == 0,
    )


class AfterWounds(StrEnum):
    """What follows for the model once wounds have been applied to one of its parts."""

    NOTHING = "nothing"
    RIDER_FIGHTS_ON_ALONE = "rider-fights-on-alone"
    """The mount is slain: see death-of-the-mount."""
    MONSTER_TESTS_LEADERSHIP = "monster-tests-leadership"
    """The rider is slain: see death-of-the-rider."""


@dataclass(frozen=True)
class PartWounds:
    rider_wounds_left: int
    monster_wounds_left: int
    ignored: int
    passed_to_other_part: int
    """Always 0: wounds never pass from one part to the other."""
    next_step: AfterWounds


@implements("monstrous-mounts/extra-wounds", "monstrous-mounts/death-of-the-mount",
            "monstrous-mounts/death-of-the-rider")
def wound_part(part: Part, rider_wounds_left: int, monster_wounds_left: int, wounds_inflicted: int) -> PartWounds:
    """Wounds inflicted on one part of a ridden monster, and what the other part keeps.

    The wounded part loses up to what it has left; the rest are lost and the other
    part keeps every Wound it had.  A slain mount leaves the rider fighting on alone;
    a slain rider leaves the monster to take its Leadership test.
    """
    if rider_wounds_left < 1 or monster_wounds_left < 1:
        raise ValueError("both parts of the model are still in play, with at least one wound left each")
    struck = apply_wounds(rider_wounds_left if part is Part.RIDER else monster_wounds_left, wounds_inflicted)
    if part is Part.RIDER:
        rider_left, monster_left = struck.wounds_left, monster_wounds_left
        next_step = AfterWounds.MONSTER_TESTS_LEADERSHIP if struck.slain else AfterWounds.NOTHING
    else:
        rider_left, monster_left = rider_wounds_left, struck.wounds_left
        next_step = AfterWounds.RIDER_FIGHTS_ON_ALONE if struck.slain else AfterWounds.NOTHING
    return PartWounds(rider_wounds_left=rider_left, monster_wounds_left=monster_left, ignored=struck.ignored,
                      passed_to_other_part=0, next_step=next_step)


@dataclass(frozen=True)
class AttackSplit:
    on_rider: Counted
    on_monster: Counted


@implements("monstrous-mounts/close-combat")
def declare_attacks(attacks: int, on_rider: int) -> AttackSplit:
    """Split the attacks of a model in base contact with the mount, before rolling.

    Any split is allowed; the rest of the attacks go to the monster.  Each group
    then rolls against the Weapon Skill and Toughness of its own target.
    """
    if attacks < 0:
        raise ValueError("attacks cannot be negative")
    if not 0 <= on_rider <= attacks:
        raise ValueError(f"attacks on the rider must be between 0 and {attacks}")
    return AttackSplit(on_rider=on_rider, on_monster=attacks - on_rider)


class RiderPlacement(StrEnum):
    CENTRE_WHERE_MOUNT_STOOD = "centre-where-mount-stood"


@dataclass(frozen=True)
class RiderAfterMount:
    rider_fights_on: bool
    lone_character: bool
    """He fights on as a character on his own, of the troop type he has on foot."""
    placement: RiderPlacement | None
    same_facing: bool | None


@implements("monstrous-mounts/death-of-the-mount")
def rider_after_mount_slain(model_available: bool = True) -> RiderAfterMount:
    """The rider of a slain monster fights on, on his own, if a model to show him is at
    hand: the centre of his base where the centre of the monster's was, facing the
    same way."""
    if not model_available:
        return RiderAfterMount(rider_fights_on=False, lone_character=False, placement=None, same_facing=None)
    return RiderAfterMount(rider_fights_on=True, lone_character=True,
                           placement=RiderPlacement.CENTRE_WHERE_MOUNT_STOOD, same_facing=True)


@dataclass(frozen=True)
class AttackRolls:
    """The rolls an enemy's attacks need against each part: each part's own Weapon
    Skill to hit and its own Toughness to wound (None: the hit cannot wound)."""

    rider_to_hit: RollNeeded
    rider_to_wound: RollNeeded | None
    monster_to_hit: RollNeeded
    monster_to_wound: RollNeeded | None


@implements("monstrous-mounts/close-combat")
def attack_rolls(attacker_weapon_skill: int, strength: int, rider_weapon_skill: int, rider_toughness: int,
                 monster_weapon_skill: int, monster_toughness: int) -> AttackRolls:
    """What an enemy in base contact with the mount rolls against the rider and against
    the monster: the attacks on each part use that part's Weapon Skill and Toughness."""
    return AttackRolls(
        rider_to_hit=tables.close_combat_to_hit(attacker_weapon_skill, rider_weapon_skill),
        rider_to_wound=tables.to_wound(strength, rider_toughness),
        monster_to_hit=tables.close_combat_to_hit(attacker_weapon_skill, monster_weapon_skill),
        monster_to_wound=tables.to_wound(strength, monster_toughness),
    )


@dataclass(frozen=True)
class ChargeAfterMountSlain:
    rider_may_complete_charge: bool
    charge_fails_where_mount_fell: bool


@implements("monstrous-mounts/death-of-the-mount")
def charge_after_mount_slain_by_stand_and_shoot(declared_within_range: bool) -> ChargeAfterMountSlain:
    """A charge whose monster is shot dead by a Stand and Shoot reaction.

    Declared within the shooters' range, the charge move has not begun and the
    rider on foot may try to finish it; declared from beyond their maximum range,
    the move had begun and the charge fails where the mount fell.
    """
    return ChargeAfterMountSlain(
        rider_may_complete_charge=declared_within_range,
        charge_fails_where_mount_fell=not declared_within_range,
    )


class AfterTest(StrEnum):
    CONTROLLED_AS_OWN_UNIT = "controlled-as-own-unit"
    """For the rest of the battle, with no further test."""
    ROLL_ON_MONSTER_REACTION = "roll-on-monster-reaction"


@dataclass(frozen=True)
class LeadershipTest:
    leadership_used: ProfileValue
    total: int
    passed: bool
    next_step: AfterTest = AfterTest.ROLL_ON_MONSTER_REACTION
    tests_again: bool = False
    """Never: a monster that passes stays under control, one that fails follows the table."""
    test_taken: bool = True
    """Always, Immunity to Psychology or not."""


@implements("monstrous-mounts/death-of-the-rider")
def rider_death_leadership_test(dice: tuple[DieResult, DieResult], monster_leadership: int,
                                general_leadership: int | None = None,
                                immune_to_psychology: bool = False) -> LeadershipTest:
    """The monster's Leadership test when its rider dies: 2D6 equal to or under its
    own Leadership.  A General nearby (``general_leadership``) never lends his, and
    Immunity to Psychology does not excuse the test: both are taken so that an
    example can show that they change nothing."""
    del general_leadership, immune_to_psychology  # neither changes the test: see the rule
    for die in dice:
        check_d6(die)
    total = sum(dice)
    passed = total <= monster_leadership
    return LeadershipTest(leadership_used=monster_leadership, total=total, passed=passed,
                          next_step=AfterTest.CONTROLLED_AS_OWN_UNIT if passed else AfterTest.ROLL_ON_MONSTER_REACTION,
                          tests_again=False, test_taken=True)


@implements("monstrous-mounts/death-of-the-rider")
def rider_death_pass_chance(monster_leadership: int) -> Fraction:
    """Exact probability that the monster passes its Leadership test."""
    return two_d6_at_most(monster_leadership)


@implements("monstrous-mounts/rider-death-test-timing")
def rider_death_test_timing(phase: Phase, aftermath: CombatAftermath | None = None) -> TestTiming:
    """When the monster takes its Leadership test after its rider dies.

    Outside close combat: at the end of the phase.  In close combat the combat is
    fought out first: a winning monster tests at the start of the first turn it
    can move and act normally; a fleeing one that escapes tests at the start of
    the turn after it rallies; one caught by pursuers is destroyed and never tests.
    """
    if phase is not Phase.CLOSE_COMBAT:
        if aftermath is not None:
            raise ValueError("a combat aftermath only applies when the rider dies in close combat")
        return TestTiming.END_OF_PHASE
    if aftermath is None:
        raise ValueError("say how the close combat ended for the monster")
    return {
        CombatAftermath.MONSTER_WON: TestTiming.START_OF_FIRST_NORMAL_TURN,
        CombatAftermath.MONSTER_FLED: TestTiming.START_OF_TURN_AFTER_RALLY,
        CombatAftermath.MONSTER_CAUGHT: TestTiming.NO_TEST,
    }[aftermath]


@dataclass(frozen=True)
class ReactionEffects:
    reaction: MonsterReaction
    compulsory_move: bool
    may_use_ranged_attacks: bool
    may_move: bool
    immune_to_break: bool
    counts_as_fleeing: bool
    opponent_gains_victory_points_on_leaving: bool
    must_charge_if_able: bool
    charges_of_its_own_will: bool
    """False: it charges only where a psychology rule forces it (1-2), or never moves (5-6)."""
    fights_in_close_combat: bool
    never_pursues: bool
    """True: it does not pursue even where a special rule or psychology would force it."""


MONSTER_REACTION_TABLE: tuple[tuple[frozenset[int], ReactionEffects], ...] = (
    (frozenset({1, 2}), ReactionEffects(
        reaction=MonsterReaction.LEAVE_THE_BATTLEFIELD, compulsory_move=True, may_use_ranged_attacks=False,
        may_move=True, immune_to_break=False, counts_as_fleeing=False,
        opponent_gains_victory_points_on_leaving=True, must_charge_if_able=False, charges_of_its_own_will=False,
        fights_in_close_combat=True, never_pursues=False)),
    (frozenset({3, 4}), ReactionEffects(
        reaction=MonsterReaction.ATTACK_NEAREST, compulsory_move=True, may_use_ranged_attacks=True,
        may_move=True, immune_to_break=False, counts_as_fleeing=False,
        opponent_gains_victory_points_on_leaving=False, must_charge_if_able=True, charges_of_its_own_will=True,
        fights_in_close_combat=True, never_pursues=False)),
    (frozenset({5, 6}), ReactionEffects(
        reaction=MonsterReaction.GUARD_THE_BODY, compulsory_move=False, may_use_ranged_attacks=True,
        may_move=False, immune_to_break=True, counts_as_fleeing=False,
        opponent_gains_victory_points_on_leaving=False, must_charge_if_able=False, charges_of_its_own_will=False,
        fights_in_close_combat=True, never_pursues=True)),
)
"""The Monster Reaction table, row by row, as the rule text lays it out."""


@implements("monstrous-mounts/monster-reaction")
def monster_reaction(die: DieResult) -> ReactionEffects:
    """The Monster Reaction table, rolled on a D6 after a failed Leadership test."""
    check_d6(die)
    return next(effects for faces, effects in MONSTER_REACTION_TABLE if die in faces)


@dataclass(frozen=True)
class VictoryPoints:
    for_rider: Counted
    for_monster: Counted
    total: Counted


@implements("monstrous-mounts/victory-points")
def victory_points(
    rider_points: int,
    monster_points: int,
    rider_slain: bool,
    monster_slain: bool,
    monster_left_battlefield: bool = False,
) -> VictoryPoints:
    """Victory points the opponent scores: rider and monster count separately.

    A monster that leaves the battlefield after a Monster Reaction of 1-2 gives
    its points as if slain.
    """
    if rider_points < 0 or monster_points < 0:
        raise ValueError("points values cannot be negative")
    for_rider = rider_points if rider_slain else 0
    for_monster = monster_points if (monster_slain or monster_left_battlefield) else 0
    return VictoryPoints(for_rider=for_rider, for_monster=for_monster, total=for_rider + for_monster)


class ReactionStart(StrEnum):
    """When a Monster Reaction result first takes effect: the monster acts only in its
    owner's turns."""

    OWNERS_COMPULSORY_MOVES = "owners-compulsory-moves"
    OWNERS_CHARGE_DECLARATIONS = "owners-charge-declarations"
    AT_ONCE = "at-once"


@dataclass(frozen=True)
class ReactionTiming:
    reaction: MonsterReaction
    takes_effect: ReactionStart
    ranged_attacks_in: Phase | None
    """The phase, of the owner's turn, in which its breath or other ranged attack is
    used; None when the result forbids them."""


@implements("monstrous-mounts/monster-reaction")
def reaction_timing(die: DieResult) -> ReactionTiming:
    """When the Monster Reaction result rolled takes effect (6th.whfb.app/faq/monsters,
    citing rulebook page 105): 1-2 in its owner's compulsory moves, 3-4 when its owner
    declares charges, 5-6 at once, its ranged attack in its owner's Shooting phase."""
    effects = monster_reaction(die)
    start = {
        MonsterReaction.LEAVE_THE_BATTLEFIELD: ReactionStart.OWNERS_COMPULSORY_MOVES,
        MonsterReaction.ATTACK_NEAREST: ReactionStart.OWNERS_CHARGE_DECLARATIONS,
        MonsterReaction.GUARD_THE_BODY: ReactionStart.AT_ONCE,
    }[effects.reaction]
    return ReactionTiming(reaction=effects.reaction, takes_effect=start,
                          ranged_attacks_in=Phase.SHOOTING if effects.may_use_ranged_attacks else None)
