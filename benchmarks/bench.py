"""Speed and memory of the pipeline, as ratios against baselines measured in the same run.

    python benchmarks/bench.py [--repeat N]

- build: the whole ``validator build`` of one language (load, check, render, MkDocs)
  against a bare MkDocs build of the same pages already rendered (the floor no
  pipeline can beat);
- memory: peak resident memory of those two, each in a fresh process;
- core: the exact distributions of the rules core against the same numbers from
  icepool, an independent exact dice library.

Ratios, not seconds, are what to compare between machines.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FULL_BUILD = """
import sys, tempfile
from pathlib import Path
from validator.checks.run import check_workspace
from validator.site.build import build_sites
from validator.workspace import load_workspace
workspace = load_workspace(Path(sys.argv[1]))
report = check_workspace(workspace)
build_sites(workspace, report, Path(tempfile.mkdtemp()) / "site")
"""

BARE_MKDOCS = """
import sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
build(load_config(sys.argv[1]))
"""


REPORT_PEAK = "\nimport resource\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"


def run_measured(code: str, argument: str) -> tuple[float, int]:
    """Seconds and peak RSS (KiB) of ``code`` in a fresh interpreter, which reports
    its own peak as its last line of output."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code + REPORT_PEAK, argument], check=True, cwd=ROOT,
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    return elapsed, int(done.stdout.strip().splitlines()[-1])


def prepare_bare_config(folder: Path) -> Path:
    """Render every language's pages once and write MkDocs configs that build them."""
    from validator.checks.run import check_workspace
    from validator.site import build as site_build
    from validator.site.pages import render_pages
    from validator.workspace import load_workspace

    workspace = load_workspace(ROOT)
    report = check_workspace(workspace)
    configs = []
    for language in workspace.project.languages:
        docs = folder / language.code
        docs.mkdir()
        for name, text in render_pages(workspace, report, language.code).items():
            (docs / name).write_text(text, encoding="utf-8")
        shutil.copytree(site_build.ASSETS, docs / "assets" / "validator")
        config = site_build.mkdocs_config(workspace, language.code, docs, folder / f"out-{language.code}")
        path = folder / f"mkdocs-{language.code}.yml"
        path.write_text(json.dumps(config), encoding="utf-8")
        configs.append(path)
    return configs[0]


def core_ratio(repeat: int) -> float:
    import icepool
    from icepool import d6

    from validator.core.scenarios import RULESET

    cases = [{"attacks": attacks, "attacker_weapon_skill": 4, "defender_weapon_skill": 3, "strength": 4,
              "toughness": toughness, "save": 5} for attacks in range(1, 21) for toughness in (3, 4, 5)]

    def ours() -> None:
        for given in cases:
            RULESET.run("table-close-combat-wounds", given)

    def attack(wound: int) -> object:
        """One attack: hits on 3+, wounds on ``wound``+, and the 5+ save (6+ against S4) fails."""
        return lambda hit, wounded, save: int(hit >= 3 and wounded >= wound and save < 6)

    def theirs() -> None:
        for given in cases:
            one = icepool.map(attack({3: 3, 4: 4, 5: 5}[given["toughness"]]), d6, d6, d6)
            (given["attacks"] @ one).probabilities()

    def best(function: object) -> float:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            function()  # type: ignore[operator]
            times.append(time.perf_counter() - start)
        return min(times)

    return best(ours) / best(theirs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        bare_config = prepare_bare_config(Path(scratch))
        full = [run_measured(FULL_BUILD, str(ROOT)) for _ in range(arguments.repeat)]
        bare = [run_measured(BARE_MKDOCS, str(bare_config)) for _ in range(arguments.repeat)]
    full_time, bare_time = min(t for t, _ in full), min(t for t, _ in bare)
    languages = 3
    print(f"{'measure':<46}{'ratio':>8}")
    print(f"{'build, 3 languages / bare MkDocs, 1 language':<46}{full_time / bare_time:>8.2f}")
    print(f"{'build per language / bare MkDocs per language':<46}{full_time / languages / bare_time:>8.2f}")
    print(f"{'peak memory, build / bare MkDocs':<46}{max(m for _, m in full) / max(m for _, m in bare):>8.2f}")
    print(f"{'core distributions / icepool':<46}{core_ratio(arguments.repeat):>8.2f}")


if __name__ == "__main__":
    main()
