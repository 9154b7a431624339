"""Where `validator build` may write: refusals, the marker, modes, leftovers and stable output."""

from __future__ import annotations

import errno
import gzip
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import mkdocs.utils
import pytest
from conftest import ProjectCopy, Run, copy_project

from validator.checks.run import CheckReport, check_workspace
from validator.pipeline import build_sites
from validator.site import output
from validator.site.output import MARKER, OutputError, Staging
from validator.site.reproducible import build_epoch, gzipped, make_reproducible
from validator.workspace import Workspace, load_workspace

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book


def build(project: ProjectCopy, site: Path | str, *arguments: str, umask: int = 0o022) -> Run:
    """``validator build --site-dir SITE ARGUMENTS`` in this process (what is proved is
    where it writes and what it says, not its command line), under ``umask``, which is
    put back afterwards."""
    earlier = os.umask(umask)
    try:
        return project.command("build", "--site-dir", str(site), *arguments)
    finally:
        os.umask(earlier)


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder`` with its bytes (files) or kind (anything else)."""
    entries: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        entries[name] = path.read_bytes() if path.is_file() and not path.is_symlink() else \
            ("link" if path.is_symlink() else "folder")
    return entries


def assert_refused(run: Run, shown: str, *words: str) -> None:
    assert run.code == 2, run.err
    lines = run.err.strip().splitlines()
    assert len(lines) == 1, run.err
    assert shown in lines[0] and "Fix:" in lines[0], lines[0]
    for word in words:
        assert word in lines[0], lines[0]


def siblings(target: Path) -> list[str]:
    return sorted(p.name for p in target.parent.iterdir() if p.name.startswith(f".{target.name}-"))


# --- refusals -------------------------------------------------------------------------------------------


def test_a_folder_holding_files_of_the_users_is_refused_and_kept(project: ProjectCopy, tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    (folder / "drafts").mkdir(parents=True)
    (folder / "rules.txt").write_text("my own notes\n", encoding="utf-8")
    (folder / "drafts" / "a.md").write_text("draft\n", encoding="utf-8")
    before = snapshot(folder)
    assert_refused(build(project, folder), str(folder), "rules.txt", "did not make")
    assert snapshot(folder) == before
    assert siblings(folder) == []


def test_a_file_is_refused_and_kept(project: ProjectCopy, tmp_path: Path) -> None:
    target = tmp_path / "site"
    target.write_text("not a folder\n", encoding="utf-8")
    assert_refused(build(project, target), str(target), "is a file")
    assert target.read_text(encoding="utf-8") == "not a folder\n"
    assert siblings(target) == []


def test_dev_null_is_refused_and_stays_a_device(project: ProjectCopy) -> None:
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)
    assert_refused(build(project, "/dev/null"), "/dev/null", "character device")
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)
    assert siblings(Path("/dev/null")) == []


@pytest.mark.parametrize(("site_dir", "words"), [
    (".", "holds the project folder"),
    ("..", "holds the project folder"),
    ("docs", "holds the project's input"),
    ("locales", "holds the project's input"),
    ("docs/rules/site", "inside the project's input folder"),
])
def test_the_project_its_ancestors_and_its_inputs_are_refused(project: ProjectCopy, site_dir: str,
                                                              words: str) -> None:
    before = snapshot(project.root)
    assert_refused(build(project, site_dir), str(project.root), words)
    assert snapshot(project.root) == before


def test_a_symbolic_link_is_refused_and_kept(project: ProjectCopy, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("keep\n", encoding="utf-8")
    link = tmp_path / "site"
    link.symlink_to(elsewhere)
    assert_refused(build(project, link), str(link), "symbolic link", str(elsewhere))
    assert link.is_symlink() and os.readlink(link) == str(elsewhere)
    assert snapshot(elsewhere) == {"keep.txt": b"keep\n"}


def test_a_site_built_before_the_marker_is_refused_with_how_to_delete_it(project: ProjectCopy,
                                                                         built_site: Path,
                                                                         tmp_path: Path) -> None:
    old = tmp_path / "site"
    shutil.copytree(built_site, old)
    (old / MARKER).unlink()
    before = snapshot(old)
    assert_refused(build(project, old), str(old), "before sites carried", "rm -r")
    assert snapshot(old) == before


def test_serve_refuses_what_build_refuses(project: ProjectCopy, tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "keep.txt").write_text("keep\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "validator", "serve", "--port", "0", "--site-dir", str(folder)],
                          cwd=project.root, capture_output=True, text=True, timeout=60)
    assert_refused(Run(done.returncode, done.stdout, done.stderr), str(folder), "keep.txt")
    assert snapshot(folder) == {"keep.txt": b"keep\n"}


def test_a_bad_source_date_epoch_is_refused(project: ProjectCopy, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    run = build(project, tmp_path / "site")
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1, run.err
    assert "SOURCE_DATE_EPOCH" in run.err and "Fix:" in run.err and "Traceback" not in run.err
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("value", ["", "yesterday", "-1", "1.5", str(2 ** 32)])
def test_build_epoch_accepts_only_whole_seconds(value: str) -> None:
    with pytest.raises(OutputError) as refused:
        build_epoch({"SOURCE_DATE_EPOCH": value})
    assert refused.value.exit_code == 2
    assert build_epoch({"SOURCE_DATE_EPOCH": "1000000000"}) == 1000000000
    assert build_epoch({}) is None


# --- a place that cannot be written ---------------------------------------------------------------------


def test_an_unwritable_place_is_one_line_and_exit_1(project: ProjectCopy) -> None:
    target = Path("/proc/validator-site")
    run = build(project, target)
    assert run.code == 1, run.err
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.err, run.err
    assert lines[0].startswith(f"{target}: cannot write the site here") and "Fix:" in lines[0]
    assert not target.exists() and siblings(target) == []


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Workspace, CheckReport]]:
    """A private copy of the bundled project whose sitemap lists pages (site_url set), loaded and checked."""
    root = copy_project(tmp_path_factory.mktemp("project"))
    mkdocs_config = root / "mkdocs.yml"
    mkdocs_config.write_text(mkdocs_config.read_text(encoding="utf-8") + "\nsite_url: https://example.org/rules/\n",
                             encoding="utf-8")
    workspace = load_workspace(root)
    report = check_workspace(workspace)
    assert report.ok
    yield workspace, report


def test_a_read_only_file_system_leaves_the_old_site_and_no_staging(checked: tuple[Workspace, CheckReport],
                                                                    tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    site.mkdir()
    output.write_marker(site)
    (site / "index.html").write_text("the old site\n", encoding="utf-8")
    before = snapshot(site)

    def read_only(staging: Staging) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(staging.site / "index.html"))

    monkeypatch.setattr("validator.pipeline.finish", read_only)
    with pytest.raises(OutputError) as failed:
        build_sites(*checked, site)
    assert failed.value.exit_code == 1
    assert "\n" not in failed.value.line
    assert failed.value.line.startswith(f"{site}: cannot write the site here (Read-only file system")
    assert "Fix: choose a --site-dir on a writable disk" in failed.value.line
    assert snapshot(site) == before
    assert siblings(site) == []


# --- what a build writes --------------------------------------------------------------------------------


def test_sites_get_plain_modes_the_marker_and_rebuild_in_place(project: ProjectCopy, tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()  # an empty folder is a fine place to build
    # One language's site: every file of every site is written by the same steps.
    assert build(project, site, "--language", "pl", umask=0o022).code == 0
    assert (site / MARKER).is_file() and "validator build" in (site / MARKER).read_text(encoding="utf-8")
    modes = {stat.S_IMODE(p.stat().st_mode) for p in [site, *site.rglob("*")] if p.is_dir()}
    assert modes == {0o755}
    assert {stat.S_IMODE(p.stat().st_mode) for p in site.rglob("*") if p.is_file()} == {0o644}
    # A marked site is rebuilt in place; the modes follow the umask like any mkdir.
    run = build(project, site, "--language", "pl", umask=0o027)
    assert run.code == 0, run.err
    assert {stat.S_IMODE(p.stat().st_mode) for p in [site, *site.rglob("*")] if p.is_dir()} == {0o750}
    assert {stat.S_IMODE(p.stat().st_mode) for p in site.rglob("*") if p.is_file()} == {0o640}
    assert siblings(site) == []


def _on_day(monkeypatch: pytest.MonkeyPatch, day: datetime) -> None:
    class Fixed(datetime):
        @classmethod
        def now(cls, tz: object = None) -> Fixed:  # type: ignore[override]
            return cls.fromtimestamp(day.timestamp(), UTC)

    monkeypatch.setattr(mkdocs.utils, "datetime", Fixed)


def test_builds_on_different_days_are_byte_identical(checked: tuple[Workspace, CheckReport], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    _on_day(monkeypatch, datetime(2024, 3, 1, 12, tzinfo=UTC))
    build_sites(*checked, tmp_path / "first")
    _on_day(monkeypatch, datetime(2025, 7, 9, 18, tzinfo=UTC))
    build_sites(*checked, tmp_path / "second")
    first, second = snapshot(tmp_path / "first"), snapshot(tmp_path / "second")
    assert list(first) == list(second)
    for name in first:
        assert first[name] == second[name], name
    sitemap = (tmp_path / "first" / "en" / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.org/rules/" in sitemap and "<lastmod>" not in sitemap

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000000000")
    build_sites(*checked, tmp_path / "dated", "es")  # the date is given to every language alike
    dated = (tmp_path / "dated" / "es" / "sitemap.xml").read_bytes()
    assert b"<lastmod>2001-09-09</lastmod>" in dated
    packed = (tmp_path / "dated" / "es" / "sitemap.xml.gz").read_bytes()
    assert int.from_bytes(packed[4:8], "little") == 1000000000
    assert gzip.decompress(packed) == dated


def test_make_reproducible_pins_or_drops_the_date(tmp_path: Path) -> None:
    text = (b'<urlset>\n    <url>\n         <loc>https://example.org/</loc>\n'
            b"         <lastmod>2026-11-30</lastmod>\n    </url>\n</urlset>\n")
    for epoch, kept in ((None, False), (86400, True)):
        language = tmp_path / str(epoch) / "en"
        language.mkdir(parents=True)
        (language / "sitemap.xml").write_bytes(text)
        (language / "sitemap.xml.gz").write_bytes(gzip.compress(text, mtime=1764460800))
        make_reproducible(language.parent, epoch)
        written = (language / "sitemap.xml").read_bytes()
        assert (b"<lastmod>" in written) is kept
        assert b"<loc>https://example.org/</loc>" in written
        packed = (language / "sitemap.xml.gz").read_bytes()
        assert gzip.decompress(packed) == written
        assert int.from_bytes(packed[4:8], "little") == (epoch or 0)
    assert gzipped(b"x", 0) == gzipped(b"x", 0)


# --- leftovers of killed builds and the swap ------------------------------------------------------------


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _leftover(target: Path, kind: str, pid: int, token: str = "0123abcd", *, marked: bool,
              content: bool = True) -> Path:
    folder = target.with_name(f".{target.name}-{kind}-{pid}-{token}")
    folder.mkdir()
    if marked:
        output.write_marker(folder)
    if content:
        (folder / "site" / "en").mkdir(parents=True)
        (folder / "site" / "en" / "index.html").write_text("half\n", encoding="utf-8")
    return folder


def test_recover_removes_only_stale_leftovers_that_are_ours(tmp_path: Path) -> None:
    target = tmp_path / "site"
    target.mkdir()
    output.write_marker(target)
    dead = _dead_pid()
    stale = [_leftover(target, "new", dead, "0000000a", marked=True),
             _leftover(target, "old", dead, "0000000b", marked=True),
             _leftover(target, "new", dead, "0000000c", marked=False, content=False)]
    unmarked = _leftover(target, "new", dead, "0000000d", marked=False)
    other_site = _leftover(target.with_name("other"), "new", dead, marked=True)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        running = _leftover(target, "new", sleeper.pid, marked=True)
        output.recover(target)
        remaining = siblings(target)
    finally:
        sleeper.kill()
        sleeper.wait()
    assert remaining == sorted([unmarked.name, running.name]), "only stale, marked or empty leftovers go"
    assert other_site.is_dir(), "leftovers of builds into another folder are that build's business"
    assert all(not path.exists() for path in stale)
    assert (target / MARKER).is_file()


def test_an_interrupted_removal_is_finished_later(tmp_path: Path) -> None:
    target = tmp_path / "site"
    leftover = _leftover(target, "new", _dead_pid(), marked=True)
    shutil.rmtree(leftover / "site" / "en")  # as if killed while removing: only the marker and some folders left
    output.recover(target)
    assert siblings(target) == []
    assert not target.exists()


def test_recover_puts_back_a_site_set_aside_by_a_half_done_swap(tmp_path: Path) -> None:
    target = tmp_path / "site"
    aside = target.with_name(f".site-old-{_dead_pid()}-0123abcd")
    aside.mkdir()
    output.write_marker(aside)
    (aside / "index.html").write_text("the old site\n", encoding="utf-8")
    output.recover(target)
    assert (target / "index.html").read_text(encoding="utf-8") == "the old site\n"
    assert output.is_marked(target) and siblings(target) == []


@pytest.mark.parametrize("exchange", [True, False])
def test_swap_replaces_the_old_site_and_keeps_it_in_staging(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            exchange: bool) -> None:
    target = tmp_path / "site"
    target.mkdir()
    output.write_marker(target)
    (target / "index.html").write_text("old\n", encoding="utf-8")
    staged = Staging(tmp_path / ".site-new-1-0123abcd")
    staged.site.mkdir(parents=True)
    output.write_marker(staged.site)
    (staged.site / "index.html").write_text("new\n", encoding="utf-8")
    if not exchange:
        monkeypatch.setattr(output, "_exchange", lambda first, second: False)
    output.swap(staged, target)
    assert (target / "index.html").read_text(encoding="utf-8") == "new\n"
    assert (staged.site / "index.html").read_text(encoding="utf-8") == "old\n"
    assert siblings(target) == [staged.folder.name]


def test_the_exchange_swaps_two_folders_in_one_step(tmp_path: Path) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("renameat2 is Linux's")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one").touch()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "two").touch()
    assert output._exchange(tmp_path / "a", tmp_path / "b")
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["two"]
    assert [p.name for p in (tmp_path / "b").iterdir()] == ["one"]


def test_swap_refuses_a_folder_that_gained_files_of_the_users_meanwhile(tmp_path: Path) -> None:
    target = tmp_path / "site"
    target.mkdir()  # empty when the build started...
    (target / "notes.txt").write_text("mine\n", encoding="utf-8")  # ... but no longer at the swap
    staged = Staging(tmp_path / ".site-new-1-0123abcd")
    staged.site.mkdir(parents=True)
    with pytest.raises(OutputError) as refused:
        output.swap(staged, target)
    assert refused.value.exit_code == 2 and "notes.txt" in refused.value.line
    assert (target / "notes.txt").read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize(("code", "fix"), [(errno.EROFS, "writable disk"), (errno.EACCES, "you may write to"),
                                           (errno.ENOSPC, "disk space"), (errno.EXDEV, "mount point")])
def test_a_failed_write_says_how_to_fix_it(tmp_path: Path, code: int, fix: str) -> None:
    target = tmp_path / "site"
    line = output.unwritable(target, OSError(code, os.strerror(code), str(target))).line
    assert line.startswith(f"{target}: cannot write the site here ({os.strerror(code)})")
    assert fix in line.split("Fix:")[1]
