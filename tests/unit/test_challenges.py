"""The rules core for characters in close combat and challenges, checked against the
Polish summary's rules case by case."""

from __future__ import annotations

from itertools import product

import pytest
from whfb6 import challenges as ch

from validator.api.citations import rule_ids_of

HERO = ch.Fighter(ch.ModelKind.CHARACTER, fighting=True)
IDLE_HERO = ch.Fighter(ch.ModelKind.CHARACTER, fighting=False)
DAEMON = ch.Fighter(ch.ModelKind.GREATER_DAEMON, fighting=True)
TROOPER = ch.Fighter(ch.ModelKind.ORDINARY, fighting=True)


# --- Splitting attacks ---------------------------------------------------------------------


@pytest.mark.parametrize(("attacks", "split", "models", "is_split"), [
    (3, (2, 1), 2, True),
    (3, (3, 0), 1, False),
    (1, (1,), 1, False),
    (4, (1, 1, 2), 3, True),
])
def test_attacks_spread_over_models_in_contact(attacks: int, split: tuple[int, ...], models: int,
                                               is_split: bool) -> None:
    result = ch.declare_character_attacks(attacks, split)
    assert result == ch.AttackDeclaration(allowed=True, models_attacked=models, split=is_split)


def test_split_must_be_declared_before_rolling() -> None:
    assert not ch.declare_character_attacks(2, (1, 1), declared_before_rolling=False).allowed


@pytest.mark.parametrize("attacks", range(1, 5))
def test_every_split_over_two_models_is_accepted(attacks: int) -> None:
    for first, second in product(range(attacks + 1), repeat=2):
        if first + second != attacks:
            continue
        result = ch.declare_character_attacks(attacks, (first, second))
        assert result.models_attacked == (first > 0) + (second > 0)


# --- Who may take part ---------------------------------------------------------------------


@pytest.mark.parametrize(("fighter", "may"), [
    (HERO, True), (IDLE_HERO, False), (DAEMON, True),
    (ch.Fighter(ch.ModelKind.GREATER_DAEMON, fighting=False), False), (TROOPER, False),
])
def test_only_fighting_characters_and_greater_daemons(fighter: ch.Fighter, may: bool) -> None:
    assert ch.may_take_part(fighter) is may


@pytest.mark.parametrize(("attacker", "target", "may"), [
    (False, False, True), (False, True, False), (True, False, False), (True, True, True),
])
def test_nobody_interferes_with_the_duel(attacker: bool, target: bool, may: bool) -> None:
    assert ch.may_attack(attacker, target) is may


# --- Issuing -------------------------------------------------------------------------------


def test_player_in_turn_challenges_first() -> None:
    offer = ch.issue_challenge((HERO, TROOPER), (HERO, TROOPER), True, True)
    assert offer == ch.ChallengeOffer(True, False, ch.Side.PLAYER_IN_TURN)


def test_opponent_may_challenge_when_player_in_turn_does_not() -> None:
    offer = ch.issue_challenge((HERO,), (HERO,), False, True)
    assert offer == ch.ChallengeOffer(True, True, ch.Side.OPPONENT)
    nobody = ch.issue_challenge((HERO,), (HERO,), False, False)
    assert nobody.challenger is None and nobody.opponent_may_challenge


def test_side_without_fighting_character_cannot_challenge() -> None:
    offer = ch.issue_challenge((TROOPER, IDLE_HERO), (TROOPER,), False, False)
    assert offer == ch.ChallengeOffer(False, False, None)
    daemon = ch.issue_challenge((TROOPER,), (DAEMON,), False, True)
    assert daemon.challenger is ch.Side.OPPONENT


def test_one_challenge_per_combat() -> None:
    offer = ch.issue_challenge((HERO,), (HERO,), False, False, challenges_already_in_combat=1)
    assert offer == ch.ChallengeOffer(False, False, None)


# --- Accepting and refusing ----------------------------------------------------------------


