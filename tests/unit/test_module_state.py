"""No module keeps mutable state: what a command keeps is its store's
(:class:`validator.store.Store`), made by the command and handed down.

Every module of the engine and of the bundled rules core is imported, and each name
it assigns at its top level is looked at as the running program holds it: a dict,
list, set, byte array or deque, a :mod:`functools` cache, or an object holding one in
its attributes, is state that outlives the command that filled it (the preview runs
for hours; the tests run thousands of commands in one process).  A constant is
written as one that cannot change: a tuple, a frozenset, a ``MappingProxyType``.  A
:class:`contextvars.ContextVar` is the one kind allowed: it is the current call's,
not the process's.
"""

from __future__ import annotations

import ast
import collections
import contextvars
import importlib
import pkgutil
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
import whfb6

import validator

MUTABLE = (dict, list, set, bytearray, collections.deque)



def assigned_names(module: types.ModuleType) -> set[str]:
    """The names the module's own top level assigns or defines (not those it imports)."""
    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    names: set[str] = set()
    for node in ast.parse(source).body:
        targets = (node.targets if isinstance(node, ast.Assign) else [node.target]
                   if isinstance(node, ast.AnnAssign) else [])
        names.update(target.id for target in targets if isinstance(target, ast.Name))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def modules() -> Iterator[types.ModuleType]:
    for package in (validator, whfb6):
        yield package
        for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not found.name.endswith("__main__"):  # the command itself: importing it runs it
                yield importlib.import_module(found.name)


def holds_state(value: object) -> bool:
    """Whether ``value`` is, or directly holds, something a program can add to."""
    if isinstance(value, (type, types.ModuleType, contextvars.ContextVar)):
        return False
    if isinstance(value, MUTABLE) or callable(getattr(value, "cache_clear", None)):
        return True
    if isinstance(value, types.FunctionType):
        return False
    attributes = getattr(value, "__dict__", None)
    return isinstance(attributes, dict) and any(isinstance(held, MUTABLE) for held in attributes.values())


def module_state() -> set[str]:
    found = set()
    for module in modules():
        for name in assigned_names(module):
            if name.startswith("__") or name not in vars(module):
                continue
            if holds_state(vars(module)[name]):
                found.add(f"{module.__name__}:{name}")
    return found


def test_no_module_keeps_state_but_what_is_left_to_move() -> None:
    assert module_state() == set()


@pytest.mark.parametrize("planted", [
    {"a": 1}, [1], {1}, collections.OrderedDict(), collections.defaultdict(list),
    types.SimpleNamespace(kept={}),
])
def test_the_test_finds_each_kind_of_state(planted: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted as a name the module assigns (an existing one), each is found."""
    from validator.site import markdown

    monkeypatch.setattr(markdown, "_REFERENCES", planted)
    assert "validator.site.markdown:_REFERENCES" in module_state()


def test_a_functools_cache_is_state(monkeypatch: pytest.MonkeyPatch) -> None:
    import functools

    from validator.site import material

    monkeypatch.setattr(material, "material_languages", functools.cache(material.material_languages))
    assert "validator.site.material:material_languages" in module_state()
