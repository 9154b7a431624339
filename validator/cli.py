"""The ``validator`` command: check, build and preview a rules reference.

Exit status: 0 when all is well, 1 when checks find problems, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import stat
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from validator.parallel import JOBS_VARIABLE, BadJobsSetting, job_count, jobs_setting
from validator.plain import to_json
from validator.problems import Problem, ProblemsFound
from validator.resultcache import CACHE_VARIABLE, results_kept, working_on
from validator.ruleset import Ruleset, ScenarioError, search_book_folder

if TYPE_CHECKING:
    from validator.content.project import Project

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="validator", description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, default=Path("."), metavar="DIR",
                        help="folder holding rulebook.yml (default: the current folder)")
    parser.add_argument("--jobs", type=_job_count, metavar="N",
                        help=f"processes at work at once (default: one per core, or {JOBS_VARIABLE}); "
                        "1 works in one process, with the least memory and about twice the time")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    init = commands.add_parser("init", help="write a small working book into a new folder, to start from")
    init.add_argument("folder", type=Path, metavar="DIR", help="the new book's folder (new or empty)")
    init.set_defaults(handler=_init)

    check = commands.add_parser("check", help="verify the rulebook, its worked examples and catalogues")
    check.add_argument("--examples", type=Path, nargs="+", default=[], metavar="FILE",
                       help="also run the examples of these files (kept outside the rulebook)")
    _keeps_results(check)
    check.set_defaults(handler=_check)

    status = commands.add_parser("status", help="translated, fuzzy and untranslated messages per language "
                                 "and chapter")
    status.add_argument("--format", choices=("text", "json"), default="text")
    _chooses_language(status)
    status.set_defaults(handler=_status)

    lint = commands.add_parser("lint", help="run the translation lint alone (it is also part of check)")
    lint.add_argument("--format", choices=("text", "json"), default="text")
    _chooses_language(lint)
    _keeps_results(lint)
    lint.set_defaults(handler=_lint)

    scenarios = commands.add_parser("scenarios", help="list every scenario the rules core answers")
    scenarios.add_argument("--format", choices=("text", "json"), default="text")
    scenarios.set_defaults(handler=_scenarios)

    i18n = commands.add_parser("i18n", help="translation catalogues")
    i18n_commands = i18n.add_subparsers(dest="i18n_command", required=True, metavar="ACTION")
    update = i18n_commands.add_parser("update", help="regenerate the templates and merge them into every "
                                      "catalogue, keeping every translation")
    update.add_argument("--engine", action="store_true",
                        help="update the engine's own interface catalogues (validator/locale) instead of a book's")
    update.add_argument("--line-numbers", action="store_true",
                        help="write each rule text's line in its YAML file beside the file's name (by default the "
                        "name alone, so that an edit moving lines changes no other entry)")
    update.set_defaults(handler=_i18n_update)
    start = i18n_commands.add_parser("init", help="start the catalogues of a new language of rulebook.yml")
    start.add_argument("language", metavar="LANG", help="its code, as in rulebook.yml (e.g. de, pt_BR)")
    start.set_defaults(handler=_i18n_init)
    export = i18n_commands.add_parser("xliff-export", help="write one language's catalogues as XLIFF 1.2 for "
                                      "translation tools, with every msgctxt (xliff-import merges the work back)")
    export.add_argument("language", metavar="LANG", help="a translated language (e.g. es)")
    export.add_argument("--engine", action="store_true",
                        help="the engine's own catalogues (validator/locale: ui, lint) instead of a book's")
    export.add_argument("--domain", nargs="+", choices=("rules", "labels", "ui", "lint"), metavar="DOMAIN",
                        help="these catalogues alone: rules, labels, ui (with --engine: ui, lint); default: every "
                        "one the language has")
    export.add_argument("--output", type=Path, metavar="FILE", help="the file to write (default: the standard output)")
    export.set_defaults(handler=_i18n_xliff_export)
    merge = i18n_commands.add_parser("xliff-import", help="merge the translations, states and translator notes "
                                     "of an XLIFF file of xliff-export into the catalogues, changing nothing else")
    merge.add_argument("language", metavar="LANG", help="the language of the file (e.g. es)")
    merge.add_argument("file", type=Path, metavar="FILE", help="the XLIFF file, as the translation tool saved it")
    merge.add_argument("--clear-empty", action="store_true",
                       help="a unit without a translation (no <target>, or an empty one) empties the entry's; by "
                       "default such a unit leaves the entry as it was")
    merge.add_argument("--list", action="store_true", help="also list each unit: changed, kept or refused, and why")
    merge.set_defaults(handler=_i18n_xliff_import)

    tbx = commands.add_parser("glossary-tbx", help="write one language's glossary as TBX, for translators' "
                              "terminology tools (every build also writes it beside the open data)")
    tbx.add_argument("--language", required=True, metavar="CODE", help="a language of rulebook.yml (e.g. es)")
    tbx.add_argument("--output", type=Path, metavar="FILE", help="the file to write (default: the standard output)")
    tbx.set_defaults(handler=_glossary_tbx)

    calc = commands.add_parser("calc", help="compute a scenario's outcome from given input")
    calc.add_argument("scenario", help="a scenario name (see: validator scenarios)")
    calc.add_argument("--given", required=True, metavar="JSON", help='the input, e.g. \'{"dice": [2, 5]}\'')
    calc.add_argument("--variant", metavar="NAME", help="compute under a ruling variant instead of the adopted one")
    calc.add_argument("--format", choices=("text", "json"), default="text")
    calc.add_argument("--trace", action="store_true",
                      help="also list the steps the core took, each with the rules it applies (json always has them)")
    calc.set_defaults(handler=_calc)

    build = commands.add_parser("build", help="check, then build one site per language")
    build.add_argument("--site-dir", type=Path, default=Path("site"), metavar="DIR",
                       help="where the sites go (default: site/)")
    build.add_argument("--language", metavar="CODE", help="build only this language's site (one job per language)")
    _keeps_results(build)
    build.set_defaults(handler=_build)

    assemble = commands.add_parser("assemble", help="one site from the language sites of build --language jobs")
    assemble.add_argument("parts", nargs="+", type=Path, metavar="PART",
                          help="the --site-dir folder of each build --language job")
    assemble.add_argument("--site-dir", type=Path, default=Path("site"), metavar="DIR",
                          help="where the assembled site goes (default: site/)")
    _keeps_results(assemble)
    assemble.set_defaults(handler=_assemble)

    serve = commands.add_parser("serve", help="live preview that rebuilds when a YAML or .po file changes")
    serve.add_argument("--site-dir", type=Path, default=Path("site"), metavar="DIR",
                       help="where the sites go (default: site/)")
    serve.add_argument("--port", type=_port, default=8000,
                       help="port on 127.0.0.1, 1 to 65535, or 0 for any free one (default: 8000)")
    serve.set_defaults(handler=_serve)
    return parser


def _job_count(text: str) -> int:
    """``--jobs``: a whole number of processes, one at least."""
    count = job_count(text)
    if count is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of processes: give a whole number, 1 or more")
    return count


def _port(text: str) -> int:
    """A port to serve on, checked before anything is built: 0 asks for any free one."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535, or 0 for any free one)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (1 to 65535, or 0 for any free one)")
    return port


