"""Ruling variants: where the sources disagree, each reading is a switch here.

The adopted readings are the defaults of :class:`Rulings`.  Every other reading
is a named variant (recorded in ``docs/discrepancies.yml``) so that a worked
example can be run under it and show what the disagreement changes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

MountHitAllocation = Literal["random", "character"]


@dataclass(frozen=True)
class Rulings:
    """The readings the rules core follows.

    ``mount_hit_allocation``: ``"random"`` splits each hit on a monster and its
    rider by a D6, as the English original FAQ says; ``"character"`` sends every
    hit to the character, as the Spanish translation of that FAQ says.
    """

    mount_hit_allocation: MountHitAllocation = "random"


ADOPTED = Rulings()

VARIANTS: dict[str, Rulings] = {
    "spanish-faq-hits-to-character": replace(ADOPTED, mount_hit_allocation="character"),
}


def rulings_for(variant: str | None) -> Rulings:
    """The rulings of ``variant``, or the adopted ones when it is ``None``.

    Raises :class:`KeyError` naming the known variants when the name is unknown.
    """
    if variant is None:
        return ADOPTED
    try:
        return VARIANTS[variant]
    except KeyError:
        known = ", ".join(sorted(VARIANTS)) or "none"
        raise KeyError(f"unknown ruling variant {variant!r}; known variants: {known}") from None
