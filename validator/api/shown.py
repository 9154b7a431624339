"""What each value of a scenario is, so that a page shows it as a reader says it.

A ``4`` may be a die showing four pips, a roll that needs 4 or more (``4+``), a
modifier (``+4``), a distance (in the book's unit of length, shown in the reader's)
or a plain count.  Only the rules core knows which, so it says so in the types of
its inputs and outcomes, with ``typing.Annotated`` metadata from this module:

    needed: Annotated[int | None, ROLL]

A value may also have a meaning of its own in the core's game, shown as words rather
than as the number: ``Shown("roll", at_least=(7, "impossible"))`` shows 7 and above
as "impossible", ``Shown("roll", meanings=((1, "automatic hit"),))`` shows 1 so.  The
words are translated in the ``labels`` catalogue, like the core's identifiers.

Everything else follows from the Python type: ``bool`` is a yes or no, an ``Enum``
a named choice, a ``Fraction`` a probability, a ``Mapping`` of fractions a
distribution, a ``tuple`` a list of values of its item's kind, a dataclass a group
of named values.  The engine knows nothing about any game: these are the words of
dice games in general.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Literal, Union

from validator.derived import kept_function

Kind = Any
"""A kind: a name (``"die"``, ``"roll"``, ...), a :class:`Shown` where some values have
a meaning of their own, ``("list", kind)`` for a list, or a dict of field name -> kind
for a group of named values."""

KINDS = ("die", "roll", "modifier", "distance", "count", "characteristic", "number", "boolean", "choice",
         "probability", "distribution", "text")


@dataclass(frozen=True)
class Shown:
    """``Annotated`` metadata naming how a value is shown."""

    kind: str
    meanings: tuple[tuple[int, str], ...] = ()
    """Values shown as words, each exactly: ``((1, "automatic hit"),)``."""
    at_least: tuple[int, str] | None = None
    """A bound and the words for every value at or above it: ``(7, "impossible")``."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}; known: {', '.join(KINDS)}")
        for _value, words in (*self.meanings, *((self.at_least,) if self.at_least else ())):
            if not isinstance(words, str) or not words.strip():
                raise ValueError(f"the meaning of a value is words, not {words!r}")

    def meaning(self, value: object) -> str | None:
        """The words ``value`` is shown as, or None when it is shown as a number.

        >>> Shown("roll", meanings=((1, "automatic"),), at_least=(7, "impossible")).meaning(9)
        'impossible'
        """
        if not isinstance(value, int) or isinstance(value, bool):
            return None
        exact = dict(self.meanings).get(value)
        if exact is not None:
            return exact
        if self.at_least is not None and value >= self.at_least[0]:
            return self.at_least[1]
        return None

    @property
    def words(self) -> tuple[str, ...]:
        """Every meaning's words, for the labels catalogue."""
        return tuple(words for _value, words in (*self.meanings, *((self.at_least,) if self.at_least else ())))


DIE = Shown("die")
"""One die's result: shown as the face the book gives it, with the number for screen readers."""
ROLL = Shown("roll")
"""The score a roll needs: ``4+`` (``None``: no roll can succeed)."""
MODIFIER = Shown("modifier")
"""A modifier to a roll or a characteristic: ``+1``, ``-1``, ``0``."""
DISTANCE = Shown("distance")
"""A distance in the book's unit of length, shown in the reader's unit."""
COUNT = Shown("count")
"""A number of models, hits, attacks or points."""
CHARACTERISTIC = Shown("characteristic")
"""A value of a model's profile, the characteristics the game gives its pieces."""

DieResult = Annotated[int, DIE]
RollNeeded = Annotated[int, ROLL]
RollModifier = Annotated[int, MODIFIER]
Distance = Annotated[float, DISTANCE]
WholeDistance = Annotated[int, DISTANCE]
Counted = Annotated[int, COUNT]
ProfileValue = Annotated[int, CHARACTERISTIC]


def kind_of(annotation: Any) -> Kind:
    """The kind of a value of type ``annotation`` (hints read with ``include_extras``).

    >>> kind_of(Annotated[int | None, ROLL]), kind_of(bool), kind_of(tuple[Annotated[int, DIE], ...])
    ('roll', 'boolean', ('list', 'die'))
    """
    if typing.get_origin(annotation) is Annotated:
        for meta in annotation.__metadata__:
            if isinstance(meta, Shown):
                return meta if meta.words else meta.kind
        return kind_of(annotation.__origin__)
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return "choice"
    if origin in (Union, types.UnionType):
        options = [option for option in typing.get_args(annotation) if option is not type(None)]
        return kind_of(options[0]) if len(options) == 1 else "text"
    if origin is tuple or origin is list:
        arguments = [argument for argument in typing.get_args(annotation) if argument is not Ellipsis]
        return ("list", kind_of(arguments[0]) if arguments else "text")
    if isinstance(annotation, type):
        if issubclass(annotation, bool):
            return "boolean"
        if issubclass(annotation, enum.Enum):
            return "choice"
        if issubclass(annotation, Fraction):
            return "probability"
        if issubclass(annotation, Mapping):
            return "distribution"
        if issubclass(annotation, (int, float)):
            return "number"
        if dataclasses.is_dataclass(annotation):
            return fields_of(annotation)
    return "text"


def meaning_places(kind: Kind, field: str | None = None) -> Iterator[tuple[str, str, str | None]]:
    """The words of every value with a meaning of its own in ``kind`` (lists and groups
    too), each with the value it stands for ("the number 1", "any number from 7 up",
    for the translator of the words) and the field of a group that holds it (None
    for a value outside a group).

    >>> list(meaning_places({"needed": Shown("roll", at_least=(7, "impossible"))}))
    [('impossible', 'any number from 7 up', 'needed')]
    """
    if isinstance(kind, Shown):
        for value, words in kind.meanings:
            yield words, f"the number {value}", field
        if kind.at_least is not None:
            yield kind.at_least[1], f"any number from {kind.at_least[0]} up", field
    elif isinstance(kind, tuple):
        yield from meaning_places(kind[1], field)
    elif isinstance(kind, dict):
        for name, inner in kind.items():
            yield from meaning_places(inner, name)


def fields_of(cls: type) -> dict[str, Kind]:
    """The kind of each field of a dataclass, in field order."""
    return dict(_fields_of(cls))


@kept_function(256)
def _fields_of(cls: type) -> tuple[tuple[str, Kind], ...]:
    """Resolving type hints is slow and every shown value asks again: once per class."""
    hints = typing.get_type_hints(cls, include_extras=True)
    return tuple((field.name, kind_of(hints[field.name])) for field in dataclasses.fields(cls))


@kept_function(1024)
def returned(function: Any) -> Kind:
    """The kind of what ``function`` returns ("text" when it does not say); once per function."""
    try:
        hints = typing.get_type_hints(function, include_extras=True)
    except (NameError, TypeError):
        return "text"
    return kind_of(hints["return"]) if "return" in hints else "text"


def parameters(function: Any) -> dict[str, Kind]:
    """The kind of each parameter of ``function`` that it annotates."""
    return dict(_parameters(function))


@kept_function(1024)
def _parameters(function: Any) -> tuple[tuple[str, Kind], ...]:
    try:
        hints = typing.get_type_hints(function, include_extras=True)
    except (NameError, TypeError):
        return ()
    return tuple((name, kind_of(hint)) for name, hint in hints.items() if name != "return")
