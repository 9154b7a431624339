"""A worked example as a reader reads it: the question, the given situation, the
outcome and the steps the rules core took, each value shown as players say it.

What a value is (a die, a roll needed, a save, a distance...) comes from the types
the rules core declares (see :mod:`validator.shown`), never from a field's name.
Everything here returns escaped markup; texts from YAML and catalogues stay text.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from validator.citations import rule_ids_of
from validator.content.labels import humanize, is_identifier, label_context
from validator.content.model import Example
from validator.ruleset import Scenario
from validator.shown import Kind, fields_of, parameters, returned
from validator.site import markdown
from validator.site.text import die_face, modifier_text, roll_text
from validator.trace import Step

if TYPE_CHECKING:
    from validator.site.pages import PageView

NO_SAVE = 7
"""A save of 7+ cannot be made: the model has no save."""


def infer(value: object) -> Kind:
    """The kind of a value whose type says nothing more (trace arguments)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, Fraction):
        return "probability"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, list):
        return ("list", infer(value[0]) if value else "text")
    if isinstance(value, dict):
        return {key: infer(item) for key, item in value.items()}
    return "choice" if is_identifier(value) else "text"


@dataclass(frozen=True)
class Values:
    """Formats values of one language, as markup (``show``) or as plain text (``text``)."""

    view: PageView

    def label_text(self, identifier: str) -> tuple[str, str]:
        """A core identifier's label and the language it is in."""
        catalog = self.view.workspace.label_catalogs[self.view.language.code]
        translation = catalog.translate(label_context(identifier), humanize(identifier))
        return markdown.inert(translation.text), translation.language

    def text(self, value: object, kind: Kind) -> str:
        """The value as plain text, as it reads on the page."""
        if value is None:
            return "—"
        if isinstance(kind, dict) and isinstance(value, dict):
            return "; ".join(f"{self.label_text(key)[0]}: {self.text(item, kind.get(key, infer(item)))}"
                             for key, item in value.items())
        if isinstance(kind, tuple) and isinstance(value, list):
            separator = " " if kind[1] == "die" else ", "
            return separator.join(self.text(item, kind[1]) for item in value) or "—"
        return self._scalar(value, kind if isinstance(kind, str) else infer(value))

    def _scalar(self, value: object, kind: str) -> str:
        _ = self.view._
        if kind == "die" and isinstance(value, int) and not isinstance(value, bool):
            return f"{die_face(value)}\u00a0{value}"
        if kind == "roll" and isinstance(value, int):
            return roll_text(value)
        if kind == "save" and isinstance(value, int):
            return _("no save") if value >= NO_SAVE else roll_text(value)
        if kind == "modifier" and isinstance(value, int):
            return modifier_text(value)
        if kind == "distance" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return self.view.distance(Decimal(str(value)))
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        if kind == "choice" and is_identifier(value):
            return self.label_text(str(value))[0]
        if isinstance(value, dict):
            return "; ".join(f"{key}: {self.view.number(item)}" for key, item in value.items())
        if isinstance(value, (int, Fraction)):
            return self.view.number(value)
        if isinstance(value, float):
            return self.view.number(Fraction(str(value)))
        return markdown.inert(str(value))

    def show(self, value: object, kind: Kind) -> Markup:
        """The value as markup: dice as their faces with the number for screen readers,
        labels with the language they are in."""
        if isinstance(kind, tuple) and isinstance(value, list) and kind[1] == "die":
            return Markup(" ").join(self._die(item) for item in value)
        if kind == "die" and isinstance(value, int) and not isinstance(value, bool):
            return self._die(value)
        if isinstance(kind, dict) and isinstance(value, dict):
            return Markup("; ").join(self.label(key) + Markup(": ") + self.show(item, kind.get(key, infer(item)))
                                     for key, item in value.items())
        if isinstance(kind, tuple) and isinstance(value, list):
            return Markup(", ").join(self.show(item, kind[1]) for item in value) or Markup("—")
        if (kind == "choice" or kind == "text") and is_identifier(value):
            return self.label(str(value))
        return markdown.escape(self.text(value, kind))

    @staticmethod
    def _die(value: object) -> Markup:
        number = markdown.escape(str(value))
        face = die_face(value) if isinstance(value, int) else str(value)
        return (Markup('<span class="die" role="img" aria-label="') + number + Markup('" title="') + number
                + Markup('">') + markdown.escape(face) + Markup("</span>"))

    def label(self, identifier: str) -> Markup:
        text, language = self.label_text(identifier)
        attribute = Markup.escape(language)
        if language == self.view.language.code:
            return markdown.escape(text)
        return Markup(f'<span lang="{attribute}">') + markdown.escape(text) + Markup("</span>")


