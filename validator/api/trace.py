"""The steps a rules core took to reach an outcome, each citing the rule it applies.

A reader trusts an outcome more when the page shows how it was reached.  Every
function of a rules core that names its rules with
:func:`validator.api.citations.implements` is a step: while a trace is being taken
(:func:`tracing`), each call of such a function is noted with its arguments, its
result and the rule ids it implements.  Outside a trace a call costs one lookup
of a context variable, so the core runs as fast as before when nobody asks.

A step's text is the first sentence of the function's docstring, written for
readers of the rules; the site translates it (``labels`` catalogue, msgctxt
``labels/step/<key>``) and shows the arguments and result as values.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from validator.api.labels import RESULT, Where, function_owner, listed_uses, meaning_context, scenario_owner
from validator.api.shown import fields_of, meaning_places, parameters, returned
from validator.plain import to_json, to_plain

MAX_STEPS = 24
"""Steps kept per trace: a volley of 200 dice would otherwise list 200 alike steps."""
MAX_DEPTH = 2
"""A step inside a step is kept (a volley, then each die); deeper calls are detail."""


@dataclass(frozen=True)
class Step:
    """One call of a core function: ``key`` names the function (``module.function``),
    ``text`` is its English description, ``rules`` the rule ids it applies,
    ``params`` the arguments it was called with and ``result`` what it returned,
    both as plain data (see :func:`validator.plain.to_plain`)."""

    key: str
    text: str
    rules: tuple[str, ...]
    params: Mapping[str, Any]
    result: Any
    depth: int = 1
    function: str = ""
    """Where the function is defined (``module:qualified.name``), for
    :func:`step_function`; empty when not known."""

    def as_json(self) -> dict[str, Any]:
        return {"key": self.key, "text": self.text, "rules": list(self.rules),
                "params": to_json(dict(self.params)), "result": to_json(self.result), "depth": self.depth}


@dataclass
class Trace:
    """The steps of one computation, in the order the calls began (a volley before
    its dice), so the list reads from the question down to the details."""

    steps: list[Step] = field(default_factory=list)
    omitted: int = 0
    depth: int = 0


_CURRENT: ContextVar[Trace | None] = ContextVar("validator_trace", default=None)



@contextmanager
def tracing() -> Iterator[Trace]:
    """Take a trace of the core calls made inside the ``with`` block."""
    trace = Trace()
    token = _CURRENT.set(trace)
    try:
        yield trace
    finally:
        _CURRENT.reset(token)


def step_function(step: Step) -> Callable[..., Any] | None:
    """The function that made ``step``, so a page can read the types it declares for its
    arguments and result (see :mod:`validator.api.shown`); None when it cannot be found
    where it was defined (a function made inside another, a module since gone)."""
    module_name, _, qualified = step.function.partition(":")
    if not module_name or "<locals>" in qualified:
        return None
    try:
        found: Any = importlib.import_module(module_name)
        for name in qualified.split("."):
            found = getattr(found, name)
    except (ImportError, AttributeError):
        return None
    return inspect.unwrap(found) if callable(found) else None


def step_key(function: Callable[..., object]) -> str:
    """``monstrous_mounts.mount_kind``: the module's last part and the function's name."""
    return f"{function.__module__.rsplit('.', 1)[-1]}.{function.__qualname__}"


def step_text(function: Callable[..., object]) -> str:
    """The first sentence of the docstring, without reStructuredText markup.

    >>> def f() -> None:
    ...     '''Split a volley of ``hits`` between monster and rider. More detail.'''
    >>> step_text(f)
    'Split a volley of hits between monster and rider.'
    """
    paragraph = inspect.cleandoc(function.__doc__ or "").split("\n\n", 1)[0]
    if not paragraph.strip():
        # No docstring: the function's name still says what the step is.
        return function.__name__.replace("_", " ").capitalize() + "."
    paragraph = " ".join(re.sub(r"``([^`]*)``|:[a-z]+:`~?([^`]*)`", r"\1\2", paragraph).split())
    depth = 0
    for index, char in enumerate(paragraph):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "." and depth == 0 and paragraph[index + 1:index + 2] in ("", " "):
            return paragraph[:index + 1]
    return paragraph


def traced(function: Callable[..., Any], rule_ids: tuple[str, ...], says: str | None = None) -> Callable[..., Any]:
    """``function`` noting each call in the current trace, if one is being taken;
    ``says`` is the step's text (else the first sentence of the docstring)."""
    signature = inspect.signature(function)
    key = step_key(function)
    text = says or step_text(function)
    defined = f"{function.__module__}:{function.__qualname__}"

    def call(*args: Any, **kwargs: Any) -> Any:
        trace = _CURRENT.get()
        if trace is None:
            return function(*args, **kwargs)
        trace.depth += 1
        slot = -1
        if trace.depth <= MAX_DEPTH:
            if len(trace.steps) < MAX_STEPS:
                slot = len(trace.steps)
                trace.steps.append(Step(key, text, rule_ids, {}, None, trace.depth, defined))
            else:
                trace.omitted += 1
        try:
            result = function(*args, **kwargs)
        finally:
            trace.depth -= 1
        if slot >= 0:
            trace.steps[slot] = Step(key, text, rule_ids, _params(signature, args, kwargs), _result(result),
                                     trace.steps[slot].depth, defined)
        return result

    return call


