"""Live preview: build, serve on localhost, rebuild when content or catalogues change.

MkDocs' own live-reload server does the serving, watching and browser reload; the
builder it calls is the same check-then-build that ``validator build`` runs, so
a preview never shows a page that the real build would refuse.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.livereload import LiveReloadServer

from validator.checks.run import check_workspace
from validator.content.project import load_project
from validator.problems import ProblemsFound
from validator.site.build import build_sites
from validator.site.output import OutputError, check_site_dir, project_inputs
from validator.site.reproducible import build_epoch
from validator.workspace import load_workspace

EXIT_OK = 0
EXIT_PROBLEMS = 1


def rebuild(project: Path, site_dir: Path) -> bool:
    """Check and build once; on problems print them and keep the previous site."""
    try:
        workspace = load_workspace(project)
        report = check_workspace(workspace)
        if not report.ok:
            raise ProblemsFound(report.problems)
        build_sites(workspace, report, site_dir)
    except ProblemsFound as found:
        for problem in found.problems:
            print(problem, file=sys.stderr)
        print("Not rebuilt: the preview still shows the last good build.", file=sys.stderr, flush=True)
        return False
    except OutputError as error:
        print(error.line, file=sys.stderr)
        print("Not rebuilt: the preview still shows the last good build.", file=sys.stderr, flush=True)
        return False
    print(f"Rebuilt {site_dir}", flush=True)
    return True


def watched_paths(project: Path) -> list[Path]:
    from validator.content.project import PROJECT_FILE

    settings = load_project(project)
    return [project / PROJECT_FILE, project / settings.content_dir, project / settings.locales_dir,
            project / settings.mkdocs_config]


def serve(project: Path, site_dir: Path, port: int) -> int:
    """Serve ``site_dir``, refusing up front a place ``validator build`` would refuse too."""
    try:
        site_dir = check_site_dir(site_dir, project, project_inputs(project, load_project(project)))
        build_epoch()
    except OutputError as error:
        print(error.line, file=sys.stderr)
        return error.exit_code
    except ProblemsFound as found:
        for problem in found.problems:
            print(problem, file=sys.stderr)
        return EXIT_PROBLEMS
    rebuild(project, site_dir)
    def builder() -> None:
        rebuild(project, site_dir)

    server = LiveReloadServer(builder=builder, host="127.0.0.1", port=port, root=str(site_dir))
    for path in watched_paths(project):
        if path.exists():
            server.watch(str(path))
    print(f"Serving on http://127.0.0.1:{port}/ (Ctrl+C to stop)", flush=True)
    try:
        server.serve()  # type: ignore[no-untyped-call]
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return EXIT_OK
