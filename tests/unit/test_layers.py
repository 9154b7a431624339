"""Each test's layer marker follows its folder, and the fixtures it takes can only raise it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import TESTS, layer_of


def item(folder: str, fixtures: tuple[str, ...] = (), markers: tuple[str, ...] = ()) -> Any:
    return SimpleNamespace(path=TESTS / folder / "test_x.py", fixturenames=fixtures,
                           iter_markers=lambda: [SimpleNamespace(name=name) for name in markers])


@pytest.mark.parametrize(("folder", "fixtures", "markers", "layer"), [
    ("unit", (), (), "unit"),
    ("unit", ("tmp_path",), (), "unit"),
    ("unit", ("workspace",), (), "integration"),
    ("unit", ("project", "tmp_path"), (), "integration"),
    ("unit", (), ("integration",), "integration"),
    ("integration", ("browser", "server"), (), "browser"),
    ("browser", ("built_site",), (), "browser"),
    ("integration", (), (), "integration"),
])
def test_a_tests_layer(folder: str, fixtures: tuple[str, ...], markers: tuple[str, ...], layer: str) -> None:
    assert layer_of(item(folder, fixtures, markers)) == layer


def test_a_test_module_outside_the_layers_is_refused() -> None:
    with pytest.raises(pytest.UsageError, match="belongs in tests/unit"):
        layer_of(item("misc"))


def test_every_test_module_stands_in_a_layer() -> None:
    assert not [path for path in TESTS.glob("test_*.py")]
    assert {path.parent.name for path in TESTS.glob("*/test_*.py")} == {"unit", "integration", "browser"}
    assert Path(__file__).parent.name == "unit"
