"""Readable, translatable labels for the identifiers shown in worked examples.

An example's box lists its input and the computed outcome: field names such as
``rider_strength`` and values such as ``guard-the-body`` come from the rules core.
Each gets a label, ``rider strength`` in English, translated in the ``labels``
catalogue (msgctxt ``labels/<identifier>``), so a Spanish or Polish reader sees
words of his language while the identifier stays available as a tooltip.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

LABELS_DOMAIN = "labels"
IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$")


def label_context(identifier: str) -> str:
    return f"labels/{identifier}"


def meaning_context(words: str) -> str:
    """The msgctxt of the words a value with a meaning of its own is shown as
    (:class:`validator.shown.Shown`: ``at_least``, ``meanings``)."""
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


def shown_identifiers(values: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every field name and identifier value in the given mappings, in order of first
    appearance, without repeats."""
    seen: dict[str, None] = {}
    for mapping in values:
        for identifier in _walk(mapping):
            seen.setdefault(identifier, None)
    return list(seen)


def _walk(value: Any) -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            if is_identifier(key):
                yield str(key)
            yield from _walk(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _walk(item)
    elif is_identifier(value):
        yield value
