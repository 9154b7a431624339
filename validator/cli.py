"""The ``validator`` command: check, build and preview a rules reference.

Exit status: 0 when all is well, 1 when checks find problems, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from validator.problems import ProblemsFound

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="validator", description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, default=Path("."), metavar="DIR",
                        help="folder holding rulebook.yml (default: the current folder)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="verify the rulebook, its worked examples and catalogues")
    check.set_defaults(handler=_check)

    build = commands.add_parser("build", help="check, then build one site per language")
    build.add_argument("--site-dir", type=Path, default=Path("site"), metavar="DIR",
                       help="where the sites go (default: site/)")
    build.set_defaults(handler=_build)

    serve = commands.add_parser("serve", help="live preview that rebuilds when a YAML or .po file changes")
    serve.add_argument("--site-dir", type=Path, default=Path("site"), metavar="DIR",
                       help="where the sites go (default: site/)")
    serve.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000)")
    serve.set_defaults(handler=_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    project = arguments.project.resolve()
    if not project.is_dir():
        print(f"validator: error: --project {arguments.project}: no such folder", file=sys.stderr)
        return EXIT_USAGE
    try:
        return int(arguments.handler(project, arguments))
    except ProblemsFound as found:
        _report(found)
        return EXIT_PROBLEMS
    except KeyboardInterrupt:
        return EXIT_PROBLEMS


def _report(found: ProblemsFound) -> None:
    for problem in found.problems:
        print(problem, file=sys.stderr)
    count = len(found.problems)
    print(f"{count} problem{'s' if count != 1 else ''} found.", file=sys.stderr)


def _check(project: Path, _arguments: argparse.Namespace) -> int:
    from validator.checks.run import check_workspace
    from validator.workspace import load_workspace

    report = check_workspace(load_workspace(project))
    if not report.ok:
        raise ProblemsFound(report.problems)
    print(f"{len(report.runs)} worked examples verified against the rules core; no problems.")
    return EXIT_OK


def _build(project: Path, arguments: argparse.Namespace) -> int:
    from validator.checks.run import check_workspace
    from validator.site.build import build_sites
    from validator.workspace import load_workspace

    workspace = load_workspace(project)
    report = check_workspace(workspace)
    if not report.ok:
        print("Checks failed; the site was not built.", file=sys.stderr)
        raise ProblemsFound(report.problems)
    site_dir = arguments.site_dir if arguments.site_dir.is_absolute() else Path.cwd() / arguments.site_dir
    for folder in build_sites(workspace, report, site_dir):
        print(f"built {folder}")
    return EXIT_OK


def _serve(project: Path, arguments: argparse.Namespace) -> int:
    from validator.site.serve import serve

    site_dir = arguments.site_dir if arguments.site_dir.is_absolute() else Path.cwd() / arguments.site_dir
    return serve(project, site_dir, arguments.port)


if __name__ == "__main__":
    sys.exit(main())
