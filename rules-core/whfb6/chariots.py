"""Characters riding chariots.

Source: the Spanish compilation of the character rules (rulebook pages 95-98,
103-105 and 127-128), section "Personajes montados en Carro".  Each function
names the rule ids it implements; the rule text lives in
``docs/rules/chariots.yml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from validator.api import Counted, DieResult, ProfileValue, RollNeeded, WholeDistance, implements
from whfb6 import tables
from whfb6.dice import Distribution, binomial, chance_of_at_least_one, chance_of_faces, check_d6
from whfb6.monstrous_mounts import MONSTROUS_MOUNT_MIN_WOUNDS
from whfb6.rulings import ADOPTED, Rulings
from whfb6.saves import NO_SAVE, SaveRoll

CHARACTER_FACES = frozenset({6})
"""D6 results that send a hit on the chariot to the character; 1-5 hit the chariot."""

CHARIOT_ARMOUR_BONUS = 2
"""How much riding the chariot improves the character's own armour save."""


BEST_SAVE = 1
"""The best save written as a roll needed (1+)."""

DESTRUCTION_HIT_STRENGTH = 5
"""The Strength of the hit a character suffers when his chariot is destroyed."""

PLACEMENT_DISTANCE = 2
"""Inches from the chariot within which a character on foot is placed (5 cm)."""

IMPACT_HITS_ON_MOUNT_ABOVE_WOUNDS = 2
"""In a challenge against a lone character, impact hits strike his mount instead of
him when the mount has more than this many Wounds on its profile."""


class Target(StrEnum):
    """The two things an enemy may hit: the chariot or the character riding it."""

    CHARIOT = "chariot"
    CHARACTER = "character"


class SaveSource(StrEnum):
    """Where the character's armour save comes from."""

    OWN_IMPROVED = "own-improved"
    CHARIOT = "chariot"
    ON_FOOT = "on-foot"


class Recipient(StrEnum):
    """Who suffers the chariot's impact hits or its crew and steeds' attacks in a challenge."""

    ENEMY_CHARACTER = "enemy-character"
    ENEMY_MOUNT = "enemy-mount"
    UNIT_TROOPS = "unit-troops"


class Placement(StrEnum):
    """Where a character who survives the loss of his chariot is set down."""

    NEAR_CHARIOT = "near-chariot"
    """Anywhere within :data:`PLACEMENT_DISTANCE` of where the chariot was."""
    CHARIOTS_PLACE = "chariots-place"
    """In the chariot's own position, touching as many models as possible."""
    BASE_CONTACT_WITH_TARGET = "base-contact-with-target"
    """In base contact with the unit the chariot was charging."""


def _check_save(save: int, name: str) -> None:
    if not BEST_SAVE <= save <= NO_SAVE:
        raise ValueError(f"{name} needs 1+ to 6+, or 7 for no save, not {save}")


def _check_weapon_skill(skill: int, name: str) -> None:
    if not 1 <= skill <= 10:
        raise ValueError(f"{name} runs from 1 to 10, not {skill}")


def _check_hits(hits: int) -> None:
    if hits < 0:
        raise ValueError("the number of hits cannot be negative")


# --- shooting ------------------------------------------------------------------

@implements("chariots/shooting-hit-allocation")
def allocate_hit(die: DieResult) -> Target:
    """Which part a hit on the chariot strikes: the D6 rolled for it shows 6 for the
    character, 1-5 for the chariot."""
    check_d6(die)
    return Target.CHARACTER if die in CHARACTER_FACES else Target.CHARIOT


@dataclass(frozen=True)
class HitAllocation:
    chariot: Counted
    character: Counted


@implements("chariots/shooting-hit-allocation")
def allocate_hits(dice: tuple[DieResult, ...]) -> HitAllocation:
    """Split a volley of hits between chariot and character, one D6 per hit."""
    parts = [allocate_hit(die) for die in dice]
    return HitAllocation(chariot=parts.count(Target.CHARIOT), character=parts.count(Target.CHARACTER))


@implements("chariots/shooting-hit-allocation",
            says="Exact chance that the character takes at least one of the hits.")
def character_hit_chance(hits: int) -> Fraction:
    """Exact probability that the character takes at least one of ``hits`` hits."""
    _check_hits(hits)
    return chance_of_at_least_one(chance_of_faces(CHARACTER_FACES), hits)


@implements("chariots/shooting-hit-allocation",
            says=("Exact distribution of the hits that reach the character: each hit reaches him on its own die, "
                  "so the count is binomial."))
