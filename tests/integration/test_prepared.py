"""Inputs parsed on every core before the load (validator.content.inputcache.prepared):
the same workspace as one core makes, the same problems in the same order, and the
parsing really done in the other processes."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, ProjectCopy

from validator.checks.run import check_workspace
from validator.content import inputcache, loader
from validator.content.project import load_project
from validator.problems import ProblemsFound
from validator.store import Store
from validator.workspace import load_workspace


def counted_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files this process parses as models from now on (a forked one's are not seen)."""
    parsed: list[str] = []
    original = loader.parse_model

    def counting(model: type, data: bytes, shown_as: str) -> object:
        parsed.append(shown_as)
        return original(model, data, shown_as)

    monkeypatch.setattr(loader, "parse_model", counting)
    import validator.workspace as workspace_module
    monkeypatch.setattr(workspace_module, "parse_model", counting)
    return parsed


def test_two_cores_load_what_one_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    alone = load_workspace(ROOT, store=Store(workers=1))
    parsed = counted_parses(monkeypatch)
    shared_store = Store(workers=2)
    shared = load_workspace(ROOT, store=shared_store)
    assert parsed == []  # every file was parsed in the other processes
    assert shared.rulebook == alone.rulebook
    for code, catalog in alone.readings.rule_catalogs.items():
        other = shared.readings.rule_catalogs[code]
        assert [(m.id, m.string, m.context, m.lineno, m.previous_id) for m in catalog] == \
               [(m.id, m.string, m.context, m.lineno, m.previous_id) for m in other]
    shared_report, alone_report = check_workspace(shared), check_workspace(alone)
    assert (shared_report.problems, shared_report.warnings) == (alone_report.problems, alone_report.warnings)
    assert shared_store.inputs.loads == {}  # nothing made in advance is held after the load


def test_one_core_parses_everything_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: on one core nothing is prepared, and the count sees it."""
    parsed = counted_parses(monkeypatch)
    load_workspace(ROOT, store=Store(workers=1))
    chapters, parts = loader.content_files(ROOT, load_project(ROOT))
    assert len(parsed) == len(chapters) + sum(1 for path in parts.values() if path.exists()) == len(chapters) + 5


def test_a_broken_file_is_reported_as_one_core_reports_it(project: ProjectCopy,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    project.replace("docs/rules/monstrous-mounts.yml", "  - id: ", "  - idd: ")
    catalogue = "locales/es/LC_MESSAGES/rules.po"
    project.write(catalogue, project.read(catalogue) + '\nmsgctxt "x"\nmsgid "no closing quote\nmsgstr ""\n')
    found = {}
    for count in ("1", "2"):
        parsed = counted_parses(monkeypatch)
        with pytest.raises(ProblemsFound) as raised:
            load_workspace(project.root, store=Store(workers=int(count)))
        found[count] = [str(problem) for problem in raised.value.problems]
        if count == "2":
            assert parsed == ["docs/rules/monstrous-mounts.yml"]  # parsed again here, to say why
        monkeypatch.undo()
    assert found["1"] == found["2"] and any("monstrous-mounts.yml" in line for line in found["1"])
    assert any(catalogue in line for line in found["1"])


def test_balanced_groups_hold_every_input_once() -> None:
    items = [inputcache.Wanted("k", f"f{size}", b"x" * size, lambda: None) for size in (9, 1, 5, 5, 3, 7)]
    groups = inputcache._balanced(items, 2)
    assert sorted(item.shown_as for group in groups for item in group) == sorted(item.shown_as for item in items)
    assert [sum(len(item.data) for item in group) for group in groups] == [15, 15]


def test_an_input_nobody_asks_for_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(workers=2)
    wanted = [inputcache.Wanted("k", name, name.encode(), lambda name=name: name.upper()) for name in ("a", "b")]
    with inputcache.prepared(wanted, store):
        assert inputcache.made_from(store, "k", "a", b"a", lambda: "made here") == "A"
        assert len(store.inputs.prepared) == 1
    assert store.inputs.loads == {}


def test_a_process_that_dies_leaves_its_share_to_the_load(monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal

    store = Store(workers=2)
    wanted = [inputcache.Wanted("k", "a", b"aa", lambda: os.kill(os.getpid(), signal.SIGKILL)),
              inputcache.Wanted("k", "b", b"b", lambda: "B")]
    with inputcache.prepared(wanted, store):
        assert inputcache.made_from(store, "k", "a", b"aa", lambda: "made here") == "made here"
        assert inputcache.made_from(store, "k", "b", b"b", lambda: "made here") == "B"


def test_each_input_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parsing shared out and the load inside it use one reading of every file."""
    import validator.workspace as workspace_module
    from validator.content import yamlsource

    reads: list[str] = []

    def counting(path: Path, shown_as: str, limit: yamlsource.SizeLimit | None = None) -> bytes:
        reads.append(shown_as)
        return yamlsource.read_input(path, shown_as, limit)

    monkeypatch.setattr(workspace_module, "read_input", counting)
    monkeypatch.setattr(inputcache, "read_input", counting)
    load_workspace(ROOT)
    chapters = [f"docs/rules/{path.name}" for path in (ROOT / "docs" / "rules").glob("*.yml")]
    assert set(chapters) <= set(reads) and "locales/es/LC_MESSAGES/rules.po" in reads
    assert sorted(reads) == sorted(set(reads))


def test_what_was_kept_is_known_by_its_digest_without_opening_it(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the load, each kept input is asked only whether its bytes are those kept:
    what was made of it is opened once, by the load, and not before while every
    other input's is held too (the load's peak memory).  An edited file is made again."""
    from validator.resultcache import ResultCache

    def store() -> Store:
        return Store(ResultCache(tmp_path, "book", b"f" * 32), workers=2)

    first = store()
    assert inputcache.made_from(first, "k", "a", b"one", lambda: ("made", "one")) == ("made", "one")
    assert first.results is not None
    first.results.save()
    opened: list[object] = []
    original = inputcache.resultcache._unsealed

    def unsealing(sealed: bytes, fingerprint: bytes) -> object | None:
        value = original(sealed, fingerprint)
        opened.append(value)
        return value

    monkeypatch.setattr(inputcache.resultcache, "_unsealed", unsealing)
    second = store()
    made_elsewhere = [inputcache.Wanted("k", "a", b"one", lambda: ("made", "again"))]
    with inputcache.prepared(made_elsewhere, second):
        assert opened == [(inputcache.digest_of(b"one"),)]  # the digest alone
        assert inputcache.made_from(second, "k", "a", b"one", lambda: ("made", "again")) == ("made", "one")
    opened.clear()
    edited = store()
    with inputcache.prepared([inputcache.Wanted("k", "a", b"two", lambda: ("made", "two"))], edited):
        assert opened == [(inputcache.digest_of(b"one"),)]
        assert inputcache.made_from(edited, "k", "a", b"two", lambda: ("made", "here")) == ("made", "here")
