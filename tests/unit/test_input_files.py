"""Inputs are read only as regular files, within their kind's size limit: the limits
themselves (a file of exactly the limit is read, one byte more is refused), and the
inputs MkDocs or a build page would otherwise open on their own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, ProjectCopy

from validator.cli import main
from validator.content.project import Project
from validator.content.yamlsource import CATALOG_LIMIT, INPUT_LIMIT, SizeLimit, read_input
from validator.problems import ProblemsFound

KINDS = [("docs/rules/chapter.yml", INPUT_LIMIT), ("docs/glossary.yml", INPUT_LIMIT), ("mkdocs.yml", INPUT_LIMIT),
         ("docs/guide/translators.es.md", INPUT_LIMIT), ("locales/es/LC_MESSAGES/rules.po", CATALOG_LIMIT),
         ("locales/rules.pot", CATALOG_LIMIT)]


def _sparse(path: Path, size: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        file.truncate(size)
    return path


@pytest.mark.parametrize(("name", "limit"), KINDS, ids=[name for name, _ in KINDS])
def test_a_file_of_exactly_the_limit_is_read(tmp_path: Path, name: str, limit: SizeLimit) -> None:
    assert len(read_input(_sparse(tmp_path / name, limit.bytes), name)) == limit.bytes


@pytest.mark.parametrize(("name", "limit"), KINDS, ids=[name for name, _ in KINDS])
def test_one_byte_over_the_limit_is_refused(tmp_path: Path, name: str, limit: SizeLimit) -> None:
    with pytest.raises(ProblemsFound) as found:
        read_input(_sparse(tmp_path / name, limit.bytes + 1), name)
    assert [str(problem) for problem in found.value.problems] == [
        f"{name}: the file is larger than {limit.bytes // 2**20} MiB (the limit for {limit.of}). Fix: {limit.fix}"]


def test_the_manual_gives_the_limits_the_code_has() -> None:
    page = (ROOT / "manual" / "docs" / "reference" / "limits.md").read_text(encoding="utf-8")
    assert f"over {CATALOG_LIMIT.bytes // 2**20} MiB" in page
    assert f"over {INPUT_LIMIT.bytes // 2**20} MiB" in page


def test_a_device_is_refused_before_it_is_read() -> None:
    """/dev/zero says it holds nothing and never ends: it is not read at all."""
    with pytest.raises(ProblemsFound) as found:
        read_input(Path("/dev/zero"), "zero.yml")
    assert "is a character device, not a regular file" in str(found.value)


def test_a_fifo_inherited_by_mkdocs_yml_is_one_line(project: ProjectCopy) -> None:
    project.replace("mkdocs.yml", "site_name:", "INHERIT: waiting.yml\nsite_name:")
    os.mkfifo(project.path("waiting.yml"))
    done = subprocess.run([sys.executable, "-m", "validator", "--project", str(project.root), "check"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert ("waiting.yml (inherited by mkdocs.yml): is a FIFO (named pipe), not a regular file. Fix: replace it "
            "by the file itself" in done.stderr), done.stderr


def test_a_fifo_as_the_translators_guide_is_one_line(project: ProjectCopy, tmp_path: Path) -> None:
    guide = project.path("docs/guide/translators.es.md")
    guide.unlink(missing_ok=True)
    os.mkfifo(guide)
    done = subprocess.run([sys.executable, "-m", "validator", "--project", str(project.root), "build",
                           "--site-dir", str(tmp_path / "site")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "docs/guide/translators.es.md: is a FIFO (named pipe), not a regular file. Fix: " in done.stderr


def test_a_content_folder_linked_out_of_the_project_is_refused(project: ProjectCopy,
                                                               tmp_path_factory: pytest.TempPathFactory,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path_factory.mktemp("elsewhere") / "locales"
    shutil.move(project.path("locales"), outside)
    project.path("locales").symlink_to(outside)
    pot = outside / "rules.pot"
    before = pot.read_bytes()
    line = project.replace("rulebook.yml", "locales_dir: locales", "locales_dir: locales")
    code = main(["--project", str(project.root), "i18n", "update"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.splitlines()[0] == (
        f"rulebook.yml:{line}: 'locales_dir' (locales) leads outside the project folder. Fix: give a path inside the "
        "project, relative to rulebook.yml (a symbolic link there may not lead out either)")
    assert pot.read_bytes() == before


def test_the_extractor_babel_calls_reads_a_chapter_within_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    """``pybabel extract`` opens the file itself: the extractor still reads no more
    than the limit, and refuses a larger chapter in one line."""
    import io

    from validator.catalogs.extract import extract_rulebook

    class Endless(io.RawIOBase):
        name = "docs/rules/endless.yml"
        read_so_far = 0

        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            assert size >= 0, "read without a bound"
            self.read_so_far += size
            return b"#" * size

    endless = Endless()
    with pytest.raises(SystemExit):
        list(extract_rulebook(endless, {}, (), {}))  # type: ignore[arg-type]
    assert endless.read_so_far == INPUT_LIMIT.bytes + 1
    assert capsys.readouterr().err.startswith("docs/rules/endless.yml: an input file larger than 4 MiB. Fix: ")


def _book(root: Path, chapter_bytes: int, limits: str = "") -> Project:
    """A project file and one chapter of ``chapter_bytes`` bytes (a YAML comment), as
    the limits read them: the project is validated, the chapter only measured."""
    from validator.content.project import load_project

    (root / "rulebook.yml").write_text(
        "title: A book\nsource_language: en\nlanguages: [{code: en, name: English}]\nruleset: core:RULESET\n"
        + limits, encoding="utf-8")
    (root / "docs" / "rules").mkdir(parents=True)
    (root / "docs" / "rules" / "big.yml").write_bytes(b"#" * chapter_bytes)
    return load_project(root)


def test_a_catalogue_may_grow_with_the_book_and_no_further(tmp_path: Path) -> None:
    """The catalogue limit is the default for a small book, and in proportion to the
    book's YAML beyond it: a catalogue a few times its book's size is read, one
    larger than the proportion is refused while it is read, naming the setting."""
    from validator.content.limits import CATALOGUE_PER_SOURCE_BYTE, book_limits

    small = tmp_path / "small"
    small.mkdir()
    assert book_limits(small, _book(small, 10_000)).catalogue == CATALOG_LIMIT
    large = tmp_path / "large"
    large.mkdir()
    limits = book_limits(large, _book(large, 2 * 2**20))  # a chapter of 2 MiB: 32 MiB of catalogue
    assert limits.catalogue.bytes == CATALOGUE_PER_SOURCE_BYTE * 2 * 2**20 > CATALOG_LIMIT.bytes
    assert limits.input == INPUT_LIMIT
    catalogue = _sparse(large / "locales" / "es" / "LC_MESSAGES" / "rules.po", 20 * 2**20)
    assert len(read_input(catalogue, "rules.po", limits.of(catalogue))) == 20 * 2**20
    _sparse(catalogue, limits.catalogue.bytes + 1)
    with pytest.raises(ProblemsFound) as found:
        read_input(catalogue, "rules.po", limits.of(catalogue))
    assert "the file is larger than 32 MiB" in str(found.value) and "limits: catalogue_mib" in str(found.value)


def test_a_book_sets_its_limits_in_the_rulebook(tmp_path: Path) -> None:
    from validator.content.limits import book_limits

    limits = book_limits(tmp_path, _book(tmp_path, 1_000, "limits: {input_mib: 8, catalogue_mib: 64}\n"))
    assert (limits.input.bytes, limits.catalogue.bytes) == (8 * 2**20, 64 * 2**20)
    chapter = _sparse(tmp_path / "docs" / "rules" / "chapter.yml", 6 * 2**20)
    assert len(read_input(chapter, "chapter.yml", limits.of(chapter))) == 6 * 2**20
    with pytest.raises(ProblemsFound) as found:
        read_input(chapter, "chapter.yml")  # without the book's limits: the default
    assert "larger than 4 MiB" in str(found.value)


@pytest.mark.parametrize("written", ["limits: {catalogue_mib: 0}", "limits: {input_mib: 2048}",
                                     "limits: {catalogue_mib: '64'}", "limits: {pages: 3}"])
def test_a_limit_out_of_range_is_refused_at_its_line(tmp_path: Path, written: str) -> None:
    with pytest.raises(ProblemsFound) as found:
        _book(tmp_path, 10, written + "\n")
    [problem] = found.value.problems
    assert (problem.file, problem.line) == ("rulebook.yml", 5), problem


def test_two_threads_loading_at_once_each_record_their_own_reads(tmp_path: Path) -> None:
    """The preview loads the book in two threads at once: the quick update of a save
    and the background build.  A load's reads are its own, whatever the other does
    meanwhile (a load whose reads went to the other's record failed with a KeyError)."""
    import threading

    from validator.content.yamlsource import reads_recorded

    for name in ("first.yml", "second.yml", "other.yml"):
        (tmp_path / name).write_text("a: 1\n", encoding="utf-8")
    entered, left = threading.Event(), threading.Event()
    found: dict[str, set[str]] = {}

    def other() -> None:
        with reads_recorded() as read:
            entered.set()
            read_input(tmp_path / "other.yml", "other.yml")
            left.wait(5)
        found["other"] = set(read)

    with reads_recorded() as read:
        read_input(tmp_path / "first.yml", "first.yml")
        thread = threading.Thread(target=other)
        thread.start()
        assert entered.wait(5)
        read_input(tmp_path / "second.yml", "second.yml")  # while the other thread records its own
        left.set()
        thread.join(5)
        found["this"] = set(read)
    assert found == {"this": {"first.yml", "second.yml"}, "other": {"other.yml"}}
