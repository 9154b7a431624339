"""Everything a command needs, loaded once: project, rulebook, rules core, catalogues."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path

from babel.messages.catalog import Catalog

from validator.api.labels import LABELS_DOMAIN
from validator.api.ruleset import Ruleset, search_book_folder
from validator.catalogs.interface import engine_catalog_path, merged_interface
from validator.catalogs.parsed import ParsedCatalogs
from validator.catalogs.patch import patched_catalog
from validator.catalogs.po import (
    PO_KIND,
    RULES_DOMAIN,
    UI_DOMAIN,
    RuleCatalog,
    catalog_from_bytes,
    catalog_path,
    plural_problems,
)
from validator.content.inputcache import Earlier, Wanted, digests_of, input_bytes, made_from, prepared
from validator.content.limits import BookLimits, book_limits
from validator.content.loader import Rulebook, content_files, load_rulebook, model_kind, parse_model
from validator.content.mkdocs_config import mkdocs_problems
from validator.content.model import Chapter
from validator.content.project import Project, load_project, load_rules_core, rules_core_problem
from validator.content.yamlsource import SizeLimit, read_input, reads_recorded
from validator.derived import derived
from validator.problems import Problem, ProblemsFound
from validator.store import Store


@dataclass(frozen=True)
class Readings:
    """What the load read of the book's files, beside the book itself: the catalogues as
    Babel parsed them and how each input's bytes are known, which the lint and the
    results kept between runs need and the pages never read."""

    rule_catalogs: ParsedCatalogs
    """The rule catalogues as Babel parsed them, for the lint and the preview (the
    pages read the workspace's compact ``rule_catalogs``)."""
    label_catalogs: ParsedCatalogs
    input_digests: Mapping[str, bytes] = field(default_factory=dict)
    """Input file, as shown -> a digest of the bytes it was read with: what a result
    made of whole files is kept by (see :func:`validator.checks.lintparts.lint_part`)."""
    catalog_edits: Mapping[str, CatalogEdit] = field(default_factory=dict)
    """Catalogue, as shown -> what changed in it since the bytes it was read with
    before, when this load read it by patching that reading (see :func:`read_catalog`)."""
    ui_sources: Mapping[str, tuple[tuple[str, Catalog], ...]] = field(default_factory=dict)
    """Language -> the interface catalogues merged into the workspace's ``ui_catalogs``
    entry, as (shown, catalogue): the engine's, then the book's; the lint checks each."""


@dataclass(frozen=True)
class Workspace:
    """The book, loaded: its project, rulebook, catalogues and rules core, and what the
    load read of its files (:class:`Readings`)."""

    root: Path
    project: Project
    rulebook: Rulebook
    rule_catalogs: dict[str, RuleCatalog]
    ui_catalogs: dict[str, Catalog | None]
    """The site's own words per language: the engine's translations with the book's
    own in their place where it has any (see :mod:`validator.catalogs.interface`)."""
    label_catalogs: dict[str, RuleCatalog]
    """Translations of the identifiers shown in worked examples (see :mod:`validator.api.labels`)."""
    readings: Readings

    @cached_property
    def ruleset(self) -> Ruleset:
        """The rules core, imported when first asked for (a check whose examples'
        outcomes are all kept never asks); the load made sure that its module can be found."""
        return load_rules_core(self.root, self.project)

    def shown(self, path: Path) -> str:
        """``path`` as the user should see it: relative to the project when inside it."""
        return shown_path(self.root, path)


def shown_path(root: Path, path: Path) -> str:
    """``path`` relative to ``root`` when inside it, else whole (the engine's own files)."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class CatalogEdit:
    """The entries of a catalogue that differ from an earlier reading of it: what
    was made of the earlier one holds for the others (see :mod:`validator.checks.lintparts`)."""

    since: bytes
    """The digest of the earlier bytes."""
    contexts: frozenset[str]
    lines_moved: bool
    """Whether later entries moved to other lines."""


def read_catalog(store: Store, path: Path, shown_as: str, limit: SizeLimit,
                 edits: dict[str, CatalogEdit] | None = None) -> Catalog:
    """A catalogue (within ``limit``), parsed again only when its bytes changed, and then
    only in the entries that changed; ``edits`` gets which entries those were."""
    data = input_bytes(store, path, shown_as, limit)

    def update(earlier: Earlier[Catalog]) -> Catalog | None:
        try:
            patched = patched_catalog(earlier.made, earlier.data, data, shown_as)
        except (UnicodeDecodeError, ProblemsFound):
            return None  # the whole parse says what is wrong
        if patched is None:
            return None
        if edits is not None:
            edits[shown_as] = CatalogEdit(earlier.digest, patched.contexts, patched.lines_moved)
        return patched.catalog

    return made_from(store, PO_KIND, shown_as, data, lambda: catalog_from_bytes(data, shown_as), update)


def load_workspace(root: Path, keep_catalogs: bool = True, store: Store | None = None) -> Workspace:
    """Load and validate every input; all problems are raised together.  What the
    files hold is parsed on every core first (see :func:`prepared`), or taken from
    ``store`` where it kept what was made of the same bytes.  ``keep_catalogs``
    False: the catalogues as Babel parsed them are let go once their compact form is
    made, and made again if asked for (a build, see :mod:`validator.catalogs.parsed`)."""
    store = store or Store()
    with reads_recorded() as read:
        project = load_project(root)
        mkdocs = partial(mkdocs_problems, root / project.mkdocs_config, project.mkdocs_config,
                         root / project.content_dir, root)
        limits = book_limits(root, project)
        with prepared(_wanted(root, project, limits), store):
            return _load_workspace(root, project, limits, mkdocs, read, keep_catalogs, store)


def _wanted(root: Path, project: Project, limits: BookLimits) -> list[Wanted]:
    """Every YAML file read as a model, and every catalogue, with how each is parsed."""
    chapter_files, parts = content_files(root, project)
    files: list[tuple[str, Path, Callable[[bytes, str], object], bool]] = [
        *((model_kind(Chapter), path, partial(parse_model, Chapter), False) for path in chapter_files),
        *((model_kind(model), path, partial(parse_model, model), False) for model, path in parts.items())]
    locales = root / project.locales_dir
    for language in project.translated_languages:
        for domain in (RULES_DOMAIN, UI_DOMAIN, LABELS_DOMAIN):
            files.append((PO_KIND, catalog_path(locales, language.code, domain), catalog_from_bytes, True))
        files.append((PO_KIND, engine_catalog_path(language.code), catalog_from_bytes, True))
    wanted = []
    for kind, path, parse, patchable in files:
        shown = shown_path(root, path)
        try:
            data = read_input(path, shown, limits.of(path))
        except ProblemsFound:
            continue  # the load says what is wrong with it
        wanted.append(Wanted(kind, shown, data, partial(parse, data, shown), patchable))
    return wanted


def _load_workspace(root: Path, project: Project, limits: BookLimits, mkdocs: Callable[[], list[Problem]],
                    read: Mapping[str, bytes], keep_catalogs: bool, store: Store) -> Workspace:
    """The workspace, or every problem of its inputs; ``mkdocs`` gives MkDocs' own
    findings on the project's ``mkdocs.yml``;
    ``read``, every input file read so far, grows with those this load reads."""
    problems: list[Problem] = []
    rulebook: Rulebook | None = None
    try:
        rulebook = load_rulebook(root, project, limits, store)
    except ProblemsFound as found:
        problems.extend(found.problems)
    module = project.ruleset.partition(":")[0]
    search_book_folder(root)
    try:
        findable = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        findable = False
    if not findable:
        problems.append(rules_core_problem(project, f"No module named {module!r}"))
    problems.extend(mkdocs())
    locales = root / project.locales_dir
    rule_catalogs = {project.source_language: RuleCatalog.source(project.source_language)}
    limit = limits.catalogue
    raw = ParsedCatalogs(root, limit, store)
    ui: dict[str, Catalog | None] = {project.source_language: None}
    ui_sources: dict[str, tuple[tuple[str, Catalog], ...]] = {}
    labels = {project.source_language: RuleCatalog.source(project.source_language)}
    raw_labels = ParsedCatalogs(root, limit, store)
    edits: dict[str, CatalogEdit] = {}
    for language in project.translated_languages:
        path = catalog_path(locales, language.code, RULES_DOMAIN)
        shown = path.relative_to(root).as_posix()
        if not path.exists():
            started = catalog_path(locales, language.code, LABELS_DOMAIN).exists()
            problems.append(Problem(shown, 0, "", f"no rule catalogue for '{language.code}'",
                                    "restore it, or run validator i18n update to create it" if started else
                                    f"start the language's catalogues: validator i18n init {language.code}"))
            continue
        try:
            catalog = read_catalog(store, path, shown, limit, edits)
            problems.extend(plural_problems(catalog, shown))
            raw.add(language.code, shown, store.inputs.digest(read[shown], shown), catalog, keep_catalogs)
            rule_catalogs[language.code] = _compact(store, catalog, language.code, project.source_language)
        except ProblemsFound as found:
            problems.extend(found.problems)
        engine, book = (_optional_catalog(store, root, path, limit, problems) for path in (
            engine_catalog_path(language.code), catalog_path(locales, language.code, UI_DOMAIN)))
        ui_sources[language.code] = tuple(source for source in (engine, book) if source is not None)
        ui[language.code] = merged_interface(engine and engine[1], book and book[1])
        labels[language.code] = RuleCatalog.from_entries(language.code, project.source_language, ())
        labels_path = catalog_path(locales, language.code, LABELS_DOMAIN)
        try:
            _require_catalog(labels_path, root, language.code)
            labels_shown = labels_path.relative_to(root).as_posix()
            catalog = read_catalog(store, labels_path, labels_shown, limit)
            problems.extend(plural_problems(catalog, labels_shown))
            raw_labels.add(language.code, labels_shown, store.inputs.digest(read[labels_shown], labels_shown), catalog,
                           keep_catalogs)
            labels[language.code] = _compact(store, catalog, language.code, project.source_language)
        except ProblemsFound as found:
            problems.extend(found.problems)
    if problems:
        raise ProblemsFound(problems)
    assert rulebook is not None
    return Workspace(root, project, rulebook, rule_catalogs, ui, labels,
                     Readings(raw, raw_labels, digests_of(store, read), edits, ui_sources))


def _compact(store: Store, catalog: Catalog, code: str, source_language: str) -> RuleCatalog:
    """The compact form of a parsed catalogue.  The preview keeps the parsed catalogue of
    an unchanged file from one load to the next (see :meth:`InputMemory.keep`), and its
    compact form with it; elsewhere, keeping it would keep the parsed catalogue alive."""
    def make() -> RuleCatalog:
        return RuleCatalog.from_catalog(catalog, code, source_language)

    return make() if store.inputs.kept is None else derived("compact catalogue", catalog, make, (code, source_language))


def _optional_catalog(store: Store, root: Path, path: Path, limit: SizeLimit, problems: list[Problem]
                      ) -> tuple[str, Catalog] | None:
    """(shown, catalogue) of a catalogue a language may do without, None when it has
    none; what is wrong with one that is there goes to ``problems``."""
    if not path.exists() and not path.is_symlink():
        return None
    shown = shown_path(root, path)
    try:
        return shown, read_catalog(store, path, shown, limit)
    except ProblemsFound as found:
        problems.extend(found.problems)
        return None


def _require_catalog(path: Path, root: Path, code: str) -> None:
    """A translated language has every catalogue, as it has its rule catalogue: a deleted
    one would silently show the English interface or labels."""
    if not path.exists() and not path.is_symlink():
        raise ProblemsFound([Problem(path.relative_to(root).as_posix(), 0, "",
                                     f"no {path.stem} catalogue for '{code}'",
                                     "restore it, or run validator i18n update to create it")])
