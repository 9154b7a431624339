"""A worked example as a reader reads it: the question, the given situation, the
outcome and the steps the rules core took, each value shown as players say it.

What a value is (a die, a roll needed, a save, a distance...) comes from the types
the rules core declares (see :mod:`validator.api.shown`), never from a field's name.
Everything here returns escaped markup; texts from YAML and catalogues stay text.
"""

from __future__ import annotations

import base64
import itertools
import json
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from markupsafe import Markup

from validator.api.labels import humanize, is_identifier, label_context, meaning_context
from validator.api.ruleset import Scenario
from validator.api.shown import Kind, Shown, fields_of, parameters, returned
from validator.api.trace import Step, step_function
from validator.content.model import Example
from validator.derived import derived
from validator.site import markdown
from validator.site.text import Chances, anchor, modifier_text, roll_text, short_fraction

if TYPE_CHECKING:
    from validator.site.view import BaseView

T = TypeVar("T")


def infer(value: object) -> Kind:
    """The kind of a value whose type says nothing more (trace arguments)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, Fraction):
        return "probability"
    if isinstance(value, (int, float, Decimal)):
        return "number"
    if isinstance(value, list):
        return ("list", infer(value[0]) if value else "text")
    if isinstance(value, dict):
        return {key: infer(item) for key, item in value.items()}
    return "choice" if is_identifier(value) else "text"


@dataclass(frozen=True)
class Values:
    """Formats values of one language, as markup (``show``) or as plain text (``text``)."""

    view: BaseView

    def _remembered(self, key: tuple[str, str, str], make: Callable[[], T]) -> T:
        """``make()``, once per loaded workspace and language (a catalogue edited in the
        preview is a new workspace): values and labels repeat across examples and forms."""
        kept: dict[tuple[str, str, str], Any] = derived("values", self.view.workspace, dict,
                                                        self.view.language.code, limit=8)
        if key not in kept:
            kept[key] = make()
        return kept[key]  # type: ignore[no-any-return]

    def label_text(self, identifier: str) -> tuple[str, str]:
        """A core identifier's label and the language it is in."""
        catalog = self.view.workspace.label_catalogs[self.view.language.code]
        translation = catalog.translate(label_context(identifier), humanize(identifier))
        return markdown.inert(translation.text), translation.language

    def text(self, value: object, kind: Kind) -> str:
        """The value as plain text, as it reads on the page (formatted once per language:
        a try-it form shows the same few values many times)."""
        return self._remembered(("text", repr(value), repr(kind)), lambda: self._text(value, kind))

    def meaning(self, value: object, kind: Kind) -> tuple[str, str] | None:
        """The words (and their language) a value with a meaning of its own is shown
        as, which the rules core declares in its kind; None for any other value."""
        words = kind.meaning(value) if isinstance(kind, Shown) else None
        if words is None:
            return None
        catalog = self.view.workspace.label_catalogs[self.view.language.code]
        translation = catalog.translate(meaning_context(words), words)
        return markdown.inert(translation.text), translation.language

    def _text(self, value: object, kind: Kind) -> str:
        if value is None:
            return "—"
        if isinstance(kind, Shown):
            meant = self.meaning(value, kind)
            return meant[0] if meant is not None else self._text(value, kind.kind)
        if isinstance(kind, dict) and isinstance(value, dict):
            return "; ".join(f"{self.label_text(key)[0]}: {self.text(item, kind.get(key, infer(item)))}"
                             for key, item in value.items())
        if isinstance(kind, tuple) and isinstance(value, list):
            separator = " " if kind[1] == "die" else ", "
            return separator.join(self.text(item, kind[1]) for item in value) or "—"
        return self._scalar(value, kind if isinstance(kind, str) else infer(value))

    def chances(self) -> Chances:
        """How this language says a probability (one formatter for results and charts)."""
        return self._remembered(("chances", "", ""), lambda: Chances.of(self.view.language.code, self.view._))

    def _scalar(self, value: object, kind: str) -> str:
        _ = self.view._
        if kind in ("probability", "distribution") and isinstance(value, (int, Fraction)) \
                and not isinstance(value, bool):
            return self.chances().said(Fraction(value))
        if kind == "die" and isinstance(value, int) and not isinstance(value, bool):
            return self._face_and_number(value)
        if kind == "roll" and isinstance(value, int):
            return roll_text(value)
        if kind == "modifier" and isinstance(value, int):
            return modifier_text(value)
        if kind == "distance" and isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
            return self.view.distance(Decimal(str(value)))
        if isinstance(value, bool):
            if value:
                # Translators: A value in a worked example's box (given, outcome or step) that is true: a
                # rule allows it, a condition holds.
                return _("yes")
            # Translators: A value in a worked example's box (given, outcome or step) that is false: a
            # rule does not allow it, a condition does not hold.
            return _("no")
        if kind == "choice" and is_identifier(value):
            return self.label_text(str(value))[0]
        if isinstance(value, dict):
            return "; ".join(f"{self.view.number(key)}: {self._scalar(item, 'probability')}"
                             if isinstance(item, Fraction) else f"{key}: {self.view.number(item)}"
                             for key, item in value.items())
        if isinstance(value, Fraction):
            return self.chances().said(value)
        if isinstance(value, (int, Decimal)):
            return self.view.number(value)
        if isinstance(value, float):
            return self.view.number(Decimal(repr(value)))
        return markdown.inert(str(value))

    def show(self, value: object, kind: Kind) -> Markup:
        """The value as markup: dice as their faces with the number for screen readers,
        labels with the language they are in."""
        if isinstance(kind, Shown):
            meant = self.meaning(value, kind)
            if meant is None:
                return self.show(value, kind.kind)
            return self._in_language(*meant)
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
        shown = markdown.escape(self.text(value, kind))
        if isinstance(value, Fraction) and kind in ("probability", "text", "number") and 0 < value < 1 \
                and short_fraction(value) is None:
            # The exact fraction, for those who check the rules core: in the editor view only.
            exact = markdown.escape(f"{value.numerator}/{value.denominator}")
            return shown + Markup(' <span class="editor-view">= ') + exact + Markup("</span>")
        return shown

    def _face_and_number(self, value: int) -> str:
        """A die as text: its face with the number beside it, or the number alone
        where the book gives its dice no faces."""
        face = self.view.die_face(value)
        return f"{face}\u00a0{value}" if face != str(value) else face

    def _die(self, value: object) -> Markup:
        number = markdown.escape(str(value))
        face = self.view.die_face(value) if isinstance(value, int) else str(value)
        return (Markup('<span class="die" role="img" aria-label="') + number + Markup('" title="') + number
                + Markup('">') + markdown.escape(face) + Markup("</span>"))

    def label(self, identifier: str) -> Markup:
        return self._remembered(("label", identifier, ""), lambda: self._label(identifier))

    def _label(self, identifier: str) -> Markup:
        return self._in_language(*self.label_text(identifier))

    def _in_language(self, text: str, language: str) -> Markup:
        """Words escaped, tagged with their language when it is not the reader's."""
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
    scenario: str
    functions: list[str]
    command: str
    try_it: Markup
    """The form to change the given values (or the command to compute others)."""


