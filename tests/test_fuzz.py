"""Property-based fuzzing of the loaders: a mutated chapter, catalogue or ``--given``
either loads and checks cleanly or is refused with :class:`ProblemsFound` (or, for
``calc``, a one-line usage error); nothing else may escape.

Each case is a small input (a chapter cut to its first rules, a catalogue cut to
its first entries) run through the same functions the commands use, so a case
takes milliseconds. ``FUZZ_EXAMPLES`` sets the number of cases per test for a
longer run (see README, Development).
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from validator.checks.examples import run_examples
from validator.checks.lint import LintContext, lint_catalog
from validator.checks.references import reference_problems
from validator.cli import _parse_given
from validator.content.catalogs import RuleCatalog, catalog_from_bytes, interface_translations
from validator.content.loader import Rulebook
from validator.content.merge import catalog_bytes, merge_catalog
from validator.content.model import Chapter
from validator.content.yamlsource import decode_utf8, parse_yaml, validate
from validator.problems import ProblemsFound
from validator.ruleset import ScenarioError
from validator.workspace import Workspace, load_workspace

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "0")) or None
"""Cases per test; unset, each test runs its own share of the 2,000 in CI."""

YAML_PIECES = [":", "-", "- ", "[", "]", "{", "}", "&a ", "*a", "!", "!!int ", "|", ">-", "'", '"', "#", "%", "@",
               "`", "\n", "\t", "  ", "? ", "---\n", "...\n", ": ", ",", "~", "0x", "1e999", "2024-13-45", "\\",
               "{rule:", "{term:", "}", "{roll:7+}"]
PO_PIECES = ['"', "\\", "\\n", "#", "#~ ", "#| ", "#, fuzzy\n", "\n", "msgid ", "msgstr ", "msgctxt ", "msgid_plural ",
             "msgstr[0] ", "msgstr[9] ", '""', "\n\n", "{term:", "}", "%s", "%(x)s", "nplurals=0;", "plural=n/0;"]


@cache
def _workspace() -> Workspace:
    return load_workspace(ROOT)


def _first_rules(text: str, rules: int) -> str:
    """A chapter cut after its first ``rules`` rules: still a valid chapter, much faster to parse."""
    starts = [match.start() for match in re.finditer(r"^  - id: ", text, re.MULTILINE)]
    return text[:starts[rules]] if len(starts) > rules else text


def _first_entries(text: str, entries: int) -> str:
    blocks = text.split("\n\n")
    return "\n\n".join(blocks[:entries + 1]) + "\n"


CHAPTER = _first_rules((ROOT / "docs/rules/chariots.yml").read_text(encoding="utf-8"), 2).encode("utf-8")
CATALOG = _first_entries((ROOT / "locales/pl/LC_MESSAGES/rules.po").read_text(encoding="utf-8"), 12).encode("utf-8")


@st.composite
def mutated(draw: st.DrawFn, seed: bytes, pieces: list[str]) -> bytes:
    """``seed`` after one to four edits: a flipped byte, a deleted span, a syntax piece
    or random text inserted, a line doubled."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "delete", "piece", "text", "double"]))
        at = draw(st.integers(0, len(data)))
        if kind == "flip" and data:
            index = min(at, len(data) - 1)
            data[index] = draw(st.integers(0, 255))
        elif kind == "delete":
            data[at:at + draw(st.integers(1, 40))] = b""
        elif kind == "piece":
            data[at:at] = draw(st.sampled_from(pieces)).encode("utf-8")
        elif kind == "text":
            data[at:at] = draw(st.text(max_size=6)).encode("utf-8", "surrogatepass")
        else:
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            line = bytes(data[start:end + 1 if end >= 0 else len(data)])
            data[start:start] = line
    return bytes(data)


def _settings(share: int) -> settings:
    return settings(max_examples=EXAMPLES or share, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_settings(800)
@given(mutated(CHAPTER, YAML_PIECES))
def test_a_mutated_chapter_loads_and_checks_or_is_refused(data: bytes) -> None:
    workspace = _workspace()
    try:
        chapter = validate(Chapter, parse_yaml(decode_utf8(data, "chapter.yml"), "chapter.yml"), "chapter.yml")
    except ProblemsFound as found:
        assert found.problems and all(str(problem).startswith("chapter.yml") for problem in found.problems)
        return
    rulebook = Rulebook(workspace.project, (chapter,), workspace.rulebook.glossary, workspace.rulebook.sources,
                        workspace.rulebook.discrepancies)
    runs = run_examples(workspace.ruleset, ((rule.id, example) for rule in chapter.rules for example in rule.examples))
    problems = [*(problem for run in runs for problem in run.problems),
                *reference_problems(rulebook, workspace.ruleset)]
    assert all("\n" not in str(problem) for problem in problems)


@_settings(800)
@given(mutated(CATALOG, PO_PIECES))
def test_a_mutated_catalogue_loads_and_lints_or_is_refused(data: bytes) -> None:
    workspace = _workspace()
    try:
        catalog = catalog_from_bytes(data, "rules.po")
    except ProblemsFound as found:
        assert found.problems and all(str(problem).startswith("rules.po") for problem in found.problems)
        return
    RuleCatalog.from_catalog(catalog, "pl", "en").translate("chariots#title", "Characters riding chariots")
    interface_translations(catalog).gettext("Glossary")
    context = LintContext.of(workspace.rulebook, "pl", {}, {})
    findings = lint_catalog(catalog, "rules.po", context)
    assert all(finding.file == "rules.po" for finding in findings)
    catalog_bytes(merge_catalog(_template(), catalog))


@cache
def _template() -> Catalog:
    return catalog_from_bytes(CATALOG, "rules.pot")


JSON_PIECES = ['{"hits": ', '{"dice": [', "]", "}", "[", ",", "1", "-1", "1e999", "NaN", "Infinity", "99999999999",
               '"', "true", "null", '"x"', ": "]


@_settings(400)
@given(st.lists(st.sampled_from(JSON_PIECES), max_size=12), st.sampled_from(
    ["mount-rider-hit-chance", "mount-allocate-hits", "mount-classify", "unit-joint-movement", "nosuch"]),
    st.sampled_from([None, "spanish-faq-hits-to-character", "english-rulebook-even-split", "nosuch"]))
def test_a_mutated_given_computes_or_is_refused(pieces: list[str], scenario: str, variant: str | None) -> None:
    given = _parse_given("".join(pieces))
    if isinstance(given, str):
        assert "\n" not in given
        return
    try:
        _workspace().ruleset.run(scenario, given, variant)
    except ScenarioError as error:
        assert "\n" not in str(error)