def _params(signature: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The arguments by name, defaults included.  The rulings in force (a parameter
    named ``rulings``) are left out: a variant shows in the example's title."""
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    plain = {}
    for name, value in bound.arguments.items():
        if name == "rulings":
            continue
        try:
            plain[name] = _plain(value)
        except TypeError:
            continue
    return plain


def _plain(value: object) -> Any:
    if isinstance(value, (frozenset, set)):
        return sorted(to_plain(item) for item in value)
    return to_plain(value)


def _result(value: object) -> Any:
    try:
        return _plain(value)
    except TypeError:
        return None


WorkedText = tuple[str, str, list[str]]
"""A text of the ``labels`` catalogue: its msgctxt, its English and the comments for
its translator (what it is and where the pages show it)."""

SCENARIOS_NAMED = 4
"""Scenarios a step's comment names: enough to find it on the pages."""


def worked_messages(ruleset: Any, runs: Any) -> tuple[list[WorkedText], list[tuple[Where, Any]]]:
    """What the site shows of worked examples besides their own text, for the
    ``labels`` catalogue: each example's question (the scenario's summary), each
    step's text and the words of values with a meaning of their own, each with its
    comments; and the values whose identifiers need a label (the steps' arguments and
    results, the choices a try-it form offers), each with where it comes from (see
    :func:`validator.api.labels.identifier_uses`).
    ``runs`` are :class:`validator.checks.examples.ExampleRun`."""
    messages: dict[str, tuple[str, list[str]]] = {}
    values: list[tuple[Where, Any]] = []
    functions: list[Any] = []
    shown_in: dict[str, dict[str, None]] = {}
    for run in runs:
        scenario = ruleset.scenario(run.example.scenario)
        messages.setdefault(f"labels/scenario/{scenario.name}", (scenario.summary, [
            f"The question that the scenario '{scenario.name}' answers, the title of its worked examples."]))
        functions.extend(scenario.implementations)
        for step in run.trace:
            messages.setdefault(f"labels/step/{step.key}", (step.text, []))
            shown_in.setdefault(step.key, {})[scenario.name] = None
            functions.append(step_function(step))
            owner = function_owner(step.key)
            values.append((Where("argument", owner), dict(step.params)))
            values.append((Where("result", owner), {RESULT: step.result}))
        owner = scenario_owner(scenario.name, scenario.summary)
        for name, spec in scenario.describe()["inputs"].items():
            values.append((Where("input", owner, name), {RESULT: list(spec.get("enum", ()))}))
    for key, scenarios in shown_in.items():
        messages[f"labels/step/{key}"][1].append(
            f"The step shown for the core function {key}, in the worked examples of {_named(list(scenarios))}.")
    places: dict[str, dict[str, None]] = {}
    for words, place in _meanings(ruleset, functions):
        messages.setdefault(meaning_context(words), (words, []))
        places.setdefault(meaning_context(words), {})[place] = None
    for context, found in places.items():
        messages[context][1].extend(listed_uses(list(found)))
    return [(context, english, comments) for context, (english, comments) in messages.items()], values


def _named(scenarios: list[str]) -> str:
    """``the scenario 'a'``, ``the scenarios 'a', 'b' and 'c'``, ``... and 3 more``."""
    quoted = [f"'{name}'" for name in scenarios[:SCENARIOS_NAMED]]
    more = len(scenarios) - SCENARIOS_NAMED
    if more > 0:
        quoted.append(f"{more} more")
    if len(quoted) == 1:
        return f"the scenario {quoted[0]}"
    return f"the scenarios {', '.join(quoted[:-1])} and {quoted[-1]}"


def _meanings(ruleset: Any, functions: list[Any]) -> Iterator[tuple[str, str]]:
    """The words of the values with a meaning of their own that a page may show: in a
    scenario's input and outcome, and in the arguments and results of the steps; each
    with a sentence saying which value of which field it stands for."""
    kinds: list[tuple[Any, str, str]] = []
    for scenario in ruleset.scenarios:
        owner = scenario_owner(scenario.name, scenario.summary)
        kinds += [(fields_of(scenario.given), "input", owner), (returned(scenario.compute), "outcome", owner)]
    for function in dict.fromkeys(function for function in functions if function is not None):
        owner = function_owner(step_key(function))
        kinds += [(parameters(function), "argument", owner), (returned(function), "result", owner)]
    for kind, part, owner in kinds:
        for words, value, name in meaning_places(kind):
            yield words, f"Words shown in place of {value} in {_place(part, owner, name)}."


def _place(part: str, owner: str, name: str | None) -> str:
    """``the outcome field 'save' of the scenario ...``, ``the result of the core function ...``."""
    if name is None:
        return f"the {part} of {owner}"
    if part == "result":
        return f"the field '{name}' of the result of {owner}"
    return f"the {'argument' if part == 'argument' else part + ' field'} '{name}' of {owner}"