def catalog_text(view: BaseView, context: str, english: str) -> Markup:
    """A text of the ``labels`` catalogue (step texts, questions), escaped, tagged with
    its language when it is not the reader's."""
    translation = view.workspace.label_catalogs[view.language.code].translate(context, english)
    body = markdown.escape(markdown.inert(translation.text))
    if translation.language == view.language.code:
        return body
    return Markup(f'<span lang="{Markup.escape(translation.language)}">') + body + Markup("</span>")


def worked_example(view: BaseView, rule_id: str, example: Example) -> WorkedExample:
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
        steps=[_step(view, values, step, known_fields) for step in steps],
        scenario=scenario.name,
        functions=[f"{f.__module__}.{f.__qualname__}" for f in scenario.implementations],
        command=calc_command(scenario.name, example.given, example.variant),
        try_it=try_it(view, rule_id, example),
    )


def worked_box(view: BaseView, subject: str, example: Example, chart: Markup) -> Markup:
    """The example's box as finished HTML, ``chart`` inside: Python-Markdown passes it
    through untouched, and between the "prerendered" comments MkDocs takes it without
    parsing it at all (:mod:`validator.site.prerendered`); most of a chapter page's
    bytes.  Written here rather than in a template: a page holds many, and a Jinja
    macro call per piece would cost more than the piece.  Every piece is
    escaped markup (:class:`WorkedExample`, the view's helpers) or one of the site's
    own words, escaped and made inert as the templates' ``{{ }}`` do; the pieces are
    joined as plain strings and marked safe once."""
    w = worked_example(view, subject, example)
    _ = view._
    # The site's own words, translated outside the f-string below (where the catalogue's
    # extraction would not find them) and escaped as the templates escape theirs.
    words = {key: markdown.escape(markdown.inert(text)) for key, text in (
        # Translators: The title of a worked example's box, followed by ": " and the question the
        # example answers.
        ("title", _("Worked example")),
        # Translators: In a worked example's details for editors, the heading of the values the rules
        # core starts from (its input).
        ("given", _("Given")),
        # Translators: Before the outcome of a worked example, shown with its question even while the
        # example is closed: "Answer: <what the rules decide>".
        ("answer", _("Answer")),
        # Translators: The line that opens the list of steps of a worked example, each saying what the
        # rules decide at that point and citing the rule.
        ("steps", _("Step by step")),
        # Translators: The heading of a worked example's details for those who edit the rules: its
        # scenario, the functions of the rules core and the command that computes it. Shown
        # only in the editor view.
        ("editors", _("For editors")),
        # Translators: In a worked example's details for editors, before the name of the scenario
        # (a question the rules core answers) that the example runs.
        ("scenario", _("Scenario")),
        # Translators: In the details for editors of a worked example or a rule, before the names of
        # the functions of the rules core that compute it: "Implementation: <names>".
        ("implemented", _("Implementation:")),
        # Translators: In a worked example's details for editors, before the command that computes
        # the example's outcome.
        ("compute", _("Compute it with")),
    )}

    def rows(found: list[Row]) -> str:
        return "".join(f'<dd><span class="worked-label">{row.label}</span> <span class="worked-value">{row.value}'
                       "</span></dd>\n" for row in found)

    def answers(found: list[Row]) -> str:
        return "".join(f'<span class="worked-answer-row"><span class="worked-label">{row.label}</span> '
                       f'<span class="worked-value">{row.value}</span></span>' for row in found)

    variant = f" ({markdown.escape(markdown.inert(view.variant_label(example.variant)))})" if example.variant else ""
    steps = "".join(f'<li class="depth-{step.depth}">{step.text} <span class="worked-step-rules">({step.rules})</span>'
                    f' <span class="worked-step-values editor-view">{step.detail}</span></li>\n'
                    for step in w.steps)
    functions = ", ".join(view.code(name) for name in w.functions)
    # Closed, its question and answer in the summary: a chapter holds many examples, and
    # a reader on a phone scrolls past those he did not come for.  The given values,
    # the core's arguments and the editors' part are the editor view's (editor-view).
    return Markup(
        '<!-- prerendered -->\n<details class="example worked-example">\n'
        f'<summary><span class="worked-question">{words["title"]}: {w.question}{variant}</span>\n'
        f'<span class="worked-outcome"><span class="worked-answer-heading">{words["answer"]}:</span> '
        f'{answers(w.outcome)}</span></summary>\n'
        f'{view.block(f"{subject}#example.{example.id}", example.text, html=True)}\n'
        # An example that is given nothing has no list of given values: a heading
        # alone in a list of terms would be a list without its definitions.
        + ('<div class="worked-values editor-view">\n<dl class="worked-given">\n'
           f'<dt class="worked-heading">{words["given"]}</dt>\n{rows(w.given)}</dl>\n</div>\n' if w.given else "")
        + '<details class="worked-steps">\n'
        f'<summary>{words["steps"]}</summary>\n<ol class="worked-trace">\n{steps}</ol>\n'
        f"</details>\n{w.try_it}\n\n{chart}\n\n"
        f'<div class="editors editor-view">\n<p class="editors-title">{words["editors"]}</p>\n'
        f'<p>{words["scenario"]} {view.code(w.scenario)} · {words["implemented"]} {functions}</p>\n'
        f'<p>{words["compute"]} {view.code(w.command)}</p>\n</div>\n</details>\n<!-- /prerendered -->')