def character_hits_distribution(hits: int) -> Distribution:
    """Exact distribution of the number of hits that reach the character: each of the
    ``hits`` dice sends its hit to him independently, so the count is binomial."""
    _check_hits(hits)
    return binomial(hits, chance_of_faces(CHARACTER_FACES))


@implements("chariots/templates-and-cannon")
def template_or_cannon_hit(touches_base: bool, die: DieResult) -> Target | None:
    """The part struck by a template or a cannon ball.

    A template covering any part of the chariot's base (over the character or
    not), a centre hole landing on it, or a cannon ball touching it makes one hit,
    randomised like a shot; the other part is not hit.  Nothing touching the base
    means no hit at all.
    """
    check_d6(die)
    return allocate_hit(die) if touches_base else None


# --- armour save ---------------------------------------------------------------

@dataclass(frozen=True)
class CharacterSave:
    save: SaveRoll
    """The roll the character's armour save needs; 7 means he has none."""
    source: SaveSource
    hinders_spellcasting: bool
    """Always false: the chariot's protection never stops a wizard casting."""


@implements("chariots/armour-save", "chariots/challenges")
def character_armour_save(save_on_foot: SaveRoll, chariot_save: SaveRoll, in_challenge: bool = False) -> CharacterSave:
    """The character's armour save while he rides the chariot.

    His own save improves by 2 (heavy armour 5+ becomes 3+, no armour 5+), or he
    uses the chariot's save when that is better.  In a challenge he counts as on
    foot and loses the chariot's bonus, so his own save applies unchanged.  1+ is
    the best save this can give.
    """
    _check_save(save_on_foot, "the save on foot")
    _check_save(chariot_save, "the chariot's save")
    if in_challenge:
        return CharacterSave(save=save_on_foot, source=SaveSource.ON_FOOT, hinders_spellcasting=False)
    improved = max(BEST_SAVE, save_on_foot - CHARIOT_ARMOUR_BONUS)
    if chariot_save < improved:
        return CharacterSave(save=chariot_save, source=SaveSource.CHARIOT, hinders_spellcasting=False)
    return CharacterSave(save=improved, source=SaveSource.OWN_IMPROVED, hinders_spellcasting=False)


# --- close combat --------------------------------------------------------------

@implements("chariots/close-combat")
def chariot_weapon_skill(crew_weapon_skills: tuple[int, ...], steeds_weapon_skill: int) -> int:
    """The Weapon Skill an enemy rolls against when he attacks the chariot.

    The highest Weapon Skill of the crew, the character left out; when the
    character has replaced the whole crew (``crew_weapon_skills`` is empty), the
    Weapon Skill of the steeds.
    """
    for skill in crew_weapon_skills:
        _check_weapon_skill(skill, "a crew member's Weapon Skill")
    _check_weapon_skill(steeds_weapon_skill, "the steeds' Weapon Skill")
    return max(crew_weapon_skills) if crew_weapon_skills else steeds_weapon_skill


@dataclass(frozen=True)
class CloseCombatRoll:
    defender_weapon_skill: ProfileValue
    to_hit: RollNeeded


@implements("chariots/close-combat",
            says=("The roll to hit for an enemy who attacks the chariot or the character riding it: against the "
                  "chariot's Weapon Skill or the character's own."))
def close_combat_roll(
    target: Target,
    attacker_weapon_skill: int,
    character_weapon_skill: int,
    crew_weapon_skills: tuple[int, ...],
    steeds_weapon_skill: int,
) -> CloseCombatRoll:
    """The roll to hit for an enemy who chooses to attack the chariot or the
    character riding it: against the chariot's Weapon Skill (see
    :func:`chariot_weapon_skill`) or the character's own."""
    _check_weapon_skill(character_weapon_skill, "the character's Weapon Skill")
    chariot_skill = chariot_weapon_skill(crew_weapon_skills, steeds_weapon_skill)
    defender = chariot_skill if target is Target.CHARIOT else character_weapon_skill
    return CloseCombatRoll(
        defender_weapon_skill=defender,
        to_hit=tables.close_combat_to_hit(attacker_weapon_skill, defender),
    )


@implements("chariots/close-combat")
def steeds_may_attack(enemy_directly_in_front: bool) -> bool:
    """The steeds pulling a chariot attack only models directly in front of them."""
    return enemy_directly_in_front


# --- challenges ----------------------------------------------------------------

