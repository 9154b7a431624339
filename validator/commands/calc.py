"""``validator calc``: one outcome of a scenario, exact, so that an editor can write an
example with the rules core's help."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path

from validator.api.ruleset import ScenarioError
from validator.commands.common import EXIT_OK, EXIT_USAGE, encodes
from validator.content.project import load_project, load_rules_core
from validator.plain import to_json
from validator.store import Store


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("scenario", help="a scenario name (see: validator scenarios)")
    command.add_argument("--given", required=True, metavar="JSON", help='the input, e.g. \'{"dice": [2, 5]}\'')
    command.add_argument("--variant", metavar="NAME", help="compute under a ruling variant instead of the adopted one")
    command.add_argument("--format", choices=("text", "json"), default="text")
    command.add_argument("--trace", action="store_true",
                         help="also list the steps the core took, each with the rules it applies (json always has "
                         "them)")


def run(project: Path, arguments: argparse.Namespace, store: Store) -> int:
    ruleset = load_rules_core(project, load_project(project))
    given = parse_given(arguments.given)
    if isinstance(given, str):
        print(f"validator: error: {given}", file=sys.stderr)
        return EXIT_USAGE
    try:
        outcome, steps = ruleset.run_traced(arguments.scenario, given, arguments.variant)
    except ScenarioError as error:
        print(f"validator: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    if arguments.format == "json":
        print(json.dumps({"scenario": arguments.scenario, "variant": arguments.variant, "given": given,
                          "outcome": to_json(outcome), "trace": [step.as_json() for step in steps]},
                         indent=2, ensure_ascii=False))
        return EXIT_OK
    for name, value in outcome.items():
        print(f"{name}: {_value_text(value)}")
    if arguments.trace and steps:
        print("steps:")
    for step in steps if arguments.trace else ():
        arguments_text = ", ".join(f"{key}={_value_text(value)}" for key, value in step.params.items())
        print(f"{'  ' * step.depth}- {step.text} [{', '.join(step.rules)}] "
              f"{step.key}({arguments_text}) -> {_value_text(step.result)}")
    return EXIT_OK


def _value_text(value: object) -> str:
    """A value for a terminal: fractions also as a decimal, so an editor can sanity-check."""
    if isinstance(value, Fraction):
        about = "≈" if encodes(sys.stdout, "≈") else "~"
        return str(value) if value.denominator == 1 else f"{value} ({about} {float(value):.4f})"
    if isinstance(value, dict):
        return "; ".join(f"{key}: {_value_text(item)}" for key, item in value.items())
    if isinstance(value, list):
        return ", ".join(_value_text(item) for item in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


MAX_GIVEN_CHARACTERS = 10_000
"""A --given longer than this is no game situation; refused before parsing."""


def parse_given(text: str) -> dict[str, object] | str:
    """The --given object, or the one line saying why it is not usable.

    Python's JSON parser raises ValueError for an integer of thousands of digits and
    RecursionError for arrays nested thousands deep; both are bad usage here."""
    if len(text) > MAX_GIVEN_CHARACTERS:
        return f"--given is {len(text)} characters long (allowed: up to {MAX_GIVEN_CHARACTERS})"

    def integer(digits: str) -> int:
        if len(digits.lstrip("-")) > 15:
            raise ValueError(f"an integer of {len(digits.lstrip('-'))} digits is beyond any game value")
        return int(digits)

    def constant(name: str) -> object:
        raise ValueError(f"{name} is not a number a game uses")

    def unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
        given = dict(pairs)
        if len(given) < len(pairs):
            seen: set[str] = set()
            twice = next(name for name, _value in pairs if name in seen or seen.add(name))  # type: ignore[func-returns-value]
            raise ValueError(f"the key {twice!r} is given twice (JSON keeps only the last); give each key once")
        return given

    try:
        given = json.loads(text, parse_int=integer, parse_constant=constant, object_pairs_hook=unique)
    except json.JSONDecodeError as error:
        return f"--given is not valid JSON ({error.msg} at column {error.colno})"
    except RecursionError:
        return "--given is nested too deeply"
    except ValueError as error:
        return f"--given: {error}"
    if not isinstance(given, dict):
        return "--given must be a JSON object, e.g. '{\"hits\": 3}'"
    return given