def calc_command(scenario: str, given: Mapping[str, Any], variant: str | None) -> str:
    """The ``validator calc`` command that computes the same outcome, quoted for a shell."""
    words = ["validator", "calc", scenario, "--given", json.dumps(dict(given), ensure_ascii=False)]
    if variant:
        words += ["--variant", variant]
    return " ".join(shlex.quote(word) for word in words)


def _step(view: BaseView, values: Values, step: Step, given_kinds: Mapping[str, Kind]) -> StepView:
    """One step: its text, its arguments and result shown by the kinds its function
    declares (else the example's inputs of the same name, else what the value is)."""
    function = step_function(step)
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
    rules = Markup(", ").join(view.rule_link(rule, html=True) for rule in step.rules if _known(view, rule))
    return StepView(step.depth, rules, catalog_text(view, f"labels/step/{step.key}", step.text),
                    arguments + Markup(" → ") + result)


def _known(view: BaseView, rule_id: str) -> bool:
    try:
        view.rulebook.rule(rule_id)
    except KeyError:
        return False
    return True


TRY_BUDGET = 400
"""Most combinations of given values an example precomputes for its "try it" form:
dice, yes/no, choices and small counts stay well under it; a bigger input space
gets the ``validator calc`` command instead, so the build stays quick."""
SMALL_RANGE = 20
"""A number whose allowed range is wider than this is offered up to this many
values from its least (counts of a few models or attacks)."""

