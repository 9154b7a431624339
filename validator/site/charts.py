"""Charts beside worked examples: inline SVG drawn at build time, no script.

The numbers are the exact fractions of :mod:`validator.checks.charts` (the rules
core, through the same scenarios as the examples); this module only draws them,
in the reader's language: axis titles from the labels catalogue, numbers
formatted by Babel for the locale (``70,4 %`` in Spanish), a ``<title>`` and
``<desc>`` for assistive technology and, beside the drawing, the same numbers as
a table.  Colours are Material's CSS custom properties (``assets/charts.css``),
so one drawing reads in the light and the dark palette.

Text reaches the page only through :func:`_text` (escaped for HTML and Markdown
alike), and the result is a single line of markup: the example's box is
Markdown, and one line is read as one piece of inline HTML wherever it lands.
Output depends only on the input, so two builds write the same bytes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from babel.numbers import format_decimal
from markupsafe import Markup

from validator.api.labels import humanize, is_identifier, label_context
from validator.checks.charts import Series, declared_series, distribution_series
from validator.content.model import Example
from validator.site import markdown
from validator.site.text import Chances, anchor, percent

if TYPE_CHECKING:
    from validator.site.view import BaseView

WIDTH = 480
PLOT_HEIGHT = 160
TOP = 24
LEFT = 72
RIGHT = 12
LINE = 16
"""Height of one line of tick text, in the drawing's units (about pixels)."""
VALUE_LABELS_UP_TO = 10
"""With more bars than this the numbers above them would collide; the table has them."""
Y_TOPS = (Fraction(1, 10), Fraction(1, 5), Fraction(2, 5), Fraction(3, 5), Fraction(4, 5), Fraction(1))
"""The top of the vertical axis: the least of these that holds the highest bar, so
that the four gridlines fall on round percentages."""


@dataclass(frozen=True)
class Words:
    """What drawing needs of a language: its code, the site's own words (``ui``
    catalogue) and the label of a core identifier (``labels`` catalogue) with
    the language it is really in (English when not yet translated)."""

    language: str
    gettext: Callable[[str], str]
    label: Callable[[str], tuple[str, str]]

    @classmethod
    def of(cls, view: BaseView) -> Words:
        catalog = view.workspace.label_catalogs[view.language.code]

        def label(identifier: str) -> tuple[str, str]:
            translation = catalog.translate(label_context(identifier), humanize(identifier))
            return translation.text, translation.language

        return cls(view.language.code, view._, label)

    def percent(self, value: Fraction) -> str:
        """A probability as a percentage with one decimal, by the formatter results
        use (:class:`validator.site.text.Chances`), in its compact form: a bar's
        label never reads 100 % for a chance that can fail."""
        return Chances.of(self.language, self.gettext).compact(value)

    def tick(self, value: Fraction) -> str:
        """A gridline's percentage: its decimal only when it has one."""
        return percent(value, self.language, (0, 1))

    def value(self, value: object) -> tuple[str, str]:
        """An x value: a number in the locale, a core identifier as its label."""
        if isinstance(value, bool):
            return ("✔" if value else "✘"), self.language
        if isinstance(value, int):
            return str(format_decimal(value, locale=self.language)), self.language
        if is_identifier(value):
            return self.label(str(value))
        return ("—" if value is None else str(value)), self.language


def example_charts(view: BaseView, rule_id: str, example: Example) -> Markup:
    """Every chart of one worked example (none, most often), as one line of markup."""
    series: list[Series] = []
    if example.chart is not None:
        series.append(declared_series(view.workspace.ruleset, example))
    with contextlib.suppress(KeyError):
        series.extend(distribution_series(view.computed(rule_id, example.id)))
    base = f"chart-{anchor(rule_id)}--{example.id}"
    return Markup("").join(render(Words.of(view), item, f"{base}-{index}") for index, item in enumerate(series, 1))


