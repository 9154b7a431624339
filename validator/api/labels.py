"""Readable, translatable labels for the identifiers shown in worked examples.

An example's box lists its input and the computed outcome: field names such as
``rider_strength`` and values such as ``guard-the-body`` come from the rules core.
Each gets a label, ``rider strength`` in English, translated in the ``labels``
catalogue (msgctxt ``labels/<identifier>``), so a Spanish or Polish reader sees
words of his language while the identifier stays available as a tooltip.

A label alone (``hit``, ``none``, ``first``) does not say whether it names a field or
one of its values, nor of what: each entry's comment for its translator says where the
identifier is used (:func:`identifier_uses`), in words that name no game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

LABELS_DOMAIN = "labels"
IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$")
USES_SHOWN = 6
"""Uses of one identifier a comment lists: enough to tell its sense, where a word
shown by many scenarios would otherwise bring a page of comments."""
RESULT = "_"
"""The key under which a function's result, or a list of choices, stands in the
mappings of shown values (it is no identifier, so it has no label)."""


@dataclass(frozen=True)
class Where:
    """Where a mapping of shown values comes from, for the translator's comment:
    ``part`` is ``input``, ``outcome``, ``argument``, ``result`` or ``chart``, ``owner``
    the scenario or core function (:func:`scenario_owner`, :func:`function_owner`),
    and ``field`` the field that values under :data:`RESULT` belong to (the choices
    of an input)."""

    part: str
    owner: str
    field: str | None = None


def scenario_owner(name: str, summary: str) -> str:
    return f"the scenario '{name}' ({summary})"


def function_owner(key: str) -> str:
    return f"the core function {key}"


def label_context(identifier: str) -> str:
    return f"labels/{identifier}"


def meaning_context(words: str) -> str:
    """The msgctxt of the words a value with a meaning of its own is shown as
    (:class:`validator.api.shown.Shown`: ``at_least``, ``meanings``)."""
    return f"labels/meaning/{words}"


def humanize(identifier: str) -> str:
    """The English label of an identifier.

    >>> humanize("may_charge_out"), humanize("guard-the-body")
    ('may charge out', 'guard the body')
    """
    return re.sub(r"[_-]+", " ", identifier).strip()


def is_identifier(value: object) -> bool:
    """Whether a value shown in an example is a core identifier (and so gets a label)."""
    return isinstance(value, str) and bool(IDENTIFIER.match(value))


def identifier_uses(values: Iterable[tuple[Where, Mapping[str, Any]]]) -> dict[str, list[str]]:
    """Every field name and identifier value of the given mappings (in the order they
    first appear, without repeats), each with where it is used, one sentence per use:
    "An input field of the scenario 'x' (...)", "A value of the outcome field 'y' of
    ...".  Past :data:`USES_SHOWN` uses the rest are counted, not listed."""
    uses: dict[str, dict[str, None]] = {}
    for where, mapping in values:
        for identifier, use in _walk_uses(mapping, where, None):
            uses.setdefault(identifier, {}).setdefault(use, None)
    return {identifier: listed_uses(list(found)) for identifier, found in uses.items()}


def listed_uses(uses: list[str]) -> list[str]:
    """The first :data:`USES_SHOWN` sentences of ``uses``, and how many more there are."""
    more = len(uses) - USES_SHOWN
    return uses[:USES_SHOWN] + ([f"And {more} more uses."] if more > 0 else [])


def _walk_uses(value: Any, where: Where, parent: str | None) -> Iterator[tuple[str, str]]:
    """Every field name and identifier value in ``value``, each with the sentence of its use."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if is_identifier(key):
                yield str(key), _field_use(where, parent, str(key))
            yield from _walk_uses(item, where, str(key))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _walk_uses(item, where, parent)
    elif is_identifier(value):
        yield value, _value_use(where, where.field if parent == RESULT and where.field else parent)


def _field_use(where: Where, parent: str | None, key: str) -> str:
    if where.part == "chart":
        return f"The name of an axis of a chart of {where.owner}."
    if parent is None:
        kind = {"input": "An input field", "outcome": "An outcome field", "argument": "An argument"}
        return f"{kind.get(where.part, 'A field')} of {where.owner}."
    if parent == RESULT:
        return f"A field of the result of {where.owner}."
    return f"A field of '{parent}' in the {where.part} of {where.owner}."


def _value_use(where: Where, field: str | None) -> str:
    if where.part == "chart":
        return f"A value on the axis '{field}' of a chart of {where.owner}."
    if field is None or field == RESULT:
        return f"A value returned by {where.owner}." if where.part == "result" else f"A value of {where.owner}."
    kind = {"input": "the input field", "outcome": "the outcome field", "argument": "the argument"}
    if where.part in kind:
        return f"A value of {kind[where.part]} '{field}' of {where.owner}."
    return f"A value of the field '{field}' of the result of {where.owner}."
