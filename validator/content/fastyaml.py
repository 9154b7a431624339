"""The common case of reading YAML, fast: libyaml's parser, ruamel's annotated result.

ruamel.yaml's round-trip loader records the line of every key and item, but it is
pure Python, and most of what ``validator check`` does on a large rulebook.  The
rulebook's files are almost always plain: block mappings and sequences, plain or
quoted texts, small integers and decimals, booleans.  For those, the events of libyaml's C parser
(which PyYAML, a dependency of MkDocs, ships) carry every position needed, and this
module builds from them exactly what ruamel would: ``CommentedMap`` and
``CommentedSeq`` with their line annotations, ``LiteralScalarString`` for ``|``
texts, YAML 1.2 values.

Anything else (anchors and aliases, tags, directives, other forms of numbers
and dates, duplicate keys, deep nesting, characters YAML forbids, any syntax error)
returns :data:`UNHANDLED`, and the caller uses ruamel, whose results and error
messages stay the reference; a test compares both readers on every YAML file of the
project.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import MappingProxyType
from typing import Any, Final

import yaml  # type: ignore[import-untyped]
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.scalarint import ScalarInt
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

UNHANDLED: Final = object()
"""Returned when the text needs the full reader."""

_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SMALL_INT = re.compile(r"[-+]?[1-9][0-9]{0,17}\Z")
_DECIMAL = re.compile(r"[-+]?[0-9]{1,15}\.[0-9]{1,15}\Z")
_NUMBER_LIKE = re.compile(r"[-+]?\.?[0-9]")
"""Plain texts that YAML may read as a number or a date: left to ruamel..."""
_NOT_A_NUMBER = re.compile(r"[^0-9a-fA-FoOxXtTzZ+\-.:_ ]")
"""...unless they hold a character no number or date has (``5/9``, ``2+ hits``)."""
_SPECIAL_PLAIN = MappingProxyType({
    "~": None, "null": None, "Null": None, "NULL": None,
    "true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False,
})
_LEFT_TO_RUAMEL = frozenset({"",  # an empty value: ruamel places it on the next line, as error messages show it
                   ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
                   ".nan", ".NaN", ".NAN", "<<", "="})


class _Unhandled(Exception):
    """The text uses something this reader leaves to ruamel."""


class _Decimals:
    """Decimals as ruamel reads them (its float keeps how it was written), with its own
    constructor, made for the first decimal of a file: most files have none."""

    def __init__(self) -> None:
        self._constructor: Any = None

    def __call__(self, text: str) -> Any:
        if self._constructor is None:
            self._constructor = YAML(typ="rt").constructor
        return self._constructor.construct_yaml_float(ScalarNode("tag:yaml.org,2002:float", text))


def _plain_value(text: str, decimal: Callable[[str], Any]) -> Any:
    if text in _SPECIAL_PLAIN:
        return _SPECIAL_PLAIN[text]
    if _SMALL_INT.match(text):
        return int(text)
    if _DECIMAL.match(text):
        return decimal(text)
    if text == "0":
        return ScalarInt(0, width=1)  # as ruamel reads it, keeping the width of a leading zero
    if text in _LEFT_TO_RUAMEL or (_NUMBER_LIKE.match(text) and not _NOT_A_NUMBER.search(text)):
        raise _Unhandled
    return text


def parse_plain_yaml(text: str, max_depth: int, max_nodes: int) -> Any:
    """The document in ``text`` as ruamel's round-trip loader reads it, or
    :data:`UNHANDLED` when the text needs that loader (see the module's docstring)."""
    if _NON_PRINTABLE.search(text) or "\ufeff" in text:
        return UNHANDLED
    try:
        return _build(yaml.parse(text, Loader=yaml.CBaseLoader), max_depth, max_nodes)
    except (_Unhandled, yaml.YAMLError, ValueError, RecursionError):
        return UNHANDLED


def _build(events: Any, max_depth: int, max_nodes: int) -> Any:
    # Each open container: [container, key waiting for its value or None, that key's mark].
    stack: list[list[Any]] = []
    result: Any = None
    documents = 0
    nodes = 0
    decimal = _Decimals()

    def add(value: Any, mark: Any) -> None:
        nonlocal result
        if not stack:
            result = value
            return
        frame = stack[-1]
        container = frame[0]
        if isinstance(container, CommentedSeq):
            container.append(value)
            container._yaml_set_idx_line_col(len(container) - 1, [mark.line, mark.column])
        elif frame[1] is None:
            if isinstance(value, (CommentedMap, CommentedSeq)) or value in container:
                raise _Unhandled  # a complex or duplicate key
            frame[1], frame[2] = (value,), mark
        else:
            key = frame[1][0]
            container[key] = value
            container._yaml_set_kv_line_col(key, [frame[2].line, frame[2].column, mark.line, mark.column])
            frame[1] = None

    for event in events:
        kind = type(event)
        if kind is yaml.ScalarEvent:
            if event.anchor is not None or (event.tag is not None and event.tag != "!"):
                raise _Unhandled
            nodes += 1
            if event.style is None or event.style == "":
                value = _plain_value(event.value, decimal)
            elif event.style == "|":
                value = LiteralScalarString(event.value)
            elif event.style == ">":
                value = FoldedScalarString(event.value)
            else:
                value = event.value
            add(value, event.start_mark)
        elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            if event.anchor is not None or not event.implicit or len(stack) >= max_depth:
                raise _Unhandled
            nodes += 1
            container: Any = CommentedMap() if kind is yaml.MappingStartEvent else CommentedSeq()
            container._yaml_set_line_col(event.start_mark.line, event.start_mark.column)
            if event.flow_style:
                container.fa.set_flow_style()
            else:
                container.fa.set_block_style()
            add(container, event.start_mark)
            stack.append([container, None, None])
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            closed = stack.pop()[0]
            if not closed:
                closed.fa._flow_style = None  # ruamel marks no style on an empty [] or {}
        elif kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1 or event.version is not None or event.tags:
                raise _Unhandled
        elif kind is yaml.AliasEvent:
            raise _Unhandled
        if nodes > max_nodes:
            raise _Unhandled
    return result
