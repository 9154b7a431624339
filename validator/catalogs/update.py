"""`validator i18n update`: regenerate the templates and merge them into every catalogue.

The rule template comes straight from the loaded rulebook (the same messages the
``pybabel extract`` method yields); the interface template comes from the
engine's templates and site code through Babel's extractors.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir

from validator.api.labels import (
    LABELS_DOMAIN,
    RESULT,
    Where,
    humanize,
    identifier_uses,
    label_context,
    scenario_owner,
)
from validator.api.ruleset import Ruleset
from validator.api.trace import worked_messages
from validator.catalogs.extract import message_comments, term_notes
from validator.catalogs.headers import ENGINE_TITLE, new_catalog, tidy_header
from validator.catalogs.interface import ENGINE_LOCALES, engine_languages, override_template
from validator.catalogs.merge import FORMAT_FLAGS, merge_catalog, write_catalog_if_changed
from validator.catalogs.po import RULES_DOMAIN, UI_DOMAIN, catalog_path, read_catalog
from validator.checks.charts import chart_labels
from validator.checks.examples import ExampleRun, run_examples
from validator.content.limits import book_limits
from validator.content.loader import Rulebook, load_rulebook
from validator.content.project import load_project, load_rules_core
from validator.content.yamlsource import SizeLimit
from validator.site.worked import try_it_values

SITE_PACKAGE = Path(__file__).resolve().parents[1] / "site"
TRANSLATOR_TAGS = ("Translators:",)
"""The tag of a comment in the code that extraction copies into the catalogue."""


@dataclass(frozen=True)
class CatalogUpdate:
    path: str
    messages: int
    fuzzy: int
    untranslated: int
    obsolete: int


def rules_template(rulebook: Rulebook, line_numbers: bool = False) -> Catalog:
    """The rule texts' template.  Each location names its YAML file; with
    ``line_numbers`` its line too.  Without them (the default, as Sphinx's
    ``gettext_location`` allows) an edit that moves the lines of a file leaves every
    other entry's comment as it was, and a reviewer reads only what changed."""
    template = Catalog(project=rulebook.project.title, fuzzy=False, creation_date=run_date())
    for message in rulebook.messages():
        # Babel's writer prints a location whose line is None as the file alone; its hints say int.
        line: int | None = message.position.line if line_numbers else None
        entry = template.add(message.text, locations=[(message.position.file, line)],  # type: ignore[list-item]
                             auto_comments=message_comments(message), context=message.context)
        entry.flags -= FORMAT_FLAGS
    return template


def ui_template() -> Catalog:
    """The interface strings, extracted from the engine's own templates and site code.

    They belong to the installed engine, not to a project, so they are read from the
    package wherever it is installed (``validator/locale/babel-ui.cfg`` does the same
    for ``pybabel``). Locations name the file without a line: a translator finds
    the string by its text, and an edit that only moves code leaves the catalogues
    as they are.  A word alone ("p.", "exact") says little of where it stands, so
    each use carries a translator comment in the code (``# Translators: ...`` in
    Python, ``{# Translators: ... #}`` in a template), and each becomes a ``#.`` line
    without its tag, as ``pybabel extract -c Translators: -s`` writes it."""
    method_map = [("templates/**.j2", "jinja2"), ("**.py", "python")]
    options_map = {"templates/**.j2": {"encoding": "utf-8"}}
    template = Catalog(fuzzy=False, creation_date=run_date())
    for filename, _line, message, comments, context in extract_from_dir(
            SITE_PACKAGE, method_map, options_map, comment_tags=TRANSLATOR_TAGS, strip_comment_tags=True):
        # Babel's writer prints a location whose line is None as the file alone; its hints say int.
        location = (f"validator/site/{filename}", None)
        template.add(message, locations=[location], auto_comments=comments,  # type: ignore[list-item]
                     context=context)
    return template


CHECKS_PACKAGE = SITE_PACKAGE.parent / "checks"
LINT_DOMAIN = "lint"
"""The lint's sentences (see :mod:`validator.checks.said`), a domain of the engine's own."""


