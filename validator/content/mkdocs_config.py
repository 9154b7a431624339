"""The base MkDocs configuration, checked by MkDocs itself before any build.

``mkdocs.yml`` is inherited by every language's site; a mistake in it (a YAML
error, a theme or plugin that is not installed, an option MkDocs does not know)
would otherwise surface only in ``validator build``.  MkDocs' own loader and
validation are used, so the check accepts exactly what a build accepts, and each
finding is pointed at the line of the option it names.
"""

from __future__ import annotations

import logging
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from validator.content.yamlsource import decode_utf8, read_input
from validator.problems import Problem, ProblemsFound

FIX = "correct the option (see https://www.mkdocs.org/user-guide/configuration/)"


def mkdocs_problems(path: Path, shown_as: str, docs_dir: Path) -> list[Problem]:
    """Every error and warning MkDocs reports when it loads ``path``.

    ``docs_dir`` stands in for the pages folder, which the build sets per language."""
    try:
        text = decode_utf8(read_input(path, shown_as), shown_as)
    except ProblemsFound as found:
        return list(found.problems)
    syntax = _yaml_problem(text, shown_as)
    if syntax is not None:
        return [syntax]
    refused = _refused_keys(_top_level(text), shown_as)
    if refused:
        return refused
    inherited = _inherited_problems(path, text, shown_as)
    if inherited:
        return inherited
    from mkdocs.config import load_config  # here: a check loads MkDocs in a process of its own
    from mkdocs.exceptions import MkDocsException

    with mkdocs_warnings() as messages, tempfile.TemporaryDirectory() as scratch:
        pages = docs_dir.resolve() if docs_dir.is_dir() else Path(scratch)
        try:
            load_config(str(path), docs_dir=str(pages))
        except MkDocsException as error:
            if not messages:
                messages.append(str(error))
        except (yaml.YAMLError, OSError, ValueError, TypeError, LookupError) as error:
            messages.append(f"MkDocs cannot load it ({type(error).__name__}: {error})")
    return [Problem(shown_as, _line_of(message, text), "", f"MkDocs: {_one_line(_without_frames(message))}", FIX)
            for message in dict.fromkeys(messages)]


REFUSED_KEYS = {
    "hooks": "each language's site is built from a configuration written in another folder, where the paths of "
             "hooks do not lead",
}
"""Options of ``mkdocs.yml`` a build cannot honour: refused by the check, rather than
accepted there and failing the build."""


def _top_level(text: str) -> list[tuple[Any, Any]]:
    """The top-level (key, value) nodes of a configuration, as MkDocs reads it; the nodes
    are only composed, so no tag is resolved and no code runs (``!ENV`` needs no loader).
    A file that is no mapping has none: MkDocs' own loader reports it."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return []
    return list(root.value) if isinstance(root, yaml.MappingNode) else []


def _refused_keys(nodes: list[tuple[Any, Any]], shown_as: str) -> list[Problem]:
    """The top-level options of :data:`REFUSED_KEYS` the file sets, each at its line."""
    return [Problem(shown_as, key.start_mark.line + 1, "", f"'{key.value}' is not supported: {REFUSED_KEYS[key.value]}",
                    f"remove '{key.value}' (a plugin, installed as a package and named under plugins:, can do the "
                    "same)")
            for key, _value in nodes if isinstance(key, yaml.ScalarNode) and key.value in REFUSED_KEYS]


_FRAME = re.compile(r"^\s*(?:File \"[^\n]*\", line \d+.*|Traceback \(most recent call last\):|\s*[~^]+\s*)$")


def _without_frames(message: str) -> str:
    """A MkDocs message without the traceback it may carry (a Markdown extension that
    failed to load): its first line and the error it ends with say what is wrong."""
    lines = message.splitlines()
    if not any(_FRAME.match(line) for line in lines):
        return message
    return f"{lines[0]} {lines[-1].strip()}"


MAX_INHERITED = 8
"""Files a configuration may inherit from in a chain; MkDocs itself follows any number,
and a chain that comes back to a file it holds never ends."""


def _inherited_problems(path: Path, text: str, shown_as: str) -> list[Problem]:
    """What is wrong with the files ``path`` inherits (its ``INHERIT`` key, and theirs).

    MkDocs opens them itself, without any bound: each is vetted here first as every
    input is (a regular file, within the size limit), so that a FIFO or ``/dev/zero``
    named there is reported instead of waited on or read without end."""
    seen = {path.resolve()}
    while (parent := _inherit_of(text)) is not None:
        parent_path = (path.parent / parent).resolve()
        shown_parent = f"{parent} (inherited by {shown_as})"
        if parent_path in seen or len(seen) > MAX_INHERITED:
            return [Problem(shown_as, _line_of("Config value 'INHERIT'", text), "",
                            f"INHERIT leads to a chain of more than {MAX_INHERITED} files or back to a file of "
                            "the chain", "inherit from a file that does not itself inherit (back)")]
        seen.add(parent_path)
        try:
            text = decode_utf8(read_input(parent_path, shown_parent), shown_parent)
        except ProblemsFound as found:
            return list(found.problems)
        syntax = _yaml_problem(text, shown_parent)
        if syntax is not None:
            return [syntax]
        path, shown_as = parent_path, shown_parent
    return []


def _inherit_of(text: str) -> str | None:
    """The file a configuration's top-level ``INHERIT`` key names, if any."""
    for key, value in _top_level(text):
        if isinstance(key, yaml.ScalarNode) and key.value == "INHERIT" and isinstance(value, yaml.ScalarNode):
            return str(value.value)
    return None


