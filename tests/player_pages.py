"""What a player's page must not show with the editor view off: the machinery of the
rules core (a command line, a function's name, a rule's identifier, a field's raw
name).  The editor view's parts (``editor-view``), scripts and styles are left out,
as a reader never sees them; the rest, text and tooltips, is what a reader reads."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

SKIPPED = frozenset({"script", "style", "template", "svg"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                  "wbr"})
SHOWN_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")


class _Reader(HTMLParser):
    """The text a reader sees of a page, and its tooltips."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self.open: list[bool] = []
        """For each open element, whether it is hidden from a player."""

    def hidden(self) -> bool:
        return any(self.open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        hides = tag in SKIPPED or "editor-view" in (found.get("class") or "").split()
        if not hides and not self.hidden():
            self.pieces.extend(value for name in SHOWN_ATTRIBUTES if (value := found.get(name)))
        if tag not in VOID:
            self.open.append(hides)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.open:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        if not self.hidden():
            self.pieces.append(data)


def shown_text(html: str) -> str:
    """What a player reads of a page: its text and tooltips, one piece a line."""
    reader = _Reader()
    reader.feed(html)
    return "\n".join(piece.strip() for piece in reader.pieces if piece.strip())


@dataclass(frozen=True)
class Machinery:
    """What only an editor should read, by kind."""

    rule_ids: frozenset[str]
    functions: frozenset[str]
    """Functions of the rules core, by their qualified and their bare names."""
    fields: frozenset[str]
    """Raw names of the scenarios' inputs and outcomes that no reader would write
    (those with an underscore: ``mount_wounds``, where ``dice`` is a plain word)."""

    def found(self, text: str) -> list[str]:
        """Every piece of machinery in ``text``, with its kind."""
        found = [f"command line: {line}" for line in text.splitlines() if "validator calc" in line]
        words = set(re.findall(r"[\w./-]+", text))
        found += [f"rule id: {rule}" for rule in sorted(self.rule_ids & words)]
        found += [f"function: {name}" for name in sorted(self.functions & words)]
        found += [f"field: {name}" for name in sorted(self.fields & set(re.findall(r"\w+", text)))]
        return found


def machinery_of(rule_ids: Iterable[str], functions: Iterable[object], fields: Iterable[str]) -> Machinery:
    names: set[str] = set()
    for function in functions:
        qualified = f"{getattr(function, '__module__', '')}.{getattr(function, '__qualname__', '')}"
        names |= {qualified, qualified.rsplit(".", 1)[-1]}
    return Machinery(frozenset(rule_ids), frozenset(name for name in names if "_" in name or "." in name),
                     frozenset(name for name in fields if "_" in name))


def traced_functions(ruleset: Any) -> dict[str, Callable[..., Any]]:
    """Every function of the rules core's package that declares the rules it
    implements (and so is a step of a trace), by its step's key."""
    from validator.api.citations import rule_ids_of
    from validator.api.trace import step_key

    packages = {function.__module__.partition(".")[0] for scenario in ruleset.scenarios
                for function in scenario.implementations}
    found: dict[str, Callable[..., Any]] = {}
    for package_name in sorted(packages):
        package = importlib.import_module(package_name)
        names = [package_name, *(module.name for module in pkgutil.walk_packages(
            getattr(package, "__path__", []), package_name + "."))]
        for name in names:
            for value in vars(importlib.import_module(name)).values():
                if callable(value) and rule_ids_of(value):
                    function = inspect.unwrap(value)
                    found[step_key(function)] = function
    return found