def lint_template() -> Catalog:
    """The lint's sentences, extracted from the checks' calls of ``said``, so that a
    translator reads the lint in the language being translated.  A sentence of the
    lint is a piece of a line (what is wrong, or the fix after ``Fix:``) with values
    filled in, so each call carries a translator comment, as the interface's words do
    (see :func:`ui_template`)."""
    template = Catalog(fuzzy=False, creation_date=run_date())
    for filename, _line, message, comments, context in extract_from_dir(
            CHECKS_PACKAGE, [("**.py", "python")], keywords={"said": None}, comment_tags=TRANSLATOR_TAGS,
            strip_comment_tags=True):
        location = (f"validator/checks/{filename}", None)
        entry = template.add(message, locations=[location], auto_comments=comments,  # type: ignore[list-item]
                             context=context)
        entry.flags.discard("python-brace-format")  # "{...}" names a token; only %(name)s is filled in
    return template


def labels_template(rulebook: Rulebook, ruleset: Ruleset) -> Catalog:
    """A label for every identifier the worked examples show (their input and the
    outcome the core computes), so the example boxes can be translated too."""
    runs = run_examples(ruleset, ((rule.id, example) for rule in rulebook.rules for example in rule.examples))
    # Official answers' examples show their input, outcome and steps too (docs/faq.yml),
    # and a scenario only an answer uses would otherwise keep its steps in English.
    answers = run_examples(ruleset, ((entry.subject, example) for entry in rulebook.faq.faq
                                     for example in entry.examples))
    texts, step_values = worked_messages(ruleset, [*runs, *answers])

    def given(run: ExampleRun) -> Where:
        scenario = ruleset.scenario(run.example.scenario)
        return Where("input", scenario_owner(scenario.name, scenario.summary))

    def outcome(run: ExampleRun) -> Where:
        return Where("outcome", given(run).owner)

    def tried(run: ExampleRun) -> list[tuple[Where, Any]]:
        """What the example's try-it form shows for other values than its own (see
        :func:`validator.site.worked.try_it_values`): listed after every other use, so
        that the entries the examples themselves show keep their places."""
        if run.computed is None:
            return []
        return [(Where("outcome", outcome(run).owner), shown) if not name
                else (Where("input", given(run).owner, name), {RESULT: shown})
                for name, values in try_it_values(ruleset, run.example)
                for shown in (values if not name else [values])]

    uses = identifier_uses([*((given(run), run.example.given) for run in runs),
                            *((outcome(run), run.computed) for run in runs if run.computed),
                            *chart_labels(ruleset, rulebook), *step_values,
                            *(pair for run in answers
                              for pair in ((given(run), run.example.given), (outcome(run), run.computed or {}))),
                            *(pair for run in [*runs, *answers] for pair in tried(run))])
    template = Catalog(project=rulebook.project.title, fuzzy=False, creation_date=run_date())
    for identifier, comments in uses.items():
        entry = template.add(humanize(identifier), context=label_context(identifier), auto_comments=comments)
        entry.flags -= FORMAT_FLAGS
    for context, english, comments in texts:  # each example's question and the steps of the rules core
        entry = template.add(english, context=context, auto_comments=comments)
        entry.flags -= FORMAT_FLAGS
    return template