def render(words: Words, series: Series, chart_id: str) -> Markup:
    """One chart: the drawing and, beside it, its numbers as a table."""
    _ = words.gettext
    x_label, x_lang = words.label(series.x_name)
    y_label, y_lang = words.label(series.y_name)
    values = [words.value(x) for x, _p in series.points]
    title = _title(words, series, x_label, y_label, values)
    top = next((candidate for candidate in Y_TOPS if max(p for _x, p in series.points) <= candidate), Y_TOPS[-1])
    highest = max(range(len(series.points)), key=lambda index: series.points[index][1])
    # Translators: What screen readers are told of a worked example's chart (its description):
    # %(x)s and %(y)s name the horizontal and vertical axes (an input or outcome,
    # and the chance counted), %(top)s is the top of the vertical axis, %(value)s
    # the tallest bar as a percentage and %(at)s where that bar stands on the
    # horizontal axis.
    desc = _("Bar chart. Horizontal axis: %(x)s. Vertical axis: %(y)s, from 0 to %(top)s. "
             "Highest: %(value)s at %(at)s.") % {
        "x": x_label, "y": y_label, "top": words.tick(top),
        "value": words.percent(series.points[highest][1]), "at": values[highest][0]}
    svg = _svg(words, series, chart_id, title, desc, top, (x_label, x_lang), (y_label, y_lang), values)
    table = _table(words, series, title, (x_label, x_lang), (y_label, y_lang), values)
    return (Markup(f'<figure class="example-chart" id="{chart_id}">') + svg + table + Markup("</figure>"))


def _title(words: Words, series: Series, x_label: str, y_label: str, values: Sequence[tuple[str, str]]) -> str:
    _ = words.gettext
    if series.kind == "over":
        # Translators: The title of a chart that runs one input of a worked example through a range
        # of values: %(outcome)s names the chance counted, %(input)s the input,
        # %(first)s and %(last)s its first and last values. The page makes its first
        # letter a capital.
        text = _("%(outcome)s for %(input)s from %(first)s to %(last)s") % {
            "outcome": y_label, "input": x_label, "first": values[0][0], "last": values[-1][0]}
    elif series.kind == "roll":
        # Translators: The title of a chart of every result of one roll of a die in a worked
        # example: %(outcome)s names the chance counted, %(field)s the outcome each
        # bar stands for. The page makes its first letter a capital.
        text = _("%(outcome)s of each %(field)s on one roll") % {"outcome": y_label, "field": x_label}
    else:
        # Translators: The title of a chart of an outcome that a worked example gives as a chance
        # for each possible result: %(outcome)s names the chance counted, %(field)s
        # the outcome each bar stands for. The page makes its first letter a capital.
        text = _("%(outcome)s of each result (%(field)s)") % {"outcome": y_label, "field": x_label}
    return text[:1].upper() + text[1:]


def _text(value: str) -> Markup:
    """Text from a catalogue or the core, escaped for HTML and for Markdown."""
    return markdown.escape(value)


def _lang(language: str, words: Words) -> Markup:
    return Markup("") if language == words.language else Markup(' lang="') + _text(language) + Markup('"')


def _number(value: float) -> str:
    """A coordinate, the same on every machine."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _wrap(text: str, width: int) -> list[str]:
    """Words of a tick label in lines of about ``width`` characters, at most three."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return [*lines[:2], " ".join(lines[2:])] if len(lines) > 3 else lines


