"""Docstrings and comments say why, never a measurement.

A figure written beside the code ("4 MiB at 1,000 rules", "0.6 s", "four times
faster") is true on the day it was measured and silently false after the next
change; the figures live on the manual's performance page, which the benchmark
writes from what it measured.  This test reads every docstring and comment of the
engine, the bundled rules core and the benchmark, and names each figure it finds.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("validator", "rules-core/whfb6", "benchmarks")

NOT_YET_CLEANED = frozenset({
    "validator/resultcache.py",
    "validator/content/inputcache.py",
    "validator/catalogs/parsed.py",
    "validator/catalogs/patch.py",
    "validator/content/fastyaml.py",
    "validator/parallel.py",
    "validator/checks/lintparts.py",
    "validator/derived.py",
    "validator/site/prerendered.py",
    "validator/checks/charts.py",
    "validator/site/worked.py",
})
"""Modules being rewritten elsewhere, whose measurements go with the rewrite: each is
to leave this list once it is clean, so the exclusion stays visible until then."""

_COUNT = r"(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|several|tens of|hundreds of)"
MEASUREMENT = re.compile("|".join((
    # A number with a unit of time or size: "0.65 s", "4 MiB", "3.6 MB", "two seconds".
    r"\b\d[\d,.]*\s*(?:[KMGT]i?B|ms)\b",
    r"\b\d[\d,.]*\s+s\b",
    rf"\b{_COUNT}\s+(?:milli|micro)?seconds?\b",
    rf"\b{_COUNT}\s+(?:kilo|mega|giga)bytes?\b",
    # A speed-up or a share of a run: "4x faster", "four times slower", "a tenth of a second".
    r"\b\d[\d.]*\s*[x\u00d7]\s*(?:faster|slower|quicker)\b",
    r"\btimes\s+(?:faster|slower|quicker|longer|shorter|smaller|larger|bigger)\b",
    r"\b(?:a|one|two|three|four)\s+(?:tenth|fifth|third|quarter|twentieth)s?\s+of\b",
    r"\b(?:under|over|within|most of|than)\s+a\s+second\b",
    # A figure for a book of some size: "at 1,000 rules", "a 1,000-rule book".
    r"\bat\s+\d[\d,]*\s+rules\b",
    r"\b\d[\d,]*-rule\b",
)), re.IGNORECASE)


def measurements(text: str) -> list[str]:
    """Each figure in ``text`` that reads as a measurement."""
    return [match.group(0) for match in MEASUREMENT.finditer(text)]


def notes(source: str) -> Iterator[tuple[int, str]]:
    """Every comment and every docstring of a module, with its line."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        for statement in body if isinstance(body, list) else []:
            if (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
                    and isinstance(statement.value.value, str)):
                yield statement.lineno, statement.value.value


def modules() -> list[str]:
    return sorted(str(path.relative_to(ROOT)) for package in PACKAGES for path in (ROOT / package).rglob("*.py")
                  if ".venv" not in path.parts)


@pytest.mark.parametrize("module", [module for module in modules() if module not in NOT_YET_CLEANED])
def test_no_docstring_or_comment_carries_a_measurement(module: str) -> None:
    found = [f"{module}:{line}: {figure!r}" for line, text in notes((ROOT / module).read_text(encoding="utf-8"))
             for figure in measurements(text)]
    assert not found, ("a measurement in a docstring or comment goes stale; say why instead, and leave the figure "
                       "to the performance page:\n" + "\n".join(found))


@pytest.mark.parametrize("text", [
    '"""Shared, the names take 4 MiB at 1,000 rules."""',
    "# a check after an edit takes 0.65 s",
    '"""Parsing takes two seconds."""',
    "x = 1  # 3x faster than Babel",
    '"""Four times slower on a sentence with an accent."""',
    '"""It spent a tenth of a second on keys."""',
    '"""A catalogue of a 3,000-rule book has 10.5 MiB."""',
    "# the lint costs 12 ms per language",
])
def test_a_measurement_is_found_in_a_docstring_and_in_a_comment(text: str) -> None:
    assert [figure for _, note in notes(text + "\n") for figure in measurements(note)]


@pytest.mark.parametrize("text", [
    '"""Kept so that a second run redoes only what an edit touched."""',
    "# the second rank may not fight; a 2D6 roll; 6s to wound",
    '"""Every count a page shows is well below 1,000."""',
    '"""Files are polled ten times a second, as MkDocs polls twice."""',
])
def test_a_reason_without_a_figure_is_not_a_measurement(text: str) -> None:
    assert not [figure for _, note in notes(text + "\n") for figure in measurements(note)]
