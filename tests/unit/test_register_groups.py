"""The register's two groups follow what each kind declares it holds, never the
entries' ids or words: an editorial note is an entry of a kind that holds places."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from validator.site.pages import PageView


def _view(kinds: dict[str, str], entries: list[tuple[str, str]]) -> Any:
    declared = [SimpleNamespace(id=kind, holds=holds) for kind, holds in kinds.items()]
    register = SimpleNamespace(
        discrepancies=[SimpleNamespace(id=entry, kind=kind) for entry, kind in entries],
        kind=lambda kind_id: next((kind for kind in declared if kind.id == kind_id), None))
    return SimpleNamespace(rulebook=SimpleNamespace(discrepancies=register))


def _groups(view: Any) -> list[tuple[str, list[str]]]:
    return [(holds, [entry.id for entry in entries]) for holds, entries in PageView.register_groups(view)]


def test_entries_go_to_the_group_their_kind_declares() -> None:
    view = _view({"typo": "places", "erratum": "readings", "disagreement": "readings"},
                 [("a", "typo"), ("b", "erratum"), ("c", "disagreement"), ("d", "typo")])
    # "erratum" sounds like a note, but its kind holds readings: it stays with the differences.
    assert _groups(view) == [("readings", ["b", "c"]), ("places", ["a", "d"])]


def test_a_group_without_entries_is_left_out() -> None:
    assert _groups(_view({"disagreement": "readings"}, [("a", "disagreement")])) == [("readings", ["a"])]
    assert _groups(_view({"typo": "places"}, [("a", "typo")])) == [("places", ["a"])]
