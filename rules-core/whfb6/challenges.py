"""Characters in close combat, and challenges.

Source: the Polish summary of the rules for characters (section 6, close combat
with characters, and section 7, challenges; the text stops in the middle of
section 7 and nothing beyond that point is implemented).  Each function names the
rule ids it implements; the rule text lives in ``docs/rules/challenges.yml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from validator.api import Counted, implements

CHALLENGES_PER_COMBAT = 1
"""Only one challenge can be fought in each combat."""


# --- Close combat --------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackDeclaration:
    allowed: bool
    models_attacked: Counted
    split: bool


@implements("challenges/splitting-attacks")
def declare_character_attacks(attacks: int, on_each_model: tuple[int, ...],
                              declared_before_rolling: bool = True) -> AttackDeclaration:
    """A character's Attacks against the models in base contact with him.

    ``on_each_model`` gives, for each enemy model he touches, how many of his attacks
    go against it.  With more than one Attack he may spread them among those models,
    but the split must be declared before the dice are rolled to hit.
    """
    if attacks < 1:
        raise ValueError(f"a character striking blows has at least 1 Attack, not {attacks}")
    if not on_each_model:
        raise ValueError("a character attacks only models in base contact with him: name at least one")
    if any(count < 0 for count in on_each_model):
        raise ValueError("attacks against a model cannot be negative")
    if sum(on_each_model) != attacks:
        raise ValueError(f"the attacks declared add up to {sum(on_each_model)}, but the character has {attacks}")
    attacked = sum(1 for count in on_each_model if count > 0)
    return AttackDeclaration(allowed=declared_before_rolling, models_attacked=attacked, split=attacked > 1)


# --- Who may fight a challenge ----------------------------------------------------------


class ModelKind(StrEnum):
    CHARACTER = "character"
    GREATER_DAEMON = "greater-daemon"
    ORDINARY = "ordinary"
    """Any other model: rank-and-file troops, monsters and the like."""


DUELLIST_KINDS = frozenset({ModelKind.CHARACTER, ModelKind.GREATER_DAEMON})
"""Challenges are for characters only, and for Greater Daemons although they are not characters."""


@dataclass(frozen=True)
class Fighter:
    """A model of one side of a combat: what it is, and whether it is fighting (its
    base touches an enemy's, in the fighting rank)."""

    kind: ModelKind
    fighting: bool


@implements("challenges/who-may-duel", "challenges/issuing", "challenges/accepting")
def may_take_part(fighter: Fighter) -> bool:
    """A model may issue or accept a challenge only if it is a character (or a Greater
    Daemon) and is fighting: a model that is not fighting takes no part."""
    return fighter.kind in DUELLIST_KINDS and fighter.fighting


# --- Issuing ---------------------------------------------------------------------------


class Side(StrEnum):
    PLAYER_IN_TURN = "player-in-turn"
    OPPONENT = "opponent"


@dataclass(frozen=True)
class ChallengeOffer:
    player_in_turn_may_challenge: bool
    opponent_may_challenge: bool
    challenger: Side | None


@implements("challenges/issuing")
def issue_challenge(
    player_in_turn: tuple[Fighter, ...],
    opponent: tuple[Fighter, ...],
    player_in_turn_challenges: bool,
    opponent_challenges: bool,
    challenges_already_in_combat: int = 0,
) -> ChallengeOffer:
    """Who issues the challenge in one combat, before it is fought this turn.

    Only one challenge per combat (other combats have their own).  The player whose
    turn it is may challenge first; only if he does not may his opponent.  A side needs
    a character in the fighting rank to challenge.
    """
    if not 0 <= challenges_already_in_combat <= CHALLENGES_PER_COMBAT:
        raise ValueError(f"a combat has 0 or {CHALLENGES_PER_COMBAT} challenge, not {challenges_already_in_combat}")
    open_for_challenge = challenges_already_in_combat < CHALLENGES_PER_COMBAT
    first_may = open_for_challenge and any(may_take_part(model) for model in player_in_turn)
    if player_in_turn_challenges and not first_may:
        raise ValueError("the player whose turn it is cannot challenge here: no fighting character, "
                         "or this combat already has its challenge")
    second_may = (open_for_challenge and not player_in_turn_challenges
                  and any(may_take_part(model) for model in opponent))
    if opponent_challenges and not player_in_turn_challenges and not second_may:
        raise ValueError("the opponent cannot challenge here: no fighting character, "
                         "or this combat already has its challenge")
    if player_in_turn_challenges:
        challenger: Side | None = Side.PLAYER_IN_TURN
    elif opponent_challenges:
        challenger = Side.OPPONENT
    else:
        challenger = None
    return ChallengeOffer(player_in_turn_may_challenge=first_may, opponent_may_challenge=second_may,
                          challenger=challenger)


# --- Accepting or refusing ------------------------------------------------------------------


class Response(StrEnum):
    ACCEPT = "accept"
    REFUSE = "refuse"


class Placement(StrEnum):
    BACK_OF_FORMATION = "back-of-formation"


class ReturnTime(StrEnum):
    END_OF_CLOSE_COMBAT_PHASE = "end-of-close-combat-phase"


class Chooser(StrEnum):
    """Which side picks the character who withdraws from a refused challenge."""

    CHALLENGER = "challenger"


@dataclass(frozen=True)
class Withdrawal:
    """What befalls the character sent away after a refused challenge."""

    model: int
    chosen_by: Chooser
    """Not the player who refuses: the challenger picks which fighting character withdraws."""
    placed: Placement
    may_act_this_turn: bool
    back_in_fighting_rank: ReturnTime


@dataclass(frozen=True)
class ChallengeResponse:
    accepted: bool
    must_accept: bool
    duellist: int | None
    withdrawal: Withdrawal | None


def _check_index(index: int, fighters: tuple[Fighter, ...], what: str) -> Fighter:
    if not 0 <= index < len(fighters):
        raise ValueError(f"{what} {index} is not one of the {len(fighters)} models of the challenged side")
    return fighters[index]


@implements("challenges/accepting", "challenges/refusing", "challenges/lone-character")
def respond_to_challenge(
    challenged: tuple[Fighter, ...],
    response: Response,
    accepter: int | None = None,
    withdrawn: int | None = None,
    lone_character: bool = False,
) -> ChallengeResponse:
    """The challenged side accepts or refuses.

    To accept, the player names one of his models that may take part (fighting
    character or Greater Daemon); ``accepter`` is its index in ``challenged``.  To
    refuse, one of his fighting characters, chosen by the challenger (``withdrawn``),
    goes to the back of the formation, can do nothing that turn and returns to the
    fighting rank by itself after the close combat phase.  A lone character (part of
    no larger unit) challenged from the unit he fights cannot refuse.
    """
    if not challenged:
        raise ValueError("the challenged side has at least one model")
    if lone_character:
        if len(challenged) != 1 or challenged[0].kind is not ModelKind.CHARACTER or not challenged[0].fighting:
            raise ValueError("a lone character's side is that one fighting character and nothing else")
        if accepter not in (None, 0) or withdrawn is not None:
            raise ValueError("a lone character can only take up the challenge himself")
        return ChallengeResponse(accepted=True, must_accept=True, duellist=0, withdrawal=None)
    if response is Response.ACCEPT:
        if accepter is None:
            raise ValueError("to accept, name the model that takes up the challenge")
        if withdrawn is not None:
            raise ValueError("nobody is withdrawn when the challenge is accepted")
        if not may_take_part(_check_index(accepter, challenged, "accepter")):
            raise ValueError(f"model {accepter} cannot take up the challenge: only a fighting character "
                             "or Greater Daemon can")
        return ChallengeResponse(accepted=True, must_accept=False, duellist=accepter, withdrawal=None)
    if accepter is not None:
        raise ValueError("nobody takes up a refused challenge")
    candidates = [index for index, model in enumerate(challenged)
                  if model.kind is ModelKind.CHARACTER and model.fighting]
    if withdrawn is None:
        if candidates:
            raise ValueError("the challenger must choose which fighting character withdraws")
        return ChallengeResponse(accepted=False, must_accept=False, duellist=None, withdrawal=None)
    if withdrawn not in candidates:
        _check_index(withdrawn, challenged, "withdrawn model")
        raise ValueError(f"model {withdrawn} is not a fighting character, so it cannot be withdrawn")
    withdrawal = Withdrawal(model=withdrawn, chosen_by=Chooser.CHALLENGER,
                            placed=Placement.BACK_OF_FORMATION, may_act_this_turn=False,
                            back_in_fighting_rank=ReturnTime.END_OF_CLOSE_COMBAT_PHASE)
    return ChallengeResponse(accepted=False, must_accept=False, duellist=None, withdrawal=withdrawal)


# --- The duel ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DuelPlacement:
    bases_touching: bool
    may_be_set_behind_units: bool


@implements("challenges/fighting-the-duel")
def duel_placement(very_large_models: bool) -> DuelPlacement:
    """The two duellists are moved so that their bases touch; very large models may
    instead be taken out of their units and set behind them."""
    return DuelPlacement(bases_touching=True, may_be_set_behind_units=very_large_models)


@implements("challenges/who-may-duel", "challenges/fighting-the-duel")
def may_attack(attacker_in_duel: bool, target_in_duel: bool) -> bool:
    """The duel is one against one: no other model may attack a duellist, and a
    duellist fights only his rival (there is one challenge per combat)."""
    return attacker_in_duel == target_in_duel


# --- Combat resolution of a challenge ------------------------------------------------------

OVERKILL_LIMIT = 5
"""A challenge scores at most this many wounds beyond those the loser had left."""


@dataclass(frozen=True)
class ChallengeResolution:
    combat_resolution: Counted
    """What the wounds on the character add to his foes' combat result."""
    overkill: Counted
    """The part of it beyond the wounds he had left."""
    slain: bool


@implements("challenges/fighting-the-duel")
def challenge_combat_resolution(wounds_left: int, unsaved_wounds: tuple[int, ...] = (),
                                killing_blows: int = 0) -> ChallengeResolution:
    """The combat resolution a challenge scores against a character, as the design
    team set it out (Warhammer Annual 2002, page 14).

    ``unsaved_wounds`` holds, for each hit that wounded and was not saved (a Killing
    Blow aside), the wounds it caused once multiplied (a D3-wound weapon's roll);
    ``killing_blows`` counts the unsaved Killing Blows.  Without a Killing Blow the
    score is every wound caused, at most five beyond those he had left.  A Killing
    Blow scores the wounds he had left, and each other wounding hit one more, Killing
    Blow or not; saved wounds count for nothing.
    """
    if wounds_left < 1:
        raise ValueError("a character fighting a challenge has at least one wound left")
    if killing_blows < 0 or any(wounds < 1 for wounds in unsaved_wounds):
        raise ValueError("each unsaved hit causes at least one wound, and Killing Blows cannot be negative")
    # A Killing Blow: his wounds left, and one for each other wounding hit.
    scored = wounds_left + len(unsaved_wounds) + killing_blows - 1 if killing_blows else sum(unsaved_wounds)
    resolution = min(scored, wounds_left + OVERKILL_LIMIT)
    return ChallengeResolution(combat_resolution=resolution, overkill=max(0, resolution - wounds_left),
                               slain=killing_blows > 0 or scored >= wounds_left)
