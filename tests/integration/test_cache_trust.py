"""The results cache holds pickles, which run code when read: it is used only in a
folder no one else can fill, and never follows a symbolic link out of itself.  A
refused folder is one warning line; the command runs on without the cache."""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from unittest import mock

import pytest
from conftest import ProjectCopy, Run

from validator.resultcache import CACHE_VARIABLE, cache_folder


class _Planted:
    """A pickle that leaves a mark when read, as another user's planted one could run anything."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.makedirs, (str(self.mark),))


def _check(project: ProjectCopy, cache: Path | str, **more: str) -> Run:
    """``validator check`` in this process, with the cache at ``cache``: what is tested
    is what the command reads and writes there, not its command line."""
    with mock.patch.dict(os.environ, {CACHE_VARIABLE: str(cache), **more}):
        return project.command("check")


def _plant(folder: Path, mark: Path) -> None:
    """Replace every cache file's pickle by one that leaves ``mark``, keeping its header
    (the fingerprint is no secret: anyone with the same code can compute it)."""
    for path in folder.rglob("*.pickle"):
        with path.open("rb") as stream:
            header = stream.readline() + stream.readline()
        path.write_bytes(header + pickle.dumps(_Planted(mark)))


@pytest.fixture
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cache") / "validator"
    root.mkdir(mode=0o700)
    return root


def test_the_planted_pickle_would_run(project: ProjectCopy, cache: Path, tmp_path_factory: pytest.TempPathFactory
                                      ) -> None:
    """The attack the refusals below stop: a pickle in a trusted folder is run."""
    mark = tmp_path_factory.mktemp("marks") / "ran"
    assert _check(project, cache).code == 0
    _plant(cache, mark)
    _check(project, cache)
    assert mark.exists()


@pytest.mark.parametrize("damage", ["world-writable", "group-writable", "another-owner"])
def test_a_folder_others_can_fill_is_not_read(project: ProjectCopy, cache: Path, damage: str,
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    mark = tmp_path_factory.mktemp("marks") / "ran"
    assert _check(project, cache).code == 0
    _plant(cache, mark)
    if damage == "another-owner":
        if os.getuid() != 0:
            pytest.skip("only root can give a folder to another user")
        os.chown(cache, 4321, 4321)
    else:
        cache.chmod(0o777 if damage == "world-writable" else 0o770)
    done = _check(project, cache)
    assert done.code == 0, done.err
    assert not mark.exists()
    owner = "another user owns it" if damage == "another-owner" else "others can write it"
    assert done.err == (f"validator: warning: results not kept: the cache folder {cache} is not safe to read "
                        f"({cache}: {owner}), and its files are run as code. Fix: use a folder of your own "
                        f"(chmod go-w {cache}, or set {CACHE_VARIABLE})\n")


def test_a_relative_cache_folder_writes_nothing_into_the_project(project: ProjectCopy) -> None:
    before = sorted(path for path in project.root.rglob("*"))
    done = _check(project, ".")
    assert done.code == 0
    assert done.err.startswith("validator: warning: results not kept: VALIDATOR_CACHE_DIR=. is a relative path")
    assert len(done.err.splitlines()) == 1
    assert sorted(path for path in project.root.rglob("*")) == before


def test_a_family_folder_linked_elsewhere_is_neither_read_nor_emptied(project: ProjectCopy, cache: Path,
                                                                       tmp_path_factory: pytest.TempPathFactory
                                                                       ) -> None:
    assert _check(project, cache).code == 0
    folder = cache_folder(project.root, {CACHE_VARIABLE: str(cache)})
    assert folder is not None
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (folder / "inputs").rename(elsewhere / "inputs")
    (folder / "inputs").symlink_to(elsewhere / "inputs")
    kept = sorted((elsewhere / "inputs").iterdir())
    mark = tmp_path_factory.mktemp("marks") / "ran"
    _plant(elsewhere / "inputs", mark)
    (elsewhere / "inputs" / "someone-elses.pickle").write_bytes(b"theirs")
    done = _check(project, cache)
    assert done.code == 0, done.err
    assert not mark.exists()
    assert (elsewhere / "inputs" / "someone-elses.pickle").read_bytes() == b"theirs"
    assert sorted((elsewhere / "inputs").iterdir()) == sorted([*kept, elsewhere / "inputs" / "someone-elses.pickle"])


def test_without_user_ids_nothing_is_kept_and_nothing_is_said(
        project: ProjectCopy, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no user ids to prove a folder is this user's alone: neither the results
    nor the search's lemmas are kept there, and the command runs on as without a cache."""
    from validator.resultcache import trusted_root
    from validator.store import Store, opened

    tmp_path = tmp_path_factory.mktemp("outside")  # the project's copy fills its own tmp_path
    monkeypatch.delattr(os, "getuid")
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))
    assert trusted_root(project.root) is None
    with opened(project.root, keeps_results=True, no_cache=False, workers=1) as store:
        assert store.results is None and store.lemmas is None
    assert Store().lemmas is None
    assert not (tmp_path / "cache").exists()
