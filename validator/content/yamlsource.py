"""Read YAML with line numbers, and turn schema errors into positioned problems.

ruamel.yaml's round-trip loader is used because it records the line of every
key and item; PyYAML forgets them.  Texts are normalised here, once, so that the
model, the catalogues and the pages all see the same string.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.scalarstring import LiteralScalarString

from validator.problems import Problem, ProblemsFound, without_consequential_errors

M = TypeVar("M", bound=BaseModel)


def read_yaml(path: Path, shown_as: str) -> Any:
    """Parse ``path``; syntax errors and duplicate keys become one :class:`Problem`."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ProblemsFound([Problem(shown_as, 0, "", f"cannot read the file ({error})", "check the path")]) from None
    return parse_yaml(text, shown_as)


def parse_yaml(text: str, shown_as: str) -> Any:
    """Parse YAML ``text`` shown to the user as ``shown_as``."""
    yaml = YAML(typ="rt")
    try:
        data = yaml.load(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 0
        what = " ".join(part for part in (error.context, error.problem) if part) or "invalid YAML"
        fix = "give each key once in a mapping" if "duplicate key" in what else "correct the YAML syntax"
        raise ProblemsFound([Problem(shown_as, line, "", f"YAML error: {_one_line(what)}", fix)]) from None
    except YAMLError as error:
        problem = Problem(shown_as, 0, "", f"YAML error: {_one_line(str(error))}", "correct the YAML syntax")
        raise ProblemsFound([problem]) from None
    _normalise_texts(data)
    return data


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def normalise_text(text: str, literal: bool) -> str:
    """One space between words and a blank line between paragraphs.

    In a folded (``>``) or plain scalar a line break that survives is a paragraph
    break; in a literal (``|``) scalar a blank line is.
    """
    separator = r"\n\s*\n" if literal else r"\n"
    paragraphs = (re.sub(r"\s+", " ", part).strip() for part in re.split(separator, text.strip()))
    return "\n\n".join(part for part in paragraphs if part)


def _normalise_texts(node: Any) -> None:
    items: Iterable[tuple[Any, Any]]
    if isinstance(node, CommentedMap):
        items = list(node.items())
    elif isinstance(node, CommentedSeq):
        items = list(enumerate(node))
    else:
        return
    for key, value in items:
        if isinstance(value, str):
            node[key] = normalise_text(value, isinstance(value, LiteralScalarString))
        else:
            _normalise_texts(value)


def validate(model: type[M], data: Any, shown_as: str) -> M:
    """Validate ``data`` against ``model``; every error becomes a positioned problem."""
    if not isinstance(data, Mapping):
        raise ProblemsFound([Problem(shown_as, 1, "", "the file must hold a mapping at its top level",
                                     f"start the file with the keys {', '.join(_field_names(model))}")])
    try:
        return model.model_validate(data, context={"file": shown_as})
    except ValidationError as error:
        details = without_consequential_errors(error.errors())
        raise ProblemsFound(_problem(model, data, shown_as, detail) for detail in details) from None


def _problem(model: type[BaseModel], data: Any, shown_as: str, detail: Mapping[str, Any]) -> Problem:
    location = tuple(detail["loc"])
    kind = detail["type"]
    line, subject = _locate(data, location, key_itself=kind == "extra_forbidden")
    path = _path_text(location)
    if kind == "extra_forbidden":
        allowed = ", ".join(_field_names(_model_at(model, location[:-1])))
        return Problem(shown_as, line, subject, f"unknown key '{location[-1]}'",
                       f"remove it or correct its spelling; allowed keys here: {allowed}")
    if kind == "missing":
        return Problem(shown_as, line, subject, f"missing key '{path}'", "add it")
    if kind == "string_pattern_mismatch":
        return Problem(shown_as, line, subject, f"'{path}' is not a valid id",
                       "use lower-case words joined by hyphens (rule ids: 'chapter/rule-name')")
    if kind == "value_error" and "reserved key" in detail["msg"]:
        return Problem(shown_as, line, subject, "'position' is a reserved key", "rename or remove it")
    return Problem(shown_as, line, subject, f"'{path}': {detail['msg'].rstrip('.')}",
                   "correct the value (see the documentation on the rulebook format)")


def _path_text(location: tuple[Any, ...]) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _locate(data: Any, location: tuple[Any, ...], key_itself: bool) -> tuple[int, str]:
    """The line of the deepest node on ``location`` and the nearest enclosing id."""
    node, line, subject = data, _line(data), _id_of(data)
    for index, part in enumerate(location):
        last = index == len(location) - 1
        if isinstance(node, CommentedMap) and part in node:
            line = node.lc.key(part)[0] + 1 if (last and key_itself) else _item_line(node, part)
            node = node[part]
        elif isinstance(node, CommentedSeq) and isinstance(part, int) and 0 <= part < len(node):
            line = node.lc.item(part)[0] + 1
            node = node[part]
        else:
            break
        subject = _id_of(node) or subject
    return line, subject


def _item_line(node: CommentedMap, key: Any) -> int:
    value = node[key]
    if isinstance(value, (CommentedMap, CommentedSeq)) and value.lc.line is not None:
        return int(value.lc.line) + 1 if not value.fa.flow_style() else node.lc.value(key)[0] + 1
    return int(node.lc.value(key)[0]) + 1


def _line(node: Any) -> int:
    return int(node.lc.line) + 1 if hasattr(node, "lc") and node.lc.line is not None else 1


def _id_of(node: Any) -> str:
    if isinstance(node, Mapping):
        value = node.get("id")
        if isinstance(value, str):
            return value
    return ""


def _field_names(model: type[BaseModel] | None) -> list[str]:
    if model is None:
        return []
    return [name for name in model.model_fields if name != "position"]


def _model_at(model: type[BaseModel], location: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model class that validates the mapping at ``location`` inside ``model``."""
    current: Any = model
    for part in location:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)) or part not in current.model_fields:
            return None
        current = _unwrap(current.model_fields[part].annotation)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _unwrap(annotation: Any) -> Any:
    """Strip Optional, tuple[X, ...] and Annotated down to the item type."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated or origin in (tuple, list):
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            options = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            annotation = options[0]
        else:
            return annotation