def _svg(words: Words, series: Series, chart_id: str, title: str, desc: str, top: Fraction,
         x_axis: tuple[str, str], y_axis: tuple[str, str], values: Sequence[tuple[str, str]]) -> Markup:
    count = len(series.points)
    plot_width = WIDTH - LEFT - RIGHT
    band = plot_width / count
    width_in_chars = max(4, int(band / 7.5))  # 13px text
    ticks = [_wrap(text, width_in_chars) for text, _lang_code in values]
    tick_lines = max(len(lines) for lines in ticks)
    base = TOP + PLOT_HEIGHT
    height = base + 8 + tick_lines * LINE + 8 + LINE + 4
    parts = [
        f'<svg class="chart" role="img" aria-labelledby="{chart_id}-title" aria-describedby="{chart_id}-desc" '
        f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" focusable="false">',
        f'<title id="{chart_id}-title">', _text(title), "</title>",
        f'<desc id="{chart_id}-desc">', _text(desc), "</desc>",
        '<g class="chart-grid">',
    ]
    for step in range(5):
        share = top * step / 4
        y = base - PLOT_HEIGHT * step / 4
        parts += [f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_number(y)}" y2="{_number(y)}"/>',
                  f'<text x="{LEFT - 6}" y="{_number(y + 4)}" text-anchor="end">', _text(words.tick(share)),
                  "</text>"]
    parts.append('</g><g class="chart-bars">')
    for index, (_x, probability) in enumerate(series.points):
        bar_height = float(probability / top) * PLOT_HEIGHT
        left = LEFT + band * index + band * 0.15
        parts += [f'<rect class="chart-bar" x="{_number(left)}" y="{_number(base - bar_height)}" '
                  f'width="{_number(band * 0.7)}" height="{_number(bar_height)}">',
                  "<title>", _text(f"{values[index][0]}: {words.percent(probability)} ({probability})"),
                  "</title></rect>"]
        centre = _number(LEFT + band * (index + 0.5))
        if count <= VALUE_LABELS_UP_TO:
            parts += [f'<text class="chart-value" x="{centre}" y="{_number(base - bar_height - 5)}" '
                      'text-anchor="middle">', _text(words.percent(probability)), "</text>"]
        parts.append(f'<text class="chart-tick" x="{centre}" y="{base + 8 + LINE - 3}" text-anchor="middle"'
                     f"{_lang(values[index][1], words)}>")
        for number, line in enumerate(ticks[index]):
            parts += [f'<tspan x="{centre}" dy="{0 if number == 0 else LINE}">', _text(line), "</tspan>"]
        parts.append("</text>")
    parts += ["</g>",
              f'<line class="chart-axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{base}" y2="{base}"/>',
              f'<line class="chart-axis" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{base}"/>',
              f'<text class="chart-axis-title" x="{_number(LEFT + plot_width / 2)}" y="{height - 6}" '
              f'text-anchor="middle"{_lang(x_axis[1], words)}>', _text(x_axis[0]), "</text>",
              f'<text class="chart-axis-title" transform="rotate(-90)" x="{_number(-(TOP + PLOT_HEIGHT / 2))}" '
              f'y="16" text-anchor="middle"{_lang(y_axis[1], words)}>', _text(y_axis[0]), "</text>",
              "</svg>"]
    return Markup("").join(part if isinstance(part, Markup) else Markup(part) for part in parts)


def _table(words: Words, series: Series, title: str, x_axis: tuple[str, str], y_axis: tuple[str, str],
           values: Sequence[tuple[str, str]]) -> Markup:
    _ = words.gettext
    parts: list[Markup | str] = [
        # Translators: The line under a chart of a worked example that opens the table of its
        # numbers.
        '<details class="chart-data"><summary>', _text(_("The chart's numbers")), "</summary>",
        "<table><caption>", _text(title), "</caption><thead><tr>",
        f'<th scope="col"{_lang(x_axis[1], words)}>', _text(x_axis[0]), "</th>",
        f'<th scope="col"{_lang(y_axis[1], words)}>', _text(y_axis[0]), "</th>",
        # Translators: The heading of the last column of the table of a chart's numbers: each
        # chance as an exact fraction (the column before gives it as a percentage).
        '<th scope="col">', _text(_("exact")), "</th></tr></thead><tbody>",
    ]
    for (text, language), (_x, probability) in zip(values, series.points, strict=True):
        parts += [f'<tr><th scope="row"{_lang(language, words)}>', _text(text), "</th><td>",
                  _text(words.percent(probability)), "</td><td>", _text(str(probability)), "</td></tr>"]
    parts.append("</tbody></table></details>")
    return Markup("").join(part if isinstance(part, Markup) else Markup(part) for part in parts)
