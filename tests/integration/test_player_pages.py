"""A player's page, with the editor view off, shows no machinery of the rules core:
no ``validator calc`` command, no function of the core, no rule identifier and no
raw field name (see tests/player_pages.py for what counts as shown)."""

from __future__ import annotations

from pathlib import Path

import pytest
from player_pages import Machinery, machinery_of, shown_text, traced_functions

from validator.workspace import Workspace

EDITORS_PAGES = ("status.html", "translators.html")
"""Pages for those who translate and edit the book, not for players."""


def _machinery(workspace: Workspace) -> Machinery:
    rulebook, ruleset = workspace.rulebook, workspace.ruleset
    rule_ids = [rule.id for chapter in rulebook.chapters for rule in chapter.rules]
    functions = [*traced_functions(ruleset).values(),
                 *(f for scenario in ruleset.scenarios for f in scenario.implementations)]
    fields = {name for scenario in ruleset.scenarios
              for name in (*scenario.describe()["inputs"], *scenario.outcome_fields())}
    return machinery_of(rule_ids, functions, fields)


@pytest.mark.unit
def test_the_scan_finds_machinery_in_a_broken_page() -> None:
    machinery = machinery_of(["monstrous-mounts/cavalry"], [machinery_of], ["mount_wounds", "dice"])
    broken = ("<p>Try <code>validator calc mount-classify --given '{}'</code></p>"
              "<p>Rule <code>monstrous-mounts/cavalry</code>, by player_pages.machinery_of</p>"
              '<p title="mount_wounds">dice</p>')
    assert machinery.found(shown_text(broken)) == [
        "command line: validator calc mount-classify --given '{}'", "rule id: monstrous-mounts/cavalry",
        "function: player_pages.machinery_of", "field: mount_wounds"]
    hidden = ('<div class="editors editor-view"><p>validator calc x</p><p>monstrous-mounts/cavalry '
              '<span>machinery_of</span></p></div><script>var mount_wounds;</script><p>dice</p>')
    assert machinery.found(shown_text(hidden)) == []


def test_no_player_page_shows_the_rules_cores_machinery(built_site: Path, workspace: Workspace) -> None:
    machinery = _machinery(workspace)
    assert len(machinery.rule_ids) > 20 and len(machinery.functions) > 20 and len(machinery.fields) > 20
    shown: dict[str, list[str]] = {}
    pages = 0
    for language in workspace.project.languages:
        for path in sorted((built_site / language.code).glob("*.html")):
            if path.name in EDITORS_PAGES:
                continue
            pages += 1
            if found := machinery.found(shown_text(path.read_text(encoding="utf-8"))):
                shown[f"{language.code}/{path.name}"] = found
    assert pages > 3 * 15
    assert shown == {}