TABLES_KEPT = 4096
"""Try-it forms whose outcomes are kept per process (see :mod:`validator.derived`):
computed once and shared by the languages of a build."""


@dataclass(frozen=True)
class Control:
    """One given value the reader may change: its path in ``given``, its label and
    the values offered (the example's own among them)."""

    path: tuple[str | int, ...]
    label: Markup
    options: list[object]
    kind: Kind


def _inputs(scenario: Scenario) -> dict[str, Any]:
    """The scenario's inputs as ``validator scenarios`` describes them (computed once)."""
    return derived("scenario inputs", scenario, lambda: dict(scenario.describe()["inputs"]))


def _domain(spec: Mapping[str, Any], kind: Kind, value: object) -> list[object] | None:
    """The values offered for one input, or None when it cannot be offered in full."""
    if kind == "boolean":
        return [False, True]
    if "enum" in spec:
        return list(spec["enum"])
    nullable = [part for part in spec.get("anyOf", ()) if part.get("type") != "null"]
    if len(nullable) == 1 and len(spec["anyOf"]) == 2:  # an optional value: "none" is offered first
        inner = _domain(nullable[0], kind, value if value is not None else nullable[0].get("minimum", 0))
        return None if inner is None else [None, *inner]
    if spec.get("type") == "integer" and isinstance(value, int) and not isinstance(value, bool):
        least = int(spec.get("minimum", 0))
        most = min(int(spec.get("maximum", least + SMALL_RANGE)), least + SMALL_RANGE)
        return list(range(least, most + 1)) if least <= value <= most else None
    return None


def die_ordinal(view: BaseView, index: int) -> str:
    """The label of one die of a list of dice in a try-it form: players say "the
    second die", never "dice 2"."""
    _ = view._
    ordinals = (
        # Translators: The label of the first of several dice a reader may change in the form under
        # a worked example.
        _("first die"),
        # Translators: The label of the second of several dice in the form under a worked example.
        _("second die"),
        # Translators: The label of the third of several dice in the form under a worked example.
        _("third die"),
        # Translators: The label of the fourth of several dice in the form under a worked example.
        _("fourth die"),
    )
    if index < len(ordinals):
        return ordinals[index]
    # Translators: The label of one of many dice in the form under a worked example, past the
    # fourth: %(number)s is its place in the list.
    return _("die number %(number)s") % {"number": index + 1}


def item_label(label: Callable[[str], Markup], name: str, index: int, kind: Kind,
               ordinal: Callable[[int], str] | None) -> Markup:
    """The label of one item of a list input: a die by its place in words, any other
    item by the list's label and its number."""
    if kind == "die" and ordinal is not None:
        return markdown.escape(markdown.inert(ordinal(index)))
    return label(name) + Markup(f" {index + 1}")


