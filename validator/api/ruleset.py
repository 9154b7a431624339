"""The engine's view of a rules core: named scenarios with typed inputs and outcomes.

The engine knows nothing about any game.  A rules core publishes a
:class:`Ruleset`: its scenarios (each a question the core can answer), its ruling
variants and the adopted rulings.  Worked examples, ``validator calc`` and the
site all go through :meth:`Ruleset.run`, so they compute the same way.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import importlib
import json
import math
import re
import sys
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, TypeAdapter, ValidationError

from validator.api.citations import rule_ids_of
from validator.api.trace import Step, tracing
from validator.plain import Plain, to_plain
from validator.problems import without_consequential_errors


class ScenarioError(ValueError):
    """A scenario cannot be run as asked: unknown name or variant, or invalid input."""


@dataclass(frozen=True)
class Scenario:
    """One question the rules core answers.

    ``given`` is a dataclass describing the input; ``compute`` takes a validated
    instance of it and the rulings in force, and returns the outcome as a dataclass.
    ``implementation`` is the core function (or functions) carrying the rule ids
    (see :func:`validator.api.citations.implements`).
    """

    name: str
    summary: str
    given: type
    compute: Callable[[Any, Any], object]
    implementation: Callable[..., object] | tuple[Callable[..., object], ...]

    def __post_init__(self) -> None:
        # Inputs are strict (no "3" for 3, no unknown fields) unless the core says otherwise.
        if "__pydantic_config__" not in vars(self.given):
            self.given.__pydantic_config__ = ConfigDict(strict=True, extra="forbid")  # type: ignore[attr-defined]

    @functools.cached_property
    def _adapter(self) -> TypeAdapter[Any]:
        """The validator of ``given``, made when first needed: a check whose examples'
        outcomes are all kept runs none, and would pay for making every scenario's."""
        return TypeAdapter(self.given)

    def prepare(self) -> None:
        """Make the validator of ``given`` now (see :meth:`Ruleset.prepare`)."""
        _ = self._adapter

    @property
    def implementations(self) -> tuple[Callable[..., object], ...]:
        return self.implementation if isinstance(self.implementation, tuple) else (self.implementation,)

    @property
    def rule_ids(self) -> tuple[str, ...]:
        ids: list[str] = []
        for function in self.implementations:
            ids.extend(rule_id for rule_id in rule_ids_of(function) if rule_id not in ids)
        return tuple(ids)

    def validate(self, given: Mapping[str, Any]) -> Any:
        """Turn plain input into the typed ``given``, naming every bad field."""
        beyond = _beyond_bounds(given, "given", 0)
        if beyond:
            raise ScenarioError(f"invalid input for scenario {self.name!r}: {beyond}")
        try:
            # JSON mode keeps strict types (no "3" for 3) yet accepts enum values as text.
            return self._adapter.validate_json(json.dumps(given, default=str))
        except ValidationError as error:
            problems = "; ".join(_describe(problem) for problem in without_consequential_errors(error.errors()))
            raise ScenarioError(f"invalid input for scenario {self.name!r}: {problems}") from None

    def input_schema(self) -> dict[str, Any]:
        return self._adapter.json_schema()

    def outcome_fields(self) -> dict[str, str]:
        """The outcome's fields and their types, read from the adapter's annotations."""
        returned = typing.get_type_hints(self.compute).get("return")
        if dataclasses.is_dataclass(returned) and isinstance(returned, type):
            hints = typing.get_type_hints(returned)
            return {f.name: _type_name(hints[f.name]) for f in dataclasses.fields(returned)}
        return {"*": _type_name(returned)}

    def describe(self) -> dict[str, Any]:
        """Everything a rules editor needs to call the scenario, as plain data."""
        schema = self.input_schema()
        definitions = schema.get("$defs", {})
        required = set(schema.get("required", ()))
        inputs = {
            name: _inline(spec, definitions) | {"required": name in required}
            for name, spec in schema.get("properties", {}).items()
        }
        return {"name": self.name, "summary": self.summary, "rule_ids": list(self.rule_ids),
                "inputs": inputs, "outcome": self.outcome_fields(),
                "implementation": [f"{f.__module__}.{f.__qualname__}" for f in self.implementations]}


