"""``validator i18n``: the catalogues' templates and merge, a new language, and the
round trip through XLIFF for translation tools."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from validator.catalogs.interface import engine_languages
from validator.catalogs.merge import write_bytes_atomically
from validator.catalogs.newlanguage import init_refusal
from validator.catalogs.po import read_catalog
from validator.catalogs.update import ENGINE_DOMAINS, language_catalogs, update_catalogs, update_engine_catalogs
from validator.catalogs.xliff import CHANGED, KEPT, REFUSED, Exported, export_xliff, import_xliff
from validator.commands.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    absolute,
    not_a_new_file,
    report,
    write_output,
)
from validator.content.limits import DEFAULT_LIMITS, book_limits
from validator.content.project import PROJECT_FILE, load_project
from validator.content.yamlsource import read_input
from validator.problems import ProblemsFound, printable
from validator.site.output import OutputError
from validator.site.reproducible import build_epoch
from validator.store import Store


def add_arguments(command: argparse.ArgumentParser) -> None:
    actions = command.add_subparsers(dest="i18n_command", required=True, metavar="ACTION")
    update = actions.add_parser("update", help="regenerate the templates and merge them into every catalogue, "
                                "keeping every translation")
    update.add_argument("--engine", action="store_true",
                        help="update the engine's own interface catalogues (validator/locale) instead of a book's")
    update.add_argument("--line-numbers", action="store_true",
                        help="write each rule text's line in its YAML file beside the file's name (by default the "
                        "name alone, so that an edit moving lines changes no other entry)")
    update.set_defaults(action=_update)
    start = actions.add_parser("init", help="start the catalogues of a new language of rulebook.yml")
    start.add_argument("language", metavar="LANG", help="its code, as in rulebook.yml (e.g. de, pt_BR)")
    start.set_defaults(action=_init)
    export = actions.add_parser("xliff-export", help="write one language's catalogues as XLIFF 1.2 for "
                                "translation tools, with every msgctxt (xliff-import merges the work back)")
    export.add_argument("language", metavar="LANG", help="a translated language (e.g. es)")
    export.add_argument("--engine", action="store_true",
                        help="the engine's own catalogues (validator/locale: ui, lint) instead of a book's")
    export.add_argument("--domain", nargs="+", choices=("rules", "labels", "ui", "lint"), metavar="DOMAIN",
                        help="these catalogues alone: rules, labels, ui (with --engine: ui, lint); default: every "
                        "one the language has")
    export.add_argument("--output", type=Path, metavar="FILE", help="the file to write (default: the standard output)")
    export.set_defaults(action=_xliff_export)
    merge = actions.add_parser("xliff-import", help="merge the translations, states and translator notes of an "
                               "XLIFF file of xliff-export into the catalogues, changing nothing else")
    merge.add_argument("language", metavar="LANG", help="the language of the file (e.g. es)")
    merge.add_argument("file", type=Path, metavar="FILE", help="the XLIFF file, as the translation tool saved it")
    merge.add_argument("--clear-empty", action="store_true",
                       help="a unit without a translation (no <target>, or an empty one) empties the entry's; by "
                       "default such a unit leaves the entry as it was")
    merge.add_argument("--list", action="store_true", help="also list each unit: changed, kept or refused, and why")
    merge.set_defaults(action=_xliff_import)


def run(project: Path, arguments: argparse.Namespace, store: Store) -> int:
    return int(arguments.action(project, arguments))


def _update(project: Path, arguments: argparse.Namespace) -> int:
    try:
        build_epoch()  # the date an update stamps: refused as the build refuses it
    except OutputError as error:
        print(error.line, file=sys.stderr)
        return error.exit_code
    for update in update_engine_catalogs() if arguments.engine else update_catalogs(project, arguments.line_numbers):
        print(f"{update.path}: {update.messages} messages, {update.fuzzy} fuzzy, "
              f"{update.untranslated} untranslated, {update.obsolete} obsolete")
    return EXIT_OK


def _init(project: Path, arguments: argparse.Namespace) -> int:
    code = arguments.language
    refused = init_refusal(project, load_project(project), code)
    if refused is not None:
        print(f"validator i18n init: {refused[0]}. Fix: {refused[1]}", file=sys.stderr)
        return EXIT_USAGE
    try:
        build_epoch()  # the date the new catalogues are stamped with: refused as the build refuses it
    except OutputError as error:
        print(error.line, file=sys.stderr)
        return error.exit_code
    for update in update_catalogs(project, only=code):
        print(f"{update.path}: {update.messages} messages to translate")
    print(f"Started '{code}'. Next: translate the catalogues, then validator status --language {code}.")
    return EXIT_OK


def _xliff_export(project: Path, arguments: argparse.Namespace) -> int:
    code, engine = arguments.language, arguments.engine
    if engine:
        codes, source = list(engine_languages()), "en"
    else:
        book = load_project(project)
        codes, source = [language.code for language in book.translated_languages], book.source_language
    if code not in codes:
        print(f"validator i18n xliff-export: unknown language '{code}'. Fix: use one of {', '.join(codes) or 'none'} "
              f"(the translated languages of {'the engine' if engine else 'rulebook.yml'})", file=sys.stderr)
        return EXIT_USAGE
    catalogs = language_catalogs(project, code, engine)
    for domain in arguments.domain or ():
        if domain not in {catalog.domain for catalog in catalogs}:
            where = "of the engine" if engine else "of the book"
            hint = ("give --engine for the engine's ui and lint" if not engine and domain in ENGINE_DOMAINS
                    else f"use one of {', '.join(catalog.domain for catalog in catalogs)}")
            print(f"validator i18n xliff-export: --domain {domain}: '{code}' has no {domain} catalogue {where}. "
                  f"Fix: {hint}", file=sys.stderr)
            return EXIT_USAGE
    output = None if arguments.output is None else absolute(arguments.output)
    wrong = None if output is None else not_a_new_file(output, "es.xlf")
    if wrong is not None:
        print(f"validator i18n xliff-export: --output {arguments.output}: {wrong}", file=sys.stderr)
        return EXIT_USAGE
    limit = DEFAULT_LIMITS.catalogue if engine else book_limits(project, book).catalogue
    data = export_xliff([Exported(catalog.domain, catalog.name, read_catalog(catalog.path, catalog.name, limit))
                         for catalog in catalogs if catalog.domain in (arguments.domain or [catalog.domain])],
                        source, code)
    write_output(data, output)
    return EXIT_OK


def _xliff_import(project: Path, arguments: argparse.Namespace) -> int:
    code, shown = arguments.language, str(arguments.file)
    in_a_book = (project / PROJECT_FILE).is_file()
    books = [*language_catalogs(project, code)] if in_a_book else []
    limit = book_limits(project, load_project(project)).catalogue if in_a_book else DEFAULT_LIMITS.catalogue
    catalogs = {catalog.name: catalog.path for catalog in [*books, *language_catalogs(project, code, engine=True)]}
    imported = import_xliff(read_input(absolute(arguments.file), shown, limit), shown, code, catalogs,
                            clear_empty=arguments.clear_empty, limit=limit)
    if arguments.list:
        for outcome in imported.outcomes:
            print(printable(f"{outcome.fate:<8} {outcome.catalogue}:{outcome.name}: {outcome.why}"))
    for change in imported.changes:  # every change is known before the first is written
        write_bytes_atomically(change.data, change.path)
    for catalogue in dict.fromkeys(outcome.catalogue for outcome in imported.outcomes):
        counts = ", ".join(f"{imported.count(fate, catalogue)} {fate}" for fate in (CHANGED, KEPT, REFUSED))
        print(printable(f"{catalogue}: {counts}"))
    kept_empty = sum(1 for outcome in imported.outcomes if outcome.fate == KEPT and outcome.why.startswith("no "))
    if imported.problems:
        report(ProblemsFound(imported.problems))
        print(f"Nothing written: {imported.count(REFUSED)} of the file's units are refused. Fix them, or export "
              "again and translate in the new file.", file=sys.stderr)
        return EXIT_PROBLEMS
    if kept_empty and not arguments.clear_empty:
        print(f"{kept_empty} unit{'s' if kept_empty != 1 else ''} without a translation left "
              f"{'their entries' if kept_empty != 1 else 'its entry'} as {'they were' if kept_empty != 1 else 'it was'}"
              " (--clear-empty empties them; --list names them).")
    if not imported.changes:
        print("No catalogue changed." if kept_empty else
              f"No catalogue changed: {shown} holds what the catalogues of '{code}' hold.")
    else:
        print(f"Next: validator lint --language {code}, then commit the catalogues.")
    return EXIT_OK
