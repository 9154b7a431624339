"""The benchmark's generator and report, at the smallest size (the full run is
``python benchmarks/run.py``; CI runs only this)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from validator.checks.run import check_workspace
from validator.workspace import load_workspace

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import chapter_files, generate  # noqa: E402
from performance import PAGE, RESULTS, render  # noqa: E402

RATIOS = ("build_over_bare", "static_i18n_over_build", "check_over_build", "check_edit_over_build",
          "rebuild_edit_over_build", "rebuild_none_over_build", "memory_over_bare", "memory_one_job_over_bare",
          "preview_seconds")


def test_a_generated_book_has_the_rules_asked_for_and_passes_the_check(tmp_path: Path) -> None:
    base = sum(count for _, _, count in chapter_files(ROOT))
    total = generate(tmp_path / "book", base + 1)
    workspace = load_workspace(tmp_path / "book")
    rules = workspace.rulebook.rules
    # One chapter was copied under a new id, with its rules renamed and no id twice.
    assert total == len(rules) > base
    assert len({rule.id for rule in rules}) == len(rules)
    copies = [chapter for chapter in workspace.rulebook.chapters if re.search(r"-x2$", chapter.id)]
    assert len(copies) == 1 and all(rule.id.startswith(f"{copies[0].id}/") for rule in copies[0].rules)
    # Its translations came along: the copy is as translated as the original.
    original_id = copies[0].id.removesuffix("-x2")
    for code, catalog in workspace.rule_catalogs.items():
        for rule in copies[0].rules:
            copied = catalog.translate(f"{rule.id}#title", rule.title)
            source = catalog.translate(f"{original_id}/{rule.id.split('/', 1)[1]}#title", rule.title)
            assert (copied.text, copied.state) == (source.text, source.state), code
    report = check_workspace(workspace)
    assert report.ok, "\n".join(str(problem) for problem in report.problems[:5])
    assert len(report.runs) > sum(len(rule.examples) for rule in rules) // 2


def test_the_report_prints_every_ratio_on_its_own_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--rules", "1", "--skip", "build",
                           "--skip", "build-one-job", "--skip", "bare", "--skip", "static-i18n", "--skip", "preview",
                           "--json", str(tmp_path / "results.json"), "--page", str(tmp_path / "performance.md"),
                           "--cache", str(tmp_path / "cache")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    ratios = dict(line.split()[1:] for line in lines if line.startswith("ratio "))
    assert list(ratios) == [*RATIOS, "volley_ms", "icepool_over_volley"]
    # Only the check was measured: the ratios that need another measure say so.
    assert all(ratios[name] == "n/a" for name in RATIOS)
    # The rules core is always measured, against icepool (which gave the same distribution).
    assert 0 < float(ratios["volley_ms"]) < 1000 and float(ratios["icepool_over_volley"]) > 1
    for name in ("check", "check-edit"):  # the first check, and one after an edit with its results kept
        check = next(line for line in lines if line.startswith(f"measure {name} "))
        seconds, peak = float(check.split()[2]), float(check.split()[4])
        assert 0 < seconds < 120 and peak > 10
    assert '"machine"' in (tmp_path / "results.json").read_text(encoding="utf-8")
    # The run wrote the performance page from the figures it kept.
    page = (tmp_path / "performance.md").read_text(encoding="utf-8")
    assert page == render(json.loads((tmp_path / "results.json").read_text(encoding="utf-8")))
    assert f"| {check.split()[2]} |" in page


def test_the_performance_page_is_the_one_the_last_run_wrote() -> None:
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    assert PAGE.read_text(encoding="utf-8") == render(results), "run: python benchmarks/performance.py"


def test_changing_the_figures_changes_the_page() -> None:
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    before = render(results)
    assert results["machine"] in before
    reference = min(results["results"], key=lambda result: abs(result["rules"] - 1000))
    reference["measures"]["build"]["seconds"] = 1234.5
    reference["ratios"]["preview_seconds"] = 7.25
    results["core"]["volley_ms"] = 98.76
    results["machine"] = "a machine of another name"
    after = render(results)
    assert after != before
    assert "| 1234.50 |" in after and "a machine of another name" in after
    # The targets follow the figures: a slow preview and a slow volley are no longer met.
    assert "under a second: **not met** (`preview_seconds` 7.25)" in after
    assert "under 10 ms: **not met** (`volley_ms` 98.76)" in after


def test_the_readme_links_the_performance_page_and_holds_no_table() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(manual/docs/developers/performance.md)" in readme
    assert "| build s |" not in readme and "growth exponent" not in readme