@dataclass(frozen=True)
class Row:
    label: Markup
    value: Markup


@dataclass(frozen=True)
class StepView:
    depth: int
    rules: Markup
    text: Markup
    detail: Markup


@dataclass(frozen=True)
class WorkedExample:
    """What the example's box shows, every piece escaped markup."""

    question: Markup
    given: list[Row]
    outcome: list[Row]
    steps: list[StepView]
    omitted: int
    scenario: str
    functions: list[str]
    command: str


def _functions(scenario: Scenario) -> dict[str, Callable[..., object]]:
    """Every function of the modules implementing a scenario that names its rules,
    by trace key, so a step's arguments can be shown by their declared kinds."""
    found: dict[str, Callable[..., object]] = {}
    for function in scenario.implementations:
        module = sys.modules.get(function.__module__)
        for value in vars(module).values() if module else ():
            if callable(value) and rule_ids_of(value):
                found[f"{value.__module__.rsplit('.', 1)[-1]}.{value.__qualname__}"] = value
    return found


def catalog_text(view: PageView, context: str, english: str) -> Markup:
    """A text of the ``labels`` catalogue (step texts, questions), escaped, tagged with
    its language when it is not the reader's."""
    translation = view.workspace.label_catalogs[view.language.code].translate(context, english)
    body = markdown.escape(markdown.inert(translation.text))
    if translation.language == view.language.code:
        return body
    return Markup(f'<span lang="{Markup.escape(translation.language)}">') + body + Markup("</span>")


def worked_example(view: PageView, rule_id: str, example: Example) -> WorkedExample:
    scenario = view.workspace.ruleset.scenario(example.scenario)
    values = Values(view)
    given_kinds = fields_of(scenario.given)
    outcome_kinds = returned(scenario.compute)
    computed = view.computed(rule_id, example.id)
    known_fields = given_kinds if isinstance(given_kinds, dict) else {}
    outcome_fields = outcome_kinds if isinstance(outcome_kinds, dict) else {}
    given = [Row(values.label(key), values.show(value, known_fields.get(key, infer(value))))
             for key, value in example.given.items()]
    outcome = [Row(values.label(key), values.show(value, outcome_fields.get(key, infer(value))))
               for key, value in computed.items()]
    steps = view.report.trace(rule_id, example.id)
    return WorkedExample(
        question=catalog_text(view, f"labels/scenario/{scenario.name}", scenario.summary),
        given=given,
        outcome=outcome,
        steps=[_step(view, values, step, _functions(scenario), known_fields) for step in steps],
        omitted=0,
        scenario=scenario.name,
        functions=[f"{f.__module__}.{f.__qualname__}" for f in scenario.implementations],
        command=calc_command(scenario.name, example.given, example.variant),
    )


def calc_command(scenario: str, given: Mapping[str, Any], variant: str | None) -> str:
    """The ``validator calc`` command that computes the same outcome, quoted for a shell."""
    words = ["validator", "calc", scenario, "--given", json.dumps(dict(given), ensure_ascii=False)]
    if variant:
        words += ["--variant", variant]
    return " ".join(shlex.quote(word) for word in words)


def _step(view: PageView, values: Values, step: Step, functions: Mapping[str, Callable[..., object]],
          given_kinds: Mapping[str, Kind]) -> StepView:
    function = functions.get(step.key)
    declared = parameters(function) if function else {}
    result_kind = returned(function) if function else infer(step.result)

    def kind(name: str, value: object) -> Kind:
        found = declared.get(name, "text")
        if found in ("number", "text") and name in given_kinds:
            return given_kinds[name]
        return found if found != "text" else infer(value)

    arguments = Markup(", ").join(values.label(name) + Markup(" ") + values.show(value, kind(name, value))
                                  for name, value in step.params.items())
    result = values.show(step.result, result_kind if result_kind != "text" else infer(step.result))
    rules = Markup(", ").join(view.rule_link(rule) for rule in step.rules if _known(view, rule))
    return StepView(step.depth, rules, catalog_text(view, f"labels/step/{step.key}", step.text),
                    arguments + Markup(" → ") + result)


def _known(view: PageView, rule_id: str) -> bool:
    try:
        view.rulebook.rule(rule_id)
    except KeyError:
        return False
    return True
