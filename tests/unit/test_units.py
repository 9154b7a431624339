"""The rules core for characters in units, checked against the seeds' statements.

Every expectation below is read off the rule text (the Spanish compilation and
the Polish summary), not off the code's own output.  No rule of this chapter
rolls dice, so instead of enumerating dice the tests enumerate every combination
of the yes/no conditions and compare with the rule stated independently.
"""

from __future__ import annotations

from itertools import product

import pytest
from conftest import ROOT
from whfb6 import units as cu
from whfb6.rulings import ADOPTED, VARIANTS
from whfb6.scenarios import RULESET
from whfb6.scenarios import units as unit_scenarios

from validator.api.citations import rule_ids_of
from validator.api.ruleset import ScenarioError
from validator.checks.examples import ExampleRun, run_examples
from validator.workspace import load_workspace

POLISH = VARIANTS["polish-summary-no-charging-out"]
M, U, J = cu.Mount, cu.UnitKind, cu.JoinBar


# --- which units ----------------------------------------------------------------

@pytest.mark.parametrize(("mount", "unit", "reasons"), [
    (M.ON_FOOT, U.TROOPS, ()),
    (M.CAVALRY, U.TROOPS, ()),
    (M.MONSTER, U.TROOPS, ()),            # whatever his mount and its size
    (M.ON_FOOT, U.CHARIOTS, (J.CHARIOTS_TAKE_ONLY_CHARIOT_CHARACTERS,)),  # official answer, Chronicles 2004
    (M.MONSTER, U.CHARIOTS, (J.CHARIOTS_TAKE_ONLY_CHARIOT_CHARACTERS,)),
    (M.CHARIOT, U.CHARIOTS, ()),
    (M.ON_FOOT, U.FLYING, (J.FLYING_UNIT,)),
    (M.MONSTER, U.FLYING, (J.FLYING_UNIT,)),   # not even on a flying monster
    (M.CAVALRY, U.LONE_MONSTER, (J.LONE_MONSTER,)),
    (M.CHARIOT, U.TROOPS, (J.CHARIOT_JOINS_ONLY_CHARIOTS,)),
    (M.CHARIOT, U.FLYING, (J.FLYING_UNIT, J.CHARIOT_JOINS_ONLY_CHARIOTS)),
])
def test_which_units_a_character_may_join(mount: cu.Mount, unit: cu.UnitKind, reasons: tuple[cu.JoinBar, ...]) -> None:
    verdict = cu.may_join(mount, unit)
    assert verdict.reasons == reasons
    assert verdict.may_join is (not reasons)


def test_chariot_units_take_chariot_characters_only_and_no_limit_on_them() -> None:
    """The official answer (Warhammer Chronicles 2004, page 113): only a character in a
    chariot may join a unit of chariots, and it names no number."""
    assert cu.may_join(M.CHARIOT, U.CHARIOTS, chariot_characters_in_unit=0).may_join
    assert cu.may_join(M.CHARIOT, U.CHARIOTS, chariot_characters_in_unit=1).may_join
    assert not cu.may_join(M.CAVALRY, U.CHARIOTS).may_join


def test_only_one_chariot_character_per_chariot_unit_under_the_earlier_reading() -> None:
    """The Spanish compilation's sentence as this reference read it before the answer."""
    earlier = VARIANTS["spanish-compilation-one-chariot-character"]
    assert cu.may_join(M.CHARIOT, U.CHARIOTS, chariot_characters_in_unit=0, rulings=earlier).may_join
    second = cu.may_join(M.CHARIOT, U.CHARIOTS, chariot_characters_in_unit=1, rulings=earlier)
    assert second.reasons == (J.CHARIOT_CHARACTER_ALREADY_JOINED,)
    # a character on foot is not a chariot character: the limit is not his
    assert cu.may_join(M.ON_FOOT, U.CHARIOTS, chariot_characters_in_unit=1, rulings=earlier).may_join