def _controls(label: Callable[[str], Markup], scenario: Scenario, given: Mapping[str, Any],
              kinds: Mapping[str, Kind], ordinal: Callable[[int], str] | None = None) -> list[Control] | None:
    """A control for each input of the scenario (those the example leaves at their
    default too), or None when one of them cannot be offered in full."""
    inputs = _inputs(scenario)
    controls = []
    for name, spec in inputs.items():
        value = given.get(name, spec.get("default"))
        kind = kinds.get(name, infer(value))
        if isinstance(kind, tuple) and isinstance(value, list) and spec.get("type") == "array":
            items = spec.get("prefixItems") or [spec.get("items", {})] * len(value)
            for index, item in enumerate(value):
                domain = _domain(items[index] if index < len(items) else {}, kind[1], item)
                if domain is None:
                    return None
                shown = item_label(label, name, index, kind[1], ordinal)
                controls.append(Control((name, index), shown, domain, kind[1]))
            continue
        domain = _domain(spec, kind, value)
        if domain is None:
            return None
        controls.append(Control((name,), label(name), domain, kind))
    return controls


def input_space(scenario: Scenario, given: Mapping[str, Any]) -> int:
    """How many combinations of given values a try-it form for ``given`` would offer
    (0: some input cannot be offered, so there is no form)."""
    controls = _controls(lambda name: Markup(name), scenario, given, fields_of(scenario.given))
    if not controls:
        return 0
    size = 1
    for control in controls:
        size *= len(control.options)
    return size


def tryable(scenario: Scenario, given: Mapping[str, Any]) -> bool:
    """Whether an example with ``given`` gets a try-it form."""
    return 0 < input_space(scenario, given) <= TRY_BUDGET


def _with(given: Mapping[str, Any], controls: list[Control], choice: tuple[object, ...]) -> dict[str, Any]:
    changed: dict[str, Any] = {key: list(value) if isinstance(value, list) else value for key, value in given.items()}
    for control, value in zip(controls, choice, strict=True):
        if len(control.path) == 2:
            changed[str(control.path[0])][int(control.path[1])] = value
        else:
            changed[str(control.path[0])] = value
    return changed


def try_it(view: BaseView, rule_id: str, example: Example) -> Markup:
    """A form to change the given values and see the outcome, computed at build time
    for every combination; or, for a bigger input space, the command to compute it."""

    scenario = view.workspace.ruleset.scenario(example.scenario)
    values = Values(view)
    kinds = fields_of(scenario.given)
    _ = view._
    controls = (_controls(values.label, scenario, example.given, kinds, lambda index: die_ordinal(view, index))
                if tryable(scenario, example.given) else None)
    if not controls:
        # Too many values to offer: the command that computes others is in the editor view.
        return Markup("")
    outcome_kinds = returned(scenario.compute)
    fields = list(view.computed(rule_id, example.id))
    outcomes, table = _combinations(view.workspace.ruleset, scenario, example, controls)
    texts = []
    for outcome in outcomes:
        if outcome is None:
            # Translators: In the form under a worked example, in place of each outcome when the rules
            # refuse the values chosen.
            texts.append([_("not allowed") for _field in fields])
            continue
        kinds_out = outcome_kinds if isinstance(outcome_kinds, dict) else {}
        texts.append([values.text(outcome.get(field), kinds_out.get(field, infer(outcome.get(field))))
                      for field in fields])
    # Base64 of the UTF-8 JSON: the attribute then holds no text of the catalogues at all,
    # only letters and digits of the encoding, whatever a translation contains.
    data = base64.b64encode(json.dumps({"outcomes": texts, "table": table}, ensure_ascii=False,
                                       separators=(",", ":")).encode("utf-8")).decode("ascii")
    base = Markup.escape(f"try-{anchor(rule_id)}--{example.id}")
    # Translators: The title of the form under a worked example where a reader chooses other
    # given values and sees the outcome.
    title = markdown.escape(_("Try it: change the given values"))
    parts = [Markup(f'<form class="try-it" id="{base}" data-try="') + Markup.escape(data) + Markup('">'),
             Markup('<fieldset><legend class="try-it-title">') + title + Markup("</legend>")]
    for number, control in enumerate(controls):
        current = control.options.index(_value_at(example.given, control.path, scenario))
        # Joined as plain strings, each text escaped, and marked safe once: every form has
        # many options, and Markup's own joins would escape-check each again.
        options = Markup("".join(
            f'<option value="{index}"{" selected" if index == current else ""}>'
            f"{markdown.escape(values.text(option, control.kind))}</option>"
            for index, option in enumerate(control.options)))
        parts.append(Markup(f'<label class="try-it-control" for="{base}-{number}">') + control.label
                     + Markup(f'</label> <select id="{base}-{number}">') + options + Markup("</select>"))
    start = texts[table["|".join(str(control.options.index(_value_at(example.given, control.path, scenario)))
                                  for control in controls)]]
    rows = Markup("").join(Markup("<dt>") + values.label(field) + Markup(f'</dt><dd data-field="{index}">')
                           + markdown.escape(start[index]) + Markup("</dd>") for index, field in enumerate(fields))
    parts.append(Markup('</fieldset><dl class="try-it-outcome" aria-live="polite">') + rows + Markup("</dl></form>"))
    return Markup(" ").join(parts)