def _inline(spec: Any, definitions: Mapping[str, Any]) -> Any:
    """A JSON schema fragment with its $ref pointers replaced by what they name."""
    if isinstance(spec, dict):
        reference = spec.get("$ref")
        if isinstance(reference, str) and reference.startswith("#/$defs/"):
            siblings = {key: value for key, value in spec.items() if key != "$ref"}
            named = definitions[reference.removeprefix("#/$defs/")]
            return _inline(named, definitions) | _inline(siblings, definitions)
        return {key: _inline(value, definitions) for key, value in spec.items() if key not in ("title", "description")}
    if isinstance(spec, list):
        return [_inline(item, definitions) for item in spec]
    return spec


MAX_MAGNITUDE = 100_000
"""No number in a game comes near this (points, models, distances); the
scenarios' own types are tighter where they say so."""
MAX_ITEMS = 1_000
MAX_TEXT = 200
MAX_NESTING = 10


def _beyond_bounds(value: Any, where: str, depth: int) -> str:
    """Why ``value`` is beyond any game input, or "".

    Checked before the typed validation, so that a billion or a million dice is
    refused at once instead of being computed (or serialised) at length."""
    if depth > MAX_NESTING:
        return f"{where}: nested more than {MAX_NESTING} levels deep"
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, int):
        if abs(value) > MAX_MAGNITUDE:
            digits = int(value.bit_length() * 0.30103) + 1
            shown = str(value) if value.bit_length() < 64 else f"an integer of about {digits} digits"
            return f"{where}: {shown} is beyond any game value (allowed: -{MAX_MAGNITUDE}..{MAX_MAGNITUDE})"
        return ""
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
            return f"{where}: {value!r} is beyond any game value (allowed: -{MAX_MAGNITUDE}..{MAX_MAGNITUDE})"
        return ""
    if isinstance(value, str):
        too_long = len(value) > MAX_TEXT
        return f"{where}: a text of {len(value)} characters (allowed: up to {MAX_TEXT})" if too_long else ""
    if isinstance(value, Mapping):
        if len(value) > MAX_ITEMS:
            return f"{where}: {len(value)} fields (allowed: up to {MAX_ITEMS})"
        for key, item in value.items():
            found = _beyond_bounds(item, f"{where}.{key}", depth + 1)
            if found:
                return found
        return ""
    if isinstance(value, (list, tuple)):
        if len(value) > MAX_ITEMS:
            return f"{where}: {len(value)} items (allowed: up to {MAX_ITEMS})"
        for index, item in enumerate(value):
            found = _beyond_bounds(item, f"{where}[{index}]", depth + 1)
            if found:
                return found
    return ""


def _describe(problem: Mapping[str, Any]) -> str:
    location = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in problem["loc"]).lstrip(".")
    location = location or "given"
    return f"{location}: {problem['msg']}"