def _chooses_language(command: argparse.ArgumentParser) -> None:
    """The command may be limited to one translated language: what its translators act on."""
    command.add_argument("--language", metavar="CODE", help="this translated language alone (default: every one)")


def _unknown_language(command: str, code: str | None, project: Project) -> bool:
    """Whether ``--language`` names no translated language of the book (said in one line)."""
    codes = [language.code for language in project.translated_languages]
    if code is None or code in codes:
        return False
    print(f"validator {command}: unknown language '{code}'. Fix: use one of {', '.join(codes) or 'none'} "
          "(the translated languages of rulebook.yml)", file=sys.stderr)
    return True


def _keeps_results(command: argparse.ArgumentParser) -> None:
    """The command keeps what its checks made between runs (see validator.resultcache)."""
    command.add_argument("--no-cache", action="store_true",
                         help=f"neither use nor keep the results of earlier runs (or set {CACHE_VARIABLE} empty)")
    command.set_defaults(keeps_results=True)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    if sys.stdout is None:
        print("validator: error: the standard output is closed, and what the command says would be lost. Fix: "
              "run it with its output open (redirect it to a file, or to /dev/null to discard it)", file=sys.stderr)
        return EXIT_USAGE
    _fit_to_terminal(sys.stdout)
    try:
        jobs = jobs_setting(arguments.jobs, os.environ)
    except BadJobsSetting as error:
        print(f"validator: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    if jobs.note is not None:
        print(f"validator: note: {jobs.note}", file=sys.stderr)
    if jobs.count is not None:
        os.environ[JOBS_VARIABLE] = str(jobs.count)  # read by every part that runs jobs, forked ones too
    project = arguments.project.resolve()
    if not project.is_dir():
        print(f"validator: error: --project {arguments.project}: no such folder", file=sys.stderr)
        return EXIT_USAGE
    search_book_folder(project)
    working_on(project)
    keeping = (results_kept(project, enabled=not arguments.no_cache) if getattr(arguments, "keeps_results", False)
               else contextlib.nullcontext())
    try:
        with keeping:
            return int(arguments.handler(project, arguments))
    except ProblemsFound as found:
        _report(found)
        return EXIT_PROBLEMS
    except KeyboardInterrupt:
        return EXIT_PROBLEMS
    except BrokenPipeError:
        # The reader (a pager, head) went away: not an error of ours.
        sys.stderr.close()
        return EXIT_OK
    except OSError as error:
        # A file that vanished or became unreadable after the checks looked at it.
        where = error.filename if error.filename else "validator"
        print(f"{where}: cannot use the file ({error.strerror or error}). Fix: check the file and its "
              "permissions, then run again", file=sys.stderr)
        return EXIT_PROBLEMS
    except (RecursionError, MemoryError):
        print("validator: error: an input is too large or too deeply nested to process. Fix: simplify the "
              "file last edited", file=sys.stderr)
        return EXIT_PROBLEMS
    except Exception as error:
        text = " ".join(str(error).split())[:300]
        print(f"validator: internal error ({type(error).__name__}: {text}); please report it with the "
              "command and the input that caused it", file=sys.stderr)
        return EXIT_PROBLEMS


def run() -> NoReturn:
    """The installed command: :func:`main`, then out at once.  The process holds a
    whole rulebook's objects; freeing them one by one at exit costs a large book
    noticeable time, for nothing (the streams are flushed first, every file
    was closed where it was written)."""
    status = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):  # the reader went away, or the stream
            stream.flush()  # was closed by main or before the command started (None)
    os._exit(status)


