"""Every consequence a rule states is executable: a field of a scenario's outcome that a
worked example of that rule states, so that `validator check` computes it.

``CONSEQUENCES`` maps rule id -> consequence -> scenario and outcome field.  The tests
check the map against the bundled rulebook (the rule exists, the scenario implements
it, the field is in its outcome, an example of the rule states the field) and that
every rule is in the map, unless it is marked ``executable: false`` with a reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pytest
from conftest import ROOT, ProjectCopy
from pydantic import ValidationError
from whfb6.scenarios import RULESET

from validator.content.loader import load_rulebook
from validator.content.model import Rule
from validator.content.project import load_project
from validator.problems import ProblemsFound


class Consequence(NamedTuple):
    rule: str
    consequence: str
    scenario: str
    field: str
    """An outcome field; ``a.b`` names field ``b`` of the mapping in field ``a``."""


CONSEQUENCES: tuple[Consequence, ...] = (
    # Characters on their own
    Consequence("characters-alone/single-model", "a lone character moves by himself as one model",
                "lone-movement", "moves_as"),
    Consequence("characters-alone/moving-alone", "lone infantry follow the skirmisher rules",
                "lone-movement", "moves_as"),
    Consequence("characters-alone/charging-lone-characters", "no charge without room to reach him",
                "lone-charge", "blocked_by"),
    # Monstrous mounts
    Consequence("monstrous-mounts/mount-kinds", "two Wounds or more: the mount keeps its own profile",
                "mount-classify", "mount_keeps_own_profile"),
    Consequence("monstrous-mounts/mount-kinds", "no +1 to the rider's save on a monstrous mount",
                "mount-classify", "rider_save"),
    Consequence("monstrous-mounts/cavalry", "a cavalry rider adds 1 to his armour save",
                "mount-classify", "rider_save"),
    Consequence("monstrous-mounts/cavalry", "slaying the rider removes the steed too",
                "mount-classify", "removed_whole_when_rider_slain"),
    Consequence("monstrous-mounts/movement", "rider and mount move together",
                "mount-movement", "parts_move_together"),
    Consequence("monstrous-mounts/movement", "under the rules of the whole model's troop type",
                "mount-movement", "moves_as"),
    Consequence("monstrous-mounts/shooting-one-target", "nobody aims at the rider alone",
                "mount-shooting-modifier", "may_target_rider_alone"),
    Consequence("monstrous-mounts/shooting-one-target", "nobody aims at the mount alone",
                "mount-shooting-modifier", "may_target_mount_alone"),
    Consequence("monstrous-mounts/shooting-one-target", "+1 to hit a Large Target",
                "mount-shooting-modifier", "modifier"),
    Consequence("monstrous-mounts/shooting-hit-allocation", "1-4 hit the monster, 5-6 the rider",
                "mount-allocate-hits", "rider"),
    Consequence("monstrous-mounts/templates-and-cannon", "one hit, on one part only",
                "mount-template-hit", "hit"),
    Consequence("monstrous-mounts/extra-wounds", "wounds beyond a part's last are lost",
                "mount-wounds-on-part", "ignored"),
    Consequence("monstrous-mounts/extra-wounds", "none pass to the other part",
                "mount-wounds-on-part", "passed_to_other_part"),
    Consequence("monstrous-mounts/extra-wounds", "the monster keeps its Wounds when the rider dies",
                "mount-wounds-on-part", "monster_wounds_left"),
    Consequence("monstrous-mounts/close-combat", "attacks split between rider and monster as declared",
                "mount-declare-attacks", "on_monster"),
    Consequence("monstrous-mounts/close-combat", "to hit against the target's own Weapon Skill",
                "mount-attack-rolls", "monster_to_hit"),
    Consequence("monstrous-mounts/close-combat", "to wound against the target's own Toughness",
                "mount-attack-rolls", "rider_to_wound"),
    Consequence("monstrous-mounts/death-of-the-mount", "the rider keeps his Wounds and fights on",
                "mount-wounds-on-part", "next_step"),
    Consequence("monstrous-mounts/death-of-the-mount", "he fights on as a character on his own",
                "mount-slain", "lone_character"),
    Consequence("monstrous-mounts/death-of-the-mount", "placed where the mount's centre was",
                "mount-slain", "placement"),
    Consequence("monstrous-mounts/death-of-the-mount", "facing the same way",
                "mount-slain", "same_facing"),
    Consequence("monstrous-mounts/death-of-the-mount", "a charge not yet begun may be completed on foot",
                "mount-slain-charge", "rider_may_complete_charge"),
    Consequence("monstrous-mounts/death-of-the-mount", "a charge already begun fails where the mount fell",
                "mount-slain-charge", "charge_fails_where_mount_fell"),
    Consequence("monstrous-mounts/death-of-the-rider", "the test is on the monster's own Leadership",
                "rider-death-leadership-test", "leadership_used"),
    Consequence("monstrous-mounts/death-of-the-rider", "passed: controlled as a unit of its own",
                "rider-death-leadership-test", "next_step"),
    Consequence("monstrous-mounts/death-of-the-rider", "it never tests again",
                "rider-death-leadership-test", "tests_again"),
    Consequence("monstrous-mounts/death-of-the-rider", "the test is taken even when immune to psychology",
                "rider-death-leadership-test", "test_taken"),
    Consequence("monstrous-mounts/rider-death-test-timing", "when the monster tests",
                "rider-death-test-timing", "when"),
    Consequence("monstrous-mounts/monster-reaction", "1-2: leaves as a compulsory move, not fleeing",
                "monster-reaction", "counts_as_fleeing"),
    Consequence("monstrous-mounts/monster-reaction", "1-2: no charge of its own will",
                "monster-reaction", "charges_of_its_own_will"),
    Consequence("monstrous-mounts/monster-reaction", "1-2: no breath weapon or ranged attack",
                "monster-reaction", "may_use_ranged_attacks"),
    Consequence("monstrous-mounts/monster-reaction", "1-2: the opponent scores its victory points",
                "monster-reaction", "opponent_gains_victory_points_on_leaving"),
    Consequence("monstrous-mounts/monster-reaction", "3-4: must charge the nearest troops if it can",
                "monster-reaction", "must_charge_if_able"),
    Consequence("monstrous-mounts/monster-reaction", "5-6: never moves, immune to break",
                "monster-reaction", "immune_to_break"),
    Consequence("monstrous-mounts/monster-reaction", "5-6: it never moves",
                "monster-reaction", "may_move"),
    Consequence("monstrous-mounts/monster-reaction", "5-6: fights but never pursues",
                "monster-reaction", "never_pursues"),
    Consequence("monstrous-mounts/victory-points", "each part gives its own points",
                "mount-victory-points", "for_monster"),
    # Chariots
    Consequence("chariots/shooting-hit-allocation", "a 6 hits the character, 1-5 the chariot",
                "chariot-allocate-hits", "character"),
    Consequence("chariots/templates-and-cannon", "one hit, on one part only",
                "chariot-template-hit", "hit"),
    Consequence("chariots/armour-save", "his save improves by two, or is the chariot's",
                "chariot-character-save", "save"),
    Consequence("chariots/armour-save", "the chariot does not hinder spells",
                "chariot-character-save", "hinders_spellcasting"),
    Consequence("chariots/close-combat", "attacks on the chariot use the crew's best Weapon Skill",
                "chariot-close-combat-to-hit", "defender_weapon_skill"),
    Consequence("chariots/close-combat", "the steeds attack only models directly in front",
                "chariot-steed-attacks", "may_attack"),
    Consequence("chariots/challenges", "he fights on foot",
                "chariot-challenge", "character_fights_on_foot"),
    Consequence("chariots/challenges", "where the impact hits fall",
                "chariot-challenge", "impact_hits_on"),
    Consequence("chariots/challenges", "the unit may not strike the character",
                "chariot-challenge", "unit_may_attack_character"),
    Consequence("chariots/challenges", "no Strength 5 hit when the chariot is destroyed",
                "chariot-challenge", "strength_5_hit_if_chariot_destroyed"),
    Consequence("chariots/challenges", "his save drops back to what it is on foot",
                "chariot-character-save", "source"),
    Consequence("chariots/challenges", "he loses the chariot's save bonus",
                "chariot-challenge", "keeps_chariot_save_bonus"),
    Consequence("chariots/victory-points", "each gives its own points",
                "chariot-victory-points", "for_chariot"),
    Consequence("chariots/destruction", "a Strength 5 hit on the character",
                "chariot-destroyed", "hit_strength"),
    Consequence("chariots/destruction", "a survivor fights on foot",
                "chariot-destroyed", "fights_on_foot"),
    Consequence("chariots/destruction", "where the survivor is placed",
                "chariot-destroyed", "placement"),
    Consequence("chariots/destruction-during-charge", "a charge already begun fails",
                "chariot-stand-and-shoot", "charge_fails"),
    Consequence("chariots/destruction-during-charge", "only the charge's target may be reached",
                "chariot-terrain-destroyed", "charge_completed"),
    Consequence("chariots/death-of-the-character", "the chariot stays under its player's control",
                "chariot-character-slain", "controlled_by_player"),
    Consequence("chariots/death-of-the-character", "no roll on the Monster Reaction table",
                "chariot-character-slain", "monster_reaction_roll"),
    Consequence("chariots/death-of-the-character", "its victory points apart from the character's",
                "chariot-character-slain", "separate_victory_points"),
    # Characters in units
    Consequence("characters-in-units/which-units", "the units he may never join",
                "unit-may-join", "reasons"),
    Consequence("characters-in-units/which-units", "he may still charge into an engaged unit's fight",
                "unit-may-join", "may_charge_into_its_combat"),
    Consequence("characters-in-units/units-of-characters", "only on foot or on cavalry steeds",
                "unit-of-characters", "barred_mounts"),
    Consequence("characters-in-units/units-of-characters", "each may leave as from any unit",
                "unit-of-characters", "each_may_leave"),
    Consequence("characters-in-units/units-of-characters", "the owner of a captured standard is named",
                "unit-of-characters", "must_name_standard_owner"),
    Consequence("characters-in-units/units-of-characters", "barred characters may still join other units",
                "unit-of-characters", "may_still_join_other_units"),
    Consequence("characters-in-units/joining", "the unit may move no further than his movement left",
                "unit-join-move", "unit_may_move_at_most"),
    Consequence("characters-in-units/joining", "stepping into the front rank costs no movement",
                "unit-join-move", "movement_left"),
    Consequence("characters-in-units/place-in-the-unit", "his places count for the ranks",
                "unit-placement", "spaces_counted_for_ranks"),
    Consequence("characters-in-units/place-in-the-unit", "no room in front: the second rank",
                "unit-placement", "rank"),
    Consequence("characters-in-units/second-rank", "no fighting unless engaged by a flank or rear charge",
                "unit-second-rank", "may_fight"),
    Consequence("characters-in-units/second-rank", "the unit may not use his Leadership",
                "unit-second-rank", "unit_may_use_his_leadership"),
    Consequence("characters-in-units/second-rank", "no magic items",
                "unit-second-rank", "may_use_magic_items"),
    Consequence("characters-in-units/second-rank", "no spells",
                "unit-second-rank", "may_use_magic"),
    Consequence("characters-in-units/moving-together", "the lowest Movement of all members",
                "unit-joint-movement", "movement"),
    Consequence("characters-in-units/moving-together", "a flying character may not fly with the unit",
                "unit-joint-movement", "character_may_fly"),
    Consequence("characters-in-units/moving-together", "no change of place during a compulsory move",
                "unit-change-place", "allowed"),
    Consequence("characters-in-units/moving-inside-the-unit", "no more than his own Movement",
                "unit-change-place", "max_distance"),
    Consequence("characters-in-units/moving-inside-the-unit", "in combat, Make Way, unless already fighting",
                "unit-change-place", "rule"),
    Consequence("characters-in-units/leaving", "when he may not leave",
                "unit-may-leave", "reasons"),
    Consequence("characters-in-units/leaving", "a flyer leaves with his flying move",
                "unit-may-leave", "may_use_flying_move"),
    Consequence("characters-in-units/pursuit-and-overrun", "he never pursues without his unit",
                "unit-pursuit", "may_move_alone"),
    Consequence("characters-in-units/pursuit-and-overrun", "he goes with a pursuing unit",
                "unit-pursuit", "moves_with_unit"),
    Consequence("characters-in-units/charging-out", "he charges with a charging unit",
                "unit-charge-out", "must_charge_with_unit"),
    Consequence("characters-in-units/charging-out", "he may fly out on his own charge",
                "unit-charge-out", "may_use_flying_move"),
    Consequence("characters-in-units/charging-out", "the unit then declares no charge",
                "unit-charge-out", "unit_may_declare_charge"),
    Consequence("characters-in-units/charging-out", "but still moves normally",
                "unit-charge-out", "unit_may_move_normally"),
    Consequence("characters-in-units/unit-destroyed", "he is a lone character and may rally",
                "unit-destroyed", "may_try_to_rally"),
    # Shooting at characters
    Consequence("shooting-at-characters/in-units", "five models keep him from being picked out",
                "shooting-character-in-unit", "hits_on_unit"),
    Consequence("shooting-at-characters/randomising-hits", "hits on a small unit strike him at random",
                "shooting-character-in-unit-hits", "distribution"),
    Consequence("shooting-at-characters/lone-characters", "near a unit of five, only as the closest target",
                "shooting-lone-character-target", "may_be_targeted"),
    Consequence("shooting-at-characters/lone-characters", "-1 to hit a single model",
                "shooting-lone-character-target", "modifier"),
    Consequence("shooting-at-characters/larger-characters", "a clearly larger character may be picked out",
                "shooting-lone-character-target", "basis"),
    Consequence("shooting-at-characters/look-out-sir", "an ordinary model takes the hit in his place",
                "shooting-look-out-sir", "ordinary_model_hit"),
    Consequence("shooting-at-characters/look-out-sir", "a clearly bigger character takes the hit with no roll",
                "shooting-look-out-sir", "character_hit"),
    # Close combat and challenges
    Consequence("challenges/splitting-attacks", "the split is declared before rolling",
                "challenge-split-attacks", "allowed"),
    Consequence("challenges/who-may-duel", "only characters and Greater Daemons duel",
                "challenge-eligible", "may_take_part"),
    Consequence("challenges/who-may-duel", "the duellists fight only each other",
                "challenge-may-attack", "may_attack"),
    Consequence("challenges/issuing", "the player in turn challenges first",
                "challenge-issue", "challenger"),
    Consequence("challenges/accepting", "the accepter is a fighting character",
                "challenge-response", "duellist"),
    Consequence("challenges/refusing", "the challenger chooses who withdraws",
                "challenge-response", "withdrawal.chosen_by"),
    Consequence("challenges/refusing", "the withdrawn character does nothing this turn",
                "challenge-response", "withdrawal.may_act_this_turn"),
    Consequence("challenges/lone-character", "a lone character must accept",
                "challenge-response", "must_accept"),
    Consequence("challenges/fighting-the-duel", "big duellists may be set behind their units",
                "challenge-placement", "may_be_set_behind_units"),
    Consequence("challenges/fighting-the-duel", "the rivals' bases touch",
                "challenge-placement", "bases_touching"),
    Consequence("challenges/fighting-the-duel", "nobody else attacks a duellist",
                "challenge-may-attack", "may_attack"),
    # Shared tables
    Consequence("core-tables/close-combat-to-hit", "the roll to hit", "table-close-combat-to-hit", "needed"),
    Consequence("core-tables/shooting-to-hit", "a second die past 6", "table-shooting-to-hit", "then"),
    Consequence("core-tables/shooting-modifiers", "the modifiers add up", "table-shooting-to-hit", "modifier"),
    Consequence("core-tables/to-wound", "the roll to wound", "table-to-wound", "needed"),
    Consequence("core-tables/armour-saves", "Strength worsens the save", "table-armour-save", "modifier"),
    Consequence("core-tables/leadership-tests", "passed on a total not above Leadership",
                "table-leadership-test", "passed"),
)

MAX_NOT_EXECUTABLE = 3
"""Rules without an executable consequence are the exception: a definition or a
pointer to other rules.  More than a handful means consequences went unchecked."""


def _states(expect: dict[str, Any], field: str) -> bool:
    head, _, rest = field.partition(".")
    if head not in expect:
        return False
    return not rest or (isinstance(expect[head], dict) and _states(expect[head], rest))


def unchecked_consequences(rules: dict[str, Rule], consequences: tuple[Consequence, ...]) -> list[str]:
    """Each consequence of the map that nothing checks, and why."""
    scenarios = {scenario.name: scenario for scenario in RULESET.scenarios}
    problems: list[str] = []
    for item in consequences:
        where = f"{item.rule}: {item.consequence}"
        rule = rules.get(item.rule)
        scenario = scenarios.get(item.scenario)
        if rule is None or scenario is None:
            problems.append(f"{where}: no rule or no scenario {item.scenario!r}")
        elif item.rule not in scenario.rule_ids:
            problems.append(f"{where}: scenario {item.scenario!r} does not implement the rule")
        elif item.field.partition(".")[0] not in scenario.outcome_fields():
            problems.append(f"{where}: {item.scenario!r} has no outcome field {item.field!r}")
        elif not any(example.scenario == item.scenario and _states(example.expect, item.field)
                     for example in rule.examples):
            problems.append(f"{where}: no example of the rule states {item.scenario} {item.field}")
    return problems


def unexampled_rules(rules: dict[str, Rule]) -> list[str]:
    """Rules with no worked example that are not marked ``executable: false``."""
    return [rule_id for rule_id, rule in rules.items() if rule.executable and not rule.examples]


def _rules(root: Path) -> dict[str, Rule]:
    return {rule.id: rule for rule in load_rulebook(root, load_project(root)).rules}


BUNDLED = _rules(ROOT)


def test_every_mapped_consequence_is_stated_by_an_example() -> None:
    assert unchecked_consequences(BUNDLED, CONSEQUENCES) == []


def test_every_rule_with_a_consequence_is_mapped_and_exampled() -> None:
    mapped = {item.rule for item in CONSEQUENCES}
    executable = {rule_id for rule_id, rule in BUNDLED.items() if rule.executable}
    assert executable - mapped == set(), "rules whose consequences the map leaves out"
    assert mapped - executable == set(), "the map names rules that are unknown or marked executable: false"
    assert unexampled_rules(BUNDLED) == []


def test_rules_without_consequence_are_few_and_say_why() -> None:
    exempt = [rule for rule in BUNDLED.values() if not rule.executable]
    assert 0 < len(exempt) <= MAX_NOT_EXECUTABLE
    assert all(rule.not_executable_because and not rule.examples for rule in exempt)


def test_a_consequence_no_example_states_is_reported() -> None:
    refusing = BUNDLED["challenges/refusing"]
    examples = tuple(
        example.model_copy(update={"expect": {**example.expect, "withdrawal": {
            key: value for key, value in example.expect["withdrawal"].items() if key != "chosen_by"}}})
        if "withdrawal" in example.expect else example
        for example in refusing.examples)
    rules = {**BUNDLED, refusing.id: refusing.model_copy(update={"examples": examples})}
    problems = unchecked_consequences(rules, CONSEQUENCES)
    assert problems == ["challenges/refusing: the challenger chooses who withdraws: "
                        "no example of the rule states challenge-response withdrawal.chosen_by"]


def test_a_field_the_scenario_lacks_is_reported() -> None:
    wrong = (Consequence("challenges/refusing", "who withdraws", "challenge-response", "chooser"),)
    assert unchecked_consequences(BUNDLED, wrong) == [
        "challenges/refusing: who withdraws: 'challenge-response' has no outcome field 'chooser'"]


def test_a_scenario_that_does_not_implement_the_rule_is_reported() -> None:
    wrong = (Consequence("challenges/refusing", "who withdraws", "unit-pursuit", "moves_with_unit"),)
    assert "does not implement the rule" in unchecked_consequences(BUNDLED, wrong)[0]


def test_a_rule_stripped_of_its_examples_is_reported() -> None:
    destroyed = BUNDLED["characters-in-units/unit-destroyed"]
    rules = {**BUNDLED, destroyed.id: destroyed.model_copy(update={"examples": ()})}
    assert unexampled_rules(rules) == ["characters-in-units/unit-destroyed"]


@pytest.mark.parametrize(("mark", "message"), [
    ({"executable": False}, "says why in not_executable_because"),
    ({"not_executable_because": "a definition"}, "goes only with executable: false"),
    ({"executable": False, "not_executable_because": "a definition"}, "has no worked examples"),
])
def test_a_wrong_executable_mark_is_refused(mark: dict[str, Any], message: str) -> None:
    refusing = BUNDLED["challenges/refusing"].model_dump(exclude={"position"})
    with pytest.raises(ValidationError, match=message):
        Rule.model_validate({**refusing, **mark})


def test_a_wrong_executable_mark_is_one_line_at_its_rule(project: ProjectCopy) -> None:
    line = project.replace("docs/rules/challenges.yml", "    title: Refusing a challenge\n",
                           "    title: Refusing a challenge\n    executable: false\n")
    with pytest.raises(ProblemsFound) as found:
        _rules(project.root)
    shown = [str(problem) for problem in found.value.problems]
    assert len(shown) == 1 and "says why in not_executable_because" in shown[0], shown
    assert shown[0].startswith(f"docs/rules/challenges.yml:{line - 1}:"), shown
