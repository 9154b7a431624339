"""Read YAML with line numbers, and turn schema errors into positioned problems.

ruamel.yaml's round-trip loader is the reference because it records the line of
every key and item; plain files are read faster by libyaml into the same
annotated result (:mod:`validator.content.fastyaml`).  Texts are normalised here, once, so that the
model, the catalogues and the pages all see the same string.
"""

from __future__ import annotations

import contextlib
import copy
import errno
import os
import re
import stat
import types
import typing
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.composer import Composer
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.scalarstring import LiteralScalarString
from ruamel.yaml.tokens import ScalarToken

from validator.content.fastyaml import UNHANDLED, parse_plain_yaml
from validator.content.model import FIELDS_GIVEN
from validator.content.yamlbounds import MAX_DEPTH, MAX_NODES, BoundedComposing, YamlRefused
from validator.derived import kept_function
from validator.problems import Problem, ProblemsFound, without_consequential_errors

M = TypeVar("M", bound=BaseModel)


def read_yaml(path: Path, shown_as: str) -> Any:
    """Parse ``path``; syntax errors and duplicate keys become one :class:`Problem`."""
    return parse_yaml(decode_utf8(read_input(path, shown_as), shown_as), shown_as)


_RECORDED: ContextVar[dict[str, bytes] | None] = ContextVar("recorded", default=None)
"""The reads being recorded in this thread: the preview loads the book in two threads
at once (the quick update of a save, the inputs of the background build), and each
load records its own reads."""


@contextlib.contextmanager
def reads_recorded() -> Iterator[dict[str, bytes]]:
    """Every input file read inside (by :func:`read_input`) in this thread, as shown ->
    the bytes read: what a result made of whole files is kept by (see
    :class:`validator.workspace.Workspace`)."""
    recorded: dict[str, bytes] = {}
    token = _RECORDED.set(recorded)
    try:
        yield recorded
    finally:
        _RECORDED.reset(token)


def present(path: Path) -> bool:
    """Whether anything is at ``path``, a dangling link or a FIFO too: an optional input
    that is there but unreadable is reported by :func:`read_input`, not taken for absent."""
    return path.is_symlink() or path.exists()


def read_input(path: Path, shown_as: str, limit: SizeLimit | None = None) -> bytes:
    """The bytes of an input file; a file that cannot be read is one problem naming why.

    Only a regular file is opened, and never in a way that can wait: a FIFO opened
    for reading blocks until a writer comes, and a device such as ``/dev/zero`` never
    ends.  The size is bounded while reading, since ``st_size`` says nothing of what a
    special file (or a file growing meanwhile) gives: by ``limit``, the book's (see
    :mod:`validator.content.limits`), else the default of the file's kind."""
    try:
        data = _read_bounded(path, shown_as, limit or limit_of(path))
    except IsADirectoryError:
        raise ProblemsFound([Problem(shown_as, 0, "", "is a folder where a file is expected",
                                     "replace the folder by the file, or move it away")]) from None
    except FileNotFoundError:
        raise ProblemsFound([Problem(shown_as, 0, "", "the file does not exist",
                                     "create it or correct the path")]) from None
    except PermissionError:
        raise ProblemsFound([Problem(shown_as, 0, "", "the file cannot be read (permission denied)",
                                     "make it readable (chmod u+r)")]) from None
    except OSError as error:
        raise ProblemsFound([Problem(shown_as, 0, "", f"the file cannot be read ({error.strerror or error})",
                                     "check the file and the disk")]) from None
    recorded = _RECORDED.get()
    if recorded is not None:
        recorded[shown_as] = data
    return data


def _read_bounded(path: Path, shown_as: str, limit: SizeLimit) -> bytes:
    """At most ``limit.bytes`` bytes of the regular file at ``path``, refused beyond.

    The file is looked at before it is opened (a FIFO is not opened at all), then
    again through the open descriptor, since it may have been replaced in between."""
    refuse_special(path, os.stat(path).st_mode, shown_as)
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        refuse_special(path, os.fstat(descriptor).st_mode, shown_as)
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(descriptor, min(_CHUNK, limit.bytes + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit.bytes:
                raise ProblemsFound([Problem(shown_as, 0, "", f"the file is larger than {mib(limit.bytes)} (the "
                                             f"limit for {limit.of})", limit.fix)])
        return b"".join(chunks)
    finally:
        os.close(descriptor)


_CHUNK = 2**20


def refuse_special(path: Path, mode: int, shown_as: str) -> None:
    """Raise the problem of an input that is not a regular file (a folder, a FIFO, a
    device, a socket), naming what it is; reading one would block or never end."""
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
    what = special_kind(mode)
    raise ProblemsFound([Problem(shown_as, 0, "", f"is {what}, not a regular file",
                                 "replace it by the file itself (a symbolic link may point only to a file)")])


def special_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    kinds = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))
    return next((name for test, name in kinds if test(mode)), "a special file")


