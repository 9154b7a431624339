"""Psychology of a character riding a monster or a chariot: whose rules the one model
follows, and the four exceptions.

The seed documents say nothing of it; the design team's answer (Anthony Reynolds,
reproduced at 6th.whfb.app/faq/psychology) settles it, and the register of
discrepancies records that the site follows that answer.  A players' council added
that the mount's stupidity or frenzy touches only how the model moves: that reading
is the ruling variant ``direwolf-mount-psychology-movement-only``, never the default.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from validator.api import implements
from whfb6.rulings import ADOPTED, Rulings


class Effects(StrEnum):
    """Which effects of a psychology rule reach the whole model."""

    NONE = "none"
    ALL = "all"
    MOVEMENT_ONLY = "movement-only"


@dataclass(frozen=True)
class Psyche:
    """The psychology rules one part of the model (rider, or mount) has of its own."""

    immune_to_psychology: bool = False
    causes_fear: bool = False
    causes_terror: bool = False
    stupidity: bool = False
    frenzy: bool = False


@dataclass(frozen=True)
class RiddenModelPsychology:
    tests_use: str
    """Whose psychology the model follows for every test but the exceptions: always the rider's."""
    immune_to_psychology: bool
    immune_to_fear: bool
    immune_to_terror: bool
    stupidity: Effects
    frenzy: Effects
    frenzied_charge_uses_mount_movement: bool
    """A frenzied model must charge when able, at the mount's Movement."""


def _mount_effects(rider_has_it: bool, mount_has_it: bool, rulings: Rulings) -> Effects:
    """Stupidity or frenzy: the rider's own reaches everything; the mount's is out of
    the rider's control and reaches the whole model (all of it, or its movement only
    under the council's reading)."""
    if rider_has_it:
        return Effects.ALL
    if not mount_has_it:
        return Effects.NONE
    return Effects.MOVEMENT_ONLY if rulings.mount_psychology_movement_only else Effects.ALL


@implements("monstrous-mounts/mount-kinds", "monstrous-mounts/movement")
def ridden_model_psychology(rider: Psyche, mount: Psyche, rulings: Rulings = ADOPTED) -> RiddenModelPsychology:
    """The psychology of a character and his monster or chariot as one model.

    The rider's psychology takes precedence: an immune rider makes the whole model
    immune.  The exceptions: a mount that causes fear passes immunity to fear to its
    rider, one that causes terror immunity to fear and terror; a mount's stupidity or
    frenzy is beyond the rider's control and the whole model suffers it, even when
    the rider himself is immune to psychology.
    """
    fear_immune = rider.immune_to_psychology or mount.causes_fear or mount.causes_terror
    stupidity = _mount_effects(rider.stupidity and not rider.immune_to_psychology, mount.stupidity, rulings)
    frenzy = _mount_effects(rider.frenzy and not rider.immune_to_psychology, mount.frenzy, rulings)
    return RiddenModelPsychology(
        tests_use="rider",
        immune_to_psychology=rider.immune_to_psychology,
        immune_to_fear=fear_immune,
        immune_to_terror=rider.immune_to_psychology or mount.causes_terror,
        stupidity=stupidity,
        frenzy=frenzy,
        frenzied_charge_uses_mount_movement=frenzy is not Effects.NONE,
    )
