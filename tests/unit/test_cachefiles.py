"""The cache's files are reached through folder handles (validator.cachefiles): a link at
any depth below the root, or a folder others may write, is refused for reading and
writing alike, and what it leads to is left as it was; a result this code did not seal
is never handed out (validator.resultcache.Bucket)."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from validator import cachefiles
from validator.resultcache import FORMAT, Bucket

pytestmark = pytest.mark.unit


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    return folder


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    folder = tmp_path / "elsewhere"
    folder.mkdir(mode=0o700)
    (folder / "theirs.pickle").write_bytes(b"theirs")
    return folder


def tree(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def write(root: Path, parts: tuple[str, ...], name: str, data: bytes) -> bool:
    with cachefiles.folder(root, parts, make=True) as handle:
        return handle is not None and cachefiles.write(handle, name, data)


def read(root: Path, parts: tuple[str, ...], name: str) -> bytes | None:
    with cachefiles.folder(root, parts, make=False) as handle:
        return None if handle is None else cachefiles.read(handle, name, 2**20)


def test_files_are_written_and_read_below_the_root(root: Path) -> None:
    assert write(root, ("book-1", "inputs"), "a.pickle", b"one")
    assert read(root, ("book-1", "inputs"), "a.pickle") == b"one"
    assert (root / "book-1" / "inputs").stat().st_mode & 0o777 == 0o700
    assert (root / "book-1" / "inputs" / "a.pickle").stat().st_mode & 0o777 == 0o600
    assert write(root, ("book-1", "inputs"), "a.pickle", b"two")
    assert read(root, ("book-1", "inputs"), "a.pickle") == b"two"
    assert sorted(os.listdir(root / "book-1" / "inputs")) == ["a.pickle"]  # no temporary file left


@pytest.mark.parametrize("depth", ["book folder", "family folder", "file"])
def test_a_link_at_any_depth_is_neither_read_nor_written_through(root: Path, elsewhere: Path, depth: str) -> None:
    assert write(root, ("book-1", "inputs"), "theirs.pickle", b"ours")
    place = {"book folder": root / "book-1", "family folder": root / "book-1" / "inputs",
             "file": root / "book-1" / "inputs" / "theirs.pickle"}[depth]
    if place.is_dir():
        for path in sorted(place.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
        place.rmdir()
        place.symlink_to(elsewhere)
    else:
        place.unlink()
        place.symlink_to(elsewhere / "theirs.pickle")
    before = tree(elsewhere)
    assert read(root, ("book-1", "inputs"), "theirs.pickle") is None
    write(root, ("book-1", "inputs"), "theirs.pickle", b"written through the link")
    write(root, ("book-1", "inputs"), "new.pickle", b"written through the link")
    with cachefiles.folder(root, ("book-1", "inputs"), make=False) as handle:
        if handle is not None:
            cachefiles.remove(handle, "theirs.pickle")
    assert tree(elsewhere) == before


def test_the_root_itself_may_be_a_link(tmp_path: Path, root: Path) -> None:
    """A cache kept on another disk: the root is vetted where it leads (cache_refusal)."""
    link = tmp_path / "cache-link"
    link.symlink_to(root)
    assert write(link, ("book-1",), "a.pickle", b"one")
    assert (root / "book-1" / "a.pickle").read_bytes() == b"one"


def test_a_folder_others_may_write_is_refused(root: Path) -> None:
    assert write(root, ("book-1",), "a.pickle", b"one")
    (root / "book-1").chmod(0o777)
    assert read(root, ("book-1",), "a.pickle") is None
    assert not write(root, ("book-1",), "b.pickle", b"two")
    assert not (root / "book-1" / "b.pickle").exists()


def test_a_file_others_may_write_or_a_fifo_is_not_read(root: Path) -> None:
    assert write(root, ("book-1",), "a.pickle", b"one")
    (root / "book-1" / "a.pickle").chmod(0o666)
    assert read(root, ("book-1",), "a.pickle") is None
    os.mkfifo(root / "book-1" / "fifo.pickle", 0o600)
    assert read(root, ("book-1",), "fifo.pickle") is None  # not waited on


def planted(path: Path, value: object) -> None:
    """The bucket's file with its two header lines and every entry replaced by ``value``."""
    data = path.read_bytes()
    header = b"".join(data.splitlines(keepends=True)[:2])
    entries = pickle.loads(data[len(header):])
    path.write_bytes(header + pickle.dumps(dict.fromkeys(entries, value)))


@pytest.mark.parametrize("damage", [("junk", 1, None), pickle.dumps(("junk", 1, None)), b"\x00" * 40,
                                    b"short", "not bytes"])
def test_an_entry_this_code_did_not_seal_is_a_result_not_kept(root: Path, damage: object) -> None:
    bucket = Bucket.at(root / "b.pickle", b"code")
    bucket.put("key", ("findings", 2))
    bucket.save()
    assert Bucket.at(root / "b.pickle", b"code").get("key") == ("findings", 2)
    planted(root / "b.pickle", damage)
    again = Bucket.at(root / "b.pickle", b"code")
    assert again.get("key") is None
    assert again.made("key", lambda: ("made again",)) == ("made again",)
    again.save()
    assert Bucket.at(root / "b.pickle", b"code").get("key") == ("made again",)


def test_a_file_cut_short_or_of_another_format_is_empty(root: Path) -> None:
    bucket = Bucket.at(root / "b.pickle", b"code")
    bucket.put("key", ("findings",))
    bucket.save()
    data = (root / "b.pickle").read_bytes()
    assert data.startswith(FORMAT + b"\ncode\n")
    for damaged in (data[: len(data) // 2], data.replace(FORMAT, b"validator-results-0"), b""):
        (root / "b.pickle").write_bytes(damaged)
        assert Bucket.at(root / "b.pickle", b"code").get("key") is None