CATALOGUE_SUFFIXES = (".po", ".pot", ".xlf", ".xliff")
"""Files that hold the texts of the whole book in one language (an XLIFF file is the
catalogues of a language, for a translation tool)."""


def limit_of(path: Path) -> SizeLimit:
    """The default size limit of an input, by its kind: catalogues and templates grow
    with the rules of the whole book, every other input with one chapter or part of it."""
    return CATALOG_LIMIT if path.suffix in CATALOGUE_SUFFIXES else INPUT_LIMIT


def mib(size: int) -> str:
    return f"{size / 2**20:g} MiB"


def decode_utf8(data: bytes, shown_as: str) -> str:
    """UTF-8 text; a byte that is not UTF-8 is reported with its line and value."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise ProblemsFound([Problem(shown_as, line, "",
                                     f"byte 0x{data[error.start]:02x} at column {column} is not UTF-8",
                                     "save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8) or retype the "
                                     "character")]) from None


@dataclass(frozen=True)
class SizeLimit:
    """The most bytes one kind of input may hold, and what to do about a larger file."""

    bytes: int
    of: str
    fix: str


INPUT_LIMIT = SizeLimit(4 * 2**20, "an input file",
                        "split it into smaller files (one chapter per file) or check that it is the right file")
"""Any input but a catalogue: a chapter holds the rules of one chapter, so a file far
beyond the largest real one is a mistake (or an attack), refused while it is read.
The manual's limits page gives the sizes it leaves room for."""
CATALOG_LIMIT = SizeLimit(16 * 2**20, "a catalogue or template",
                          "check that it is the right file; drop obsolete entries (msgattrib --no-obsolete); a "
                          "larger book sets limits: catalogue_mib in rulebook.yml")
"""A catalogue (.po) or template (.pot) holds the texts of the whole book in one
language, so it grows with the book: this is the least limit, which a book's own
grows from (see :mod:`validator.content.limits`)."""
class _BoundedComposer(BoundedComposing, Composer):
    """ruamel's composer, within the bounds of :mod:`validator.content.yamlbounds`."""

    def _peek(self) -> Any:
        return self.parser.peek_event()


class _TrackingConstructor(RoundTripConstructor):
    """Remembers the node being built, so that a value Python refuses (an integer of
    thousands of digits, the 13th month) can be reported with its line."""

    current_line = 0

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        if node.start_mark is not None:
            self.current_line = node.start_mark.line + 1
        return super().construct_object(node, deep)

    def construct_yaml_int(self, node: Any) -> Any:
        if len(str(node.value)) > 40:
            raise ValueError(f"an integer of {len(str(node.value))} characters is beyond any value a rulebook needs")
        return super().construct_yaml_int(node)

    def flatten_mapping(self, node: Any) -> Any:
        """A merge key (``<<: *defaults``) is refused: the keys it brings have no line
        of their own in the file, and every message points at the line of a key."""
        for key_node, _value in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                line = key_node.start_mark.line + 1 if key_node.start_mark else 0
                raise YamlRefused(line, "a merge key (<<) is not supported",
                               "write the keys out in this mapping (an alias *name of a whole value still works)")
        return super().flatten_mapping(node)


_TrackingConstructor.add_constructor("tag:yaml.org,2002:int", _TrackingConstructor.construct_yaml_int)


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.Composer = _BoundedComposer
    yaml.Constructor = _TrackingConstructor
    return yaml


PARSED_LARGEST = 512 * 1024
"""Larger texts are not kept: the texts kept and their readings stay small."""


def parse_yaml(text: str, shown_as: str) -> Any:
    """Parse YAML ``text`` shown to the user as ``shown_as``.

    Plain texts are read by libyaml, faster than a copy could be made.  The others
    go through ruamel's round-trip parser, pure Python: a text it parsed before (the
    preview rebuilding after one file changed, a test breaking one file of many) is
    served from a small cache, as a deep copy so that no caller shares its nodes."""
    fast = parse_plain_yaml(text, MAX_DEPTH, MAX_NODES)
    if fast is not UNHANDLED:
        _normalise_texts(fast)
        return fast
    if len(text) > PARSED_LARGEST:
        return _parse_yaml(text, shown_as)
    return copy.deepcopy(_parsed_kept(text, shown_as))