def test_accept_with_a_fighting_character() -> None:
    result = ch.respond_to_challenge((IDLE_HERO, HERO, TROOPER), ch.Response.ACCEPT, accepter=1)
    assert result == ch.ChallengeResponse(accepted=True, must_accept=False, duellist=1, withdrawal=None)


def test_greater_daemon_may_accept() -> None:
    assert ch.respond_to_challenge((DAEMON,), ch.Response.ACCEPT, accepter=0).duellist == 0


def test_refusal_withdraws_the_character_the_challenger_picks() -> None:
    result = ch.respond_to_challenge((HERO, HERO, TROOPER), ch.Response.REFUSE, withdrawn=1)
    assert not result.accepted and result.duellist is None
    assert result.withdrawal == ch.Withdrawal(
        model=1, chosen_by=ch.Chooser.CHALLENGER, placed=ch.Placement.BACK_OF_FORMATION, may_act_this_turn=False,
        back_in_fighting_rank=ch.ReturnTime.END_OF_CLOSE_COMBAT_PHASE)


@pytest.mark.parametrize("response", list(ch.Response))
def test_lone_character_must_accept(response: ch.Response) -> None:
    result = ch.respond_to_challenge((HERO,), response, lone_character=True)
    assert result == ch.ChallengeResponse(accepted=True, must_accept=True, duellist=0, withdrawal=None)


def test_duellists_touch_and_big_ones_may_step_out() -> None:
    assert ch.duel_placement(False) == ch.DuelPlacement(bases_touching=True, may_be_set_behind_units=False)
    assert ch.duel_placement(True).may_be_set_behind_units


# --- Wrong input ---------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: ch.declare_character_attacks(0, (0,)),
    lambda: ch.declare_character_attacks(2, ()),
    lambda: ch.declare_character_attacks(2, (3, 0)),
    lambda: ch.declare_character_attacks(2, (3, -1)),
    lambda: ch.issue_challenge((TROOPER,), (HERO,), True, False),
    lambda: ch.issue_challenge((HERO,), (HERO,), True, False, challenges_already_in_combat=1),
    lambda: ch.issue_challenge((HERO,), (TROOPER,), False, True),
    lambda: ch.issue_challenge((HERO,), (HERO,), False, False, challenges_already_in_combat=2),
    lambda: ch.respond_to_challenge((IDLE_HERO, HERO), ch.Response.ACCEPT, accepter=0),
    lambda: ch.respond_to_challenge((HERO, TROOPER), ch.Response.ACCEPT, accepter=1),
    lambda: ch.respond_to_challenge((HERO,), ch.Response.ACCEPT, accepter=3),
    lambda: ch.respond_to_challenge((HERO,), ch.Response.ACCEPT),
    lambda: ch.respond_to_challenge((HERO, TROOPER), ch.Response.REFUSE),
    lambda: ch.respond_to_challenge((HERO, TROOPER), ch.Response.REFUSE, withdrawn=1),
    lambda: ch.respond_to_challenge((DAEMON,), ch.Response.REFUSE, withdrawn=0),
    lambda: ch.respond_to_challenge((HERO, TROOPER), ch.Response.REFUSE, lone_character=True),
    lambda: ch.respond_to_challenge((), ch.Response.ACCEPT, accepter=0),
])
def test_wrong_input_raises_value_error(call: object) -> None:
    with pytest.raises(ValueError):
        call()  # type: ignore[operator]


def test_every_core_function_names_its_rules() -> None:
    public = [value for name, value in vars(ch).items()
              if callable(value) and not name.startswith("_") and not isinstance(value, type)
              and getattr(value, "__module__", "") == ch.__name__]
    assert public
    for function in public:
        ids = rule_ids_of(function)
        assert ids, function.__name__
        assert all(i.startswith("challenges/") for i in ids)


def test_refusal_with_no_character_to_withdraw() -> None:
    result = ch.respond_to_challenge((DAEMON, TROOPER), ch.Response.REFUSE)
    assert result == ch.ChallengeResponse(accepted=False, must_accept=False, duellist=None, withdrawal=None)
