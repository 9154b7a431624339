"""Property-based fuzzing of the loaders: a mutated chapter, catalogue or ``--given``
either loads and checks cleanly or is refused with :class:`ProblemsFound` (or, for
``calc``, a one-line usage error); nothing else may escape.

Each case is a small input (a chapter cut to its first rules, a catalogue cut to
its first entries) run through the same functions the commands use, so a case
takes milliseconds. ``FUZZ_EXAMPLES`` sets the number of cases per test for a
longer run (see the manual, developers/tests.md).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
import tempfile
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from conftest import copy_project
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from validator.api.ruleset import ScenarioError
from validator.catalogs.merge import catalog_bytes, merge_catalog
from validator.catalogs.po import RuleCatalog, catalog_from_bytes, interface_translations
from validator.checks.examples import run_examples
from validator.checks.lint import LintContext, lint_catalog
from validator.checks.references import reference_problems
from validator.cli import main
from validator.commands.calc import parse_given
from validator.content.loader import Rulebook
from validator.content.model import Chapter
from validator.content.yamlsource import decode_utf8, parse_yaml, validate
from validator.problems import ProblemsFound
from validator.workspace import Workspace, load_workspace

ROOT = Path(__file__).resolve().parents[2]
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


def _settings(share: int, shrink: bool = True) -> settings:
    """``shrink``: false where a case is already as small as it gets and each run is a
    whole command, so shrinking would only repeat it for minutes."""
    phases = tuple(Phase) if shrink else (Phase.explicit, Phase.reuse, Phase.generate)
    return settings(max_examples=EXAMPLES or share, deadline=None, database=None, phases=phases,
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
    given = parse_given("".join(pieces))
    if isinstance(given, str):
        assert "\n" not in given
        return
    try:
        _workspace().ruleset.run(scenario, given, variant)
    except ScenarioError as error:
        assert "\n" not in str(error)


# -- special files and environment variables -----------------------------------------

INPUT_FILES = ("rulebook.yml", "mkdocs.yml", "docs/rules/chariots.yml", "docs/rules/added.yml", "docs/glossary.yml",
               "docs/sources.yml", "docs/discrepancies.yml", "docs/faq.yml", "docs/units.yml",
               "docs/guide/translators.es.md", "locales/rules.pot", "locales/es/LC_MESSAGES/rules.po",
               "locales/pl/LC_MESSAGES/ui.po", "locales/pl/LC_MESSAGES/labels.po")
TEMPLATES = frozenset(name for name in INPUT_FILES if name.endswith(".pot"))
SPECIAL_FILES = ("fifo", "folder", "/dev/zero", "/dev/null", "/dev/urandom", "dangling link", "link out", "empty")
ENVIRONMENT_VALUES = ("", ".", "cache", "../cache", "/nonexistent/cache", "/dev/null", "/tmp",
                      "0", "-1", "1.5", "99999", "9" * 40, "x", " 3", "1e9", "٣")
"""Values a careless or hostile environment gives: relative, missing, shared and
special folders for the caches, and numbers of every wrong shape for the others."""
ENVIRONMENT = ("VALIDATOR_CACHE_DIR", "XDG_CACHE_HOME", "SOURCE_DATE_EPOCH", "VALIDATOR_JOBS")
COMMANDS = (["check"], ["lint"], ["status"], ["i18n", "update"])


def _make_special(path: Path, kind: str) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling link":
        path.symlink_to(path.parent / "nothing-here")
    elif kind == "link out":
        path.symlink_to("/etc/hostname")
    elif kind == "empty":
        path.write_bytes(b"")
    else:
        path.symlink_to(kind)


class _Hung(Exception):
    pass


def _on_alarm(_signal: int, _frame: object) -> None:
    raise _Hung


@_settings(12, shrink=False)
@given(st.sampled_from(INPUT_FILES), st.sampled_from(SPECIAL_FILES), st.sampled_from(COMMANDS),
       st.dictionaries(st.sampled_from(ENVIRONMENT), st.sampled_from(ENVIRONMENT_VALUES), max_size=2))
def test_a_special_file_or_a_strange_environment_is_one_line(name: str, kind: str, command: list[str],
                                                             environment: dict[str, str]) -> None:
    """Whatever stands in place of an input, under whatever environment, a command ends
    in bounded time with a report: never waiting on a FIFO, reading a device without
    end, following a link out, or failing with a traceback."""
    with tempfile.TemporaryDirectory() as folder:
        root = copy_project(Path(folder) / "book")
        _make_special(root / name, kind)
        saved = {variable: os.environ.get(variable) for variable in environment}
        os.environ.update(environment)
        output = io.StringIO()
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.alarm(120)
        try:
            with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
                code = main(["--project", str(root), *command])
        except _Hung:
            raise AssertionError(f"{' '.join(command)} with {kind} as {name} and {environment} did not end") from None
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
            for variable, value in saved.items():
                if value is None:
                    os.environ.pop(variable, None)
                else:
                    os.environ[variable] = value
        text = output.getvalue()
        assert code in (0, 1, 2), text
        assert "Traceback" not in text and "internal error" not in text, text
        assert all(len(line) < 2000 for line in text.splitlines())
        # check reads every input, but the templates: i18n update makes them, and reads them alone
        if kind in ("fifo", "folder", "/dev/zero", "/dev/urandom") and command == ["check"] and name not in TEMPLATES:
            assert code != 0, f"{kind} as {name} was accepted:\n{text}"
