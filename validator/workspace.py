"""Everything a command needs, loaded once: project, rulebook, rules core, catalogues."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from babel.messages.catalog import Catalog

from validator.content.catalogpatch import patched_catalog
from validator.content.catalogs import RULES_DOMAIN, UI_DOMAIN, RuleCatalog, catalog_from_bytes, catalog_path
from validator.content.inputcache import Wanted, input_bytes, made_from, prepared
from validator.content.labels import LABELS_DOMAIN
from validator.content.loader import Rulebook, content_files, load_rulebook, model_kind, parse_model
from validator.content.mkdocs_config import mkdocs_problems
from validator.content.model import Chapter
from validator.content.project import PROJECT_FILE, Project, load_project
from validator.content.yamlsource import read_input
from validator.problems import Problem, ProblemsFound
from validator.ruleset import Ruleset, load_ruleset


@dataclass(frozen=True)
class Workspace:
    root: Path
    project: Project
    rulebook: Rulebook
    ruleset: Ruleset
    rule_catalogs: dict[str, RuleCatalog]
    raw_rule_catalogs: dict[str, Catalog]
    ui_catalogs: dict[str, Catalog | None]
    label_catalogs: dict[str, RuleCatalog]
    """Translations of the identifiers shown in worked examples (see content.labels)."""
    raw_label_catalogs: dict[str, Catalog]

    def shown(self, path: Path) -> str:
        """``path`` as the user should see it: relative to the project when inside it."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)


def read_catalog(path: Path, shown_as: str) -> Catalog:
    """A catalogue, parsed again only when its bytes changed, and then only in the
    entries that changed (in the live preview)."""
    data = input_bytes(path, shown_as)

    def update(earlier: bytes, catalog: Catalog) -> Catalog | None:
        try:
            return patched_catalog(catalog, earlier.decode("utf-8"), data.decode("utf-8"), shown_as)
        except (UnicodeDecodeError, ProblemsFound):
            return None  # the whole parse says what is wrong

    return made_from("po", shown_as, data, lambda: catalog_from_bytes(data, shown_as), update)


def load_workspace(root: Path) -> Workspace:
    """Load and validate every input; all problems are raised together.  What the
    files hold is parsed on every core first (see :func:`prepared`)."""
    project = load_project(root)
    with prepared(_wanted(root, project)):
        return _load_workspace(root, project)


def _wanted(root: Path, project: Project) -> list[Wanted]:
    """Every YAML file read as a model, and every catalogue, with how each is parsed."""
    chapter_files, parts = content_files(root, project)
    files: list[tuple[str, Path, Callable[[bytes, str], object], bool]] = [
        *((model_kind(Chapter), path, partial(parse_model, Chapter), False) for path in chapter_files),
        *((model_kind(model), path, partial(parse_model, model), False) for model, path in parts.items())]
    locales = root / project.locales_dir
    for language in project.translated_languages:
        for domain in (RULES_DOMAIN, UI_DOMAIN, LABELS_DOMAIN):
            files.append(("po", catalog_path(locales, language.code, domain), catalog_from_bytes, True))
    wanted = []
    for kind, path, parse, patchable in files:
        shown = path.relative_to(root).as_posix()
        try:
            data = read_input(path, shown)
        except ProblemsFound:
            continue  # the load says what is wrong with it
        wanted.append(Wanted(kind, shown, data, partial(parse, data, shown), patchable))
    return wanted


def _load_workspace(root: Path, project: Project) -> Workspace:
    problems: list[Problem] = []
    rulebook: Rulebook | None = None
    try:
        rulebook = load_rulebook(root, project)
    except ProblemsFound as found:
        problems.extend(found.problems)
    try:
        ruleset = load_ruleset(project.ruleset)
    except (ImportError, AttributeError, TypeError, ValueError) as error:
        problems.append(Problem(PROJECT_FILE, project.position.of("ruleset").line, "",
                                f"cannot load the rules core '{project.ruleset}' ({error})",
                                "name an importable module:attribute holding a Ruleset"))
    problems.extend(mkdocs_problems(root / project.mkdocs_config, project.mkdocs_config,
                                    root / project.content_dir))
    locales = root / project.locales_dir
    rule_catalogs = {project.source_language: RuleCatalog.source(project.source_language)}
    raw: dict[str, Catalog] = {}
    ui: dict[str, Catalog | None] = {project.source_language: None}
    labels = {project.source_language: RuleCatalog.source(project.source_language)}
    raw_labels: dict[str, Catalog] = {}
    for language in project.translated_languages:
        path = catalog_path(locales, language.code, RULES_DOMAIN)
        shown = path.relative_to(root).as_posix()
        if not path.exists():
            problems.append(Problem(shown, 0, "", f"no rule catalogue for '{language.code}'",
                                    f"create it: pybabel init -i {project.locales_dir}/rules.pot "
                                    f"-d {project.locales_dir} -D rules -l {language.code}"))
            continue
        try:
            raw[language.code] = read_catalog(path, shown)
            rule_catalogs[language.code] = RuleCatalog.from_catalog(raw[language.code], language.code,
                                                                    project.source_language)
        except ProblemsFound as found:
            problems.extend(found.problems)
        ui_path = catalog_path(locales, language.code, UI_DOMAIN)
        ui[language.code] = None
        labels[language.code] = RuleCatalog(language.code, project.source_language, {})
        try:
            if ui_path.exists():
                ui[language.code] = read_catalog(ui_path, ui_path.relative_to(root).as_posix())
        except ProblemsFound as found:
            problems.extend(found.problems)
        labels_path = catalog_path(locales, language.code, LABELS_DOMAIN)
        try:
            if labels_path.exists():
                raw_labels[language.code] = read_catalog(labels_path, labels_path.relative_to(root).as_posix())
                labels[language.code] = RuleCatalog.from_catalog(raw_labels[language.code], language.code,
                                                                 project.source_language)
        except ProblemsFound as found:
            problems.extend(found.problems)
    if problems:
        raise ProblemsFound(problems)
    assert rulebook is not None
    return Workspace(root, project, rulebook, ruleset, rule_catalogs, raw, ui, labels, raw_labels)
