"""The manual's performance page, written from ``benchmarks/results.json``.

    python benchmarks/performance.py     # the page again from the figures kept

Figures typed by hand into prose go stale the day the code changes, and nothing says
so; here the page is made from the figures the last run kept, so it says exactly what
was measured, on which machine, and which targets that run met.  ``run.py --json``
calls this after it writes the figures; the page is never edited by hand.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results.json"
PAGE = HERE.parent / "manual" / "docs" / "developers" / "performance.md"

MEASURES = ("build", "build-one-job", "rebuild-none", "rebuild-edit", "bare", "static-i18n", "check", "check-edit",
            "preview")
RATIOS = ("build_over_bare", "static_i18n_over_build", "check_over_build", "check_edit_over_build",
          "rebuild_edit_over_build", "rebuild_none_over_build", "memory_over_bare", "memory_one_job_over_bare",
          "preview_seconds")
CORE = ("volley_ms", "icepool_over_volley")
"""The rules core: milliseconds for the exact distribution of a 60-shot volley at a
character on a monstrous mount (hit, rider or monster, wound, save), and icepool's
time for the same distribution as a multiple of ours."""
REFERENCE_RULES = 1000
"""The size the targets are stated for: a book of about this many rules, three languages."""

Results = Mapping[str, Any]
"""``results.json`` as read: the machine, the rounds, one entry per size and the core."""


@dataclass(frozen=True)
class Target:
    """A goal the tool is held to, as a bound on one figure of the reference size."""

    what: str
    figure: str
    bound: float
    at_most: bool
    """True when the figure must stay at or under ``bound``, False when at or over."""

    def met(self, value: float) -> bool:
        return value <= self.bound if self.at_most else value >= self.bound


TARGETS = (
    Target("the live preview shows a saved edit in under a second", "preview_seconds", 1.0, True),
    Target("a build takes at most 1.10 times as long as bare MkDocs", "build_over_bare", 1.10, True),
    Target("mkdocs-static-i18n takes at least twice as long as a build", "static_i18n_over_build", 2.0, False),
    Target("a check after an edit takes at most 0.05 of a build", "check_edit_over_build", 0.05, True),
    Target("the first check takes at most 0.05 of a build", "check_over_build", 0.05, True),
    Target("a build after a one-rule edit takes at most 0.10 of a cold build", "rebuild_edit_over_build", 0.10, True),
    Target("a build with nothing changed takes at most 0.05 of a cold build", "rebuild_none_over_build", 0.05, True),
    Target("a build needs at most 1.5 times the memory of bare MkDocs", "memory_over_bare", 1.5, True),
    Target("so does a build in one process (`--jobs 1`)", "memory_one_job_over_bare", 1.5, True),
    Target("the exact 60-shot volley takes under 10 ms", "volley_ms", 10.0, True),
)


def show(value: float | None) -> str:
    """A figure as the tables print it: two decimals, or n/a for a measure left out."""
    return "n/a" if value is None else f"{value:.2f}"


def growth(results: Sequence[Results], name: str) -> float | None:
    """The exponent of the growth of ``name``'s seconds between the smallest and largest size."""
    points = [(r["rules"], r["measures"][name]["seconds"]) for r in results if name in r["measures"]]
    if len(points) < 2 or points[0][1] <= 0 or points[-1][0] == points[0][0]:
        return None
    return math.log(points[-1][1] / points[0][1]) / math.log(points[-1][0] / points[0][0])


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _per_size(results: Sequence[Results], head: Sequence[str],
              cells: Callable[[Results], list[str]]) -> list[str]:
    rows = [_row(["rules", *head]), "|" + "---|" * (len(head) + 1)]
    rows.extend(_row([f"{result['rules']:,}", *cells(result)]) for result in results)
    return rows


def _seconds(result: Results, name: str) -> str:
    measure = result["measures"].get(name)
    return "n/a" if measure is None else show(measure["seconds"])


def _mebibytes(result: Results, name: str) -> str:
    measure = result["measures"].get(name)
    return "n/a" if measure is None or not measure["peak_kib"] else f"{measure['peak_kib'] / 1024:.0f}"


def table(results: Sequence[Results]) -> list[str]:
    """Seconds of every measure and every ratio, one row per size, and how each grows."""
    rows = _per_size(results, [*(f"{name} s" for name in MEASURES), *RATIOS],
                     lambda result: [*(_seconds(result, name) for name in MEASURES),
                                     *(show(result["ratios"].get(name)) for name in RATIOS)])
    if len(results) > 1:
        rows.append(_row(["growth exponent", *(show(growth(results, name)) for name in MEASURES),
                          *("" for _ in RATIOS)]))
    return rows


def memory_table(results: Sequence[Results]) -> list[str]:
    """The peak memory of every measure's whole process tree, one row per size."""
    return _per_size(results, [f"{name} MiB" for name in MEASURES],
                     lambda result: [_mebibytes(result, name) for name in MEASURES])


def core_table(core: Mapping[str, float | None]) -> list[str]:
    return [_row(["rules core", *CORE]), "|---|" + "---|" * len(CORE),
            _row(["60-shot volley, exact", *(show(core.get(name)) for name in CORE)])]


def _reference(results: Sequence[Results]) -> Results:
    """The size closest to the one the targets are stated for."""
    return min(results, key=lambda result: abs(result["rules"] - REFERENCE_RULES))


def targets(data: Results) -> list[str]:
    """Each target, met or not by the last run, with the figure that decides it."""
    reference = _reference(data["results"])
    figures: dict[str, float | None] = {**reference["ratios"], **data.get("core", {})}
    lines = []
    for target in TARGETS:
        value = figures.get(target.figure)
        verdict = "not measured" if value is None else "**met**" if target.met(value) else "**not met**"
        lines.append(f"- {target.what}: {verdict} (`{target.figure}` {show(value)})")
    return lines


def render(data: Results) -> str:
    """The whole page, from the figures of one run."""
    results = data["results"]
    reference = _reference(results)
    parts = [
        "# Performance",
        "",
        "<!-- Written by benchmarks/performance.py from benchmarks/results.json; do not edit. -->",
        "",
        "The figures of the last run of `python benchmarks/run.py --json benchmarks/results.json`,",
        "which writes this page (see [Benchmarks](benchmarks.md) for what each measure is). Compare",
        "ratios, not seconds, between machines.",
        "",
        f"Machine: {data['machine']}; best of {data['repeat']}.",
        "",
        "## Seconds and ratios",
        "",
        *table(results),
        "",
        "## Peak memory",
        "",
        *memory_table(results),
        "",
        "## The rules core",
        "",
        *core_table(data.get("core", {})),
        "",
        f"## Targets at {reference['rules']:,} rules",
        "",
        *targets(data),
    ]
    return "\n".join(parts) + "\n"


def write_page(results: Path = RESULTS, page: Path = PAGE) -> None:
    """Write the page for the figures kept in ``results``."""
    page.write_text(render(json.loads(results.read_text(encoding="utf-8"))), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=RESULTS, help="the figures a run kept")
    parser.add_argument("--page", type=Path, default=PAGE, help="the page to write")
    arguments = parser.parse_args(argv)
    write_page(arguments.results, arguments.page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