def inherited_option(path: Path, key: str) -> Any | None:
    """The YAML node of the top-level option ``key`` as the configuration at ``path`` and
    the files it inherits give it (the nearest file that sets it), only composed: its
    tags (``!ENV``, ``!!python/name:``) are kept as written, for MkDocs to resolve.
    None when no file of the chain sets it, or a file cannot be read (the check reports
    that, see :func:`mkdocs_problems`).

    A build that sets an option of its own in a language's configuration replaces the
    inherited value whole (MkDocs merges only mappings): it starts from this node."""
    seen: set[Path] = set()
    current: Path | None = path
    while current is not None and current.resolve() not in seen and len(seen) <= MAX_INHERITED:
        seen.add(current.resolve())
        try:
            text = decode_utf8(read_input(current, str(current)), str(current))
        except ProblemsFound:
            return None
        nodes = _top_level(text)
        for name, value in nodes:
            if isinstance(name, yaml.ScalarNode) and name.value == key:
                return value
        parent = _inherit_of(text)
        current = (current.parent / parent) if parent is not None else None
    return None


def _yaml_problem(text: str, shown_as: str) -> Problem | None:
    """A YAML syntax error as MkDocs' loader sees it (tags such as ``!ENV`` allowed)."""
    try:
        for _ in yaml.parse(text, Loader=yaml.SafeLoader):
            pass
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        if error.context and error.context.startswith("while scanning") and error.context_mark:
            mark = error.context_mark
        what = " ".join(part for part in (error.context, error.problem) if part)
        return Problem(shown_as, mark.line + 1 if mark else 0, "", f"YAML error: {_one_line(what)}",
                       "correct the YAML syntax")
    except yaml.YAMLError as error:
        return Problem(shown_as, 0, "", f"YAML error: {_one_line(str(error))}", "correct the YAML syntax")
    return None


def _line_of(message: str, text: str) -> int:
    """The line of the top-level option a MkDocs message names (``Config value 'theme'``,
    ``configuration name: nosuch``), or of the plugin or extension it names."""
    named = re.search(r"Config value '([^']+)'|configuration name: (\S+)|[Pp]lugin [\"']([^\"']+)[\"']", message)
    if named is None:
        return 0
    key = next(group for group in named.groups() if group)
    for pattern in (rf"^{re.escape(key)}\s*:", rf"^\s*-\s*{re.escape(key)}\b", rf"\b{re.escape(key)}\b"):
        for number, line in enumerate(text.splitlines(), start=1):
            if re.search(pattern, line):
                return number
    return 0


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().rstrip(".")[:300]


@contextmanager
def mkdocs_warnings() -> Iterator[list[str]]:
    """MkDocs logs its findings (a bad option, a broken link, a missing anchor)
    rather than raising them: collect them, so that they can fail a check or a build."""
    collected: list[str] = []

    class Collector(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING:
                collected.append(record.getMessage())

    logger = logging.getLogger("mkdocs")
    handler = Collector()
    logger.addHandler(handler)
    try:
        yield collected
    finally:
        logger.removeHandler(handler)
