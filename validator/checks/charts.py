"""The numbers behind a worked example's chart, computed by the rules core.

An example may declare ``chart: {over: hits, from: 1, to: 10}``: the chart shows
the example's probability for each value of that whole-number input, the other
given values unchanged.  ``chart: {roll: die}`` shows instead how likely each
value of an outcome field is when every value of the input is equally likely (a
table read with one die).  An outcome that is a whole distribution gets a chart
without asking.  Everything here is exact (:class:`~fractions.Fraction`); the
site only draws it (:mod:`validator.site.charts`).

A bad declaration is refused by :func:`chart_problems` with one line at the
``chart:`` key, so a build never meets a chart it cannot draw.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from validator.api.labels import Where, scenario_owner
from validator.api.ruleset import Ruleset, Scenario, ScenarioError
from validator.checks.rulescore import RulesCore
from validator.content.loader import Rulebook
from validator.content.model import Chart, Example
from validator.derived import derived
from validator.plain import Plain
from validator.problems import Problem

MAX_POINTS = 20
"""More bars than this no longer read as a chart on a phone."""
MAX_DISTRIBUTION = 40
"""A computed distribution with more outcomes than this (200 hits) gets no chart."""
DEFAULT_FIELD = "probability"
"""The field a chart ``over`` an input shows when the outcome has more than one probability."""

Kind = Literal["over", "roll", "distribution"]


@dataclass(frozen=True)
class Series:
    """What one chart shows: ``points`` are (x value, exact probability) in order.

    ``x_name`` names the input (``over``, ``roll``: whose values are the outcomes'
    labels) or the outcome field (``distribution``); ``y_name`` the probability
    field.  Both are core identifiers, labelled in the reader's language."""

    kind: Kind
    x_name: str
    y_name: str
    points: tuple[tuple[Plain, Fraction], ...]


class ChartError(ValueError):
    """A ``chart:`` declaration the scenario cannot honour; ``key`` is where to point."""

    def __init__(self, message: str, key: str, fix: str) -> None:
        super().__init__(message)
        self.key = key
        self.fix = fix


def chart_problems(rulebook: Rulebook, core: Ruleset | RulesCore) -> Iterator[Problem]:
    """One problem per bad ``chart:`` declaration, at its line, naming the rule (an
    unknown scenario is reported once, by the example runner)."""
    core = RulesCore.of(core)
    for rule in rulebook.rules:
        for example in rule.examples:
            if example.chart is None or example.scenario not in core.facts.names:
                continue
            outcome = chart_outcome(core, example)
            if outcome:
                message, key, fix = outcome
                position = example.position
                line = position.key_lines.get(f"chart.{key}", position.of("chart").line)
                yield Problem(position.file, line, rule.id,
                              f"example '{example.id}' ({example.scenario}): chart: {message}", fix)


ChartOutcome = tuple[str, ...]
"""What drawing a chart gives: nothing, or what is wrong with its declaration
(message, the key to point at, fix)."""


def chart_outcome(core: RulesCore, example: Example) -> ChartOutcome:
    """Whether ``example``'s chart can be drawn, kept between runs by the chart's
    declaration and the core."""
    return core.made("charts", (chart_key(example),), lambda: declared_outcome(core.ruleset, example))


def declared_outcome(ruleset: Ruleset, example: Example) -> ChartOutcome:
    """Whether ``example``'s chart can be drawn: () when it can, else what is wrong
    (message, the ``chart:`` key to point at, fix)."""
    try:
        declared_series(ruleset, example)
    except ChartError as error:
        return (str(error), error.key, error.fix)
    return ()


def chart_key(example: Example) -> str:
    """All that an example's chart is computed from, as text."""
    chart = example.chart
    return json.dumps([example.scenario, example.given, example.variant,
                       chart.model_dump(by_alias=True) if chart is not None else None], sort_keys=True, default=str)


CHARTS_KEPT = 4096
"""Series kept per process (see :mod:`validator.derived`): each language's pages ask
for the same charts, and the check asked first; a book of thousands of charts makes
some again."""


def declared_series(ruleset: Ruleset, example: Example) -> Series:
    """The series an example's ``chart:`` asks for, run through the rules core."""
    chart = example.chart
    if chart is None:
        raise ValueError("the example declares no chart")
    return derived("chart series", ruleset, lambda: _compute(ruleset, example, chart), chart_key(example),
                   limit=CHARTS_KEPT)


def _compute(ruleset: Ruleset, example: Example, chart: Chart) -> Series:
    scenario = ruleset.scenario(example.scenario)
    if (chart.over is None) == (chart.roll is None):
        raise ChartError("give either 'over' (an input whose values the chart runs through) or 'roll' "
                         "(a die input every value of which is equally likely), not both or neither", "over",
                         "write chart: {over: <input>, from: <first>, to: <last>} or chart: {roll: <input>}")
    kind: Kind = "over" if chart.over is not None else "roll"
    name = chart.over if chart.over is not None else chart.roll
    assert name is not None
    values = _values(scenario, kind, name, chart)
    outcomes = [_run(ruleset, example, kind, name, value) for value in values]
    if kind == "over":
        field = _probability_field(scenario, chart.field)
        return Series("over", name, field, tuple((value, outcome[field]) for value, outcome in zip(
            values, outcomes, strict=True)))
    field = _roll_field(scenario, chart.field)
    counts: dict[str, tuple[Plain, int]] = {}
    for outcome in outcomes:
        shown = outcome[field]
        if isinstance(shown, (dict, list)):
            raise ChartError(f"field '{field}' holds a {type(shown).__name__}, not one value to count", "field",
                             "name a field whose value is a word, a number or yes/no")
        token = json.dumps(shown, default=str)
        counts[token] = (shown, counts.get(token, (shown, 0))[1] + 1)
    return Series("roll", field, DEFAULT_FIELD,
                  tuple((shown, Fraction(count, len(values))) for shown, count in counts.values()))