@kept_function(64)
def _parsed_kept(text: str, shown_as: str) -> Any:
    """:func:`_parse_yaml`, kept by the text and its name (see :mod:`validator.derived`);
    never handed out itself, only copies of it."""
    return _parse_yaml(text, shown_as)


def _parse_yaml(text: str, shown_as: str) -> Any:
    """ruamel's reading: every YAML feature, and the reference error messages."""
    yaml = _yaml()
    try:
        data = yaml.load(text)
    except YamlRefused as refused:
        raise ProblemsFound([Problem(shown_as, refused.line, "", f"YAML refused: {refused.message}",
                                     refused.fix)]) from None
    except MarkedYAMLError as error:
        raise ProblemsFound([_syntax_problem(error, shown_as, text)]) from None
    except ReaderError as error:
        line = text.count("\n", 0, error.position) + 1 if isinstance(error.position, int) else 0
        code = error.character if isinstance(error.character, int) else ord(str(error.character)[:1] or "?")
        problem = Problem(shown_as, line, "", f"YAML error: the control character U+{code:04X} "
                          "is not allowed", "remove it (it is invisible in most editors)")
        raise ProblemsFound([problem]) from None
    except YAMLError as error:
        problem = Problem(shown_as, 0, "", f"YAML error: {_one_line(str(error))}", "correct the YAML syntax")
        raise ProblemsFound([problem]) from None
    except (ValueError, TypeError, OverflowError) as error:
        constructor = yaml.constructor
        line = constructor.current_line if isinstance(constructor, _TrackingConstructor) else 0
        raise ProblemsFound([Problem(shown_as, line, "", f"YAML value cannot be read: {_one_line(str(error))[:200]}",
                                     "correct the value (quote it to keep it as text)")]) from None
    _normalise_texts(data)
    return data


def _syntax_problem(error: MarkedYAMLError, shown_as: str, text: str) -> Problem:
    """A parser error at the line a reader should look at.

    For an unclosed quote (and anything "while scanning" a token) the parser notices
    only lines later, at the end of the text; the place to fix is where the token
    starts, which is the context mark."""
    context = error.context or ""
    starts_there = context.startswith("while scanning") and error.context_mark is not None
    mark = error.context_mark if starts_there else (error.problem_mark or error.context_mark)
    line = mark.line + 1 if mark else 0
    what = " ".join(part for part in (error.context, error.problem) if part) or "invalid YAML"
    fix = "give each key once in a mapping" if "duplicate key" in what else "correct the YAML syntax"
    if "quoted scalar" in context:
        fix = "close the quote on this line (or check for a quote inside the text)"
    opened = _runaway_quote(text, line)
    if opened and opened[0] < line:
        return Problem(shown_as, opened[0], "", f"YAML error: the quoted text opened on this line runs on to line "
                       f"{opened[1]}, where the parser fails ({_one_line(what)[:200]})",
                       "close the quote on this line (or check for a quote inside the text)")
    return Problem(shown_as, line, "", f"YAML error: {_one_line(what)[:300]}", fix)


def _runaway_quote(text: str, error_line: int) -> tuple[int, int] | None:
    """Where a quoted text that spans lines and ends at the error starts, and where it ends.

    A quote left open swallows the lines after it until the next quote of the same
    kind, and the parser fails only there, many lines on; the fix is where it opens."""
    found = None
    yaml = YAML(typ="rt")
    scanned: list[Any] = []
    try:
        for token in yaml.scan(text):
            scanned.append(token)
    except (YAMLError, ValueError):
        # Tokens the scanner read ahead before it failed are still in its queue.
        scanned.extend(getattr(getattr(yaml, "scanner", None), "tokens", None) or [])
    lines = text.splitlines()
    for token in scanned:
        if isinstance(token, ScalarToken) and token.style in ('"', "'") and token.end_mark is not None:
            start, end = token.start_mark.line + 1, token.end_mark.line + 1
            # Quoted text that swallowed "key:" lines is a quote left open, not a long text.
            swallowed = any(_KEY_LINE.match(line) for line in lines[start:end - 1])
            if start < end <= error_line and (swallowed or end >= error_line - 1):
                found = (start, end)
    return found


_KEY_LINE = re.compile(r"^\s*(?:-\s+)?[A-Za-z_][\w-]*:(?:\s|$)")


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
        return model.model_validate(data, context={"file": shown_as, FIELDS_GIVEN: {}})
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
    return [info.alias or name for name, info in model.model_fields.items() if name != "position"]


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