@dataclass(frozen=True)
class ChallengeFromChariot:
    character_fights_on_foot: bool
    keeps_chariot_save_bonus: bool
    impact_hits_on: Recipient
    crew_and_steed_attacks_on: Recipient
    enemy_character_may_attack_character: bool
    enemy_character_may_attack_chariot: bool
    unit_may_attack_chariot: bool | None
    """``None`` when the enemy character has no unit."""
    unit_may_attack_character: bool | None
    strength_5_hit_if_chariot_destroyed: bool


@implements("chariots/challenges")
def challenge_from_chariot(enemy_in_unit: bool, enemy_mount_wounds: int = 0,
                           rulings: Rulings = ADOPTED) -> ChallengeFromChariot:
    """Who strikes whom when a character in a chariot fights a challenge.

    He counts as dismounted: he fights on foot, without the chariot's save bonus,
    and does not suffer the Strength 5 hit if the chariot is destroyed.  Against a
    lone enemy character the impact hits and the crew and steeds' attacks go
    against that character (the impact hits against his mount if it has more than
    2 Wounds), and he may strike the character or the chariot.  Against one from a
    unit they go against the unit's ordinary troops; he may strike only the
    character, and his unit only the chariot.

    ``enemy_mount_wounds`` is the Wounds on the profile of the enemy character's
    mount, 0 when he has none.  Under the English rulebook's reading any monstrous
    mount (2 Wounds or more) takes the impact hits.
    """
    if enemy_mount_wounds < 0:
        raise ValueError("a mount's Wounds cannot be negative (use 0 for no mount)")
    if enemy_in_unit:
        return ChallengeFromChariot(
            character_fights_on_foot=True,
            keeps_chariot_save_bonus=False,
            impact_hits_on=Recipient.UNIT_TROOPS,
            crew_and_steed_attacks_on=Recipient.UNIT_TROOPS,
            enemy_character_may_attack_character=True,
            enemy_character_may_attack_chariot=False,
            unit_may_attack_chariot=True,
            unit_may_attack_character=False,
            strength_5_hit_if_chariot_destroyed=False,
        )
    if rulings.impact_hits_on_mount == "monstrous-mount":
        on_mount = enemy_mount_wounds >= MONSTROUS_MOUNT_MIN_WOUNDS
    else:
        on_mount = enemy_mount_wounds > IMPACT_HITS_ON_MOUNT_ABOVE_WOUNDS
    return ChallengeFromChariot(
        character_fights_on_foot=True,
        keeps_chariot_save_bonus=False,
        impact_hits_on=Recipient.ENEMY_MOUNT if on_mount else Recipient.ENEMY_CHARACTER,
        crew_and_steed_attacks_on=Recipient.ENEMY_CHARACTER,
        enemy_character_may_attack_character=True,
        enemy_character_may_attack_chariot=True,
        unit_may_attack_chariot=None,
        unit_may_attack_character=None,
        strength_5_hit_if_chariot_destroyed=False,
    )


# --- destruction of the chariot ------------------------------------------------

@dataclass(frozen=True)
class ChariotDestroyed:
    takes_hit: bool
    hit_strength: ProfileValue | None
    fights_on_foot: bool
    """What a character who survives does: he carries on on foot."""
    placement: Placement
    placement_distance: WholeDistance | None
    """Inches from where the chariot was, when the placement is near it."""


@implements("chariots/destruction", "chariots/challenges")
def chariot_destroyed(in_close_combat: bool, in_challenge: bool = False) -> ChariotDestroyed:
    """What happens to the character when his chariot is destroyed.

    He suffers a Strength 5 hit, unless he is fighting a challenge (he has already
    stepped down).  A survivor fights on foot, placed within 2" of where the
    chariot was; if the chariot was in close combat, in its place, touching as
    many models as possible.
    """
    if in_challenge and not in_close_combat:
        raise ValueError("a challenge is fought in close combat: in_challenge needs in_close_combat")
    near = not in_close_combat
    return ChariotDestroyed(
        takes_hit=not in_challenge,
        hit_strength=None if in_challenge else DESTRUCTION_HIT_STRENGTH,
        fights_on_foot=True,
        placement=Placement.NEAR_CHARIOT if near else Placement.CHARIOTS_PLACE,
        placement_distance=PLACEMENT_DISTANCE if near else None,
    )


@dataclass(frozen=True)
class DestructionHitChance:
    wound_probability: Fraction
    probability: Fraction
    """Chance that the hit wounds and the wound is not saved."""


@implements("chariots/destruction",
            says=("Exact chances that the Strength 5 hit wounds the character, and that it wounds him and his "
                  "armour save fails."))