@pytest.mark.parametrize(("fleeing", "engaged"), list(product([False, True], repeat=2)))
def test_never_a_fleeing_or_engaged_unit(fleeing: bool, engaged: bool) -> None:
    verdict = cu.may_join(M.ON_FOOT, U.TROOPS, unit_fleeing=fleeing, unit_engaged=engaged)
    expected = tuple(bar for bar, holds in ((J.UNIT_FLEEING, fleeing), (J.UNIT_ENGAGED, engaged)) if holds)
    assert verdict.reasons == expected
    assert verdict.may_join is (not fleeing and not engaged)


def test_join_rejects_impossible_input() -> None:
    with pytest.raises(ValueError, match="chariot"):
        cu.may_join(M.ON_FOOT, U.TROOPS, chariot_characters_in_unit=1)
    with pytest.raises(ValueError, match="negative"):
        cu.may_join(M.CHARIOT, U.CHARIOTS, chariot_characters_in_unit=-1)


# --- units of characters ------------------------------------------------------------

@pytest.mark.parametrize("mounts", list(product(list(M), repeat=2)))
def test_units_of_characters_only_on_foot_or_cavalry(mounts: tuple[cu.Mount, cu.Mount]) -> None:
    small = {M.ON_FOOT, M.CAVALRY}
    verdict = cu.may_form_unit_of_characters(mounts)
    assert verdict.may_form is all(m in small for m in mounts)
    assert set(verdict.barred_mounts) == {m for m in mounts if m not in small}


def test_barred_mounts_are_named_once() -> None:
    verdict = cu.may_form_unit_of_characters((M.MONSTER, M.ON_FOOT, M.MONSTER, M.CHARIOT))
    assert verdict.barred_mounts == (M.MONSTER, M.CHARIOT)
    with pytest.raises(ValueError, match="two characters"):
        cu.may_form_unit_of_characters((M.ON_FOOT,))


# --- joining and placement -----------------------------------------------------------

@pytest.mark.parametrize(("allowance", "distance", "moved", "left", "cap"), [
    (4, 3, False, 1, 1),     # the unit waits: it keeps only what the character has left
    (4, 4, False, 0, 0),     # he used it all: the unit may not move at all
    (8, 2, False, 6, 6),
    (8, 5, True, 3, None),   # the unit already moved: nothing to limit
    (5, 0, False, 5, 5),     # already touching: joining costs nothing
])
def test_join_move(allowance: int, distance: int, moved: bool, left: int, cap: int | None) -> None:
    outcome = cu.join_move(allowance, distance, moved)
    assert outcome == cu.JoinMove(movement_left=left, unit_may_move_at_most=cap)


def test_join_move_rejects_impossible_distances() -> None:
    with pytest.raises(ValueError, match="distance"):
        cu.join_move(4, 5, False)
    with pytest.raises(ValueError, match="distance"):
        cu.join_move(4, -1, False)
    with pytest.raises(ValueError, match="allowance"):
        cu.join_move(-1, 0, False)


@pytest.mark.parametrize(("spaces", "covered", "room", "rank", "counted"), [
    (19, 1, True, cu.Rank.FRONT, 20),
    (16, 2, False, cu.Rank.SECOND, 18),
    (10, 4, True, cu.Rank.FRONT, 14),
])
def test_placement(spaces: int, covered: int, room: bool, rank: cu.Rank, counted: int) -> None:
    placement = cu.place_in_unit(spaces, covered, room)
    assert placement.rank is rank
    assert placement.spaces_filled == covered
    assert placement.spaces_counted_for_ranks == counted


def test_placement_rejects_empty_bases_and_units() -> None:
    with pytest.raises(ValueError, match="base"):
        cu.place_in_unit(10, 0, True)
    with pytest.raises(ValueError, match="unit"):
        cu.place_in_unit(0, 1, True)


