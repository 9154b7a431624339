"""Every YAML the engine reads is held to the same bounds (validator.content.yamlbounds):
MkDocs' configuration, composed with PyYAML as MkDocs reads it, and the book's files,
read with ruamel.yaml, refuse the same texts at the same line."""

from __future__ import annotations

import pytest
import yaml

from validator.content.yamlbounds import MAX_DEPTH, MAX_NODES, YamlRefused, compose_bounded
from validator.content.yamlsource import parse_yaml
from validator.problems import ProblemsFound

pytestmark = pytest.mark.unit

LETTERS = "abcdefghi"
BOMB = "\n".join(["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
                 + [f"{LETTERS[i]}: &{LETTERS[i]} [" + ", ".join([f"*{LETTERS[i - 1]}"] * 9) + "]"
                    for i in range(1, 9)])


@pytest.mark.parametrize(("text", "line", "what"), [
    ("site_name: x\nextra:\n" + "\n".join(f"  {row}" for row in BOMB.splitlines()) + "\n", 8,
     f"more than {MAX_NODES} values once aliases are expanded (an alias bomb?)"),
    ("extra: &loop {again: *loop}\n", 1, "alias *loop refers to a value that contains it"),
    ("extra: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n", 1,
     f"values nested more than {MAX_DEPTH} levels deep"),
])
def test_a_text_beyond_the_bounds_is_refused_alike_by_both_readers(text: str, line: int, what: str) -> None:
    with pytest.raises(YamlRefused) as refused:
        compose_bounded(text)
    assert (refused.value.line, refused.value.message) == (line, what)
    with pytest.raises(ProblemsFound) as found:
        parse_yaml(text, "file.yml")
    assert str(found.value.problems[0]).startswith(f"file.yml:{line}: YAML refused: {what}")


def test_a_configuration_within_the_bounds_is_composed_as_mkdocs_composes_it() -> None:
    text = ("site_name: !ENV [SITE, Rules]\nmarkdown_extensions:\n  - pymdownx.emoji:\n"
            "      emoji_generator: !!python/name:material.extensions.emoji.to_svg\n"
            "extra: &shared {a: 1}\nagain: *shared\n")
    assert yaml.serialize(compose_bounded(text)) == yaml.serialize(yaml.compose(text, Loader=yaml.SafeLoader))
    assert compose_bounded("") is None
    almost = "extra:\n" + "\n".join(f"  {row}" for row in BOMB.splitlines()[:5]) + "\n"
    assert compose_bounded(almost) is not None  # 9**5 values: within the bound
