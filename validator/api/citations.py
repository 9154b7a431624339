"""Link the functions of a rules core to the rule ids they implement."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])

RULE_IDS_ATTRIBUTE = "__rule_ids__"


def implements(*rule_ids: str, says: str | None = None) -> Callable[[F], F]:
    """Mark a function as the implementation of ``rule_ids``.

    The ids are stored on the function rather than in a side table so that moving
    or renaming the function carries its citation with it.  Each call is also a
    step of a trace when one is being taken (see :mod:`validator.api.trace`), which a
    page shows to players: ``says`` is the step's text for them when the first
    sentence of the docstring is written for programmers.

    >>> @implements("chapter/rule")
    ... def f() -> None: ...
    >>> rule_ids_of(f)
    ('chapter/rule',)
    """
    if not rule_ids:
        raise ValueError("implements() needs at least one rule id")

    def mark(function: F) -> F:
        from validator.api.trace import traced

        wrapper = functools.wraps(function)(traced(function, tuple(rule_ids), says))
        setattr(wrapper, RULE_IDS_ATTRIBUTE, tuple(rule_ids))
        return wrapper  # type: ignore[return-value]

    return mark


def rule_ids_of(function: Callable[..., object]) -> tuple[str, ...]:
    """The rule ids that ``function`` declares it implements (empty when none)."""
    return tuple(getattr(function, RULE_IDS_ATTRIBUTE, ()))
