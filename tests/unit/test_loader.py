"""The loader: the bundled rulebook loads, and every kind of bad input gets one
clear message with file, line and id."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, ProjectCopy

from validator.content.loader import load_rulebook
from validator.content.project import load_project
from validator.problems import ProblemsFound

CHAPTER = "docs/rules/monstrous-mounts.yml"


def load(root: Path) -> None:
    load_rulebook(root, load_project(root))


def problems_of(root: Path) -> list[str]:
    with pytest.raises(ProblemsFound) as found:
        load(root)
    return [str(problem) for problem in found.value.problems]


def test_bundled_rulebook_loads_with_positions() -> None:
    rulebook = load_rulebook(ROOT, load_project(ROOT))
    rule = rulebook.rule("monstrous-mounts/extra-wounds")
    assert rule.position.file == CHAPTER
    lines = (ROOT / CHAPTER).read_text(encoding="utf-8").splitlines()
    assert lines[rule.position.line - 1].strip() == "- id: monstrous-mounts/extra-wounds"
    assert lines[rule.position.of("text").line - 1].strip().startswith("text:")
    assert rulebook.chapter_of(rule.id).id == "monstrous-mounts"


def test_model_is_immutable() -> None:
    rulebook = load_rulebook(ROOT, load_project(ROOT))
    with pytest.raises(Exception, match="frozen"):
        rulebook.rules[0].title = "changed"  # type: ignore[misc]


def test_models_with_the_same_fields_given_share_one_set_of_their_names() -> None:
    """Pydantic makes a set of the fields given for every model, a fifth of the
    rulebook's memory; the models of one file share one per combination of names (a
    table of the file's own, so nothing is held between loads)."""
    rulebook = load_rulebook(ROOT, load_project(ROOT))
    citations = [(rule.position.file, citation) for rule in rulebook.rules for citation in rule.cite]
    by_names: dict[tuple[str, frozenset[str]], set[int]] = {}
    for file, node in [*citations, *((file, citation.position) for file, citation in citations)]:
        by_names.setdefault((file, frozenset(node.model_fields_set)), set()).add(id(node.model_fields_set))
    assert len(citations) > 50 and all(len(sets) == 1 for sets in by_names.values())
    assert len(by_names) < len(citations) / 2
    without_pages = next(citation for _file, citation in citations if "pages" not in citation.model_fields_set)
    copied = without_pages.model_copy(update={"pages": "1"})  # pydantic adds to a copy of the set
    assert "pages" in copied.model_fields_set and "pages" not in without_pages.model_fields_set


def test_unknown_key_names_file_line_and_rule(project: ProjectCopy) -> None:
    line = project.replace(CHAPTER, "    title: Movement\n", "    title: Movement\n    colour: red\n") + 1
    [message] = problems_of(project.root)
    assert message.startswith(f"{CHAPTER}:{line}: [monstrous-mounts/movement] unknown key 'colour'")
    assert "allowed keys here: id, title, text, cite, aliases, also_called, examples" in message


def test_wrong_type_is_an_error(project: ProjectCopy) -> None:
    line = project.replace(CHAPTER, "  order: 2", '  order: "2"')
    [message] = problems_of(project.root)
    assert message.startswith(f"{CHAPTER}:{line}: [monstrous-mounts] 'chapter.order': Input should be")


def test_duplicate_rule_id_points_at_both(project: ProjectCopy) -> None:
    first = project.read(CHAPTER).splitlines().index("  - id: monstrous-mounts/cavalry") + 1
    line = project.replace(CHAPTER, "  - id: monstrous-mounts/movement", "  - id: monstrous-mounts/cavalry")
    # The official answers that touch the renamed rule are reported too, in their own file.
    [message] = [m for m in problems_of(project.root) if m.startswith(CHAPTER)]
    assert message.startswith(f"{CHAPTER}:{line}: [monstrous-mounts/cavalry] duplicate rule id or alias")
    assert f"first used at {CHAPTER}:{first}" in message


def test_duplicate_key_is_an_error(project: ProjectCopy) -> None:
    line = project.replace(CHAPTER, "    title: Movement\n", "    title: Movement\n    title: Again\n") + 1
    [message] = problems_of(project.root)
    assert message.startswith(f"{CHAPTER}:{line}:")
    assert "duplicate key" in message


def test_yaml_syntax_error_has_a_line(project: ProjectCopy) -> None:
    line = project.replace(CHAPTER, "    title: Movement\n", "    title: [Movement\n")
    [message] = problems_of(project.root)
    assert message.startswith(f"{CHAPTER}:")
    assert "YAML error" in message
    assert int(message.split(":")[1]) >= line


def test_missing_key_and_bad_id(project: ProjectCopy) -> None:
    project.replace(CHAPTER, "    title: Movement\n", "")
    project.replace(CHAPTER, "  - id: monstrous-mounts/victory-points", "  - id: Victory_Points")
    messages = problems_of(project.root)
    assert any("[monstrous-mounts/movement] missing key 'rules[2].title'" in m for m in messages)
    assert any("'rules[12].id' is not a valid id" in m for m in messages)


def test_rule_id_must_start_with_its_chapter(project: ProjectCopy) -> None:
    project.replace(CHAPTER, "  - id: monstrous-mounts/movement", "  - id: elsewhere/movement")
    [message] = [m for m in problems_of(project.root) if m.startswith(CHAPTER)]
    assert "[elsewhere/movement] rule id does not start with its chapter id 'monstrous-mounts/'" in message


def test_reserved_position_key(project: ProjectCopy) -> None:
    project.replace(CHAPTER, "    title: Movement\n", "    title: Movement\n    position: 3\n")
    [message] = problems_of(project.root)
    assert "'position' is a reserved key" in message


def test_text_is_normalised_into_paragraphs() -> None:
    rulebook = load_rulebook(ROOT, load_project(ROOT))
    text = rulebook.rule("monstrous-mounts/mount-kinds").text
    assert text.count("\n\n") == 1
    assert "  " not in text and "\n\n\n" not in text
