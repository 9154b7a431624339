"""The engine's view of a rules core: named scenarios with typed inputs and outcomes.

The engine knows nothing about any game.  A rules core publishes a
:class:`Ruleset`: its scenarios (each a question the core can answer), its ruling
variants and the adopted rulings.  Worked examples, ``validator calc`` and the
site all go through :meth:`Ruleset.run`, so they compute the same way.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

from pydantic import ConfigDict, TypeAdapter, ValidationError

from validator.citations import rule_ids_of
from validator.problems import without_consequential_errors

Plain = Any
"""A JSON-like value: dict, list, str, int, bool, None, or a Fraction for probabilities."""


class ScenarioError(ValueError):
    """A scenario cannot be run as asked: unknown name or variant, or invalid input."""


@dataclass(frozen=True)
class Scenario:
    """One question the rules core answers.

    ``given`` is a dataclass describing the input; ``compute`` takes a validated
    instance of it and the rulings in force, and returns the outcome as a dataclass.
    ``implementation`` is the core function (or functions) carrying the rule ids
    (see :func:`validator.citations.implements`).
    """

    name: str
    summary: str
    given: type
    compute: Callable[[Any, Any], object]
    implementation: Callable[..., object] | tuple[Callable[..., object], ...]
    _adapter: TypeAdapter[Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Inputs are strict (no "3" for 3, no unknown fields) unless the core says otherwise.
        if "__pydantic_config__" not in vars(self.given):
            self.given.__pydantic_config__ = ConfigDict(strict=True, extra="forbid")  # type: ignore[attr-defined]
        adapter: TypeAdapter[Any] = TypeAdapter(self.given)
        object.__setattr__(self, "_adapter", adapter)

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

    def scenario(self, name: str) -> Scenario:
        for scenario in self.scenarios:
            if scenario.name == name:
                return scenario
        known = ", ".join(sorted(s.name for s in self.scenarios))
        raise ScenarioError(f"unknown scenario {name!r}; known scenarios: {known}")

    def rulings(self, variant: str | None) -> object:
        if variant is None:
            return self.adopted
        if variant not in self.variants:
            known = ", ".join(sorted(self.variants)) or "none"
            raise ScenarioError(f"unknown ruling variant {variant!r}; known variants: {known}")
        return self.variants[variant]

    def run(self, name: str, given: Mapping[str, Any], variant: str | None = None) -> dict[str, Plain]:
        """Validate ``given``, compute the outcome under ``variant``, return it plain."""
        scenario = self.scenario(name)
        rulings = self.rulings(variant)
        typed = scenario.validate(given)
        try:
            outcome = scenario.compute(typed, rulings)
        except ValueError as error:
            raise ScenarioError(f"scenario {name!r} rejected its input: {error}") from None
        plain = to_plain(outcome)
        if not isinstance(plain, dict):
            raise TypeError(f"scenario {name!r} must return a dataclass or a mapping")
        return plain


def _type_name(annotation: object) -> str:
    if isinstance(annotation, type) and not typing.get_args(annotation):
        if issubclass(annotation, Enum):
            return " | ".join(repr(member.value) for member in annotation)
        return annotation.__name__
    return str(annotation).replace("typing.", "").replace("fractions.", "").replace("validator.core.dice.", "")


def to_plain(value: object) -> Plain:
    """Outcome objects as JSON-like data; fractions stay exact."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [to_plain(item) for item in value]
    if isinstance(value, (Fraction, bool, int, str)) or value is None:
        return value
    raise TypeError(f"cannot express {type(value).__name__} as plain data")


def to_json(value: Plain) -> Any:
    """Plain data as JSON-ready data: fractions become "a/b" strings."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [to_json(item) for item in value]
    return value


def load_ruleset(reference: str) -> Ruleset:
    """Import ``module:attribute`` and check that it is a :class:`Ruleset`."""
    module_name, _, attribute = reference.partition(":")
    module = importlib.import_module(module_name)
    ruleset = getattr(module, attribute or "RULESET")
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{reference} is not a Ruleset")
    return ruleset
