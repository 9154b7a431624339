"""Run every worked example through the rules core and compare the stated outcome.

The computed outcomes are kept, so the site shows what the core computed and
never a number typed by hand.  Between runs they are kept too (see
:mod:`validator.resultcache`), each by the example, its rule and the rules core:
an example is run again when one of them changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

from validator import resultcache
from validator.api.ruleset import Ruleset, ScenarioError
from validator.api.trace import Step
from validator.checks.rulescore import RulesCore
from validator.content.model import Example, Position
from validator.parallel import made_in_shares, processes
from validator.plain import Plain
from validator.problems import Problem


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


def run_examples(ruleset: Ruleset | RulesCore, examples: Iterable[tuple[str, Example]], parallel: bool = False,
                 digests: Mapping[str, bytes] | None = None) -> list[ExampleRun]:
    """Each example's run.  A named :class:`RulesCore` lets the outcomes of earlier
    runs be used when results are kept between runs, and is loaded only if an example
    must run (a :class:`Ruleset` runs every example); ``parallel``: many examples to run
    are run on every core; ``digests``: the digest of each input file as the load read
    it (see :func:`_kept_outcomes`)."""
    core = RulesCore.of(ruleset)
    pairs = list(examples)
    kept = core.store.bucket("examples") if core.name else None
    found: list[Outcome | None] = [None] * len(pairs)
    files: dict[str, _FileOutcomes] = {}
    if kept is not None:
        files = _kept_outcomes(kept, core.store.core_digest(core.name), pairs, digests or {}, found)
    missing = [index for index, outcome in enumerate(found) if outcome is None]
    workers = core.store.workers if parallel else 1
    made = _outcomes(core.ruleset, [pairs[index] for index in missing], workers) if missing else []
    for index, outcome in zip(missing, made, strict=True):
        found[index] = outcome
    if kept is not None:
        for file in files.values():
            file.keep(kept, found)
    return [ExampleRun(rule_id, example, *outcome)
            for (rule_id, example), outcome in zip(pairs, cast(list[Outcome], found), strict=True)]


@dataclass
class _FileOutcomes:
    """The examples of one input file in a run, and how their outcomes are kept: one
    entry per file, holding the file's digest, its examples' ids, each outcome by the
    :func:`_example_key`, and the outcomes in order."""

    key: tuple[bytes, str]
    digest: bytes | None
    ids: tuple[tuple[str, str], ...]
    indexes: list[int]
    keys: list[bytes]

    def keep(self, kept: resultcache.Bucket, found: list[Outcome | None]) -> None:
        outcomes = tuple(found[index] for index in self.indexes)
        kept.put(self.key, (self.digest, self.ids, dict(zip(self.keys, outcomes, strict=True)), outcomes))


def _kept_outcomes(kept: resultcache.Bucket, code: bytes, pairs: list[tuple[str, Example]],
                   digests: Mapping[str, bytes], found: list[Outcome | None]) -> dict[str, _FileOutcomes]:
    """Fill ``found`` with the outcomes kept from earlier runs.  A file read with the
    same bytes as then gives back its examples' outcomes whole, in order (no example
    is looked at: a key made for each example of an unchanged file would be work for
    nothing, in the check an editor runs most); in a file that changed, each example is looked up by its
    own key, so that only the examples that changed are run.  Returns, per file whose
    outcomes are to be kept again, what :meth:`_FileOutcomes.keep` needs."""
    groups: dict[str, list[int]] = {}
    for index, (_rule_id, example) in enumerate(pairs):
        groups.setdefault(example.position.file, []).append(index)
    changed: dict[str, _FileOutcomes] = {}
    for file, indexes in groups.items():
        key = (code, file)
        ids = tuple((pairs[index][0], pairs[index][1].id) for index in indexes)
        digest = digests.get(file)
        earlier = kept.get(key)
        if not (isinstance(earlier, tuple) and len(earlier) == 4 and isinstance(earlier[2], dict)):
            earlier = (None, (), {}, ())
        if digest is not None and earlier[0] == digest and earlier[1] == ids:
            for index, outcome in zip(indexes, earlier[3], strict=True):
                found[index] = outcome
            continue
        keys = [_example_key(code, *pairs[index]) for index in indexes]
        by_key: dict[bytes, Outcome] = earlier[2]
        for index, example_key in zip(indexes, keys, strict=True):
            found[index] = by_key.get(example_key)
        changed[file] = _FileOutcomes(key, digest, ids, indexes, keys)
    return changed


def _example_key(code: bytes, rule_id: str, example: Example) -> bytes:
    """All that an example's outcome is made of: the example, where it stands, its rule."""
    return resultcache.digest(code, rule_id, type(example).__name__, example.model_dump(),
                              example.position.model_dump())


def _outcomes(ruleset: Ruleset, pairs: list[tuple[str, Example]], workers: int) -> list[Outcome]:
    """The outcome of each example, in order: in as many as ``workers`` processes when
    there are enough of them (a share whose process died is run here)."""
    def outcome(pair: tuple[str, Example]) -> Outcome:
        run = run_example(ruleset, *pair)
        return run.computed, run.problems, run.trace

    workers = processes(len(pairs) // PARALLEL_FROM + 1, workers)
    if workers <= 1:
        return [outcome(pair) for pair in pairs]
    shares = [pairs[number::workers] for number in range(workers)]
    ordered: list[Outcome] = [None] * len(pairs)  # type: ignore[list-item]
    for number, (share, made) in enumerate(zip(shares, made_in_shares(shares, outcome, workers), strict=True)):
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
        if isinstance(stated, bool) or (isinstance(stated, str) and not stated.isascii()):
            return False  # Python reads other scripts' digits (٢/٣) as numbers; a rulebook writes 2/3
        try:
            return Fraction(str(stated)) == computed
        except (ValueError, ZeroDivisionError):
            return False
    if isinstance(computed, bool) or isinstance(stated, bool):
        return type(stated) is type(computed) and stated == computed
    if isinstance(computed, Decimal):
        # The YAML's 2.5 read as the decimal it spells, never through a binary float.
        try:
            return Decimal(str(stated)) == computed
        except ArithmeticError:
            return False
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
