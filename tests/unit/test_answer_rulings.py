"""What the official answers decide that the seeds leave open, worked by hand:
a challenge's combat resolution, a character's size from his mount, the psychology
of a ridden model and when each Monster Reaction result takes effect."""

from __future__ import annotations

import pytest
from whfb6 import challenges as ch
from whfb6 import monstrous_mounts as mm
from whfb6 import psychology as psy
from whfb6 import sizes
from whfb6 import units as unit_rules
from whfb6.rulings import VARIANTS


@pytest.mark.parametrize(("wounds_left", "unsaved", "killing_blows", "resolution", "overkill"), [
    (1, (1,) * 8, 0, 6, 5),   # the daemon's eight wounds on a champion with one left: capped at 1 + 5
    (3, (2, 3), 0, 5, 2),     # two D3-wound hits rolling five on three Wounds
    (3, (1,), 0, 1, 0),       # one wound, no kill, no overkill
    (2, (1,), 1, 3, 1),       # Killing Blow: his two Wounds and one for the other hit
    (2, (3, 3), 2, 5, 3),     # Killing Blow: 2 + one for each of the three other hits, whatever they caused
    (1, (1,) * 9, 1, 6, 5),   # ten wounding hits, still capped at five beyond his last Wound
])
def test_challenge_combat_resolution(wounds_left: int, unsaved: tuple[int, ...], killing_blows: int,
                                     resolution: int, overkill: int) -> None:
    result = ch.challenge_combat_resolution(wounds_left, unsaved, killing_blows)
    assert (result.combat_resolution, result.overkill) == (resolution, overkill)
    assert result.slain == (killing_blows > 0 or sum(unsaved) >= wounds_left)


def test_challenge_combat_resolution_refuses_impossible_input() -> None:
    for args in ((0, (1,), 0), (2, (0,), 0), (2, (1,), -1)):
        with pytest.raises(ValueError):
            ch.challenge_combat_resolution(*args)


@pytest.mark.parametrize(("mount", "wounds", "base", "large", "size"), [
    (sizes.Mount.ON_FOOT, 0, 20, False, sizes.Size.ON_FOOT),
    (sizes.Mount.STEED, 1, 25, False, sizes.Size.CAVALRY),
    (sizes.Mount.STEED, 1, 50, False, sizes.Size.MONSTER),     # a 1-Wound mount on a 50 mm base
    (sizes.Mount.MONSTER, 3, 25, False, sizes.Size.MONSTER),   # a 3-Wound mount on a cavalry base
    (sizes.Mount.MONSTER, 3, 40, False, sizes.Size.MONSTER),
    (sizes.Mount.MONSTER, 6, 100, True, sizes.Size.LARGE_TARGET),
])
def test_character_size_from_his_mount(mount: sizes.Mount, wounds: int, base: int, large: bool,
                                       size: sizes.Size) -> None:
    assert sizes.character_size(mount, wounds, base, large) is size


def test_bigger_than_his_unit() -> None:
    horse = sizes.character_size(sizes.Mount.STEED, 1, 25)
    assert sizes.against_unit(horse, sizes.Size.ON_FOOT).bigger_than_unit
    assert sizes.against_unit(horse, sizes.Size.CAVALRY).similar_size
    assert not sizes.against_unit(sizes.Size.MONSTER, sizes.Size.LARGE_TARGET).bigger_than_unit
    with pytest.raises(ValueError):
        sizes.character_size(sizes.Mount.STEED, 0)


def test_ridden_model_follows_the_riders_psychology_with_four_exceptions() -> None:
    plain = psy.Psyche()
    immune = psy.ridden_model_psychology(psy.Psyche(immune_to_psychology=True), plain)
    assert immune.immune_to_psychology and immune.immune_to_fear and immune.stupidity is psy.Effects.NONE
    fear = psy.ridden_model_psychology(plain, psy.Psyche(causes_fear=True))
    assert fear.immune_to_fear and not fear.immune_to_terror
    terror = psy.ridden_model_psychology(plain, psy.Psyche(causes_terror=True))
    assert terror.immune_to_fear and terror.immune_to_terror and terror.tests_use == "rider"
    stupid = psy.ridden_model_psychology(psy.Psyche(immune_to_psychology=True), psy.Psyche(stupidity=True))
    assert stupid.stupidity is psy.Effects.ALL
    frenzied = psy.ridden_model_psychology(plain, psy.Psyche(frenzy=True))
    assert frenzied.frenzy is psy.Effects.ALL and frenzied.frenzied_charge_uses_mount_movement
    council = VARIANTS["direwolf-mount-psychology-movement-only"]
    assert psy.ridden_model_psychology(plain, psy.Psyche(frenzy=True), council).frenzy is psy.Effects.MOVEMENT_ONLY
    rider_own = psy.ridden_model_psychology(psy.Psyche(frenzy=True), plain, council)
    assert rider_own.frenzy is psy.Effects.ALL  # the council's reading touches only the mount's


@pytest.mark.parametrize(("die", "start", "ranged"), [
    (1, mm.ReactionStart.OWNERS_COMPULSORY_MOVES, None),
    (2, mm.ReactionStart.OWNERS_COMPULSORY_MOVES, None),
    (3, mm.ReactionStart.OWNERS_CHARGE_DECLARATIONS, mm.Phase.SHOOTING),
    (4, mm.ReactionStart.OWNERS_CHARGE_DECLARATIONS, mm.Phase.SHOOTING),
    (5, mm.ReactionStart.AT_ONCE, mm.Phase.SHOOTING),
    (6, mm.ReactionStart.AT_ONCE, mm.Phase.SHOOTING),
])
def test_when_each_monster_reaction_takes_effect(die: int, start: mm.ReactionStart, ranged: mm.Phase | None) -> None:
    timing = mm.reaction_timing(die)
    assert (timing.takes_effect, timing.ranged_attacks_in) == (start, ranged)


@pytest.mark.parametrize(("chariots", "destroyed", "roll", "membership"), [
    (4, False, False, "stays"),
    (5, False, True, "stays"),
    (9, False, True, "stays"),
    (6, True, True, "leaves-at-end-of-phase"),
])
def test_a_character_in_a_unit_of_chariots(chariots: int, destroyed: bool, roll: bool, membership: str) -> None:
    verdict = unit_rules.character_in_chariot_unit(chariots, destroyed)
    assert (verdict.look_out_sir, verdict.membership) == (roll, membership)
