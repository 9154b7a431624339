"""The rules core as the checks use it: imported only when something must be run.

A check after an edit finds the outcome of every unchanged example kept from
earlier runs (see :mod:`validator.checks.examples`).  What the other checks ask of
the core is kept too, by the core (see :func:`validator.resultcache.core_digest`):
its scenarios, the rules each implements and its ruling variants (the references
check), and whether each example's ``chart:`` can be drawn.  So a check with
nothing new to run never imports the core, its scenarios' dataclasses and their
input validators.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from validator import resultcache
from validator.api.ruleset import Ruleset
from validator.store import Store

T = TypeVar("T")


@dataclass(frozen=True)
class CoreFacts:
    """What the references check needs to know of a rules core."""

    scenarios: tuple[tuple[str, tuple[str, ...]], ...]
    """Each scenario's name and the ids of the rules its functions implement."""
    variants: tuple[str, ...]
    """The names of the ruling variants, sorted."""

    @classmethod
    def of(cls, ruleset: Ruleset) -> CoreFacts:
        return cls(tuple((scenario.name, scenario.rule_ids) for scenario in ruleset.scenarios),
                   tuple(sorted(ruleset.variants)))

    @cached_property
    def names(self) -> frozenset[str]:
        return frozenset(name for name, _rule_ids in self.scenarios)


class RulesCore:
    """A rules core, loaded by ``load`` when first run.  ``name`` (``module:attribute``)
    keeps what is learnt of it between runs, in ``store``; without one nothing is kept.
    The store also says how many processes may run its examples at once."""

    def __init__(self, load: Callable[[], Ruleset], name: str = "", store: Store | None = None) -> None:
        self._load = load
        self.name = name
        self.store = store or Store()

    @classmethod
    def of(cls, core: Ruleset | RulesCore) -> RulesCore:
        """``core`` as a :class:`RulesCore` (a loaded ruleset, kept nowhere)."""
        return core if isinstance(core, RulesCore) else cls(lambda: core)

    @cached_property
    def ruleset(self) -> Ruleset:
        return self._load()

    @cached_property
    def facts(self) -> CoreFacts:
        scenarios, variants = resultcache.made(self._kept("core"), ("facts", *self._identity()),
                                               lambda: _as_tuple(CoreFacts.of(self.ruleset)))
        return CoreFacts(scenarios, variants)

    def made(self, bucket: str, parts: tuple[object, ...], make: Callable[[], T]) -> T:
        """``make()`` of this core, kept in ``bucket`` by ``parts`` and the core's files
        (made every time when the core has no name to be known by)."""
        return resultcache.made(self._kept(bucket), (*self._identity(), *parts), make)

    def _kept(self, bucket: str) -> resultcache.Bucket | None:
        return self.store.bucket(bucket) if self.name else None

    def _identity(self) -> tuple[bytes, ...]:
        return (self.store.core_digest(self.name),) if self.name else ()


def _as_tuple(facts: CoreFacts) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], tuple[str, ...]]:
    return facts.scenarios, facts.variants