@pytest.mark.parametrize(("flank", "special"), list(product([False, True], repeat=2)))
def test_second_rank_limits(flank: bool, special: bool) -> None:
    limits = cu.second_rank_limits(flank, special)
    assert limits.may_fight is (flank or special)
    # the rest holds whatever happens to the unit
    assert not limits.may_use_magic_items
    assert not limits.may_use_magic
    assert not limits.unit_may_use_his_leadership


# --- moving together and inside the unit -------------------------------------------

@pytest.mark.parametrize(("unit", "characters", "joint"), [
    (4, (3,), 3),        # a slow character slows the unit
    (5, (8,), 5),        # a fast one cannot outpace it
    (8, (4, 6), 4),
    (4, (4,), 4),
])
def test_joint_movement_is_the_lowest(unit: int, characters: tuple[int, ...], joint: int) -> None:
    assert cu.joint_movement(unit, characters) == joint


def test_joint_movement_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="at least one character"):
        cu.joint_movement(4, ())
    with pytest.raises(ValueError, match="at least 1"):
        cu.joint_movement(0, (4,))


@pytest.mark.parametrize(("state", "fighting", "allowed", "rule", "distance"), [
    (cu.UnitState.MOVING, False, True, cu.PlaceChangeRule.WITHIN_HIS_MOVEMENT, 4),
    (cu.UnitState.CHARGING, False, False, cu.PlaceChangeRule.NOT_ALLOWED, None),
    (cu.UnitState.COMPULSORY_MOVE, False, False, cu.PlaceChangeRule.NOT_ALLOWED, None),
    (cu.UnitState.ENGAGED, False, True, cu.PlaceChangeRule.MAKE_WAY, None),
    (cu.UnitState.ENGAGED, True, False, cu.PlaceChangeRule.NOT_ALLOWED, None),
])
def test_change_place(state: cu.UnitState, fighting: bool, allowed: bool,
                      rule: cu.PlaceChangeRule, distance: int | None) -> None:
    change = cu.change_place(state, 4, fighting)
    assert (change.allowed, change.rule, change.max_distance) == (allowed, rule, distance)


def test_change_place_rejects_fighting_outside_combat() -> None:
    with pytest.raises(ValueError, match="engaged"):
        cu.change_place(cu.UnitState.MOVING, 4, already_fighting=True)
    with pytest.raises(ValueError, match="Movement"):
        cu.change_place(cu.UnitState.MOVING, 0)


# --- leaving ----------------------------------------------------------------------

@pytest.mark.parametrize("forced", [None, *cu.ForcedMove])
@pytest.mark.parametrize(("phase", "joined", "stuck", "combat"), list(product([False, True], repeat=4)))
def test_leaving_matches_the_rule(forced: cu.ForcedMove | None, phase: bool, joined: bool,
                                  stuck: bool, combat: bool) -> None:
    verdict = cu.may_leave(phase, joined, stuck, forced, combat)
    free = phase and not joined and not stuck and forced is None and not combat
    assert verdict.may_leave is free
    assert (cu.LeaveBar.NOT_MOVEMENT_PHASE in verdict.reasons) is (not phase)
    assert (cu.LeaveBar.JOINED_THIS_TURN in verdict.reasons) is joined
    assert (cu.LeaveBar.UNIT_CANNOT_MOVE in verdict.reasons) is stuck
    assert (cu.LeaveBar.CLOSE_COMBAT in verdict.reasons) is combat


@pytest.mark.parametrize(("forced", "bar"), [
    (cu.ForcedMove.COMPULSORY_MOVE, cu.LeaveBar.COMPULSORY_MOVE),
    (cu.ForcedMove.CHARGE, cu.LeaveBar.CHARGE),
    (cu.ForcedMove.PURSUIT, cu.LeaveBar.PURSUIT),
    (cu.ForcedMove.OVERRUN, cu.LeaveBar.OVERRUN),
])
def test_no_leaving_during_a_forced_move(forced: cu.ForcedMove, bar: cu.LeaveBar) -> None:
    assert cu.may_leave(forced_move=forced) == cu.LeaveVerdict(may_leave=False, reasons=(bar,))


