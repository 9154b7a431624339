"""Incremental builds: what of the last build of a site still holds, page by page.

Each build keeps, with the command's store, a :class:`SiteRecord` of the site it wrote:
per language, the *frame* every page of the language depends on (see
:func:`book_frame`, :func:`frame_digest`), what each unit of pages read (:mod:`validator.site.reads`) with
the key those reads gave, and every file of the language's folder as it was left.

The next build of the same folder renders a language again in whole only when its
frame changed or its folder is not as the build left it; otherwise only the units
whose key changed are rendered, each page passed alone through MkDocs with the same
theme (:mod:`validator.site.singlepage`), every other file taken over from the site
in place.  A unit's key is made of its reads' values in the new book: the digest of
each chapter file it read, each catalogue entry it translated, each "referred by"
list it showed; or, for a unit that read the whole book, every input's digest.

Everything a page reads that is not a chapter, a rule catalogue entry or a referrers
list is in the frame: every other input file, the book's outline (chapters, rules
and aliases, in order), the language's MkDocs configuration but its folders, the
code of this package and of the rules core, and the versions of what renders the
pages.  The result is the site a cold build makes, byte for byte (a test builds it
both ways after an edit of each kind).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Generic, TypeVar

from validator.catalogs.po import RULES_DOMAIN, catalog_path
from validator.content.mkdocs_config import config_chain
from validator.resultcache import digest
from validator.site.previews import referrers
from validator.site.reads import PageReads, Reads
from validator.site.sections import guide_path
from validator.site.uptodate import site_files
from validator.store import Store
from validator.workspace import Workspace

T = TypeVar("T")


RENDERERS = ("mkdocs", "mkdocs-material", "Markdown", "pymdown-extensions", "Jinja2", "MarkupSafe", "Babel")
"""The libraries whose versions a page's HTML depends on besides this package's code."""

FileState = tuple[int, int, int]
"""A file of a built site as the build left it: size, modification time (ns), inode."""


@dataclass(frozen=True)
class UnitRecord:
    """What a unit of pages (or a value, see :class:`KeptValue`) read, and the key those
    reads gave when it was made."""

    key: bytes
    reads: PageReads


@dataclass(frozen=True)
class LanguageRecord:
    """A language's folder of a site, as the build that swapped it in left it."""

    frame: bytes
    units: Mapping[str, UnitRecord]
    rows: Mapping[str, KeptValue[Any]]
    """Each rule's row of the search index (see :func:`validator.site.search.build_index`)."""
    files: Mapping[str, FileState]
    """Path within the language's folder -> its state once the build swapped it in."""


@dataclass(frozen=True)
class LanguageMade:
    """What a language's job made that the next build of the site reads."""

    units: Mapping[str, UnitRecord]
    rows: Mapping[str, KeptValue[Any]]


@dataclass(frozen=True)
class SiteRecord:
    """The record of one site folder: each language's."""

    languages: Mapping[str, LanguageRecord]


def _versions() -> tuple[tuple[str, str], ...]:
    found = []
    for name in RENDERERS:
        try:
            found.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            found.append((name, ""))
    return tuple(found)


def book_frame(workspace: Workspace, epoch: int | None, store: Store) -> bytes:
    """What every page of every language depends on (see the module's text), made once
    per build; ``epoch``, the build's date (``SOURCE_DATE_EPOCH``), which MkDocs writes
    in the sitemap; ``store`` knows the code's digest."""
    varying = varying_inputs(workspace)
    inputs = sorted((name, value) for name, value in workspace.readings.input_digests.items() if name not in varying)
    outline = tuple((chapter.id, tuple((rule.id, rule.aliases) for rule in chapter.rules))
                    for chapter in workspace.rulebook.chapters)
    besides = tuple((workspace.shown(path), _bytes(path)) for path in read_besides(workspace))
    return digest("frame", store.code_digest(workspace.project.ruleset), _versions(), tuple(inputs),
                  outline, besides, epoch)


def frame_digest(book: bytes, code: str, config: Mapping[str, object]) -> bytes:
    """The frame of language ``code``: the ``book``'s (:func:`book_frame`) and the
    language's MkDocs ``config``, whose folders are left out (a build writes to a new
    scratch folder each time)."""
    fixed = {name: value for name, value in config.items() if name not in ("docs_dir", "site_dir")}
    return digest(book, code, repr(fixed))


def read_besides(workspace: Workspace) -> tuple[Path, ...]:
    """What a build reads besides the inputs the load read: each language's
    translator's guide, and the MkDocs configuration with every file it inherits."""
    project = workspace.project
    chain = config_chain(workspace.root / project.mkdocs_config, project.mkdocs_config, workspace.root)
    return (*(guide_path(workspace, language.code) for language in project.languages),
            *(config.path for config in chain))


