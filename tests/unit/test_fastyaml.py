"""The fast YAML reader gives exactly what ruamel's round-trip loader gives, or steps aside."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from validator.content.fastyaml import UNHANDLED, parse_plain_yaml
from validator.content.yamlsource import MAX_DEPTH, MAX_NODES, parse_yaml

ROOT = Path(__file__).resolve().parents[2]
PROJECT_YAML = sorted(path for path in ROOT.rglob("*.yml")
                      if not {".git", ".cache", "site", "node_modules"} & set(path.relative_to(ROOT).parts))


def ruamel(text: str) -> Any:
    return YAML(typ="rt").load(text)


def shape(node: Any) -> Any:
    """Values, Python types and every line annotation, comparable with ``==``."""
    if isinstance(node, CommentedMap):
        return ("map", node.lc.line, node.lc.col, bool(node.fa.flow_style()),
                [(key, node.lc.key(key), node.lc.value(key), shape(value)) for key, value in node.items()])
    if isinstance(node, CommentedSeq):
        return ("seq", node.lc.line, node.lc.col, bool(node.fa.flow_style()),
                [(node.lc.item(index), shape(value)) for index, value in enumerate(node)])
    return (type(node).__name__, node)


def test_the_project_files_are_read_fast_and_alike() -> None:
    assert len(PROJECT_YAML) >= 10
    handled = set()
    for path in PROJECT_YAML:
        text = path.read_text(encoding="utf-8")
        fast = parse_plain_yaml(text, MAX_DEPTH, MAX_NODES)
        if fast is not UNHANDLED:
            handled.add(path)
            assert shape(fast) == shape(ruamel(text)), path
    # The chapters, the bulk of any rulebook, all take the fast way (units.yml, with
    # its decimal numbers, may not).
    assert set((ROOT / "docs" / "rules").glob("*.yml")) <= handled


ALIKE = [
    "a: 1\nb: -7\nc: +3\nd: 0\n",
    "yes: no\non: off\n",
    "t: true\nf: False\nn: ~\nq: ''\nnull: NULL\n",
    "list: [a, 'b', \"c\"]\nmap: {x: 1, y: [2, 3]}\n",
    "text: |\n  one\n\n  two\nfolded: >\n  three\n  four\n",
    "- - a\n  - b\n- c: d\n  e: f\n",
    "key: value # comment\n# a comment line\nother:   spaced value\n",
    "",
    "just text\n",
    "multi: line\n  plain text\n",
    "'quoted key': 1\n\"other\": 2\n",
    "ids: [chapter/rule-a, chapter/rule-b]\nweird: a-1.5\nodds: 5/9\nsize: 1.5\nless: -0.25\nzero: 0\n",
]


@pytest.mark.parametrize("text", ALIKE)
def test_common_forms_read_alike(text: str) -> None:
    fast = parse_plain_yaml(text, MAX_DEPTH, MAX_NODES)
    assert fast is not UNHANDLED
    assert shape(fast) == shape(ruamel(text))


LEFT_TO_RUAMEL = [
    "a: &x 1\nb: *x\n",                       # anchors and aliases
    "a: !!str 12\n",                          # tags
    "%YAML 1.1\n---\na: 1\n",                 # directives
    "a: 1e5\n", "a: 0x1f\n", "a: 0o17\n", "a: 012\n", "a: 1_000\n",
    "a: 2001-12-14\n", "a: .inf\n", "a: 123456789012345678901234567890\n",
    "a: 1\na: 2\n",                           # duplicate key
    "empty:\nnext: 1\n",                      # an empty value
    "? [a, b]\n: c\n",                        # complex key
    "a: 1\n---\nb: 2\n",                      # two documents
    "a: [1, 2\n",                             # syntax error
    "a: \x07bell\n",                          # forbidden character
    "\ufeffa: 1\n",
    "a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n",
]


@pytest.mark.parametrize("text", LEFT_TO_RUAMEL)
def test_anything_else_is_left_to_ruamel(text: str) -> None:
    assert parse_plain_yaml(text, MAX_DEPTH, MAX_NODES) is UNHANDLED


def test_values_beyond_the_node_bound_are_left_to_ruamel() -> None:
    text = "".join(f"k{index}: {index}\n" for index in range(50))
    assert parse_plain_yaml(text, MAX_DEPTH, 40) is UNHANDLED
    assert parse_plain_yaml(text, MAX_DEPTH, 200) is not UNHANDLED


def test_parse_yaml_still_reports_what_the_fast_reader_left() -> None:
    from validator.problems import ProblemsFound

    with pytest.raises(ProblemsFound) as raised:
        parse_yaml("a: 1\nb: 2\na: 3\n", "rules.yml")
    assert "duplicate key" in str(raised.value.problems[0].message) and raised.value.problems[0].line == 3
