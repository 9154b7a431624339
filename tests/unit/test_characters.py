"""The rules core for lone characters and shooting at characters, checked against the
seeds' numbers and against brute-force enumeration of dice and random picks."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import permutations, product

import pytest
from conftest import ROOT
from whfb6 import characters as chars
from whfb6.rulings import ADOPTED, VARIANTS, Rulings
from whfb6.scenarios import RULESET
from whfb6.tables import Cover

from validator.api.citations import rule_ids_of
from validator.api.ruleset import ScenarioError
from validator.checks.run import check_workspace
from validator.workspace import load_workspace

Unit = chars.FriendlyUnit
RANK_AND_FILE = VARIANTS["english-rulebook-rank-and-file"]
EVEN_SPLIT = VARIANTS["english-rulebook-even-split"]
HIT_ON_ONE = VARIANTS["english-rulebook-look-out-sir-on-one"]


# --- Characters alone ---------------------------------------------------------------------


@pytest.mark.parametrize(("troop_type", "moves_as"), [
    (chars.TroopType.INFANTRY, chars.LoneMovement.SKIRMISHER),
    (chars.TroopType.CAVALRY, chars.LoneMovement.SINGLE_MODEL),
    (chars.TroopType.MONSTROUS_INFANTRY, chars.LoneMovement.SINGLE_MODEL),
    (chars.TroopType.MONSTROUS_CAVALRY, chars.LoneMovement.SINGLE_MODEL),
    (chars.TroopType.MONSTER, chars.LoneMovement.SINGLE_MODEL),
    (chars.TroopType.CHARIOT, chars.LoneMovement.SINGLE_MODEL),
])
def test_only_lone_infantry_skirmishes(troop_type: chars.TroopType, moves_as: chars.LoneMovement) -> None:
    assert chars.lone_character_movement(troop_type) is moves_as


@pytest.mark.parametrize(("room", "possible", "may", "block"), [
    (True, True, True, chars.ChargeBlock.NONE),
    (False, True, False, chars.ChargeBlock.NO_ROOM),
    (True, False, False, chars.ChargeBlock.CHARGE_NOT_POSSIBLE),
    (False, False, False, chars.ChargeBlock.CHARGE_NOT_POSSIBLE),
])
def test_lone_character_may_be_charged_when_the_charge_is_possible(
        room: bool, possible: bool, may: bool, block: chars.ChargeBlock) -> None:
    assert chars.charge_lone_character(room, possible) == chars.LoneCharge(may_charge=may, blocked_by=block)


# --- Characters in units -------------------------------------------------------------------


@pytest.mark.parametrize(("models", "sharing", "per_hit"), [
    (2, chars.HitSharing.RANDOMISED, Fraction(1, 2)),
    (3, chars.HitSharing.RANDOMISED, Fraction(1, 3)),
    (4, chars.HitSharing.RANDOMISED, Fraction(1, 4)),
    (5, chars.HitSharing.UNIT_TAKES_ALL, Fraction(0)),
    (6, chars.HitSharing.UNIT_TAKES_ALL, Fraction(0)),
    (30, chars.HitSharing.UNIT_TAKES_ALL, Fraction(0)),
])
def test_five_models_shield_the_character(models: int, sharing: chars.HitSharing, per_hit: Fraction) -> None:
    targeting = chars.character_in_unit_targeting(models)
    assert targeting.hits_on_unit is sharing
    assert targeting.chance_per_hit == per_hit
    assert not targeting.may_be_picked_out
    assert targeting.picked_out_modifier is None


@pytest.mark.parametrize(("rides_monster", "modifier"), [(False, -1), (True, 0)])
def test_clearly_larger_character_may_be_picked_out_of_his_unit(rides_monster: bool, modifier: int) -> None:
    targeting = chars.character_in_unit_targeting(12, clearly_larger=True, rides_monster=rides_monster)
    assert targeting.may_be_picked_out
    assert targeting.picked_out_modifier == modifier
    assert targeting.hits_on_unit is chars.HitSharing.UNIT_TAKES_ALL


def _enumerated_hits_on_character(hits: int, models: int) -> dict[int, Fraction]:
    """Every way the hits can fall on the models (model 0 is the character), each as likely."""
    picks = list(product(range(models), repeat=hits))
    counts: dict[int, int] = {}
    for pick in picks:
        on_character = pick.count(0)
        counts[on_character] = counts.get(on_character, 0) + 1
    return {k: Fraction(v, len(picks)) for k, v in counts.items()}


@pytest.mark.parametrize(("hits", "models"), [(h, m) for h in range(0, 6) for m in range(2, 5)])
def test_randomised_hits_match_enumeration(hits: int, models: int) -> None:
    expected = _enumerated_hits_on_character(hits, models)
    distribution = chars.character_hits_distribution(hits, models)
    assert {k: v for k, v in distribution.items() if v} == expected
    assert chars.character_hit_chance(hits, models) == 1 - expected.get(0, Fraction(0))


@pytest.mark.parametrize(("hits", "models", "chance"), [
    (3, 3, Fraction(19, 27)),   # 1 - (2/3)^3
    (2, 4, Fraction(7, 16)),    # 1 - (3/4)^2
    (1, 2, Fraction(1, 2)),
    (0, 3, Fraction(0)),
    (10, 5, Fraction(0)),       # five models: the unit takes every hit
])
def test_character_hit_chance_by_hand(hits: int, models: int, chance: Fraction) -> None:
    result = chars.character_hit_chance(hits, models)
    assert result == chance
    assert isinstance(result, Fraction)


def test_distribution_in_a_big_unit_is_certain_zero() -> None:
    assert dict(chars.character_hits_distribution(7, 10)) == {0: Fraction(1)}


# --- The English rulebook's readings (ruling variants) -------------------------------------


def test_the_adopted_readings_are_the_polish_ones() -> None:
    assert ADOPTED.unit_shield_counts == "all-models"
    assert ADOPTED.small_unit_hits == "randomised"
    assert ADOPTED.look_out_sir_hit_face == 6
    assert replace(ADOPTED, unit_shield_counts="rank-and-file") == RANK_AND_FILE
    assert replace(ADOPTED, small_unit_hits="even-split") == EVEN_SPLIT
    assert replace(ADOPTED, look_out_sir_hit_face=1) == HIT_ON_ONE


@pytest.mark.parametrize(("models", "sharing", "per_hit"), [
    (2, chars.HitSharing.RANDOMISED, Fraction(1, 2)),
    (4, chars.HitSharing.RANDOMISED, Fraction(1, 4)),
    (5, chars.HitSharing.RANDOMISED, Fraction(1, 5)),      # only 4 besides him: too few
    (6, chars.HitSharing.UNIT_TAKES_ALL, Fraction(0)),     # 5 rank and file besides him
    (30, chars.HitSharing.UNIT_TAKES_ALL, Fraction(0)),
])
def test_rank_and_file_reading_counts_only_the_other_models(models: int, sharing: chars.HitSharing,
                                                            per_hit: Fraction) -> None:
    targeting = chars.character_in_unit_targeting(models, rulings=RANK_AND_FILE)
    assert targeting.hits_on_unit is sharing
    assert targeting.chance_per_hit == per_hit
    assert not targeting.may_be_picked_out


@pytest.mark.parametrize(("hits", "distribution"), [
    (0, {0: Fraction(1)}),
    (1, {0: Fraction(4, 5), 1: Fraction(1, 5)}),
    (2, {0: Fraction(16, 25), 1: Fraction(8, 25), 2: Fraction(1, 25)}),   # (4/5)^2, 2*(4/5)(1/5), (1/5)^2
])
def test_rank_and_file_reading_randomises_hits_on_five_models(hits: int, distribution: dict[int, Fraction]) -> None:
    assert dict(chars.character_hits_distribution(hits, 5, RANK_AND_FILE)) == distribution
    assert chars.character_hit_chance(hits, 5, RANK_AND_FILE) == 1 - distribution[0]
    assert chars.character_hit_chance(hits, 5) == 0   # the adopted reading: five in all shield him


def test_rank_and_file_reading_leaves_lone_characters_alone() -> None:
    assert chars.lone_character_targeting((Unit(3, 5),), False).basis is chars.TargetBasis.NOT_ALLOWED


def _enumerated_even_split(hits: int, models: int) -> dict[int, Fraction]:
    """Each model (model 0 is the character) takes hits // models; the hits left over go
    one by one to different models, every ordered choice of distinct models as likely."""
    each, left_over = divmod(hits, models)
    picks = list(permutations(range(models), left_over))
    counts: dict[int, int] = {}
    for pick in picks:
        on_character = each + pick.count(0)
        counts[on_character] = counts.get(on_character, 0) + 1
    return {k: Fraction(v, len(picks)) for k, v in counts.items()}


@pytest.mark.parametrize(("hits", "models"), [(h, m) for h in range(0, 10) for m in range(2, 5)])
def test_even_split_matches_enumeration(hits: int, models: int) -> None:
    expected = _enumerated_even_split(hits, models)
    distribution = chars.character_hits_distribution(hits, models, EVEN_SPLIT)
    assert {k: v for k, v in distribution.items() if v} == expected
    assert chars.character_hit_chance(hits, models, EVEN_SPLIT) == 1 - expected.get(0, Fraction(0))


@pytest.mark.parametrize(("hits", "models", "distribution", "chance"), [
    (3, 3, {1: Fraction(1)}, Fraction(1)),                            # one each, nothing left over
    (2, 3, {0: Fraction(1, 3), 1: Fraction(2, 3)}, Fraction(2, 3)),   # 2 left-over hits, 2 of 3 models
    (4, 3, {1: Fraction(2, 3), 2: Fraction(1, 3)}, Fraction(1)),      # one each, 1 left over
    (1, 4, {0: Fraction(3, 4), 1: Fraction(1, 4)}, Fraction(1, 4)),
    (7, 2, {3: Fraction(1, 2), 4: Fraction(1, 2)}, Fraction(1)),
    (0, 3, {0: Fraction(1)}, Fraction(0)),
    (10, 5, {0: Fraction(1)}, Fraction(0)),                           # five models: the unit takes all
])
def test_even_split_by_hand(hits: int, models: int, distribution: dict[int, Fraction], chance: Fraction) -> None:
    assert dict(chars.character_hits_distribution(hits, models, EVEN_SPLIT)) == distribution
    assert chars.character_hit_chance(hits, models, EVEN_SPLIT) == chance
    assert chars.character_in_unit_targeting(models, rulings=EVEN_SPLIT).hits_on_unit is (
        chars.HitSharing.UNIT_TAKES_ALL if models >= 5 else chars.HitSharing.EVEN_SPLIT)


def test_both_english_readings_together() -> None:
    english = replace(ADOPTED, unit_shield_counts="rank-and-file", small_unit_hits="even-split")
    # seven hits on five models (four besides him): one each, two left over on two of five
    assert dict(chars.character_hits_distribution(7, 5, english)) == {1: Fraction(3, 5), 2: Fraction(2, 5)}
    assert chars.character_hit_chance(4, 5, english) == Fraction(4, 5)


@pytest.mark.parametrize(("rulings", "hits", "models", "chance"), [
    (ADOPTED, 3, 3, Fraction(19, 27)),
    (EVEN_SPLIT, 3, 3, Fraction(1)),
    (RANK_AND_FILE, 3, 5, Fraction(61, 125)),   # 1 - (4/5)^3
    (ADOPTED, 3, 5, Fraction(0)),
])
def test_scenario_passes_the_variant_on(rulings: Rulings, hits: int, models: int, chance: Fraction) -> None:
    variant = next((name for name, value in VARIANTS.items() if value == rulings), None)
    outcome = RULESET.run("shooting-character-in-unit-hits", {"hits": hits, "models_in_unit": models}, variant)
    assert outcome["probability"] == chance


def test_a_variant_the_scenario_does_not_consult_is_refused() -> None:
    """Look out, Sir! plays no part in sharing hits: running under that variant would
    claim to show a reading it does not show."""
    variant = next(name for name, value in VARIANTS.items() if value == HIT_ON_ONE)
    with pytest.raises(ScenarioError, match=r"does not use ruling variant .*\(variants it does use: "
                                            r"english-rulebook-even-split, english-rulebook-rank-and-file\)"):
        RULESET.run("shooting-character-in-unit-hits", {"hits": 3, "models_in_unit": 3}, variant)


# --- Lone characters -----------------------------------------------------------------------


@pytest.mark.parametrize(("units", "closest", "larger", "protected", "basis"), [
    ((), False, False, False, chars.TargetBasis.UNRESTRICTED),
    ((Unit(8, 20),), False, False, False, chars.TargetBasis.UNRESTRICTED),
    ((Unit(5.5, 20),), False, False, False, chars.TargetBasis.UNRESTRICTED),
    ((Unit(5, 20),), False, False, True, chars.TargetBasis.NOT_ALLOWED),
    ((Unit(5, 5),), True, False, True, chars.TargetBasis.CLOSEST_TARGET),
    ((Unit(1, 4),), False, False, False, chars.TargetBasis.UNRESTRICTED),
    ((Unit(1, 4), Unit(4, 10)), False, False, True, chars.TargetBasis.NOT_ALLOWED),
    ((Unit(2, 20),), False, True, True, chars.TargetBasis.CLEARLY_LARGER),
])
def test_lone_character_targeting(units: tuple[chars.FriendlyUnit, ...], closest: bool, larger: bool,
                                  protected: bool, basis: chars.TargetBasis) -> None:
    result = chars.lone_character_targeting(units, closest, clearly_larger=larger)
    assert result.protected is protected
    assert result.basis is basis
    assert result.may_be_targeted is (basis is not chars.TargetBasis.NOT_ALLOWED)
    assert result.modifier == (None if basis is chars.TargetBasis.NOT_ALLOWED else -1)


def test_monster_rider_takes_no_single_model_penalty() -> None:
    result = chars.lone_character_targeting((Unit(3, 15),), False, clearly_larger=True, rides_monster=True)
    assert result.may_be_targeted and result.modifier == 0


def _enumerated_shot_chance(needed: int) -> Fraction:
    """Chance to hit by rolling the D6 (and the second D6 for 7+ to 9+) over every face."""
    if needed <= 6:
        return Fraction(sum(1 for die in range(1, 7) if die != 1 and die >= needed), 6)
    pairs = list(product(range(1, 7), repeat=2))
    return Fraction(sum(1 for a, b in pairs if a == 6 and b >= needed - 3), len(pairs))


@pytest.mark.parametrize(("skill", "moved", "long_range", "cover", "modifier", "needed"), [
    (3, False, False, Cover.NONE, -1, 5),    # 4+ becomes 5+
    (3, False, True, Cover.NONE, -2, 6),
    (4, False, False, Cover.NONE, -1, 4),
    (3, True, True, Cover.SOFT, -4, 8),      # 6 then 5+
    (5, False, False, Cover.NONE, -1, 3),
])
def test_lone_shot_adds_the_single_model_modifier(skill: int, moved: bool, long_range: bool, cover: Cover,
                                                  modifier: int, needed: int) -> None:
    shot = chars.lone_character_shot(skill, moved=moved, long_range=long_range, cover=cover)
    assert shot.may_be_targeted
    assert shot.modifier == modifier
    assert shot.probability == _enumerated_shot_chance(needed)


def test_lone_shot_at_a_dragon_rider() -> None:
    shot = chars.lone_character_shot(3, (Unit(3, 15),), clearly_larger=True, rides_monster=True, large_target=True)
    assert (shot.modifier, shot.needed, shot.probability) == (1, 3, Fraction(2, 3))


def test_lone_shot_not_allowed_has_no_roll() -> None:
    shot = chars.lone_character_shot(3, (Unit(3, 15),))
    assert shot == chars.LoneShot(may_be_targeted=False, modifier=None, needed=None, then=None,
                                  probability=Fraction(0))


# --- Look out, Sir! ------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "hit"), [(1, False), (2, False), (3, False), (4, False), (5, False), (6, True)])
def test_look_out_sir_faces(die: int, hit: bool) -> None:
    result = chars.look_out_sir(die)
    assert result.character_hit is hit
    assert result.ordinary_model_hit is not hit


@pytest.mark.parametrize("hits", range(0, 5))
def test_look_out_sir_chance_matches_enumeration(hits: int) -> None:
    rolls = list(product(range(1, 7), repeat=hits))
    hit = sum(1 for dice in rolls if 6 in dice)
    assert chars.look_out_sir_hit_chance(hits) == Fraction(hit, len(rolls))


def test_look_out_sir_single_hit_is_one_in_six() -> None:
    assert chars.look_out_sir_hit_chance() == Fraction(1, 6)


@pytest.mark.parametrize(("die", "hit"), [(1, True), (2, False), (3, False), (4, False), (5, False), (6, False)])
def test_look_out_sir_on_one_faces(die: int, hit: bool) -> None:
    assert chars.look_out_sir(die, HIT_ON_ONE) == chars.LookOutSir(character_hit=hit, ordinary_model_hit=not hit)
    outcome = RULESET.run("shooting-look-out-sir", {"die": die}, "english-rulebook-look-out-sir-on-one")
    assert outcome == {"character_hit": hit, "ordinary_model_hit": not hit}


@pytest.mark.parametrize("hits", range(0, 5))
def test_look_out_sir_on_one_chance_matches_enumeration(hits: int) -> None:
    rolls = list(product(range(1, 7), repeat=hits))
    hit = sum(1 for dice in rolls if 1 in dice)
    assert chars.look_out_sir_hit_chance(hits, HIT_ON_ONE) == Fraction(hit, len(rolls))
    assert chars.look_out_sir_hit_chance(hits, HIT_ON_ONE) == chars.look_out_sir_hit_chance(hits)


# --- Wrong input ---------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: chars.character_in_unit_targeting(1),
    lambda: chars.character_hit_chance(-1, 3),
    lambda: chars.character_hits_distribution(2, 0),
    lambda: chars.lone_character_targeting((Unit(-1, 10),), False),
    lambda: chars.lone_character_targeting((Unit(2, 0),), False),
    lambda: chars.lone_character_shot(3, large_target=True),
    lambda: chars.lone_character_shot(0),
    lambda: chars.look_out_sir(7),
    lambda: chars.look_out_sir(0, HIT_ON_ONE),
    lambda: chars.character_hits_distribution(-1, 3, EVEN_SPLIT),
    lambda: chars.character_hit_chance(2, 1, RANK_AND_FILE),
    lambda: chars.look_out_sir_hit_chance(-2),
])
def test_wrong_input_raises_value_error(call: object) -> None:
    with pytest.raises(ValueError):
        call()  # type: ignore[operator]


def test_scenario_input_is_checked_by_field() -> None:
    with pytest.raises(ScenarioError, match="models_in_unit"):
        RULESET.run("shooting-character-in-unit", {"models_in_unit": 1})
    with pytest.raises(ScenarioError, match="die"):
        RULESET.run("shooting-look-out-sir", {"die": 0})


@pytest.mark.integration  # checks the whole bundled book
def test_a_changed_look_out_sir_face_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chars, "CHARACTER_FACES", frozenset({1}))
    report = check_workspace(load_workspace(ROOT))
    assert any("look-out-sir" in str(problem) for problem in report.problems)


def test_every_core_function_names_its_rules() -> None:
    public = [value for name, value in vars(chars).items()
              if callable(value) and not name.startswith("_") and not isinstance(value, type)
              and getattr(value, "__module__", "") == chars.__name__]
    assert public
    for function in public:
        ids = rule_ids_of(function)
        assert ids, function.__name__
        assert all(i.startswith(("characters-alone/", "shooting-at-characters/")) for i in ids)
