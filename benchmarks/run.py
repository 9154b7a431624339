"""Speed and memory of ``validator`` against the usual ways, side by side in one run.

    python benchmarks/run.py --rules 1000            # one size
    python benchmarks/run.py --sizes 100,1000,3000   # how each measure grows
    python benchmarks/run.py --rules 100 --skip static-i18n --skip preview   # the quick way (CI)

For each size a synthetic rulebook is generated (``benchmarks/generate.py``: the
bundled chapters copied under new ids, catalogues complete) and measured, each
command in a fresh process, with its peak memory (the whole process tree's):

- ``build``: ``validator build`` of every language (check included);
- ``build-one-job``: the same with ``--jobs 1``, every job in the one process:
  the way to build where memory is short;
- ``bare``: MkDocs alone building the same pages, already rendered, one process per
  language; seconds summed, memory the largest.  Plain MkDocs parses the finished
  HTML (rule texts, parallel text, worked examples), which the build hands over
  unparsed (``validator.site.prerendered``): the same site, byte for byte, in less time;
- ``static-i18n``: mkdocs-static-i18n building those same pages in every language,
  with its defaults (installed from PyPI into a virtual environment of its own
  under the cache folder, the first time);
- ``check``: ``validator check``, the first run (nothing kept from an earlier one);
- ``check-edit``: ``validator check`` again after an edit (a rule's title in a YAML
  file and one in a catalogue), with what the round's first check kept (``validator.resultcache``):
  an editor's check.  Every other command runs with the book's kept results removed
  first, so the build is measured cold, as MkDocs and static-i18n are (the search's
  lemmas, kept beside them, stay: see the manual's page on the built site);
- ``rebuild-none``: ``validator build`` again into the site of the cold build, nothing
  changed (see the manual's page on the pipeline: Incremental builds);
- ``rebuild-edit``: ``validator build`` again into that site after a one-rule edit: the
  rule's title of ``check-edit`` and its Spanish title, each with a word new to the
  search's dictionaries;
- ``preview``: ``validator serve``: seconds from saving a rule's title in a YAML file,
  and then a title in a catalogue, to the served page showing it (the larger counts).

Each of the ``--repeat`` rounds runs every measure but the preview once, in the order
above but the checks first, and each measure keeps its best round: a slow spell of
the machine then falls on every measure alike, not on the one it happened to meet.

The package measured is compiled to bytecode first, as installing it does: MkDocs
and static-i18n are installed packages, and a clone run with PYTHONDONTWRITEBYTECODE
set would compile each of its modules again in every command.

Each ratio is printed as ``ratio NAME VALUE`` (``n/a`` when a measure was skipped).
Ratios, not seconds, are what to compare between machines.  ``--json FILE`` keeps
the figures and the machine they came from, and writes the manual's performance page
from them (``--page``, ``benchmarks/performance.py``); ``--markdown`` prints the tables.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from generate import generate  # noqa: E402
from performance import CORE, MEASURES, PAGE, RATIOS, core_table, show, table, write_page  # noqa: E402

BARE_MKDOCS = "import sys\nfrom mkdocs.commands.build import build\nfrom mkdocs.config import load_config\n" \
              "build(load_config(sys.argv[1]))\n"


@dataclass
class Measure:
    seconds: float
    peak_kib: int
    cpu_seconds: float = 0.0
    """User and system time of the process and its workers: on a busy machine the
    wall-clock seconds say little, and this says how much work was done."""


@dataclass
class SizeResult:
    rules: int
    measures: dict[str, Measure] = field(default_factory=dict)
    ratios: dict[str, float | None] = field(default_factory=dict)
    details: dict[str, float] = field(default_factory=dict)


# --- measuring a process tree -------------------------------------------------------------------

def _children(pid: int) -> list[int]:
    found = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as handle:
                found.extend(int(child) for child in handle.read().split())
    return found


def _tree_kib(pid: int) -> int:
    """Proportional set size of ``pid`` and its descendants (shared pages counted once)."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        pending.extend(_children(current))
        with contextlib.suppress(OSError), open(f"/proc/{current}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
    return total


def _high_water_kib(pid: int) -> int:
    """The process's own peak resident memory (VmHWM: its address space's, so it
    starts afresh at exec)."""
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def run_measured(command: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None) -> Measure:
    """Seconds and peak memory (KiB) of ``command``: the largest of the process's own
    peak (sampled) and the sampled proportional memory of its whole tree (worker processes)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    peak = 0
    high_water = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak, high_water
        while not done.is_set():
            peak = max(peak, _tree_kib(process.pid))
            high_water = max(high_water, _high_water_kib(process.pid))
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    done.set()
    sampler.join()
    if process.returncode != 0:
        tail = output.decode("utf-8", "replace").strip().splitlines()[-5:]
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n" + "\n".join(tail))
    # Not ru_maxrss: Linux carries it over from the parent across fork and exec, so every
    # command would seem to use at least what this process holds.
    return Measure(elapsed, max(peak, high_water), usage.ru_utime + usage.ru_stime)


def best(measures: list[Measure]) -> Measure:
    return Measure(min(m.seconds for m in measures), max(m.peak_kib for m in measures),
                   min(m.cpu_seconds for m in measures))


# --- the baselines ------------------------------------------------------------------------------

def prepare_pages(project: Path, folder: Path) -> dict[str, Path]:
    """Render every language's pages once, as ``validator build`` does, and write the
    MkDocs configuration that builds each; returns language -> configuration."""
    from validator.catalogs.status import translation_status
    from validator.checks.run import check_workspace
    from validator.site.build import write_config, write_docs
    from validator.workspace import load_workspace

    workspace = load_workspace(project)
    report = check_workspace(workspace)
    status = translation_status(workspace)
    configs = {}
    for language in workspace.project.languages:
        docs = folder / f"docs-{language.code}"
        write_docs(workspace, report, status, language.code, docs)
        configs[language.code] = write_config(workspace, language.code, docs, folder / f"bare-{language.code}",
                                              folder / f"mkdocs-{language.code}.yml")
    return configs


def static_i18n_python(cache: Path) -> Path:
    """A virtual environment with mkdocs-static-i18n and the MkDocs and Material
    versions this project uses, made once under ``cache``."""
    from importlib.metadata import version

    venv = cache / "static-i18n-venv"
    python = venv / "bin" / "python"
    wanted = [f"mkdocs=={version('mkdocs')}", f"mkdocs-material=={version('mkdocs-material')}",
              "mkdocs-static-i18n>=1.2,<2"]
    stamp = venv / "installed.txt"
    if stamp.exists() and stamp.read_text() == "\n".join(wanted):
        return python
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *wanted], check=True)
    stamp.write_text("\n".join(wanted))
    return python


def prepare_static_i18n(project: Path, configs: dict[str, Path], folder: Path) -> Path:
    """The same pages as one docs folder in mkdocs-static-i18n's default layout
    (``page.<lang>.md``), with the same theme and extensions."""
    import yaml  # type: ignore[import-untyped]

    from validator.site.build import config_text

    docs = folder / "docs-i18n"
    docs.mkdir()
    languages = list(configs)
    source = yaml.safe_load(configs[languages[0]].read_text(encoding="utf-8"))
    for code in languages:
        for page in (folder / f"docs-{code}").glob("*.md"):
            shutil.copyfile(page, docs / f"{page.stem}.{code}.md")
    shutil.copytree(folder / f"docs-{languages[0]}" / "assets", docs / "assets")

    def suffixed(nav: object) -> object:
        if isinstance(nav, str):
            return nav
        if isinstance(nav, list):
            return [suffixed(item) for item in nav]
        assert isinstance(nav, dict)
        return {title: suffixed(page) for title, page in nav.items()}

    config = {
        "INHERIT": source["INHERIT"],
        "site_name": source["site_name"],
        "docs_dir": str(docs),
        "site_dir": str(folder / "static-i18n-site"),
        "theme": {"name": "material"},
        "nav": suffixed(source["nav"]),
        "extra_css": source["extra_css"],
        "extra_javascript": source["extra_javascript"],
        "plugins": [{"i18n": {"docs_structure": "suffix", "languages": [
            {"locale": code, "name": code, "build": True, "default": code == languages[0]} for code in languages]}}],
    }
    path = folder / "mkdocs-i18n.yml"
    path.write_text(config_text(config), encoding="utf-8")
    return path


# --- the live preview ---------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            return str(response.read().decode("utf-8", "replace"))
    except (urllib.error.URLError, OSError):
        return ""


def wait_for(url: str, needle: str, timeout: float) -> float:
    """Seconds until the page at ``url`` contains ``needle``."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if needle in fetch(url):
            return time.perf_counter() - start
        time.sleep(0.02)
    raise SystemExit(f"preview: {url} did not show {needle!r} within {timeout:.0f} s")


def first_chapter(project: Path) -> tuple[Path, str]:
    path = sorted((project / "docs" / "rules").glob("*.yml"))[0]
    match = re.search(r"^chapter:\s*\n\s+id:\s*([a-z0-9-]+)", path.read_text(encoding="utf-8"), re.MULTILINE)
    assert match is not None
    return path, match.group(1)


def edit_rule_title(project: Path, mark: str) -> str:
    """Append ``mark`` to the first rule's title of the first chapter file, as an
    editor would; returns the chapter's id."""
    chapter_file, chapter_id = first_chapter(project)
    text = chapter_file.read_text(encoding="utf-8")
    rule_title = re.compile(r"^(    title: )(.+)$", re.MULTILINE)
    chapter_file.write_text(rule_title.sub(rf"\1\2 {mark}", text, count=1), encoding="utf-8")
    return chapter_id


def edit_spanish_title(project: Path, entry_id: str, mark: str) -> None:
    """Append ``mark`` to the title of ``entry_id`` (a chapter, a rule) in the Spanish
    catalogue, as a translator would."""
    catalogue = project / "locales" / "es" / "LC_MESSAGES" / "rules.po"
    po = catalogue.read_text(encoding="utf-8")
    entry = re.compile(rf'(msgctxt "{re.escape(entry_id)}#title"\nmsgid "[^\n]*"\nmsgstr ")([^\n]*)"')
    edited, count = entry.subn(rf'\1\2 {mark}"', po, count=1)
    if count != 1:
        raise SystemExit(f"no one-line Spanish title for {entry_id} in {catalogue}")
    catalogue.write_text(edited, encoding="utf-8")


def first_rule(project: Path) -> str:
    """The id of the first rule of the first chapter file (the one :func:`edit_rule_title` edits)."""
    path, _chapter_id = first_chapter(project)
    match = re.search(r"^  - id:\s*([a-z0-9/-]+)", path.read_text(encoding="utf-8"), re.MULTILINE)
    assert match is not None
    return match.group(1)


def measure_preview(project: Path, folder: Path) -> tuple[float, float, int]:
    """Seconds from saving a YAML file, then a catalogue, to the served page showing
    the change; and the server's peak memory."""
    port = free_port()
    site = folder / "preview-site"
    log = (folder / "preview.log").open("wb")
    server = subprocess.Popen([sys.executable, "-m", "validator", "--project", str(project), "serve",
                               "--site-dir", str(site), "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        chapter_id = first_chapter(project)[1]
        base = f"http://127.0.0.1:{port}"
        wait_for(f"{base}/en/{chapter_id}.html", "</html>", 900)
        time.sleep(1.0)  # let the watcher settle after the first build
        edit_rule_title(project, "Zyxwvu")
        yaml_seconds = wait_for(f"{base}/en/{chapter_id}.html", "Zyxwvu", 900)
        edit_spanish_title(project, chapter_id, "Qwerty")
        catalogue_seconds = wait_for(f"{base}/es/{chapter_id}.html", "Qwerty", 900)
        peak = _tree_kib(server.pid)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
    return yaml_seconds, catalogue_seconds, peak


# --- one size -----------------------------------------------------------------------------------

def after_edit(project: Path, command: list[str], attempt: int, one_rule: bool = False) -> Measure:
    """``command`` with what the run before it kept, after an edit of a rule's title
    (YAML) and of its chapter's title in the Spanish catalogue, or with ``one_rule``,
    of that rule's own Spanish title (a chapter's title is in the navigation of every
    page); the files are put back after it.  The words added are new each round."""
    chapter_file, _ = first_chapter(project)
    catalogue = project / "locales" / "es" / "LC_MESSAGES" / "rules.po"
    originals = {path: path.read_bytes() for path in (chapter_file, catalogue)}
    mark = "".join(chr(ord("a") + int(digit)) for digit in str(attempt))  # a number would be a lint error
    try:
        chapter_id = edit_rule_title(project, f"Edited{mark}")
        edit_spanish_title(project, first_rule(project) if one_rule else chapter_id, f"Editado{mark}")
        return run_measured(command)
    finally:
        for path, data in originals.items():
            path.write_bytes(data)


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


def measure_size(rules: int, repeat: int, skip: set[str], cache: Path, source: Path = ROOT,
                 log: bool = True) -> SizeResult:
    with tempfile.TemporaryDirectory(prefix="validator-bench-") as scratch:
        folder = Path(scratch)
        project = folder / "project"
        result = SizeResult(generate(project, rules, source))
        validator = [sys.executable, "-m", "validator", "--project", str(project)]

        def note(name: str) -> None:
            if log:
                measure = result.measures[name]
                print(f"  {rules} rules: {name} {measure.seconds:.2f} s, {measure.peak_kib / 1024:.0f} MiB, "
                      f"{measure.cpu_seconds:.2f} cpu-s",
                      file=sys.stderr, flush=True)

        from validator.resultcache import cache_folder

        kept = cache_folder(project)  # this book's results; the search's lemmas stay warm beside them

        def forget_results() -> None:
            if kept is not None:
                shutil.rmtree(kept, ignore_errors=True)

        def cold(command: list[str]) -> Measure:
            """``command`` with no results kept from an earlier run."""
            forget_results()
            return run_measured(command)

        # Every repeat is a round of every measure in turn: the machine's speed drifts
        # within a run, and a drift then falls on each measure alike (measured one after
        # the other, a slow spell falls on one measure and skews its ratios).
        configs = prepare_pages(project, folder) if not {"bare", "static-i18n"} <= skip else {}
        static_config = (prepare_static_i18n(project, configs, folder), static_i18n_python(cache)) \
            if "static-i18n" not in skip else None
        samples: dict[str, list[Measure]] = {}
        per_language: dict[str, list[Measure]] = {language: [] for language in configs}
        for attempt in range(repeat):
            if not {"check", "check-edit"} <= skip:
                samples.setdefault("check", []).append(cold([*validator, "check"]))  # its results stay
            if "check-edit" not in skip:
                samples.setdefault("check-edit", []).append(after_edit(project, [*validator, "check"], attempt))
            for name, options in (("build", []), ("build-one-job", ["--jobs", "1"])):
                if name not in skip:
                    site = folder / f"site-{attempt}"
                    build = [*validator, *options, "build", "--site-dir", str(site)]
                    samples.setdefault(name, []).append(cold(build))
                    if name == "build" and "rebuild-none" not in skip:
                        samples.setdefault("rebuild-none", []).append(run_measured(build))
                    if name == "build" and "rebuild-edit" not in skip:
                        # Words new to the dictionaries each round: the attempts after the
                        # check's edit (its own words are then known).
                        samples.setdefault("rebuild-edit", []).append(after_edit(project, build, attempt + repeat,
                                                                                 one_rule=True))
                    shutil.rmtree(site)
            if "bare" not in skip:
                for language, config in configs.items():
                    per_language[language].append(run_measured([sys.executable, "-c", BARE_MKDOCS, str(config)]))
            if static_config is not None:
                config, python = static_config
                samples.setdefault("static-i18n", []).append(run_measured([str(python), "-c", BARE_MKDOCS,
                                                                           str(config)]))
        for name in MEASURES:
            if name in samples and name not in skip:
                result.measures[name] = best(samples[name])
                note(name)
            elif name == "bare" and "bare" not in skip:
                languages = [best(measures) for measures in per_language.values()]
                result.measures["bare"] = Measure(sum(m.seconds for m in languages),
                                                  max(m.peak_kib for m in languages),
                                                  sum(m.cpu_seconds for m in languages))
                note("bare")
        forget_results()
        if "preview" not in skip:
            yaml_seconds, catalogue_seconds, peak = measure_preview(project, folder)
            result.measures["preview"] = Measure(max(yaml_seconds, catalogue_seconds), peak)
            result.details.update(preview_yaml_seconds=yaml_seconds, preview_catalogue_seconds=catalogue_seconds)
            note("preview")
    seconds = {name: m.seconds for name, m in result.measures.items()}
    build, bare = seconds.get("build"), seconds.get("bare")

    def memory_over_bare(name: str) -> float | None:
        if name not in result.measures or "bare" not in result.measures:
            return None
        return ratio(result.measures[name].peak_kib, result.measures["bare"].peak_kib)

    result.ratios = {
        "build_over_bare": ratio(build, bare),
        "static_i18n_over_build": ratio(seconds.get("static-i18n"), build),
        "check_over_build": ratio(seconds.get("check"), build),
        "check_edit_over_build": ratio(seconds.get("check-edit"), build),
        "rebuild_edit_over_build": ratio(seconds.get("rebuild-edit"), build),
        "rebuild_none_over_build": ratio(seconds.get("rebuild-none"), build),
        "memory_over_bare": memory_over_bare("build"),
        "memory_one_job_over_bare": memory_over_bare("build-one-job"),
        "preview_seconds": seconds.get("preview"),
    }
    return result


# --- the rules core -----------------------------------------------------------------------------

def measure_core(repeat: int = 5) -> dict[str, float | None]:
    """Best of ``repeat`` runs of the 60-shot volley, ours and icepool's (the
    distributions are compared, so a fast wrong answer cannot pass); icepool is a
    test dependency: without it that ratio is n/a."""
    from fractions import Fraction

    from whfb6.volley import Target, shot_chances, volley_distribution

    chances = shot_chances(3, 4, Target(toughness=4, save=4), Target(toughness=6, save=3))

    def timed(function: object) -> tuple[float, object]:
        times, result = [], None
        for _ in range(repeat):
            start = time.perf_counter()
            result = function()  # type: ignore[operator]
            times.append(time.perf_counter() - start)
        return min(times), result

    ours_seconds, ours = timed(lambda: volley_distribution(60, chances))
    try:
        import icepool
    except ImportError:
        return {"volley_ms": ours_seconds * 1000, "icepool_over_volley": None}
    denominator = chances.rider.denominator * chances.monster.denominator

    def with_icepool() -> dict[tuple[int, ...], Fraction]:
        shot = icepool.Die({icepool.Vector((1, 0)): int(chances.rider * denominator),
                            icepool.Vector((0, 1)): int(chances.monster * denominator),
                            icepool.Vector((0, 0)): int(chances.nothing * denominator)})
        volley = 60 @ shot
        return {tuple(outcome): Fraction(count, volley.denominator()) for outcome, count in volley.items()}

    theirs_seconds, theirs = timed(with_icepool)
    if theirs != ours:
        raise SystemExit("core: the volley distribution differs from icepool's")
    return {"volley_ms": ours_seconds * 1000, "icepool_over_volley": theirs_seconds / ours_seconds}


# --- reporting ----------------------------------------------------------------------------------

def machine() -> str:
    memory = ""
    with contextlib.suppress(OSError), open("/proc/meminfo") as handle:
        kib = int(handle.readline().split()[1])
        memory = f", {kib / 1024 / 1024:.0f} GiB"
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} cores ({cpu}){memory}, {platform.system()} {platform.release()}, " \
           f"Python {platform.python_version()}"


def report(results: list[SizeResult], markdown: bool, core: dict[str, float | None]) -> Iterator[str]:
    last = results[-1]
    for name in RATIOS:
        yield f"ratio {name} {show(last.ratios[name])}"
    for name in CORE:
        yield f"ratio {name} {show(core.get(name))}"
    for name, measure in last.measures.items():
        yield (f"measure {name} {measure.seconds:.2f} s {measure.peak_kib / 1024:.0f} MiB "
               f"{measure.cpu_seconds:.2f} cpu-s")
    for name, value in last.details.items():
        yield f"detail {name} {value:.2f}"
    if markdown or len(results) > 1:
        rows = [asdict(result) for result in results]
        yield from table(rows)
        yield ""
        yield from core_table(core)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, help="one size (default 1000)")
    parser.add_argument("--sizes", help="several sizes, such as 100,1000,3000: a table of how each grows")
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs of each command")
    parser.add_argument("--skip", action="append", default=[], choices=(*MEASURES, "core"),
                        help="leave a measure out")
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
                        / "validator-benchmarks", help="where the static-i18n environment is kept")
    parser.add_argument("--source", type=Path, default=ROOT, help="the project whose chapters are copied")
    parser.add_argument("--json", type=Path, help="write the figures and the machine to this file")
    parser.add_argument("--page", type=Path, default=PAGE,
                        help="the manual's performance page, written with --json from the figures it keeps")
    parser.add_argument("--markdown", action="store_true", help="print the Markdown tables")
    arguments = parser.parse_args(argv)
    sizes = [int(size) for size in arguments.sizes.split(",")] if arguments.sizes else [arguments.rules or 1000]
    skip = set(arguments.skip)
    compileall.compile_dir(ROOT / "validator", quiet=1)
    # The core first, while this process is small: the sizes load whole rulebooks into it
    # (to render the baselines' pages), and a large heap slows what allocates after.
    core = measure_core() if "core" not in skip else {}
    results = [measure_size(size, arguments.repeat, skip, arguments.cache, arguments.source) for size in sizes]
    for line in report(results, arguments.markdown, core):
        print(line, flush=True)
    if arguments.json:
        arguments.json.write_text(json.dumps({
            "machine": machine(), "repeat": arguments.repeat,
            "results": [asdict(result) for result in results],
            "core": core,
        }, indent=1) + "\n", encoding="utf-8")
        write_page(arguments.json, arguments.page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