def content_folders(workspace: Workspace) -> tuple[Path, ...]:
    """The folders whose files a load reads by their names (a chapter, an optional
    file or catalogue added there is read by the next load)."""
    content = workspace.root / workspace.project.content_dir
    return (content, content / "rules", content / "guide")


def _bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def varying_inputs(workspace: Workspace) -> frozenset[str]:
    """The inputs a unit depends on through its reads, not through the frame: the
    chapter files and the rule catalogues (as the load shows them)."""
    locales = workspace.root / workspace.project.locales_dir
    catalogs = {workspace.shown(catalog_path(locales, language.code, RULES_DOMAIN))
                for language in workspace.project.translated_languages}
    return frozenset({chapter.position.file for chapter in workspace.rulebook.chapters} | catalogs)


@dataclass(frozen=True)
class BookState:
    """The values a unit's reads are looked up in, in the book being built."""

    chapters: Mapping[str, bytes | None]
    """Chapter -> the digest of its file."""
    whole: bytes
    """Every input's digest, for a unit that read the whole book."""
    workspace: Workspace
    referrers: Mapping[str, tuple[str, ...]]

    @classmethod
    def of(cls, workspace: Workspace) -> BookState:
        digests = workspace.readings.input_digests
        return cls({chapter.id: digests.get(chapter.position.file) for chapter in workspace.rulebook.chapters},
                   digest(tuple(sorted(digests.items()))), workspace, referrers(workspace.rulebook))

    def key(self, frame: bytes, reads: PageReads) -> bytes:
        """The key of a unit with ``reads`` in language frame ``frame``."""
        if reads.everything:
            return digest(frame, "everything", self.whole)
        catalogs = self.workspace.rule_catalogs
        entries = tuple((language, context, catalogs[language].entry(context) if language in catalogs else "gone")
                        for language, context in sorted(reads.entries))
        return digest(frame, tuple((chapter, self.chapters.get(chapter)) for chapter in sorted(reads.chapters)),
                      entries, tuple((rule, self.referrers.get(rule)) for rule in sorted(reads.referrers)))


@dataclass(frozen=True)
class Frame:
    """A language's frame in the book being built: how its units are keyed."""

    digest: bytes
    book: BookState

    def holds(self, record: UnitRecord) -> bool:
        """Whether what was made as ``record`` says still holds in this book."""
        return self.book.key(self.digest, record.reads) == record.key

    def record(self, reads: PageReads) -> UnitRecord:
        """The record of a unit just rendered with ``reads``."""
        return UnitRecord(self.book.key(self.digest, reads), reads)

    def stale(self, units: Iterable[str], earlier: LanguageRecord) -> list[str]:
        """The units whose pages must be rendered again: new ones, and those whose reads
        give another key in this book."""
        stale = []
        for unit in units:
            kept = earlier.units.get(unit)
            if kept is None or not self.holds(kept):
                stale.append(unit)
        return stale


@dataclass(frozen=True)
class KeptValue(Generic[T]):
    """A value, with the record of what it read when it was made."""

    record: UnitRecord
    value: T


@dataclass
class ReadMemo(Generic[T]):
    """Values of one language kept from its last build (``earlier``), each made again
    only when what it read changed; those made or kept go to ``kept``, for the next."""

    frame: Frame
    earlier: Mapping[str, KeptValue[T]]
    kept: dict[str, KeptValue[T]] = field(default_factory=dict)
    reads: Reads = field(default_factory=Reads)
    """What the stand-ins note, given to the maker of the values."""

    def value(self, name: str, make: Callable[[], T]) -> T:
        """The value ``name`` kept, or ``make()``'s (what it reads noted in :attr:`reads`)."""
        found = self.earlier.get(name)
        if found is None or not self.frame.holds(found.record):
            self.reads.taken()
            value = make()
            found = KeptValue(self.frame.record(self.reads.taken()), value)
        self.kept[name] = found
        return found.value


def earlier_language(store: Store, target: Path, code: str) -> LanguageRecord | None:
    """The record of ``code``'s folder in the site at ``target``, when the store keeps
    one and the folder is still exactly as that build left it."""
    bucket = store.site_bucket("site", target)
    record = None if bucket is None else bucket.get(str(target))
    if not isinstance(record, SiteRecord):
        return None
    language = record.languages.get(code)
    if not isinstance(language, LanguageRecord):
        return None
    try:
        unchanged = site_files(target / code) == language.files
    except OSError:
        return None
    return language if unchanged else None


def keep_record(store: Store, target: Path, languages: Mapping[str, tuple[bytes, LanguageMade]]) -> None:
    """Keep the record of the site just swapped in at ``target``: per language, its
    frame, units and index rows, and its files as they are now."""
    bucket = store.site_bucket("site", target)
    if bucket is None:
        return
    bucket.put(str(target), SiteRecord({code: LanguageRecord(frame, made.units, made.rows, site_files(target / code))
                                        for code, (frame, made) in languages.items()}))