def try_it_values(ruleset: Any, example: Example) -> list[tuple[str, list[object]]]:
    """What the try-it form of ``example`` can show besides the example's own values, for
    the ``labels`` catalogue: the values each input offers (by the input's name) and
    every outcome of every combination (under the name ``""``); nothing for an example
    without a form.  A form shows far more than the example it stands under (every
    choice of an optional input, the reasons an outcome gives for other values), and each
    of those words needs its label as much as the example's own do."""
    scenario = ruleset.scenario(example.scenario)
    if not tryable(scenario, example.given):
        return []
    controls = _controls(lambda name: Markup(name), scenario, example.given, fields_of(scenario.given)) or []
    outcomes, _table_of = _combinations(ruleset, scenario, example, controls)
    return [*((str(control.path[0]), control.options) for control in controls),
            ("", [outcome for outcome in outcomes if outcome is not None])]


def _combinations(ruleset: Any, scenario: Scenario, example: Example,
                  controls: list[Control]) -> tuple[list[dict[str, Any] | None], dict[str, int]]:
    """Every distinct outcome over the combinations the controls offer, and which
    combination (the options' positions joined by "|") leads to which; computed once
    per example, whatever the number of languages (the input is refused: None)."""
    key = (scenario.name, example.variant, json.dumps(example.given, sort_keys=True), _controls_key(controls))
    return derived("try-it tables", ruleset, lambda: _table(ruleset, scenario, example, controls), key,
                   limit=TABLES_KEPT)


def _controls_key(controls: list[Control]) -> tuple[object, ...]:
    """What the outcomes table depends on of the form's controls: their paths and options."""
    return tuple((control.path, repr(control.options)) for control in controls)


def _table(ruleset: Any, scenario: Scenario, example: Example,
           controls: list[Control]) -> tuple[list[dict[str, Any] | None], dict[str, int]]:
    outcomes: list[dict[str, Any] | None] = []
    index_of: dict[str, int] = {}
    table: dict[str, int] = {}
    positions = [range(len(control.options)) for control in controls]
    for chosen in itertools.product(*positions):
        changed = _with(example.given, controls,
                        tuple(control.options[index] for control, index in zip(controls, chosen, strict=True)))
        try:
            outcome: dict[str, Any] | None = ruleset.run(scenario.name, changed, example.variant)
        except ValueError:
            outcome = None
        shown = repr(outcome)
        if shown not in index_of:
            index_of[shown] = len(outcomes)
            outcomes.append(outcome)
        table["|".join(map(str, chosen))] = index_of[shown]
    return outcomes, table


def _value_at(given: Mapping[str, Any], path: tuple[str | int, ...], scenario: Scenario) -> object:
    name = str(path[0])
    value: Any = given[name] if name in given else _inputs(scenario)[name].get("default")
    return value[int(path[1])] if len(path) == 2 else value
