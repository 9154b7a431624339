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
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml  # type: ignore[import-untyped]

from validator.content.yamlbounds import YamlRefused, compose_bounded
from validator.content.yamlsource import decode_utf8, read_input
from validator.derived import kept_function
from validator.problems import Problem, ProblemsFound

FIX = "correct the option (see https://www.mkdocs.org/user-guide/configuration/)"


def mkdocs_problems(path: Path, shown_as: str, docs_dir: Path, book: Path) -> list[Problem]:
    """Every error and warning MkDocs reports when it loads ``path``.

    ``docs_dir`` stands in for the pages folder, which the build sets per language;
    ``book`` is the book's folder, which the files ``path`` inherits must not leave.
    MkDocs reads them only once each has been read here, within the bounds of every
    input (see :func:`config_chain`)."""
    try:
        chain = config_chain(path, shown_as, book)
    except ProblemsFound as found:
        return list(found.problems)
    refused = [problem for config in chain for problem in _refused_keys(config)]
    if refused:
        return refused
    pages = str(docs_dir.resolve()) if docs_dir.is_dir() else None
    return list(_loaded_problems(str(path), shown_as, pages, tuple(config.text for config in chain)))


@kept_function(8)
def _loaded_problems(path: str, shown_as: str, pages: str | None, texts: tuple[str, ...]) -> tuple[Problem, ...]:
    """What MkDocs says loading ``path`` with the pages folder ``pages`` (a scratch one
    when None), kept by the texts of the files of its chain: the preview loads the book
    after every save, and the configuration seldom changes."""
    from mkdocs.config import load_config  # here: a check loads MkDocs in a process of its own
    from mkdocs.exceptions import MkDocsException

    with mkdocs_warnings() as messages, tempfile.TemporaryDirectory() as scratch:
        try:
            load_config(path, docs_dir=pages or scratch)
        except MkDocsException as error:
            if not messages:
                messages.append(str(error))
        except (yaml.YAMLError, OSError, ValueError, TypeError, LookupError) as error:
            messages.append(f"MkDocs cannot load it ({type(error).__name__}: {error})")
    return tuple(Problem(shown_as, _line_of(message, texts[0]), "", f"MkDocs: {_one_line(_without_frames(message))}",
                         FIX) for message in dict.fromkeys(messages))


@dataclass(frozen=True)
class ConfigFile:
    """One file of a configuration's chain, as read and composed here."""

    path: Path
    shown_as: str
    text: str
    options: tuple[tuple[Any, Any], ...]
    """Its top-level (key, value) nodes, only composed: no tag resolved, no code run."""

    def option(self, key: str) -> Any | None:
        """The value node of the top-level option ``key``, if this file sets it."""
        return next((value for name, value in self.options
                     if isinstance(name, yaml.ScalarNode) and name.value == key), None)

    def line(self, key: str) -> int:
        """The line of the top-level option ``key`` (0 if the file does not set it)."""
        return next((name.start_mark.line + 1 for name, _value in self.options
                     if isinstance(name, yaml.ScalarNode) and name.value == key), 0)


def config_chain(path: Path, shown_as: str, book: Path) -> list[ConfigFile]:
    """The configuration at ``path`` and every file it inherits (its ``INHERIT`` key,
    and theirs), nearest first, each read as every input is: a regular file within the
    size limit, composed within the bounds of :mod:`validator.content.yamlbounds`.

    MkDocs opens the inherited files itself, without any bound: a FIFO or
    ``/dev/zero`` would be waited on or read without end, an alias bomb expanded, a
    file outside the book read.  Raises :class:`ProblemsFound` with the first problem
    of the chain, naming the file (and the line) where it is."""
    inside = book.resolve()
    chain = [_config_file(path, shown_as)]
    while (parent := _inherit_of(chain[-1])) is not None:
        child = chain[-1]
        line = child.line("INHERIT")
        parent_path = (child.path.parent / parent).resolve()
        if not parent_path.is_relative_to(inside):
            raise ProblemsFound([Problem(child.shown_as, line, "", f"INHERIT names {parent!r}, which is outside "
                                         "the book's folder", "inherit from a file inside the book's folder (beside "
                                         "mkdocs.yml); copy the options you need into it")])
        if parent_path in {config.path.resolve() for config in chain} or len(chain) > MAX_INHERITED:
            raise ProblemsFound([Problem(child.shown_as, line, "", f"INHERIT leads to a chain of more than "
                                         f"{MAX_INHERITED} files or back to a file of the chain",
                                         "inherit from a file that does not itself inherit (back)")])
        chain.append(_config_file(parent_path, f"{parent_path.relative_to(inside).as_posix()} (inherited by "
                                  f"{chain[0].shown_as})"))
    return chain


