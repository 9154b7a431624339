"""Run every worked example through the rules core and compare the stated outcome.

The computed outcomes are kept, so the site shows what the core computed and
never a number typed by hand.  Between runs they are kept too (see
:mod:`validator.resultcache`), each by the example, its rule and the rules core:
an example is run again when one of them changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from validator import resultcache
from validator.content.model import Example, Position
from validator.parallel import jobs, made_in_shares
from validator.problems import Problem
from validator.ruleset import Plain, Ruleset, ScenarioError
from validator.trace import Step


@dataclass(frozen=True)
class ExampleRun:
    rule_id: str
    example: Example
    computed: dict[str, Plain] | None
    problems: tuple[Problem, ...]
    trace: tuple[Step, ...] = ()
    """The steps the core took to compute the outcome, each citing its rules."""


PARALLEL_FROM = 200
"""Examples to run from which they are shared out to every core (fewer take less
time than starting the processes)."""

Outcome = tuple[dict[str, Plain] | None, tuple[Problem, ...], tuple[Step, ...]]
"""What running an example gives: the computed outcome, the problems, the steps."""


def run_examples(ruleset: Ruleset, examples: Iterable[tuple[str, Example]], core: str = "",
                 parallel: bool = False) -> list[ExampleRun]:
    """Each example's run; ``core``, the rules core's name (``module:attribute``),
    lets the outcomes of earlier runs be used when results are kept between runs;
    ``parallel``: many examples to run are run on every core."""
    pairs = list(examples)
    kept = resultcache.bucket("examples") if core else None
    keys: list[bytes] = []
    found: list[Outcome | None] = [None] * len(pairs)
    if kept is not None:
        code = resultcache.core_digest(core)
        keys = [resultcache.digest(code, rule_id, type(example).__name__, example.model_dump(),
                                   example.position.model_dump()) for rule_id, example in pairs]
        for index, key in enumerate(keys):
            earlier = kept.get(key)
            found[index] = cast(Outcome, earlier) if isinstance(earlier, tuple) else None
    missing = [index for index, outcome in enumerate(found) if outcome is None]
    for index, outcome in zip(missing, _outcomes(ruleset, [pairs[index] for index in missing], parallel),
                              strict=True):
        found[index] = outcome
        if kept is not None:
            kept.put(keys[index], outcome)
    return [ExampleRun(rule_id, example, *outcome)
            for (rule_id, example), outcome in zip(pairs, cast(list[Outcome], found), strict=True)]


def _outcomes(ruleset: Ruleset, pairs: list[tuple[str, Example]], parallel: bool) -> list[Outcome]:
    """The outcome of each example, in order: on every core when ``parallel`` and there
    are enough of them (a share whose process died is run here)."""
    def outcome(pair: tuple[str, Example]) -> Outcome:
        run = run_example(ruleset, *pair)
        return run.computed, run.problems, run.trace

    workers = jobs(len(pairs) // PARALLEL_FROM + 1) if parallel else 1
    if workers <= 1:
        return [outcome(pair) for pair in pairs]
    shares = [pairs[number::workers] for number in range(workers)]
    ordered: list[Outcome] = [None] * len(pairs)  # type: ignore[list-item]
    for number, (share, made) in enumerate(zip(shares, made_in_shares(shares, outcome), strict=True)):
        ordered[number::workers] = made if made is not None else [outcome(pair) for pair in share]
    return ordered


def run_example(ruleset: Ruleset, rule_id: str, example: Example) -> ExampleRun:
    label = f"example '{example.id}' ({example.scenario})"
    try:
        computed, trace = ruleset.run_traced(example.scenario, example.given, example.variant)
    except ScenarioError as error:
        problem = Problem(example.position.file, example.position.of("given").line, rule_id,
                          f"{label}: {error}", "correct the scenario name, the variant or the given values")
        return ExampleRun(rule_id, example, None, (problem,))
    except (ArithmeticError, TypeError, LookupError, AttributeError, RecursionError) as error:
        # A fault of the rules core on input it accepted: still one line, at the example.
        text = " ".join(str(error).split())[:200]
        problem = Problem(example.position.file, example.position.of("given").line, rule_id,
                          f"{label}: the rules core failed on this input ({type(error).__name__}: {text})",
                          "report it to the maintainers of the rules core, with this example")
        return ExampleRun(rule_id, example, None, (problem,))
    problems = tuple(
        Problem(example.position.file, line, rule_id, f"{label}: {difference}",
                "correct the stated outcome, or the given values if they are what is wrong")
        for line, difference in compare_outcome(example.expect, computed, example.position)
    )
    return ExampleRun(rule_id, example, computed, problems, trace)


def compare_outcome(expected: Mapping[str, Any], computed: Mapping[str, Plain],
                    position: Position) -> list[tuple[int, str]]:
    """Differences between a stated and a computed outcome, with the line of each."""
    differences = []
    for key, stated in expected.items():
        line = _line_of(key, position)
        if key not in computed:
            known = ", ".join(computed)
            differences.append((line, f"the outcome has no field '{key}' (it has: {known})"))
        elif not same_value(stated, computed[key]):
            differences.append((line, f"expected {key} = {show(stated)}, computed {show(computed[key])}"))
    return differences


def _line_of(key: str, position: Position) -> int:
    return position.key_lines.get(f"expect.{key}", position.of("expect").line)


def same_value(stated: Any, computed: Plain) -> bool:
    """Equality that does not let ``True`` pass for ``1`` and reads fractions exactly."""
    if isinstance(computed, Fraction):
        if isinstance(stated, bool):
            return False
        try:
            return Fraction(str(stated)) == computed
        except (ValueError, ZeroDivisionError):
            return False
    if isinstance(computed, bool) or isinstance(stated, bool):
        return type(stated) is type(computed) and stated == computed
    if isinstance(computed, list):
        return isinstance(stated, list) and len(stated) == len(computed) and all(
            same_value(a, b) for a, b in zip(stated, computed, strict=True))
    if isinstance(computed, dict):
        if not isinstance(stated, dict):
            return False
        stated_by_text = {str(key): value for key, value in stated.items()}
        return stated_by_text.keys() == computed.keys() and all(
            same_value(stated_by_text[key], computed[key]) for key in computed)
    return bool(stated == computed)


def show(value: Any) -> str:
    """A value as it would be written in the YAML of an example."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key}: {show(item)}" for key, item in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(item) for item in value) + "]"
    return str(value)
