"""How big a character counts for targeting, worked out from what he rides.

The seed documents speak of a character "clearly larger" than his unit without
saying how to tell.  The design team's answers settle it (Warhammer Chronicles
2004, page 113, and the answer on shooting reproduced at 6th.whfb.app/faq/shooting):
a mount of more than one Wound, or a monster's base (40 mm or more), is bigger than
cavalry, and a Large Target is bigger than anything else.  The register of
discrepancies records that the site follows these answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from validator.api import implements

MONSTER_BASE_MM = 40
"""The narrowest monster's base: a character on a base this wide or wider is bigger than cavalry."""


class Size(IntEnum):
    """Sizes for targeting, smallest first: each is bigger than those before it."""

    ON_FOOT = 0
    CAVALRY = 1
    MONSTER = 2
    LARGE_TARGET = 3


class Mount(StrEnum):
    ON_FOOT = "on-foot"
    STEED = "steed"
    MONSTER = "monster"


@implements("shooting-at-characters/larger-characters", "monstrous-mounts/mount-kinds")
def character_size(mount: Mount, mount_wounds: int = 0, base_mm: int = 20, large_target: bool = False) -> Size:
    """The size a character counts as: a Large Target above all; a mount of more than one
    Wound, or a base of 40 mm or more, a monster; any other mount cavalry; else on foot."""
    if mount is Mount.ON_FOOT and mount_wounds:
        raise ValueError("a character on foot has no mount, so no mount Wounds")
    if mount is not Mount.ON_FOOT and mount_wounds < 1:
        raise ValueError("a mount has at least one Wound")
    if base_mm < 1:
        raise ValueError("a base is at least 1 mm wide")
    if large_target:
        return Size.LARGE_TARGET
    if mount_wounds > 1 or base_mm >= MONSTER_BASE_MM:
        return Size.MONSTER
    return Size.CAVALRY if mount is not Mount.ON_FOOT else Size.ON_FOOT


@dataclass(frozen=True)
class SizeAgainstUnit:
    character_size: Size
    bigger_than_unit: bool
    """He may be picked out by shooters though in or near the unit."""
    similar_size: bool
    """Only then may he roll "Look out, Sir!"."""


@implements("shooting-at-characters/larger-characters", "shooting-at-characters/look-out-sir")
def against_unit(character: Size, unit: Size) -> SizeAgainstUnit:
    """A character against the models of the unit he is in or beside."""
    return SizeAgainstUnit(character_size=character, bigger_than_unit=character > unit, similar_size=character == unit)
