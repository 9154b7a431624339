"""Asking the core from outside: `validator scenarios`, `validator calc` and
`validator check --examples` for a club's own cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, ProjectCopy

from validator.checks.run import check_workspace
from validator.workspace import load_workspace

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book


CLUB = ROOT / "examples" / "club-cases.yml"


def test_scenarios_json_lists_inputs_outcomes_and_rules(project: ProjectCopy) -> None:
    run = project.command("scenarios", "--format", "json")
    assert run.code == 0, run.err
    listing = json.loads(run.out)
    by_name = {entry["name"]: entry for entry in listing["scenarios"]}
    allocate = by_name["mount-allocate-hits"]
    assert allocate["rule_ids"] == ["monstrous-mounts/shooting-hit-allocation"]
    assert allocate["inputs"]["dice"]["items"] == {"maximum": 6, "minimum": 1, "type": "integer"}
    assert allocate["outcome"] == {"monster": "int", "rider": "int"}
    timing = by_name["rider-death-test-timing"]["inputs"]["phase"]
    assert timing["enum"] == ["movement", "magic", "shooting", "close-combat"]
    assert "spanish-faq-hits-to-character" in listing["variants"]


def test_scenarios_text_listing(project: ProjectCopy) -> None:
    run = project.command("scenarios")
    assert run.code == 0
    assert "mount-allocate-hits: Split hits" in run.out
    assert "input    dice: array 1.. of integer 1..6" in run.out or "input    dice: array" in run.out


def test_calc_prints_exact_probability(project: ProjectCopy) -> None:
    run = project.command("calc", "mount-rider-hit-chance", "--given", '{"hits": 3}')
    assert run.code == 0
    assert run.out.strip() == "probability: 19/27 (≈ 0.7037)"


def test_calc_json_and_variant(project: ProjectCopy) -> None:
    run = project.command("calc", "mount-allocate-hits", "--given", '{"dice": [2, 5, 4, 6]}',
                            "--variant", "spanish-faq-hits-to-character", "--format", "json")
    assert run.code == 0
    assert json.loads(run.out)["outcome"] == {"monster": 0, "rider": 4}


@pytest.mark.parametrize(("arguments", "message"), [
    (["calc", "mount-allocate-hits", "--given", '{"dice": [7]}'], "dice[0]: Input should be less than or equal to 6"),
    (["calc", "mount-allocate-hits", "--given", '{"dice": [1], "extra": 1}'], "extra: Unexpected keyword argument"),
    (["calc", "mount-allocate-hits", "--given", "{dice"], "--given is not valid JSON"),
    (["calc", "mount-allocate-hits", "--given", "[1]"], "--given must be a JSON object"),
    (["calc", "no-such-scenario", "--given", "{}"], "unknown scenario 'no-such-scenario'"),
    (["calc", "mount-allocate-hits", "--given", '{"dice": [1]}', "--variant", "x"], "unknown ruling variant 'x'"),
    (["calc", "mount-allocate-hits"], "--given"),
    (["check", "--examples", "missing.yml"], "no such file"),
])
def test_bad_usage_exits_2_with_one_clear_line(project: ProjectCopy, arguments: list[str], message: str) -> None:
    run = project.command(*arguments)
    assert run.code == 2
    assert message in run.err
    assert "Traceback" not in run.err


def test_check_runs_a_clubs_example_file(project: ProjectCopy) -> None:
    run = project.command("check", "--examples", str(CLUB))
    assert run.code == 0, run.err
    report = check_workspace(load_workspace(ROOT), [CLUB])
    assert {run.example.id for run in report.runs} >= {"volley-of-six", "general-on-dragon-passes"}


def test_a_wrong_club_case_is_reported_with_its_file_and_line(project: ProjectCopy, tmp_path: Path) -> None:
    cases = tmp_path / "cases.yml"
    text = CLUB.read_text(encoding="utf-8").replace("expect: {monster: 4, rider: 2}", "expect: {monster: 3, rider: 3}")
    cases.write_text(text, encoding="utf-8")
    line = text.splitlines().index("    expect: {monster: 3, rider: 3}") + 1
    run = project.command("check", "--examples", str(cases))
    assert run.code == 1
    assert (f"cases.yml:{line}: [monstrous-mounts/shooting-hit-allocation] example 'volley-of-six' "
            "(mount-allocate-hits): expected monster = 3, computed 4") in run.err


def test_a_malformed_club_file_is_reported(project: ProjectCopy, tmp_path: Path) -> None:
    cases = tmp_path / "cases.yml"
    cases.write_text("examples:\n  - id: x\n    scenario: monster-reaction\n    given: {die: 3}\n"
                     "    expect: {reaction: attack-nearest}\n    rule: nowhere/nothing\n    colour: red\n",
                     encoding="utf-8")
    run = project.command("check", "--examples", str(cases))
    assert run.code == 1
    assert "cases.yml:7: [x] unknown key 'colour'" in run.err
    cases.write_text(cases.read_text(encoding="utf-8").replace("    colour: red\n", ""), encoding="utf-8")
    run = project.command("check", "--examples", str(cases))
    assert run.code == 1
    assert "cases.yml:6: [nowhere/nothing] names a rule the rulebook does not have" in run.err


@pytest.mark.parametrize(("module", "constant", "broken"), [
    ("whfb6.monstrous_mounts", "RIDER_FACES", frozenset({6})),
    ("whfb6.monstrous_mounts", "MONSTROUS_MOUNT_MIN_WOUNDS", 3),
    ("whfb6.monstrous_mounts", "CAVALRY_ARMOUR_BONUS", 2),
    ("whfb6.tables", "NATURAL_ONE_FAILS", 1),
])
def test_examples_catch_a_changed_threshold(monkeypatch: pytest.MonkeyPatch, module: str, constant: str,
                                             broken: object) -> None:
    import importlib

    monkeypatch.setattr(importlib.import_module(module), constant, broken)
    report = check_workspace(load_workspace(ROOT))
    assert not report.ok, f"no example noticed {module}.{constant} = {broken!r}"
