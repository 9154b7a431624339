"""A build lets go of the catalogues as Babel parsed them once their compact form
is made (validator.catalogs.parsed), and of what the results cache holds of
each input once it is written (validator.content.inputcache.made_from): neither is
held by the process that forks the build's jobs.  What the lint asks for later is
the same catalogue, made again from the bytes the load read, and never another."""

from __future__ import annotations

import gc
import re
import uuid

from babel.messages.catalog import Message
from conftest import ProjectCopy, break_a_polish_number

from validator.checks.lintparts import lint_part
from validator.problems import ProblemsFound
from validator.resultcache import cache_folder
from validator.store import Store, opened
from validator.workspace import load_workspace

RULES = "locales/{}/LC_MESSAGES/rules.po"


def marked(project: ProjectCopy) -> str:
    """A mark put in a translation of this copy's Spanish rule catalogue (what other
    tests in the same process hold is never counted)."""
    mark = f"mark-{uuid.uuid4().hex}"
    path = RULES.format("es")
    project.write(path, re.sub(r'^msgstr "(?=[^"])', f'msgstr "{mark} ', project.read(path), count=1, flags=re.M))
    return mark


def live_messages(mark: str) -> int:
    """Babel messages with the mark alive in this process, those the results cache
    froze after reading them too (see resultcache._collector_paused)."""
    gc.unfreeze()
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, Message) and mark in str(thing.string))


def entries(catalog: object) -> list[tuple[object, ...]]:
    return [(m.id, m.string, m.context, m.lineno, sorted(m.flags), m.user_comments, m.previous_id)
            for m in catalog]  # type: ignore[attr-defined]


def test_a_build_load_holds_no_parsed_catalogue_and_makes_the_same_again(project: ProjectCopy) -> None:
    mark = marked(project)
    with opened(project.root, keeps_results=True, no_cache=False, workers=2) as store:
        kept = load_workspace(project.root, store=store)
        expected = {code: entries(catalog) for code, catalog in kept.readings.rule_catalogs.items()}
        contexts = {code: [str(m.context or "") for m in catalog if m.id]
                    for code, catalog in kept.readings.rule_catalogs.items()}
        assert live_messages(mark) == 1  # the count sees a kept catalogue
        del kept
        assert live_messages(mark) == 0
        let_go = load_workspace(project.root, keep_catalogs=False, store=store)
        # Neither the workspace nor the results cache holds one: both were let go.
        assert live_messages(mark) == 0
        assert sorted(let_go.readings.rule_catalogs) == sorted(expected) == ["es", "pl"]
        assert {code: list(let_go.readings.rule_catalogs.contexts(code)) for code in expected} == contexts
        for code in expected:
            assert entries(let_go.readings.rule_catalogs[code]) == expected[code]
        assert live_messages(mark) == 1


def test_each_input_is_written_to_the_cache_as_soon_as_it_is_made(project: ProjectCopy) -> None:
    """Not at the end of the command: what is written is let go."""
    folder = cache_folder(project.root)
    assert folder is not None
    with opened(project.root, keeps_results=True, no_cache=False, workers=2) as store:
        load_workspace(project.root, keep_catalogs=False, store=store)
        written = sorted(path.name for path in (folder / "inputs").glob("*.pickle"))
        assert any(name.startswith("rules-po-") for name in written)
        assert any(name.startswith("monstrous-mounts-yml-") for name in written)


def test_without_kept_results_the_lint_parses_the_catalogue_again(project: ProjectCopy) -> None:
    line = break_a_polish_number(project)
    workspace = load_workspace(project.root, keep_catalogs=False)  # no results kept: nothing to read back
    found = lint_part(workspace, "pl", Store())
    assert any(f.file == RULES.format("pl") and f.line == line and f.severity.name == "ERROR" for f in found)


def test_a_catalogue_saved_again_after_the_load_is_read_as_the_load_read_it(project: ProjectCopy) -> None:
    """As in the live preview, whose whole builds run while the translator saves."""
    with opened(project.root, keeps_results=True, no_cache=False, workers=2) as store:
        expected = entries(load_workspace(project.root, store=store).readings.rule_catalogs["es"])
        workspace = load_workspace(project.root, keep_catalogs=False, store=store)
        project.write(RULES.format("es"), project.read(RULES.format("es")).replace('msgstr "', 'msgstr "X', 2))
        assert entries(workspace.readings.rule_catalogs["es"]) == expected


def test_without_kept_results_a_catalogue_changed_after_the_load_is_a_problem(project: ProjectCopy) -> None:
    workspace = load_workspace(project.root, keep_catalogs=False)
    project.write(RULES.format("es"), project.read(RULES.format("es")) + "\n# edited meanwhile\n")
    try:
        workspace.readings.rule_catalogs["es"]
    except ProblemsFound as found:
        [problem] = found.problems
        assert problem.file == RULES.format("es")
        assert "changed while the command ran" in problem.message and "run the command again" in problem.fix
    else:
        raise AssertionError("a catalogue whose file changed since the load was read again")
    assert entries(workspace.readings.rule_catalogs["pl"])  # the other language's file is as it was


def test_a_kept_catalogue_is_not_read_again(project: ProjectCopy) -> None:
    """The check and the preview keep what the load read: a later edit does not reach it."""
    workspace = load_workspace(project.root)
    before = entries(workspace.readings.rule_catalogs["es"])
    project.write(RULES.format("es"), project.read(RULES.format("es")).replace('msgstr "', 'msgstr "X', 1))
    assert entries(workspace.readings.rule_catalogs["es"]) == before