def _values(scenario: Scenario, kind: Kind, name: str, chart: Chart) -> list[int]:
    """The values the chart runs ``name`` through, checked against the scenario's range."""
    inputs = scenario.describe()["inputs"]
    whole = [input_name for input_name, spec in inputs.items() if spec.get("type") == "integer"]
    spec = inputs.get(name)
    if spec is None or spec.get("type") != "integer":
        what = "has no input" if spec is None else "has no whole-number input"
        listed = ", ".join(whole) or "none"
        raise ChartError(f"scenario '{scenario.name}' {what} '{name}' (its whole-number inputs: {listed})", kind,
                         "name one of its whole-number inputs ('validator scenarios' lists them)")
    low, high = spec.get("minimum"), spec.get("maximum")
    first = chart.first if chart.first is not None else low
    last = chart.to if chart.to is not None else high
    if first is None or last is None:
        raise ChartError(f"input '{name}' has no {'lowest' if first is None else 'highest'} value of its own",
                         "from" if first is None else "to", "give 'from' and 'to'")
    allowed = f"{'' if low is None else low}..{'' if high is None else high}"
    for key, value in (("from", first), ("to", last)):
        if (low is not None and value < low) or (high is not None and value > high):
            raise ChartError(f"'{key}: {value}' is outside the range of input '{name}' ({allowed})", key,
                             f"keep 'from' and 'to' within {allowed}")
    if first > last:
        raise ChartError(f"'from: {first}' is above 'to: {last}'", "from", "give the lower value in 'from'")
    if last - first + 1 > MAX_POINTS:
        raise ChartError(f"{name} from {first} to {last} makes {last - first + 1} points; a chart shows at most "
                         f"{MAX_POINTS}", "to" if chart.to is not None else kind,
                         f"narrow 'from' and 'to' to {MAX_POINTS} values or fewer")
    return list(range(first, last + 1))


def _probability_field(scenario: Scenario, field: str | None) -> str:
    fields = scenario.outcome_fields()
    probabilities = [name for name, kind in fields.items() if kind == "Fraction"]
    if field is None:
        if len(probabilities) == 1 or DEFAULT_FIELD in probabilities:
            return probabilities[0] if len(probabilities) == 1 else DEFAULT_FIELD
        raise ChartError(f"scenario '{scenario.name}' has {len(probabilities) or 'no'} probability fields"
                         f"{': ' + ', '.join(probabilities) if probabilities else ''}", "over",
                         "name the one to show in 'field'" if probabilities
                         else "use 'roll' to count the values of a field, or chart another scenario")
    if field not in probabilities:
        listed = ", ".join(probabilities) or "none"
        raise ChartError(f"field '{field}' is not a probability of scenario '{scenario.name}' (its probabilities: "
                         f"{listed})", "field", "name one of them, or leave 'field' out")
    return field


def _roll_field(scenario: Scenario, field: str | None) -> str:
    fields = list(scenario.outcome_fields())
    if field is None:
        return fields[0]
    if field not in fields:
        raise ChartError(f"scenario '{scenario.name}' has no outcome field '{field}' (its fields: "
                         f"{', '.join(fields)})", "field", "name one of them, or leave 'field' out")
    return field


def _run(ruleset: Ruleset, example: Example, kind: Kind, name: str, value: int) -> dict[str, Plain]:
    try:
        return ruleset.run(example.scenario, {**example.given, name: value}, example.variant)
    except ScenarioError as error:
        raise ChartError(f"the rules core refuses {name} = {value}: {error}", kind,
                         "narrow 'from' and 'to' to values the scenario accepts") from None


def distribution_series(outcome: Mapping[str, Any]) -> list[Series]:
    """A series for each field of a computed outcome that is a whole distribution
    (outcome -> probability) of two to :data:`MAX_DISTRIBUTION` outcomes."""
    found = []
    for name, value in outcome.items():
        if (isinstance(value, Mapping) and 2 <= len(value) <= MAX_DISTRIBUTION
                and all(isinstance(probability, Fraction) for probability in value.values())):
            points = tuple((int(key) if str(key).isdigit() else key, probability) for key, probability in value.items())
            found.append(Series("distribution", name, DEFAULT_FIELD, points))
    return found


def chart_labels(ruleset: Ruleset, rulebook: Rulebook) -> list[tuple[Where, dict[str, Any]]]:
    """What the declared charts name, as mappings of axis -> values, each with the
    scenario it charts, so that the labels catalogue (see
    :func:`validator.api.labels.identifier_uses`) has a label for each axis and for
    each value a ``roll`` chart counts, even one no example shows (a reaction that no
    example rolls), and says what each is."""
    shown = []
    scenarios = {scenario.name: scenario for scenario in ruleset.scenarios}
    for rule in rulebook.rules:
        for example in rule.examples:
            if example.chart is None or example.scenario not in scenarios:
                continue
            try:
                series = declared_series(ruleset, example)
            except ChartError:
                continue
            scenario = scenarios[example.scenario]
            shown.append((Where("chart", scenario_owner(scenario.name, scenario.summary)),
                          {series.x_name: [x for x, _ in series.points], series.y_name: None}))
    return shown
