"""Checks of the register of discrepancies that need the sources beside it.

A reading may report a document the project holds no copy of (an English original
known only from what others say of it).  Such a claim is worth no more than the
place where a reader can check it, so the loader refuses it unless the reading
names its evidence (a source with pages, or a public address) or owns, with
``verified: false``, that nobody could check it; the page then says "unverified".
"""

from __future__ import annotations

from collections.abc import Iterator

from validator.content.model import Discrepancies, Discrepancy, Evidence, Reading, Source, Sources
from validator.problems import Problem

EVIDENCE_FIX = ("add 'evidence:' (a source from docs/sources.yml with the 'pages' or the 'url' where a reader "
                "can check the claim), or 'verified: false' when no such place could be found")


def register_problems(sources: Sources, register: Discrepancies) -> Iterator[Problem]:
    """Every reading of a source that ``needs_evidence`` cites evidence or says
    ``verified: false``, never both; evidence and damaged places cite known sources."""
    by_id = {source.id: source for source in sources.sources}
    yield from _kind_problems(register)
    for entry in register.discrepancies:
        for reading in entry.readings:
            yield from _reading_problems(entry.id, reading, by_id)
        for place in entry.places:
            if place.source not in by_id:
                yield Problem(place.position.file, place.position.of("source").line, entry.id,
                              f"a place cites unknown source '{place.source}'", "add it to docs/sources.yml")
            yield from _evidence_problems(entry.id, "a place", place.evidence, by_id)


def _kind_problems(register: Discrepancies) -> Iterator[Problem]:
    """Every entry is of a kind the register declares, and has the keys of its kind:
    readings for a disagreement, places for an editorial note."""
    declared = [kind.id for kind in register.kinds]
    for repeated in sorted({kind for kind in declared if declared.count(kind) > 1}):
        where = next(kind.position for kind in register.kinds if kind.id == repeated)
        yield Problem(where.file, where.line, repeated, f"kind '{repeated}' is declared twice",
                      "declare each kind once under 'kinds'")
    for entry in register.discrepancies:
        kind = register.kind(entry.kind)
        if kind is None:
            known = ", ".join(declared) or "none yet"
            yield Problem(entry.position.file, entry.position.of("kind").line, entry.id,
                          f"kind '{entry.kind}' is not declared under 'kinds' (declared: {known})",
                          "use a declared kind, or declare it at the top of the file with its id, label and "
                          "'holds: readings' or 'holds: places'")
            continue
        shape = _shape_problem(entry, kind.holds)
        if shape is not None:
            yield Problem(entry.position.file, entry.position.line, entry.id, *shape)


def _shape_problem(entry: Discrepancy, holds: str) -> tuple[str, str] | None:
    """What the entry lacks or has too much of for its kind (message, fix), or None."""
    kind = entry.kind
    if holds == "places":
        if not entry.places:
            return f"a '{kind}' entry lists no damaged places", "list them under 'places' (at least one)"
        if entry.readings or entry.adopted is not None:
            return f"a '{kind}' entry has 'places', not 'readings' or 'adopted'", "remove 'readings' and 'adopted'"
        return None
    if len(entry.readings) < 2:
        return f"a '{kind}' entry needs at least two 'readings'", "add the readings that disagree"
    if not entry.rules:
        return f"a '{kind}' entry names the rules it touches", "list them under 'rules' (at least one)"
    if entry.rationale is None:
        return f"a '{kind}' entry says why it adopts a reading", "add 'rationale'"
    if entry.places:
        return f"a '{kind}' entry has 'readings', not 'places'", "remove 'places'"
    return None


def _reading_problems(entry_id: str, reading: Reading, sources: dict[str, Source]) -> Iterator[Problem]:
    where = reading.position
    source = sources.get(reading.source)
    if source is not None and source.needs_evidence:
        if not reading.evidence and reading.verified is not False:
            yield Problem(where.file, where.line, entry_id,
                          f"reading '{reading.id}' reports '{source.id}', a document the project holds no copy "
                          "of, and says neither where to check it nor that it is unverified", EVIDENCE_FIX)
        elif reading.evidence and reading.verified is False:
            yield Problem(where.file, where.of("verified").line, entry_id,
                          f"reading '{reading.id}' names evidence and says 'verified: false'",
                          "keep the evidence and remove 'verified: false', or remove the evidence")
    yield from _evidence_problems(entry_id, f"reading '{reading.id}'", reading.evidence, sources)


def _evidence_problems(entry_id: str, what: str, evidence: tuple[Evidence, ...],
                       sources: dict[str, Source]) -> Iterator[Problem]:
    for item in evidence:
        cited = sources.get(item.source)
        line = item.position.of("source").line
        if cited is None:
            yield Problem(item.position.file, line, entry_id,
                          f"{what} names evidence in unknown source '{item.source}'",
                          "add it to docs/sources.yml")
        elif cited.needs_evidence:
            yield Problem(item.position.file, line, entry_id,
                          f"{what} names as evidence '{cited.id}', which itself needs evidence",
                          "cite a source a reader can consult (one with pages or a public address)")
