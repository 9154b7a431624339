"""Ruling variants: where the sources disagree, each reading is a switch here.

The adopted readings are the defaults of :class:`Rulings`.  Every other reading
is a named variant (recorded in ``docs/discrepancies.yml``) so that a worked
example can be run under it and show what the disagreement changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Literal

MountHitAllocation = Literal["random", "character"]
ImpactHitsOnMount = Literal["more-than-two-wounds", "monstrous-mount"]
UnitShieldCount = Literal["all-models", "rank-and-file"]
SmallUnitHits = Literal["randomised", "even-split"]
LookOutSirHitFace = Literal[6, 1]
ChariotUnitJoiners = Literal["chariot-characters-only", "one-chariot-character"]


@dataclass(frozen=True)
class Rulings:
    """The readings the rules core follows.

    ``mount_hit_allocation``: ``"random"`` splits each hit on a monster and its
    rider by a D6, as the English original FAQ says; ``"character"`` sends every
    hit to the character, as the Spanish translation of that FAQ says.

    ``character_may_charge_out_of_unit``: ``True`` lets a character leave his unit
    by declaring a charge of his own when the unit declares none, as the English
    rulebook and the Spanish compilation say; ``False`` forbids it unless a special
    rule (such as frenzy) forces the charge, as the Polish summary says.
    """

    mount_hit_allocation: MountHitAllocation = "random"
    character_may_charge_out_of_unit: bool = True
    impact_hits_on_mount: ImpactHitsOnMount = "more-than-two-wounds"
    """In a challenge against a lone character, when his mount takes the chariot's
    impact hits: when it has more than 2 Wounds, as the Spanish compilation says, or
    whenever it is a monstrous mount (2 Wounds or more), as the English rulebook has it."""
    unit_shield_counts: UnitShieldCount = "all-models"
    """Which models make up the five that keep a character in a unit from being shot at:
    all of them, the character included, as the Polish summary says, or the rank-and-file
    models besides him, as the English rulebook has it."""
    small_unit_hits: SmallUnitHits = "randomised"
    """How hits on a unit too small to shield the character in it are shared:
    each at random among all the models, as the Polish summary says, or evenly first with
    only the hits left over randomised, each to a different model, as the English
    rulebook has it."""
    look_out_sir_hit_face: LookOutSirHitFace = 6
    """The face of the Look out, Sir! roll on which the character is hit after all: 6, as
    the Polish summary says, or 1, as the English rulebook has it."""
    chariot_unit_joiners: ChariotUnitJoiners = "chariot-characters-only"
    """Who may join a unit of chariots: only characters riding chariots (as many as
    fit), as the official answer of Warhammer Chronicles 2004 (page 113) settles it;
    or any character, but only one riding a chariot, the reading this reference took
    before from the Spanish compilation's sentence."""
    look_out_sir_similar_size_only: bool = True
    """Whether Look out, Sir! protects only a character among models of his own size, as
    the official answer of Warhammer Chronicles 2004 (page 113) settles it, so that a
    mounted hero in a unit on foot, or a hero on a monster's base, is hit with no roll;
    ``False`` is the reading this reference followed before, from the Polish summary,
    which gives the roll to any character in a unit."""

    mount_psychology_movement_only: bool = False
    """Whether a mount's stupidity or frenzy reaches its rider's model in movement only,
    as a players' council (the Direwolf FAQ Council) reads the design team's answer;
    ``False`` follows the answer as the design team gave it: the whole model suffers it."""


ADOPTED = Rulings()

VARIANTS: Mapping[str, Rulings] = MappingProxyType({
    "spanish-faq-hits-to-character": replace(ADOPTED, mount_hit_allocation="character"),
    "polish-summary-no-charging-out": replace(ADOPTED, character_may_charge_out_of_unit=False),
    "english-rulebook-impact-hits-on-monstrous-mount": replace(ADOPTED, impact_hits_on_mount="monstrous-mount"),
    "english-rulebook-rank-and-file": replace(ADOPTED, unit_shield_counts="rank-and-file"),
    "english-rulebook-even-split": replace(ADOPTED, small_unit_hits="even-split"),
    "english-rulebook-look-out-sir-on-one": replace(ADOPTED, look_out_sir_hit_face=1),
    "polish-summary-look-out-sir-any-size": replace(ADOPTED, look_out_sir_similar_size_only=False),
    "spanish-compilation-one-chariot-character": replace(ADOPTED, chariot_unit_joiners="one-chariot-character"),
    "direwolf-mount-psychology-movement-only": replace(ADOPTED, mount_psychology_movement_only=True),
})