def _fit_to_terminal(stream: object) -> None:
    """Write a character the stream's encoding lacks (``≈``, a translated name on an
    ASCII terminal, ``PYTHONIOENCODING=ascii``) as an escape rather than fail on it."""
    with contextlib.suppress(AttributeError, ValueError, OSError):
        if not _encodes(stream, "\U0010ffff"):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[attr-defined]


def _encodes(stream: object, text: str) -> bool:
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _report(found: ProblemsFound) -> None:
    for problem in found.problems:
        print(problem, file=sys.stderr)
    count = len(found.problems)
    print(f"{count} problem{'s' if count != 1 else ''} found.", file=sys.stderr)


def _init(_project: Path, arguments: argparse.Namespace) -> int:
    from validator.scaffold import refusal, write_book

    folder = arguments.folder
    refused = refusal(_absolute(folder))
    if refused is not None:
        print(f"validator: error: init {folder}: {refused[0]}. Fix: {refused[1]}", file=sys.stderr)
        return EXIT_USAGE
    try:
        written = write_book(_absolute(folder))
    except FileExistsError as error:
        print(f"validator: error: init {folder}: {error.filename} appeared while the book was written. Fix: "
              "give a folder nothing else writes to", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"validator: error: init {folder}: cannot write {error.filename or folder} "
              f"({error.strerror or error}). Fix: give a folder you may write to", file=sys.stderr)
        return EXIT_USAGE
    print(f"Wrote a new book of {len(written)} files to {folder}. Next: cd {folder}, then validator check "
          "and validator build.")
    return EXIT_OK