def destruction_hit_chance(toughness: int, armour_save: int) -> DestructionHitChance:
    """Exact chances that the Strength 5 hit wounds the character, and that it wounds
    and his armour save (``armour_save``, before the Strength modifier) fails."""
    _check_save(armour_save, "the armour save")
    wound = tables.wound_chance(DESTRUCTION_HIT_STRENGTH, toughness)
    saved = tables.save_chance(armour_save, DESTRUCTION_HIT_STRENGTH)
    return DestructionHitChance(wound_probability=wound, probability=wound * (1 - saved))


@dataclass(frozen=True)
class StandAndShootDestruction:
    charge_move_begun: bool
    may_complete_charge_on_foot: bool
    charge_fails: bool
    placement: Placement
    placement_distance: WholeDistance


@implements("chariots/destruction-during-charge")
def destroyed_by_stand_and_shoot(declared_within_range: bool) -> StandAndShootDestruction:
    """A charging chariot destroyed by a Stand and Shoot reaction.

    Declared within the shooters' range, it had not begun to move: the character
    is placed within 2" of it and may try to finish the charge on foot.  Declared
    from beyond their maximum range, it had begun to move: the charge fails and he
    is placed within 2" of where it was destroyed.
    """
    return StandAndShootDestruction(
        charge_move_begun=not declared_within_range,
        may_complete_charge_on_foot=declared_within_range,
        charge_fails=not declared_within_range,
        placement=Placement.NEAR_CHARIOT,
        placement_distance=PLACEMENT_DISTANCE,
    )


@dataclass(frozen=True)
class TerrainDestruction:
    placement: Placement | None
    """``None`` when the character did not survive his Strength 5 hit."""
    charge_completed: bool


@implements("chariots/destruction-during-charge")
def destroyed_in_terrain(survives_hit: bool, unit_distance: float, unit_is_charge_target: bool) -> TerrainDestruction:
    """A charging chariot destroyed crossing difficult or very difficult terrain.

    If the character survives the Strength 5 hit and the unit he was charging is
    within 2" of where the chariot was destroyed, he is placed in base contact
    with it and the charge is completed.  Any other unit, however close, cannot be
    contacted this way: he is placed within 2" of the chariot as usual.
    ``unit_distance`` is in inches from where the chariot was destroyed.
    """
    if unit_distance < 0:
        raise ValueError("a distance cannot be negative")
    if not survives_hit:
        return TerrainDestruction(placement=None, charge_completed=False)
    if unit_is_charge_target and unit_distance <= PLACEMENT_DISTANCE:
        return TerrainDestruction(placement=Placement.BASE_CONTACT_WITH_TARGET, charge_completed=True)
    return TerrainDestruction(placement=Placement.NEAR_CHARIOT, charge_completed=False)


# --- death of the character ----------------------------------------------------

@dataclass(frozen=True)
class ChariotWithoutCharacter:
    separate_unit: bool
    may_move: bool
    may_charge: bool
    may_attack: bool
    controlled_by_player: bool
    monster_reaction_roll: bool
    separate_victory_points: bool


@implements("chariots/death-of-the-character")
def chariot_after_character_death(has_crew: bool) -> ChariotWithoutCharacter:
    """The chariot once its character is slain: a unit of its own that moves,
    charges and attacks even with no crew, stays under its player's control with
    no Monster Reaction roll, and gives victory points apart from the character.
    ``has_crew`` changes nothing, which is the point of the rule."""
    del has_crew
    return ChariotWithoutCharacter(
        separate_unit=True,
        may_move=True,
        may_charge=True,
        may_attack=True,
        controlled_by_player=True,
        monster_reaction_roll=False,
        separate_victory_points=True,
    )


@dataclass(frozen=True)
class VictoryPoints:
    for_character: Counted
    for_chariot: Counted
    total: Counted


@implements("chariots/victory-points", "chariots/death-of-the-character")
def victory_points(
    character_points: int, chariot_points: int, character_slain: bool, chariot_destroyed: bool
) -> VictoryPoints:
    """Victory points the opponent scores: the character and his chariot count
    separately, each when it is slain or destroyed."""
    if character_points < 0 or chariot_points < 0:
        raise ValueError("points values cannot be negative")
    for_character = character_points if character_slain else 0
    for_chariot = chariot_points if chariot_destroyed else 0
    return VictoryPoints(for_character=for_character, for_chariot=for_chariot, total=for_character + for_chariot)
