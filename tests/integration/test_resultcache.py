"""Results kept between runs (validator.resultcache): a check with a warm cache says
exactly what a check without one says, after any edit, and the cache never costs
a failure or a file in the project."""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ProjectCopy, Run, Snapshot, break_a_polish_number, copy_project, restored

from validator import resultcache
from validator.checks import lint
from validator.resultcache import CACHE_VARIABLE, Bucket, cache_folder, core_digest
from validator.store import Store


def cache_of(project: ProjectCopy) -> Path:
    folder = cache_folder(project.root)
    assert folder is not None
    return folder


def same(done: Run, other: Run) -> None:
    assert (done.code, done.out, done.err) == (other.code, other.out, other.err)


def run(project: ProjectCopy, *arguments: str) -> Run:
    """The command, in this process: what these tests prove is what a run keeps for the
    next, not the command line (a new process is no part of it: a run reads every
    input afresh, into new objects)."""
    return project.command(*arguments)


def uncached(project: ProjectCopy, *arguments: str) -> Run:
    return run(project, *arguments, "--no-cache")


@pytest.fixture(scope="module")
def _checked_book(tmp_path_factory: pytest.TempPathFactory) -> tuple[ProjectCopy, Snapshot, Snapshot]:
    """A copy of the book checked once, with what it and its cache held then."""
    book = ProjectCopy(copy_project(tmp_path_factory.mktemp("checked-book")))
    assert run(book, "check").code == 0
    return book, Snapshot(book.root), Snapshot(cache_of(book))


@pytest.fixture
def book(_checked_book: tuple[ProjectCopy, Snapshot, Snapshot]) -> Iterator[ProjectCopy]:
    """The book with the results of one check of it kept, as after a first check: the
    worker's one copy, the book and its cache put back as they were after each test
    (the tests that need nothing kept take a ``project`` of their own)."""
    yield from restored(*_checked_book)


def test_a_warm_check_says_what_a_cold_one_says_and_writes_nothing_in_the_project(project: ProjectCopy) -> None:
    before = sorted(path.relative_to(project.root) for path in project.root.rglob("*"))
    cold = run(project, "check")
    assert cold.code == 0, cold.err
    kept = sorted(path.name for path in cache_of(project).iterdir())
    assert {"inputs", "examples.pickle", "lint-source.pickle", "lint-es.pickle", "lint-pl.pickle",
            "lint-es-whole.pickle", "lint-pl-whole.pickle", "lint-source-whole.pickle", "core.pickle"} <= set(kept)
    inputs = sorted(path.name for path in (cache_of(project) / "inputs").iterdir())
    chapters = sorted(path.stem for path in (project.root / "docs" / "rules").glob("*.yml"))
    # One per input file: the chapters, the 5 other parts (glossary, sources, register,
    # answers, units), and the 3 catalogues of each of 2 languages.
    assert len(inputs) == len(chapters) + 5 + 6
    assert all(any(name.startswith(f"{chapter}-yml-") for name in inputs) for chapter in chapters)
    warm = run(project, "check")
    same(warm, cold)
    same(warm, uncached(project, "check"))
    assert sorted(path.relative_to(project.root) for path in project.root.rglob("*")) == before


def test_each_edit_is_seen_by_the_next_check(book: ProjectCopy) -> None:
    """Every kind of kept result, made stale by an edit: a parsed YAML file, an
    example's outcome, a catalogue, a message's lint findings."""
    assert run(book, "check").code == 0
    # A worked example's stated outcome (its YAML file and its outcome are kept).
    stated = "expect: {kind: monstrous, rider_save: 5, "
    line = book.replace("docs/rules/monstrous-mounts.yml", stated, stated.replace("5", "6"))
    broken = run(book, "check")
    assert broken.code == 1
    assert f"docs/rules/monstrous-mounts.yml:{line}:" in broken.err
    assert "expected rider_save = 6, computed 5" in broken.err
    same(broken, uncached(book, "check"))
    book.replace("docs/rules/monstrous-mounts.yml", stated.replace("5", "6"), stated)
    assert run(book, "check").code == 0
    # A number in a translation (the catalogue and that message's findings are kept).
    line = break_a_polish_number(book)
    broken = run(book, "check")
    assert broken.code == 1
    assert f"locales/pl/LC_MESSAGES/rules.po:{line}:" in broken.err and "numbers: numbers or dice differ" in broken.err
    same(broken, uncached(book, "check"))