def _check(project: Path, _arguments: argparse.Namespace) -> int:
    from validator.checks.run import check_workspace
    from validator.workspace import load_workspace

    for path in _arguments.examples:
        wrong = _not_a_file(path)
        if wrong:
            print(f"validator: error: --examples {path}: {wrong}", file=sys.stderr)
            return EXIT_USAGE
    report = check_workspace(load_workspace(project), _arguments.examples)
    _report_warnings(report.warnings)
    if not report.ok:
        raise ProblemsFound(report.problems)
    print(f"{len(report.runs)} worked examples verified against the rules core; no problems.")
    return EXIT_OK


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` cannot be a file of examples, if it cannot: it is checked before the
    load, so that a folder, a FIFO or a device is named for what it is."""
    from validator.content.yamlsource import special_kind

    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "no such file. Fix: give the path of a YAML file of examples"
    except OSError as error:
        return f"cannot be read ({error.strerror or error}). Fix: check the path and its permissions"
    if stat.S_ISREG(mode):
        return None
    return f"is {special_kind(mode)}, not a file. Fix: give the path of a YAML file of examples"


def _report_warnings(warnings: Sequence[object]) -> None:
    if warnings:
        print(f"{len(warnings)} translation warning{'s' if len(warnings) != 1 else ''} "
              "(validator lint lists them).", file=sys.stderr)


def _status(project: Path, arguments: argparse.Namespace) -> int:
    from validator.content.status import Totals, status_json, translation_status
    from validator.workspace import load_workspace

    workspace = load_workspace(project)
    if _unknown_language("status", arguments.language, workspace.project):
        return EXIT_USAGE
    status = translation_status(workspace, arguments.language)
    if arguments.format == "json":
        print(json.dumps(status_json(status), indent=2))
        return EXIT_OK
    print(f"{'language':<9}{'domain':<8}{'chapter':<26}{'translated':>11}{'fuzzy':>7}{'untranslated':>14}{'done':>8}")
    for language, groups in status.items():
        rows = [(group.domain, group.group, Totals.of([group])) for group in groups]
        for domain, name, totals in [*rows, ("all", "", Totals.of(groups))]:
            print(f"{language:<9}{domain:<8}{name:<26}{totals.translated:>11}{totals.fuzzy:>7}"
                  f"{totals.untranslated:>14}{totals.percent:>7.1f}%")
    return EXIT_OK


def _lint(project: Path, arguments: argparse.Namespace) -> int:
    from validator.checks.lint import Severity
    from validator.checks.lintparts import lint_workspace
    from validator.checks.said import in_language, lint_translations
    from validator.workspace import load_workspace

    workspace = load_workspace(project)
    if _unknown_language("lint", arguments.language, workspace.project):
        return EXIT_USAGE
    # Said in the translator's language where the engine has it (--language, else the environment's).
    translations = lint_translations(arguments.language)
    findings = [dataclasses.replace(f, message=in_language(f.message, translations),
                                    fix=in_language(f.fix, translations))
                for f in lint_workspace(workspace, language=arguments.language)]
    if arguments.format == "json":
        print(json.dumps([{"file": f.file, "line": f.line, "msgctxt": f.context, "check": f.check,
                           "severity": str(f.severity), "message": f.message, "fix": f.fix} for f in findings],
                         indent=2, ensure_ascii=False))
    else:
        for finding in findings:
            print(finding)
        errors = sum(1 for f in findings if f.severity is Severity.ERROR)
        print(f"{errors} error{'s' if errors != 1 else ''}, {len(findings) - errors} "
              f"warning{'s' if len(findings) - errors != 1 else ''}.")
    return EXIT_PROBLEMS if any(f.severity is Severity.ERROR for f in findings) else EXIT_OK


def _i18n_update(project: Path, arguments: argparse.Namespace) -> int:
    from validator.i18n import update_catalogs, update_engine_catalogs
    from validator.site.output import OutputError
    from validator.site.reproducible import build_epoch

    try:
        build_epoch()  # the date an update stamps: refused as the build refuses it
    except OutputError as error:
        print(error.line, file=sys.stderr)
        return error.exit_code
    for update in update_engine_catalogs() if arguments.engine else update_catalogs(project, arguments.line_numbers):
        print(f"{update.path}: {update.messages} messages, {update.fuzzy} fuzzy, "
              f"{update.untranslated} untranslated, {update.obsolete} obsolete")
    return EXIT_OK


def _i18n_init(project: Path, arguments: argparse.Namespace) -> int:
    from validator.content.newlanguage import init_refusal
    from validator.content.project import load_project
    from validator.i18n import update_catalogs
    from validator.site.output import OutputError
    from validator.site.reproducible import build_epoch

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


def _i18n_xliff_export(project: Path, arguments: argparse.Namespace) -> int:
    from validator.content.catalogs import read_catalog
    from validator.content.interface import engine_languages
    from validator.content.project import load_project
    from validator.content.xliff import Exported, export_xliff
    from validator.i18n import ENGINE_DOMAINS, language_catalogs

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
    output = None if arguments.output is None else _absolute(arguments.output)
    wrong = None if output is None else _not_a_new_file(output, "es.xlf")
    if wrong is not None:
        print(f"validator i18n xliff-export: --output {arguments.output}: {wrong}", file=sys.stderr)
        return EXIT_USAGE
    data = export_xliff([Exported(catalog.domain, catalog.name, read_catalog(catalog.path, catalog.name))
                         for catalog in catalogs if catalog.domain in (arguments.domain or [catalog.domain])],
                        source, code)
    _write_output(data, output)
    return EXIT_OK


def _i18n_xliff_import(project: Path, arguments: argparse.Namespace) -> int:
    from validator.content.merge import write_bytes_atomically
    from validator.content.project import PROJECT_FILE
    from validator.content.xliff import CHANGED, KEPT, REFUSED, import_xliff
    from validator.content.yamlsource import read_input
    from validator.i18n import language_catalogs
    from validator.problems import printable

    code, shown = arguments.language, str(arguments.file)
    books = [*language_catalogs(project, code)] if (project / PROJECT_FILE).is_file() else []
    catalogs = {catalog.name: catalog.path for catalog in [*books, *language_catalogs(project, code, engine=True)]}
    imported = import_xliff(read_input(_absolute(arguments.file), shown), shown, code, catalogs,
                            clear_empty=arguments.clear_empty)
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
        _report(ProblemsFound(imported.problems))
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


def _glossary_tbx(project: Path, arguments: argparse.Namespace) -> int:
    from validator.content.project import load_project
    from validator.site.api import glossary_tbx
    from validator.workspace import load_workspace

    # Both arguments are judged before the whole book is loaded, each in one line.
    codes = [language.code for language in load_project(project).languages]
    if arguments.language not in codes:
        print(f"validator glossary-tbx: unknown language '{arguments.language}'. Fix: use one of {', '.join(codes)} "
              "(the languages of rulebook.yml)", file=sys.stderr)
        return EXIT_USAGE
    output = None if arguments.output is None else _absolute(arguments.output)
    wrong = None if output is None else _not_a_new_file(output)
    if wrong is not None:
        print(f"validator glossary-tbx: --output {arguments.output}: {wrong}", file=sys.stderr)
        return EXIT_USAGE
    data = glossary_tbx(load_workspace(project, keep_catalogs=False), arguments.language)
    _write_output(data, output)
    return EXIT_OK


def _write_output(data: bytes, output: Path | None) -> None:
    """A file a command makes for another tool: to the standard output as bytes, or
    to ``output`` whole (a crash leaves no half of it for the tool to read)."""
    from validator.content.merge import write_bytes_atomically

    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        write_bytes_atomically(data, output)


def _not_a_new_file(path: Path, example: str = "glossary.tbx") -> str | None:
    """Why ``path`` cannot be written as a file, if it cannot: a folder, or a place
    whose folder does not exist, is named for what it is."""
    if path.is_dir():
        return f"is a folder. Fix: give the path of a file, such as {example}"
    if not path.parent.is_dir():
        return f"there is no folder {path.parent}. Fix: create it, or give a file in a folder that exists"
    return None


def _load_ruleset(project: Path) -> Ruleset:
    from validator.content.project import load_project, load_rules_core

    return load_rules_core(project, load_project(project))


def _scenarios(project: Path, arguments: argparse.Namespace) -> int:
    ruleset = _load_ruleset(project)
    described = [scenario.describe() for scenario in ruleset.scenarios]
    if arguments.format == "json":
        print(json.dumps({"scenarios": described, "variants": sorted(ruleset.variants)}, indent=2,
                         ensure_ascii=False))
        return EXIT_OK
    for entry in described:
        print(f"{entry['name']}: {entry['summary']}")
        print(f"  rules:   {', '.join(entry['rule_ids'])}")
        for name, spec in entry["inputs"].items():
            optional = "" if spec["required"] else f" (optional, default {json.dumps(spec.get('default'))})"
            print(f"  input    {name}: {_schema_text(spec)}{optional}")
        for name, kind in entry["outcome"].items():
            print(f"  outcome  {name}: {kind}")
    print(f"variants: {', '.join(sorted(ruleset.variants)) or 'none'}")
    return EXIT_OK


def _schema_text(spec: dict[str, object]) -> str:
    """A JSON schema fragment in a few words: type, range, allowed values."""
    if "enum" in spec:
        return " | ".join(json.dumps(value) for value in spec["enum"])  # type: ignore[attr-defined]
    if "anyOf" in spec:
        return " | ".join(_schema_text(option) for option in spec["anyOf"])  # type: ignore[attr-defined]
    text = str(spec.get("type", "any"))
    if "minimum" in spec or "maximum" in spec:
        text += f" {spec.get('minimum', '')}..{spec.get('maximum', '')}"
    if isinstance(spec.get("items"), dict):
        text += f" of {_schema_text(spec['items'])}"  # type: ignore[arg-type]
    elif isinstance(spec.get("prefixItems"), list):
        text += " of (" + ", ".join(_schema_text(item) for item in spec["prefixItems"]) + ")"  # type: ignore[attr-defined]
    return text


MAX_GIVEN_CHARACTERS = 10_000
"""A --given longer than this is no game situation; refused before parsing."""


def _parse_given(text: str) -> dict[str, object] | str:
    """The --given object, or the one line saying why it is not usable.

    Python's JSON parser raises ValueError for an integer of thousands of digits and
    RecursionError for arrays nested thousands deep; both are bad usage here."""
    if len(text) > MAX_GIVEN_CHARACTERS:
        return f"--given is {len(text)} characters long (allowed: up to {MAX_GIVEN_CHARACTERS})"

    def integer(digits: str) -> int:
        if len(digits.lstrip("-")) > 15:
            raise ValueError(f"an integer of {len(digits.lstrip('-'))} digits is beyond any game value")
        return int(digits)

    def constant(name: str) -> object:
        raise ValueError(f"{name} is not a number a game uses")

    def unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
        given = dict(pairs)
        if len(given) < len(pairs):
            seen: set[str] = set()
            twice = next(name for name, _value in pairs if name in seen or seen.add(name))  # type: ignore[func-returns-value]
            raise ValueError(f"the key {twice!r} is given twice (JSON keeps only the last); give each key once")
        return given

    try:
        given = json.loads(text, parse_int=integer, parse_constant=constant, object_pairs_hook=unique)
    except json.JSONDecodeError as error:
        return f"--given is not valid JSON ({error.msg} at column {error.colno})"
    except RecursionError:
        return "--given is nested too deeply"
    except ValueError as error:
        return f"--given: {error}"
    if not isinstance(given, dict):
        return "--given must be a JSON object, e.g. '{\"hits\": 3}'"
    return given


def _calc(project: Path, arguments: argparse.Namespace) -> int:
    ruleset = _load_ruleset(project)
    given = _parse_given(arguments.given)
    if isinstance(given, str):
        print(f"validator: error: {given}", file=sys.stderr)
        return EXIT_USAGE
    try:
        outcome, steps = ruleset.run_traced(arguments.scenario, given, arguments.variant)
    except ScenarioError as error:
        print(f"validator: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    if arguments.format == "json":
        print(json.dumps({"scenario": arguments.scenario, "variant": arguments.variant, "given": given,
                          "outcome": to_json(outcome), "trace": [step.as_json() for step in steps]},
                         indent=2, ensure_ascii=False))
        return EXIT_OK
    for name, value in outcome.items():
        print(f"{name}: {_value_text(value)}")
    if arguments.trace and steps:
        print("steps:")
    for step in steps if arguments.trace else ():
        arguments_text = ", ".join(f"{key}={_value_text(value)}" for key, value in step.params.items())
        print(f"{'  ' * step.depth}- {step.text} [{', '.join(step.rules)}] "
              f"{step.key}({arguments_text}) -> {_value_text(step.result)}")
    return EXIT_OK


def _value_text(value: object) -> str:
    """A value for a terminal: fractions also as a decimal, so an editor can sanity-check."""
    if isinstance(value, Fraction):
        about = "≈" if _encodes(sys.stdout, "≈") else "~"
        return str(value) if value.denominator == 1 else f"{value} ({about} {float(value):.4f})"
    if isinstance(value, dict):
        return "; ".join(f"{key}: {_value_text(item)}" for key, item in value.items())
    if isinstance(value, list):
        return ", ".join(_value_text(item) for item in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _absolute(path: Path) -> Path:
    """A path given on the command line, against the folder the command runs in."""
    return path if path.is_absolute() else Path.cwd() / path


def _refuse_on_problems(problems: Sequence[Problem], not_done: str) -> None:
    if problems:
        print(f"Checks failed; the site was not {not_done}.", file=sys.stderr)
        raise ProblemsFound(problems)


def _build(project: Path, arguments: argparse.Namespace) -> int:
    from validator.site.build import ChecksFailed, check_and_build
    from validator.site.output import OutputError, check_site_dir, project_inputs
    from validator.site.reproducible import build_epoch
    from validator.workspace import load_workspace

    # The pages read the compact catalogues: the parsed ones are let go (see
    # validator.content.parsedcatalogs), and the lint, in a job of its own, makes its language's again.
    workspace = load_workspace(project, keep_catalogs=False)
    codes = [language.code for language in workspace.project.languages]
    if arguments.language is not None and arguments.language not in codes:
        print(f"validator build: unknown language '{arguments.language}'. Fix: use one of {', '.join(codes)} "
              f"(the languages of rulebook.yml)", file=sys.stderr)
        return EXIT_USAGE
    site_dir = _absolute(arguments.site_dir)
    try:
        # Refuse a place the build may not write before spending time on the check.
        check_site_dir(site_dir, project, project_inputs(project, workspace.project))
        build_epoch()
        try:
            built = check_and_build(workspace, site_dir, arguments.language)
        except ChecksFailed as failed:
            _report_warnings(failed.warnings)
            _refuse_on_problems(failed.problems, "built")
            raise
        _report_warnings(built.warnings)
    except OutputError as error:
        print(error.line, file=sys.stderr)
        return error.exit_code
    for folder in built.folders:
        print(f"built {folder}")
    return EXIT_OK


def _assemble(project: Path, arguments: argparse.Namespace) -> int:
    from validator.checks.run import check_workspace
    from validator.site.build import assemble_sites, language_parts
    from validator.site.output import OutputError, check_site_dir, project_inputs
    from validator.site.reproducible import build_epoch
    from validator.workspace import load_workspace

    workspace = load_workspace(project)
    parts = [_absolute(part) for part in arguments.parts]
    site_dir = _absolute(arguments.site_dir)
    try:
        check_site_dir(site_dir, project, project_inputs(project, workspace.project))
        build_epoch()
        language_parts(workspace, parts)  # every language once, before the check's time is spent
        # The open data carries the checked outcomes of the examples: the check runs again here.
        report = check_workspace(workspace)
        _refuse_on_problems(report.problems, "assembled")
        folders = assemble_sites(workspace, report, parts, site_dir)
    except OutputError as error:
        print(error.line, file=sys.stderr)
        return error.exit_code
    for folder in folders:
        print(f"assembled {folder}")
    return EXIT_OK


def _serve(project: Path, arguments: argparse.Namespace) -> int:
    from validator.site.serve import serve

    site_dir = _absolute(arguments.site_dir)
    return serve(project, site_dir, arguments.port)


if __name__ == "__main__":
    sys.exit(main())