def run_date() -> datetime:
    """The date an update stamps on what it changes: ``SOURCE_DATE_EPOCH`` when set
    (reproducible output), else now. Files whose content did not change keep their
    own dates (see :func:`write_catalog_if_changed`)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit() and len(epoch) <= 12:
        return datetime.fromtimestamp(int(epoch), UTC)
    return datetime.now(UTC)


def renamed_ids(rulebook: Rulebook) -> dict[str, str]:
    """Current rule id -> former id, for every alias (the first alias wins)."""
    return {rule.id: rule.aliases[0] for rule in rulebook.rules if rule.aliases}


def update_catalogs(root: Path, line_numbers: bool = False, only: str | None = None) -> list[CatalogUpdate]:
    """Regenerate the book's templates and merge them into every catalogue of every
    translated language, or of the language ``only`` (``line_numbers``: see
    :func:`rules_template`).  A catalogue that is missing is started."""
    project = load_project(root)
    limits = book_limits(root, project)
    rulebook = load_rulebook(root, project, limits)
    locales = root / project.locales_dir
    title = project.title
    templates = {RULES_DOMAIN: rules_template(rulebook, line_numbers),
                 LABELS_DOMAIN: labels_template(rulebook, load_rules_core(root, project))}
    renamed = renamed_ids(rulebook)
    languages = [language.code for language in project.translated_languages if only in (None, language.code)]
    updates = []
    for domain, template in templates.items():
        write_catalog_if_changed(template, locales / f"{domain}.pot")
        for code in languages:
            path = catalog_path(locales, code, domain)
            notes = term_notes(rulebook.messages(), rulebook.glossary, code) if domain == RULES_DOMAIN else {}
            updates.append(_merged_into(template, path, path.relative_to(root).as_posix(), code, renamed, title,
                                        notes, limits.catalogue))
    interface = ui_template()
    engine = engine_languages()
    for code in languages:
        # The engine's words are translated in the engine: a book's ui.po is its own
        # overrides, kept in step, or the whole interface in a language the engine lacks.
        path = catalog_path(locales, code, UI_DOMAIN)
        shown = path.relative_to(root).as_posix()
        if code not in engine:
            updates.append(_merged_into(interface, path, shown, code, renamed, title, limit=limits.catalogue))
        elif path.exists():
            updates.append(_merged_into(override_template(interface, read_catalog(path, shown, limits.catalogue)),
                                        path, shown, code, renamed, title, limit=limits.catalogue))
    return updates


def update_engine_catalogs() -> list[CatalogUpdate]:
    """The engine's own interface template and catalogues, regenerated from its templates
    and site code (for those who work on the engine, in a checkout of it)."""
    updates = []
    for domain, template in ((UI_DOMAIN, ui_template()), (LINT_DOMAIN, lint_template())):
        write_catalog_if_changed(template, ENGINE_LOCALES / f"{domain}.pot")
        for language in engine_languages():
            path = catalog_path(ENGINE_LOCALES, language, domain)
            updates.append(_merged_into(template, path, str(path), language, {}))
    return updates


def _merged_into(template: Catalog, path: Path, shown: str, language: str,
                 renamed: dict[str, str], title: str = ENGINE_TITLE,
                 notes: Mapping[str, Sequence[str]] | None = None, limit: SizeLimit | None = None) -> CatalogUpdate:
    """Merge ``template`` into the catalogue at ``path`` (made when missing, with the
    header of a book titled ``title``), with this language's ``notes`` (see
    :func:`merge_catalog`), and say how it stands."""
    date = run_date()
    existing = read_catalog(path, shown, limit) if path.exists() else new_catalog(language, title, date)
    merged = merge_catalog(template, existing, renamed, notes)
    tidy_header(merged, title, language)
    write_catalog_if_changed(merged, path)
    active = [message for message in merged if message.id]
    return CatalogUpdate(
        path=shown,
        messages=len(active),
        fuzzy=sum(1 for message in active if message.fuzzy),
        untranslated=sum(1 for message in active if not message.string),
        obsolete=len(merged.obsolete),
    )


BOOK_DOMAINS = (RULES_DOMAIN, LABELS_DOMAIN, UI_DOMAIN)
ENGINE_DOMAINS = (UI_DOMAIN, LINT_DOMAIN)


@dataclass(frozen=True)
class LanguageCatalog:
    """One catalogue of a language as an XLIFF file names it: by its path from the
    book's folder (or, for the engine's, from the folder that holds the engine), so
    that the file says the same on every machine and the import finds it again."""

    domain: str
    name: str
    path: Path


def language_catalogs(root: Path, language: str, engine: bool = False) -> list[LanguageCatalog]:
    """The catalogues ``language`` has: the book's (rules, labels, and its own ui.po
    where it keeps one), or with ``engine`` the engine's (ui, lint)."""
    domains = ENGINE_DOMAINS if engine else BOOK_DOMAINS
    if engine:
        base, locales = ENGINE_LOCALES.parent.parent, ENGINE_LOCALES
    else:
        base, locales = root, root / load_project(root).locales_dir
    found = []
    for domain in domains:
        path = catalog_path(locales, language, domain)
        if path.is_file():
            found.append(LanguageCatalog(domain, Path(os.path.relpath(path, base)).as_posix(), path))
    return found