@dataclass(frozen=True)
class Ruleset:
    """Everything the engine needs from a rules core."""

    scenarios: tuple[Scenario, ...]
    variants: Mapping[str, object]
    adopted: object

    def __post_init__(self) -> None:
        names = [scenario.name for scenario in self.scenarios]
        duplicated = sorted({name for name in names if names.count(name) > 1})
        if duplicated:
            raise ValueError(f"scenario names used twice: {', '.join(duplicated)}")

    def prepare(self) -> None:
        """Make every scenario's input validator now (they are made when first used):
        processes forked afterwards share them instead of each making its own."""
        for scenario in self.scenarios:
            scenario.prepare()

    def scenario(self, name: str) -> Scenario:
        for scenario in self.scenarios:
            if scenario.name == name:
                return scenario
        close = difflib.get_close_matches(name, [s.name for s in self.scenarios], n=3, cutoff=0.5)
        hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
        raise ScenarioError(f"unknown scenario {name[:80]!r}; {hint}'validator scenarios' lists them all")

    def rulings(self, variant: str | None) -> object:
        if variant is None:
            return self.adopted
        if variant not in self.variants:
            close = difflib.get_close_matches(variant, list(self.variants), n=3, cutoff=0.5)
            known = ", ".join(close or sorted(self.variants)) or "none"
            raise ScenarioError(f"unknown ruling variant {variant[:80]!r}; "
                                f"{'did you mean' if close else 'known variants:'} {known}")
        return self.variants[variant]

    def run(self, name: str, given: Mapping[str, Any], variant: str | None = None) -> dict[str, Plain]:
        """Validate ``given``, compute the outcome under ``variant``, return it plain."""
        scenario = self.scenario(name)
        rulings = self.rulings(variant)
        typed = scenario.validate(given)
        reads = _RecordedReads(rulings)
        try:
            outcome = scenario.compute(typed, reads if variant is not None else rulings)
        except ValueError as error:
            raise ScenarioError(f"scenario {name!r} rejected its input: {error}") from None
        if variant is not None:
            self._check_variant_used(name, variant, reads.names)
        plain = to_plain(outcome)
        if not isinstance(plain, dict):
            raise TypeError(f"scenario {name!r} must return a dataclass or a mapping")
        return plain

    def run_traced(self, name: str, given: Mapping[str, Any],
                   variant: str | None = None) -> tuple[dict[str, Plain], tuple[Step, ...]]:
        """As :meth:`run`, with the steps the core took (see :mod:`validator.api.trace`)."""
        with tracing() as trace:
            outcome = self.run(name, given, variant)
        return outcome, tuple(trace.steps)

    def changed_by(self, variant: str) -> set[str]:
        """The rulings a variant sets differently from the adopted ones."""
        chosen = self.variants[variant]
        names = set(_attributes(chosen)) | set(_attributes(self.adopted))
        return {name for name in names if getattr(chosen, name, None) != getattr(self.adopted, name, None)}

    def _check_variant_used(self, name: str, variant: str, read: set[str]) -> None:
        """A variant the computation never consulted would be ignored in silence: the
        example (or calc) would claim to show a reading it does not show."""
        if self.changed_by(variant) & read:
            return
        used = sorted(other for other in self.variants if self.changed_by(other) & read)
        listed = f"variants it does use: {', '.join(used)}" if used else "it uses no ruling variant"
        raise ScenarioError(f"scenario {name!r} does not use ruling variant {variant!r} for this input "
                            f"({listed})")


def _attributes(rulings: object) -> list[str]:
    if dataclasses.is_dataclass(rulings):
        return [f.name for f in dataclasses.fields(rulings)]
    return [key for key in vars(rulings) if not key.startswith("_")] if hasattr(rulings, "__dict__") else []


class _RecordedReads:
    """Stands in for a rulings object and notes which rulings the core reads."""

    def __init__(self, rulings: object) -> None:
        object.__setattr__(self, "_rulings", rulings)
        object.__setattr__(self, "names", set())

    def __getattr__(self, name: str) -> Any:
        value = getattr(object.__getattribute__(self, "_rulings"), name)
        if not name.startswith("__"):
            object.__getattribute__(self, "names").add(name)
        return value


_MODULE_PATH = re.compile(r"\b(?:[a-z_][a-z0-9_]*\.)+(?=[A-Za-z_])")
"""The dotted module path before a type's name (``typing.``, ``fractions.``, a core's own)."""


def _type_name(annotation: object) -> str:
    if isinstance(annotation, type) and not typing.get_args(annotation):
        if issubclass(annotation, Enum):
            return " | ".join(repr(member.value) for member in annotation)
        return annotation.__name__
    return _MODULE_PATH.sub("", str(annotation))


def search_book_folder(root: Path | None) -> None:
    """Let a rules core kept in the book's folder be imported without installing it.

    The folder goes last on ``sys.path``: a book's module named like the engine or one
    of its dependencies must never be imported in their place."""
    if root is not None and str(root) not in sys.path:
        sys.path.append(str(root))


def load_ruleset(reference: str, root: Path | None = None) -> Ruleset:
    """Import ``module:attribute`` (from the installed packages, else from the book's
    folder ``root``) and check that it is a :class:`Ruleset`."""
    module_name, _, attribute = reference.partition(":")
    search_book_folder(root)
    module = importlib.import_module(module_name)
    ruleset = getattr(module, attribute or "RULESET")
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{reference} is not a Ruleset")
    return ruleset