@pytest.mark.parametrize(("unit_moves", "exception", "with_unit", "alone"), [
    (True, False, True, False),
    (True, True, True, False),
    (False, False, False, False),
    (False, True, False, True),
])
def test_pursuit_and_overrun(unit_moves: bool, exception: bool, with_unit: bool, alone: bool) -> None:
    assert cu.pursuit_or_overrun(unit_moves, exception) == cu.PursuitChoice(with_unit, alone)


# --- charging out, under both readings -----------------------------------------------

@pytest.mark.parametrize(("flies", "forced"), list(product([False, True], repeat=2)))
def test_a_unit_that_charges_takes_its_characters(flies: bool, forced: bool) -> None:
    for rulings in (ADOPTED, POLISH):
        outcome = cu.charge_from_unit(True, flies, forced, rulings)
        assert outcome.must_charge_with_unit
        assert not outcome.may_charge_out
        assert outcome.unit_may_declare_charge is None


@pytest.mark.parametrize(("flies", "forced"), list(product([False, True], repeat=2)))
def test_adopted_reading_lets_him_charge_out(flies: bool, forced: bool) -> None:
    outcome = cu.charge_from_unit(False, flies, forced)
    assert outcome.may_charge_out
    assert outcome.may_use_flying_move is flies
    assert outcome.unit_may_declare_charge is False


@pytest.mark.parametrize(("flies", "forced"), list(product([False, True], repeat=2)))
def test_polish_reading_needs_a_special_rule(flies: bool, forced: bool) -> None:
    outcome = cu.charge_from_unit(False, flies, forced, POLISH)
    assert outcome.may_charge_out is forced
    assert outcome.may_use_flying_move is (forced and flies)
    assert outcome.unit_may_declare_charge is (False if forced else None)


@pytest.mark.parametrize("fleeing", [False, True])
def test_destroyed_unit_leaves_a_lone_character(fleeing: bool) -> None:
    assert cu.after_unit_destroyed(fleeing) == cu.UnitDestroyed(lone_character=True, may_try_to_rally=fleeing)


# --- wiring: rule ids, scenarios, examples ----------------------------------------------

def test_every_core_function_names_its_rules() -> None:
    public = [getattr(cu, name) for name in dir(cu)
              if callable(getattr(cu, name)) and not name.startswith("_")
              and getattr(getattr(cu, name), "__module__", "") == cu.__name__
              and not isinstance(getattr(cu, name), type)]
    assert len(public) >= 10
    for function in public:
        assert rule_ids_of(function), f"{function.__name__} does not name the rule it implements"
        # A function of this chapter may touch other chapters' rules (a character in a
        # unit of chariots is also a case of "Look out, Sir!"), but names one of its own.
        assert any(rule_id.startswith("characters-in-units/") for rule_id in rule_ids_of(function))


def _chapter_runs() -> list[ExampleRun]:
    rulebook = load_workspace(ROOT).rulebook
    examples = [(rule.id, example) for rule in rulebook.rules if rule.id.startswith("characters-in-units/")
                for example in rule.examples]
    return run_examples(RULESET, examples)


@pytest.mark.integration  # checks the whole bundled book
def test_chapter_examples_pass_and_use_every_scenario() -> None:
    runs = _chapter_runs()
    assert runs
    assert not [str(problem) for run in runs for problem in run.problems]
    used = {run.example.scenario for run in runs}
    assert {scenario.name for scenario in unit_scenarios.SCENARIOS} <= used
    assert any(run.example.variant == "polish-summary-no-charging-out" for run in runs)


@pytest.mark.integration  # checks the whole bundled book
def test_a_changed_constant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cu, "MAX_CHARIOT_CHARACTERS_PER_CHARIOT_UNIT", 2)
    failing = {run.example.id for run in _chapter_runs() if run.problems}
    assert "second-chariot-character" in failing