def _config_file(path: Path, shown_as: str) -> ConfigFile:
    text = decode_utf8(read_input(path, shown_as), shown_as)
    try:
        root = compose_bounded(text)
    except YamlRefused as refused:
        raise ProblemsFound([Problem(shown_as, refused.line, "", f"YAML refused: {refused.message}",
                                     refused.fix)]) from None
    except yaml.YAMLError as error:
        raise ProblemsFound([_yaml_problem(error, shown_as)]) from None
    options = tuple(root.value) if isinstance(root, yaml.MappingNode) else ()
    return ConfigFile(path, shown_as, text, options)


REFUSED_KEYS = MappingProxyType({
    "hooks": "each language's site is built from a configuration written in another folder, where the paths of "
             "hooks do not lead",
})
"""Options of ``mkdocs.yml`` a build cannot honour: refused by the check, rather than
accepted there and failing the build."""


def _refused_keys(config: ConfigFile) -> list[Problem]:
    """The top-level options of :data:`REFUSED_KEYS` the file sets, each at its line."""
    return [Problem(config.shown_as, key.start_mark.line + 1, "", f"'{key.value}' is not supported: "
                    f"{REFUSED_KEYS[key.value]}", f"remove '{key.value}' (a plugin, installed as a package and named "
                    "under plugins:, can do the same)")
            for key, _value in config.options if isinstance(key, yaml.ScalarNode) and key.value in REFUSED_KEYS]


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


def _inherit_of(config: ConfigFile) -> str | None:
    """The file a configuration's top-level ``INHERIT`` key names, if any."""
    value = config.option("INHERIT")
    return str(value.value) if isinstance(value, yaml.ScalarNode) else None


def inherited_option(path: Path, key: str, book: Path) -> Any | None:
    """The YAML node of the top-level option ``key`` as the configuration at ``path`` and
    the files it inherits give it (the nearest file that sets it), only composed: its
    tags (``!ENV``, ``!!python/name:``) are kept as written, for MkDocs to resolve.
    None when no file of the chain sets it, or the chain cannot be read (the check
    reports that, see :func:`mkdocs_problems`).

    A build that sets an option of its own in a language's configuration replaces the
    inherited value whole (MkDocs merges only mappings): it starts from this node."""
    try:
        chain = config_chain(path, str(path), book)
    except ProblemsFound:
        return None
    return next((value for config in chain if (value := config.option(key)) is not None), None)


def _yaml_problem(error: yaml.YAMLError, shown_as: str) -> Problem:
    """A YAML syntax error as MkDocs' loader sees it (tags such as ``!ENV`` allowed)."""
    if not isinstance(error, yaml.MarkedYAMLError):
        return Problem(shown_as, 0, "", f"YAML error: {_one_line(str(error))}", "correct the YAML syntax")
    mark = error.problem_mark or error.context_mark
    if error.context and error.context.startswith("while scanning") and error.context_mark:
        mark = error.context_mark
    what = " ".join(part for part in (error.context, error.problem) if part)
    return Problem(shown_as, mark.line + 1 if mark else 0, "", f"YAML error: {_one_line(what)}",
                   "correct the YAML syntax")


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
