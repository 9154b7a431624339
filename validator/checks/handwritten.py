"""What the book ships besides its YAML and catalogues: hand-written pages and the site's address.

The translator's guides (``docs/guide/translators.<lang>.md``) are written and
translated by volunteers, as the catalogues are, so they are untrusted text: the
check refuses raw HTML, a script address or an attribute list with an event
handler in them, each at its line, and the build renders them through
:func:`validator.site.handwritten.sanitized` all the same.  ``site_url`` in
``mkdocs.yml`` is printed into every page's head, so it must be a plain public
address.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import yaml  # type: ignore[import-untyped]

from validator.checks.lint import UNSAFE_SCHEME, Finding, Severity
from validator.content.mkdocs_config import ConfigFile, config_chain
from validator.content.model import address_problem
from validator.content.yamlsource import decode_utf8, read_input
from validator.problems import Problem, ProblemsFound

RAW_HTML = re.compile(r"<\s*(?:[A-Za-z][A-Za-z0-9-]*|/\s*[A-Za-z]|!|\?)")
"""The start of an HTML tag, a closing tag, a comment or a declaration."""
HANDLER = re.compile(r"\{[^{}\n]*\bon[a-z]+\s*=[^{}\n]*\}", re.IGNORECASE)
"""An attribute list (``{: onclick=...}``) that sets an event handler."""
CODE_SPAN = re.compile(r"(`+)[^`].*?\1")
FENCE = re.compile(r"^\s*(```|~~~)")
FIX = ("write Markdown only: a link as [text](https://...), a tag shown as an example between backticks "
       "(`<lang>`); the site never shows a volunteer's HTML")


def page_problems(path: Path, shown_as: str) -> Iterator[Problem]:
    """Raw HTML, script addresses and event handlers in one hand-written Markdown page,
    outside code (fenced blocks and code spans show their text as it is)."""
    try:
        text = decode_utf8(read_input(path, shown_as), shown_as)
    except ProblemsFound as found:
        yield from found.problems
        return
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield from _line_problems(CODE_SPAN.sub(" ", line), shown_as, number)


def _line_problems(line: str, shown_as: str, number: int) -> Iterator[Problem]:
    tags = sorted({match.group(0).replace(" ", "") for match in RAW_HTML.finditer(line)})
    if tags:
        yield Problem(shown_as, number, "", f"raw HTML in a hand-written page ({' '.join(tags)})", FIX)
    schemes = sorted({match.group(0).split(":")[0].strip().lower() + ":" for match in UNSAFE_SCHEME.finditer(line)})
    if schemes:
        yield Problem(shown_as, number, "", f"the script address {', '.join(schemes)} in a hand-written page",
                      "remove it: a page links only to http:// or https:// addresses and to the site's own pages")
    if HANDLER.search(line):
        yield Problem(shown_as, number, "", "an attribute list with an event handler in a hand-written page",
                      "remove the {...} after the text; a page sets no attributes")


def missing_guide_findings(root: Path, content_dir: str, source_language: str,
                           translated: tuple[str, ...]) -> list[Finding]:
    """A warning for each translated language without its own translator's guide when
    the source language has one: its site then shows the source language's guide, as
    it shows the English of an untranslated message."""
    guide = root / content_dir / "guide"
    source = guide / f"translators.{source_language}.md"
    if not source.exists():
        return []
    shown = source.relative_to(root).as_posix()
    return [Finding(shown.replace(f".{source_language}.md", f".{code}.md"), 0, "", "untranslated", Severity.WARNING,
                    f"the translator's guide has no '{code}' version, so the '{code}' site shows the "
                    f"'{source_language}' one", f"translate {shown} into this file")
            for code in translated if not (guide / f"translators.{code}.md").exists()]


def handwritten_problems(root: Path, content_dir: str, mkdocs_config: str) -> list[Problem]:
    """The problems of every Markdown page under the content folder and of ``site_url``."""
    pages = sorted((root / content_dir).rglob("*.md")) if (root / content_dir).is_dir() else []
    # Not only regular files: a FIFO or a device in a page's place is reported by the reading.
    problems = [problem for page in pages for problem in page_problems(page, page.relative_to(root).as_posix())]
    problems.extend(site_url_problems(root / mkdocs_config, mkdocs_config, root))
    return problems


PRINTED_AS_HTML = ("site_name", "site_description", "site_author", "copyright", "repo_name", "edit_uri")
"""Options of ``mkdocs.yml`` that Material's templates print into every page without
escaping (``copyright`` is even meant to hold HTML): plain text only."""
ADDRESSES = ("site_url", "repo_url")
"""Options printed as a link or into every page's head: a public web address only."""


def site_url_problems(path: Path, shown_as: str, book: Path) -> list[Problem]:
    """The options of ``mkdocs.yml`` and of the files it inherits that every page
    prints as written, when a file writes them as plain text: ``site_url`` and
    ``repo_url`` must be public web addresses (MkDocs' own check, in the load, accepts
    quotes and angle brackets), and the texts of :data:`PRINTED_AS_HTML` may hold no
    markup.  A chain MkDocs cannot read is reported by that check."""
    try:
        chain = config_chain(path, shown_as, book)
    except ProblemsFound:
        return []
    return [problem for config in chain for problem in _printed_option_problems(config)]


def _printed_option_problems(config: ConfigFile) -> list[Problem]:
    shown_as = config.shown_as
    problems = []
    for key, value in config.options:
        if not (isinstance(value, yaml.ScalarNode) and value.tag.endswith(":str") and value.value):
            continue
        line = key.start_mark.line + 1
        if key.value in ADDRESSES and (problem := address_problem(value.value)) is not None:
            problems.append(Problem(shown_as, line, "", f"{key.value} {problem}",
                                    "write a public address, such as https://rules.example.org/"))
        elif key.value in PRINTED_AS_HTML and (RAW_HTML.search(value.value) or '"' in value.value
                                               or UNSAFE_SCHEME.search(value.value)):
            problems.append(Problem(shown_as, line, "", f"{key.value} holds markup, a quote or a script address, "
                                    "which every page would print as HTML",
                                    "write plain text (a symbol such as © as the character itself, quotes as “ ”)"))
    return problems