@pytest.mark.integration  # checks the whole bundled book
def test_a_changed_character_unit_rule_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cu, "MOUNTS_THAT_FORM_CHARACTER_UNITS", frozenset(cu.Mount))
    failing = {run.example.id for run in _chapter_runs() if run.problems}
    assert "hero-and-dragon" in failing


def test_scenario_inputs_are_checked() -> None:
    with pytest.raises(ScenarioError, match="mount"):
        RULESET.run("unit-may-join", {"mount": "horse", "unit": "troops"})
    with pytest.raises(ScenarioError, match="character_movements"):
        RULESET.run("unit-joint-movement", {"unit_movement": 4, "character_movements": []})
    with pytest.raises(ScenarioError, match="rejected its input"):
        RULESET.run("unit-join-move", {"character_allowance": 3, "distance_to_contact": 4, "unit_has_moved": False})


# --- Consequences stated by the rules, each an outcome field ---------------------------


@pytest.mark.parametrize("engaged", [False, True])
def test_engaged_unit_still_lets_him_charge_into_its_fight(engaged: bool) -> None:
    verdict = cu.may_join(cu.Mount.CAVALRY, cu.UnitKind.TROOPS, unit_engaged=engaged)
    assert verdict.may_charge_into_its_combat is (True if engaged else None)


@pytest.mark.parametrize(("mounts", "standard", "forms", "owner"), [
    ((cu.Mount.ON_FOOT, cu.Mount.CAVALRY), True, True, True),
    ((cu.Mount.ON_FOOT, cu.Mount.CAVALRY), False, True, False),
    ((cu.Mount.ON_FOOT, cu.Mount.MONSTER), False, False, None),
])
def test_unit_of_characters_names_the_standard_owner(mounts: tuple[cu.Mount, ...], standard: bool,
                                                     forms: bool, owner: bool | None) -> None:
    verdict = cu.may_form_unit_of_characters(mounts, standard)
    assert verdict.may_form is forms and verdict.must_name_standard_owner is owner
    assert verdict.each_may_leave is (True if forms else None)
    assert verdict.may_still_join_other_units


def test_barred_characters_hold_no_standard_as_a_unit() -> None:
    with pytest.raises(ValueError, match="hold no standard"):
        cu.may_form_unit_of_characters((cu.Mount.CHARIOT, cu.Mount.ON_FOOT), holds_captured_standard=True)


@pytest.mark.parametrize("flies", [False, True])
def test_a_flyer_may_not_fly_with_his_unit(flies: bool) -> None:
    moved = cu.joint_move(5, (8,), character_flies=flies)
    assert moved.movement == 5
    assert moved.character_may_fly is (False if flies else None)


@pytest.mark.parametrize(("kwargs", "flying_move"), [
    ({"character_flies": True}, True),
    ({"character_flies": False}, None),
    ({"character_flies": True, "joined_this_turn": True}, None),
    ({"character_flies": True, "in_movement_phase": False}, None),
])
def test_a_flyer_leaves_with_his_flying_move_only_when_he_may_leave(kwargs: dict[str, bool],
                                                                     flying_move: bool | None) -> None:
    verdict = cu.may_leave(in_movement_phase=kwargs.get("in_movement_phase", True),
                           joined_this_turn=kwargs.get("joined_this_turn", False),
                           character_flies=kwargs["character_flies"])
    assert verdict.may_use_flying_move is flying_move


@pytest.mark.parametrize(("variant", "moves"), [(ADOPTED, True), (VARIANTS["polish-summary-no-charging-out"], None)])
def test_unit_still_moves_after_its_character_charges_out(variant: object, moves: bool | None) -> None:
    assert cu.charge_from_unit(False, rulings=variant).unit_may_move_normally is moves  # type: ignore[arg-type]
    assert cu.charge_from_unit(True).unit_may_move_normally is None