def test_a_glossary_edit_relints_messages_that_did_not_change(book: ProjectCopy) -> None:
    """The lint's findings for a message are kept by the message and the glossary:
    forbidding a word makes every unchanged message that uses it an error."""
    assert run(book, "check").code == 0
    book.replace("docs/glossary.yml", "forbidden:\n      es: [espader]", "forbidden:\n      es: [espadach]")
    broken = run(book, "check")
    assert broken.code == 1
    assert "terminology: 'espadach" in broken.err
    same(broken, uncached(book, "check"))


def test_the_glossary_test_fails_when_the_lint_key_leaves_the_glossary_out(book: ProjectCopy,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: with a key that leaves the glossary out, the edit goes
    unseen and the stale, clean findings are given back."""
    from validator.cli import main

    monkeypatch.setattr(lint.LintContext, "key", property(lambda context: resultcache.digest(context.language)))
    assert main(["--project", str(book.root), "check"]) == 0
    book.replace("docs/glossary.yml", "forbidden:\n      es: [espader]", "forbidden:\n      es: [espadach]")
    assert main(["--project", str(book.root), "check"]) == 0  # stale: the flawed key hides the error
    assert main(["--project", str(book.root), "check", "--no-cache"]) == 1


def test_a_damaged_or_foreign_cache_is_only_results_not_kept(book: ProjectCopy) -> None:
    cold = run(book, "check")
    folder = cache_of(book)
    inputs = sorted((folder / "inputs").iterdir())
    for number, path in enumerate(inputs):
        if number % 2:
            path.write_bytes(b"validator-results-1\nnot this tool\n" + pickle.dumps({}))
        else:  # from this tool, but cut short
            path.write_bytes(b"validator-results-1\n" + resultcache.fingerprint() + b"\n"
                             + pickle.dumps({("yaml:Chapter", "x"): 1})[:-3])
    (folder / "examples.pickle").write_bytes(b"\x00garbage")
    (folder / "lint-es.pickle").write_bytes(b"")
    (folder / "lint-pl-whole.pickle").write_bytes(b"validator-results-1\n" + resultcache.fingerprint() + b"\n"
                                                  + pickle.dumps({b"key": ("not", "findings", "at all")}))
    (folder / "core.pickle").write_bytes(b"\x80")
    same(run(book, "check"), cold)
    same(run(book, "check"), cold)


def test_a_cache_folder_that_cannot_be_written_costs_nothing(project: ProjectCopy,
                                                             tmp_path_factory: pytest.TempPathFactory) -> None:
    blocked = tmp_path_factory.mktemp("elsewhere") / "a-file"
    blocked.write_text("not a folder")
    environment = {**os.environ, CACHE_VARIABLE: str(blocked)}
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "validator", "check"], cwd=project.root, env=environment,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and "no problems" in done.stdout


def test_turned_off_nothing_is_kept(project: ProjectCopy, monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.cli import main

    assert main(["--project", str(project.root), "check", "--no-cache"]) == 0
    assert not cache_of(project).exists()
    monkeypatch.setenv(CACHE_VARIABLE, "")
    assert cache_folder(project.root) is None
    assert main(["--project", str(project.root), "check"]) == 0


def test_results_made_by_other_code_are_never_read(tmp_path: Path) -> None:
    bucket = Bucket.at(tmp_path / "b.pickle", b"one")
    bucket.put("key", ("result",))
    bucket.save()
    assert Bucket.at(tmp_path / "b.pickle", b"one").get("key") == ("result",)
    assert Bucket.at(tmp_path / "b.pickle", b"two").get("key") is None


def test_a_bucket_keeps_at_most_twice_what_a_run_uses(tmp_path: Path) -> None:
    path = tmp_path / "b.pickle"
    for run in range(10):
        bucket = Bucket.at(path, b"code")
        for entry in range(100):
            bucket.put((run, entry), "found")  # every run's keys new, as after edits of everything
        bucket.save()
    with path.open("rb") as stream:
        stream.readline(), stream.readline()
        assert len(pickle.load(stream)) <= 200


def test_a_rules_core_outside_the_package_is_part_of_its_outcomes_key(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "clubcore"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text("RULESET = None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    store = Store()
    before = core_digest("clubcore.rules:RULESET")
    assert store.core_digest("clubcore.rules:RULESET") == before
    (package / "rules.py").write_text("RULESET = None  # a rule mended\n")
    assert core_digest("clubcore.rules:RULESET") != before
    assert store.core_digest("clubcore.rules:RULESET") == before  # one command runs one code
    assert Store().core_digest("clubcore.rules:RULESET") != before


def mtimes(project: ProjectCopy) -> dict[str, int]:
    """Every cache file of the project, by its path in the cache, with when it was last written."""
    folder = cache_of(project)
    return {path.relative_to(folder).as_posix(): path.stat().st_mtime_ns
            for path in folder.rglob("*.pickle")}


def rewritten(before: dict[str, int], after: dict[str, int]) -> set[str]:
    return {name for name, written in after.items() if before.get(name) != written}


def test_an_edit_rewrites_only_what_was_made_of_the_edited_file(book: ProjectCopy) -> None:
    assert run(book, "check").code == 0
    before = mtimes(book)
    book.replace("docs/rules/chariots.yml", "    title: ", "    title: Edited ")
    assert run(book, "check").code == 0
    changed = {name for name in rewritten(before, mtimes(book)) if name.startswith("inputs/")}
    assert len(changed) == 1 and changed.pop().startswith("inputs/chariots-yml-")
    assert set(mtimes(book)) == set(before)  # nothing added, nothing dropped


def test_a_renamed_input_file_leaves_nothing_kept_for_its_old_name(book: ProjectCopy) -> None:
    assert run(book, "check").code == 0
    old = book.path("docs/rules/chariots.yml")
    old.rename(old.with_name("war-chariots.yml"))
    assert run(book, "check").code == 0
    inputs = sorted(path.name for path in (cache_of(book) / "inputs").iterdir())
    assert any(name.startswith("war-chariots-yml-") for name in inputs)
    assert not any(name.startswith("chariots-yml-") for name in inputs)


def test_an_english_edit_relints_its_messages_in_every_language_as_a_whole_lint_would(book: ProjectCopy) -> None:
    """The English text of a rule changes: each language's findings are those kept,
    but for that rule's message, linted again (its translation is now out of date);
    the messages' own findings (lint-es.pickle) are not even read."""
    assert run(book, "check").code == 0
    before = mtimes(book)
    book.replace("docs/rules/chariots.yml", "    title: ", "    title: Edited ")
    warm = run(book, "lint")
    assert warm.out.count("the translation was made for an older English text") >= 2  # es and pl
    same(warm, uncached(book, "lint"))
    assert {"lint-es-whole.pickle", "lint-pl-whole.pickle"} <= rewritten(before, mtimes(book))
    assert not {"lint-es.pickle", "lint-pl.pickle"} & rewritten(before, mtimes(book))


def test_the_english_edit_test_fails_when_the_kept_findings_ignore_the_edit(
        book: ProjectCopy, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The test above can fail: findings kept without the messages whose English
    changed linted again are stale, and the lint says less than a whole one."""
    from validator.checks import lintparts
    from validator.cli import main

    def stale(self: lintparts._Part, _workspace: object, earlier: object) -> list[lint.Finding] | None:
        return list(earlier[1]) if isinstance(earlier, tuple) else None

    assert run(book, "check").code == 0
    book.replace("docs/rules/chariots.yml", "    title: ", "    title: Edited ")
    monkeypatch.setattr(lintparts._Part, "updated", stale)
    capsys.readouterr()
    main(["--project", str(book.root), "lint"])
    warm = capsys.readouterr().out
    assert "older English text" not in warm
    assert warm != uncached(book, "lint").out


def test_a_catalogue_edit_leaves_what_was_made_of_the_other_inputs(book: ProjectCopy) -> None:
    assert run(book, "check").code == 0
    before = mtimes(book)
    line = break_a_polish_number(book)
    broken = run(book, "check")
    assert broken.code == 1 and f"locales/pl/LC_MESSAGES/rules.po:{line}:" in broken.err
    same(broken, uncached(book, "check"))
    changed = rewritten(before, mtimes(book))
    assert "lint-pl-whole.pickle" in changed
    assert not {"lint-es-whole.pickle", "lint-source-whole.pickle", "examples.pickle"} & changed


SPANISH = "locales/es/LC_MESSAGES/rules.po"


def translate_anew(project: ProjectCopy, context: str, *lines: str) -> None:
    """Give the Spanish rule catalogue's entry of ``context`` the translation ``lines``
    (``msgstr ""`` and one quoted line each: the entry grows or shrinks)."""
    text = project.read(SPANISH)
    start = text.index(f'msgctxt "{context}"')
    msgstr = text.index("\nmsgstr", start) + 1
    end = text.index("\n\n", msgstr)
    project.write(SPANISH, text[:msgstr] + "\n".join(['msgstr ""', *(f'"{line}"' for line in lines)]) + text[end:])


def edit_two_spanish_entries(project: ProjectCopy) -> None:
    """A number the English lacks in a late entry, linted by a check; then an early
    entry grows two lines, with a number of its own."""
    translate_anew(project, "shooting-at-characters/randomising-hits#example.four-models-two-hits",
                   "Un mago entre 99 arqueros.")
    assert run(project, "check").code == 1
    translate_anew(project, "characters-alone#title", "Personajes ", "en solitario, ", "los 7")


def test_a_few_catalogue_entries_edited_are_linted_alone_as_a_whole_lint_would(book: ProjectCopy) -> None:
    """The catalogue is read by patching its earlier reading, and its findings are
    the kept ones, but for the edited entries', linted again, and every later one's,
    at its new line; the messages' own findings (lint-es.pickle, which a relint message
    by message writes) are left as they were."""
    assert run(book, "check").code == 0
    edit_two_spanish_entries(book)
    before = mtimes(book)
    warm = run(book, "lint").out
    assert "lint-es.pickle" not in rewritten(before, mtimes(book))
    cold = uncached(book, "lint").out
    assert warm == cold
    assert cold.count("numbers") >= 2 and "rules.po" in cold, cold


@pytest.mark.parametrize("broken", ["contexts", "lines"])
def test_the_catalogue_edit_test_fails_when_the_kept_findings_miss_the_edit(
        book: ProjectCopy, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        broken: str) -> None:
    """The test above can fail: an edit recorded without its entries, or without the
    lines it moved, leaves kept findings that a whole lint would not give."""
    from validator import workspace
    from validator.cli import main

    real = workspace.CatalogEdit

    def misrecorded(since: bytes, contexts: frozenset[str], lines_moved: bool) -> object:
        return real(since, frozenset() if broken == "contexts" else contexts,
                    lines_moved and broken != "lines")

    assert run(book, "check").code == 0
    edit_two_spanish_entries(book)
    monkeypatch.setattr(workspace, "CatalogEdit", misrecorded)
    capsys.readouterr()
    main(["--project", str(book.root), "lint"])
    warm = capsys.readouterr().out
    assert warm != uncached(book, "lint").out


CORE_IMPORTED = ("import sys; from validator.cli import main; status = main(['check']); "
                 "print(status, 'whfb6.scenarios' in sys.modules)")


def test_a_check_with_nothing_new_to_run_does_not_import_the_rules_core(project: ProjectCopy) -> None:
    import subprocess
    import sys

    def check() -> str:
        done = subprocess.run([sys.executable, "-c", CORE_IMPORTED], cwd=project.root, capture_output=True,
                              text=True, timeout=300)
        return done.stdout.split("\n")[-2]

    assert check() == "0 True"  # nothing kept yet: every example runs
    project.replace("docs/rules/chariots.yml", "    title: ", "    title: Edited ")
    assert check() == "0 False"  # the examples' outcomes, the charts and the core's facts are kept
    project.replace("docs/rules/chariots.yml", "chart: {over: hits, from: 1, to: 10}",
                    "chart: {over: hits, from: 1, to: 9}")
    assert check() == "0 True"  # a chart to draw again


def test_a_kept_chart_problem_is_reported_again(project: ProjectCopy) -> None:
    project.replace("docs/rules/chariots.yml", "chart: {over: hits, from: 1, to: 10}",
                    "chart: {over: no-such-input, from: 1, to: 10}")
    cold = run(project, "check")
    assert cold.code == 1 and "chart:" in cold.err
    same(run(project, "check"), cold)
    same(cold, uncached(project, "check"))


def test_every_fact_the_lint_consults_is_part_of_its_key() -> None:
    """A check that needs one more fact gets it as a field of the context, and the key
    of the kept findings follows without being told (a field left out of the key would
    keep findings made without the fact after it changed)."""
    from dataclasses import fields, replace

    from validator.checks.lint import LintContext
    from validator.content.loader import load_rulebook
    from validator.content.project import load_project

    root = Path(__file__).resolve().parents[2]
    rulebook = load_rulebook(root, load_project(root))
    context = LintContext.of(rulebook, "es", {"charge": "carga"}, {"rules/a#title": "A"})

    def other(value: object) -> object:
        if isinstance(value, str):
            return f"{value}-other"
        if isinstance(value, dict):
            return {**value, "another": "entry"}
        if value is rulebook.glossary:
            return rulebook.glossary.model_copy(update={"terms": rulebook.glossary.terms[1:]})
        raise AssertionError(f"no other value known for {value!r}: teach this test one")

    for item in fields(context):
        changed = replace(context, **{item.name: other(getattr(context, item.name))})
        if item.name == "current_english":  # each message's own English is in its own key
            assert changed.key == context.key
        else:
            assert changed.key != context.key, item.name
