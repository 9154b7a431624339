"""The manual's reference pages, written from the code they describe.

Each YAML file's page is made from the pydantic model that validates the file, and the
API page from ``validator.api`` itself, so that a key added to a model or a name added
to the API is in the manual at the next build, and a key left without a meaning makes
the strict build fail instead of shipping a blank.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import logging
import re
import textwrap
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import yaml  # type: ignore[import-untyped]
from pydantic import AfterValidator, BaseModel, BeforeValidator, StringConstraints
from pydantic.fields import FieldInfo

from validator import api
from validator.checks.handwritten import ADDRESSES, PRINTED_AS_HTML
from validator.content.faq import Faq
from validator.content.mkdocs_config import REFUSED_KEYS
from validator.content.model import (
    ID_PATTERN,
    RULE_ID_PATTERN,
    CaseFile,
    Chapter,
    Discrepancies,
    Glossary,
    Position,
    Sources,
)
from validator.content.project import Project
from validator.content.units import Units

LOG = logging.getLogger("mkdocs.plugins.manual")
"""Under MkDocs' own logger, so that ``--strict`` counts each warning as a failure."""

NOTES_FILE = Path(__file__).resolve().parent.parent / "field-notes.yml"
"""Meanings of the keys whose model states none in a docstring, by ``Model.key``."""


@dataclass(frozen=True)
class FilePage:
    """One YAML file of a book, the model that validates it and the page describing it."""

    page: str
    title: str
    file: str
    model: type[BaseModel]


PAGES: tuple[FilePage, ...] = (
    FilePage("reference/rulebook.md", "rulebook.yml", "rulebook.yml", Project),
    FilePage("reference/chapters.md", "Chapters", "docs/rules/<chapter>.yml", Chapter),
    FilePage("reference/glossary.md", "glossary.yml", "docs/glossary.yml", Glossary),
    FilePage("reference/sources.md", "sources.yml", "docs/sources.yml", Sources),
    FilePage("reference/discrepancies.md", "discrepancies.yml", "docs/discrepancies.yml", Discrepancies),
    FilePage("reference/faq.md", "faq.yml", "docs/faq.yml", Faq),
    FilePage("reference/units.md", "units.yml", "docs/units.yml", Units),
    FilePage("reference/example-files.md", "Example files", "examples/<name>.yml", CaseFile),
)
"""Every YAML file a book holds, in the order of the manual's navigation."""

MKDOCS_PAGE = "reference/mkdocs.md"
API_PAGE = "reference/api.md"

ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
"""A Sphinx cross-reference (``:class:`Grammar```), which the manual shows as code."""


def markdown_of(doc: str) -> str:
    """A docstring as Markdown: Sphinx roles and double backquotes become code."""
    return ROLE.sub(r"`\1`", doc).replace("``", "`")


def one_paragraph(doc: str) -> str:
    """A docstring as one table cell: a cell cannot hold a line break."""
    return " ".join(markdown_of(doc).split()).replace("|", "\\|")


def attribute_docs(cls: type) -> dict[str, str]:
    """The string under each annotated attribute of ``cls`` and its bases, the way the
    models document a key; pydantic keeps none of it at run time."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass in (BaseModel, object) or not issubclass(klass, BaseModel):
            continue
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):
            continue
        body = ast.parse(source).body[0]
        if isinstance(body, ast.ClassDef):
            docs.update(_documented(body.body))
    return docs


def _documented(statements: list[ast.stmt]) -> Iterator[tuple[str, str]]:
    """Each ``name: type`` followed at once by a string, as (name, string)."""
    for statement, following in itertools.pairwise(statements):
        if (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
                and isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)):
            yield statement.target.id, inspect.cleandoc(following.value.value)


def load_notes() -> dict[str, str]:
    """The meanings kept beside the manual for the keys the models leave undocumented."""
    notes = yaml.safe_load(NOTES_FILE.read_text(encoding="utf-8")) or {}
    return {str(key): str(value) for key, value in notes.items()}


def models_of(root: type[BaseModel]) -> list[type[BaseModel]]:
    """``root`` and every model its keys hold, each once, in the order a reader meets them."""
    found: list[type[BaseModel]] = []

    def visit(model: type[BaseModel]) -> None:
        if model in found or model is Position:
            return
        found.append(model)
        for field in model.model_fields.values():
            for inner in _models_in(field.annotation):
                visit(inner)

    visit(root)
    return found


def _models_in(annotation: object) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for argument in get_args(annotation):
        yield from _models_in(argument)


def keys_of(model: type[BaseModel]) -> list[tuple[str, FieldInfo, str]]:
    """The keys a YAML mapping of ``model`` may hold: (key as written, field, attribute name)."""
    return [(field.alias or name, field, name) for name, field in model.model_fields.items()
            if name != "position"]


def anchor(model: type[BaseModel]) -> str:
    return model.__name__.lower()


def type_of(annotation: object, metadata: tuple[object, ...] = ()) -> str:
    """What a key holds, in a reader's words rather than Python's."""
    if get_origin(annotation) is Annotated:
        base, *extra = get_args(annotation)
        return type_of(base, (*extra, *metadata))
    if get_origin(annotation) in (Union, types.UnionType):
        parts = [type_of(part, metadata) for part in get_args(annotation) if part is not type(None)]
        return " or ".join(dict.fromkeys(parts))
    if get_origin(annotation) is Literal:
        return "one of " + ", ".join(f"`{value}`" for value in get_args(annotation))
    if get_origin(annotation) is tuple:
        least = next((getattr(item, "min_length", None) for item in metadata
                      if getattr(item, "min_length", None)), None)
        single = any(isinstance(item, BeforeValidator) for item in metadata)
        listed = f"list of {type_of(get_args(annotation)[0])}" + (" (at least one)" if least else "")
        return f"{type_of(get_args(annotation)[0])}, or {listed}" if single else listed
    if get_origin(annotation) is dict:
        key, value = get_args(annotation)
        return f"mapping of {type_of(key)} to {type_of(value)}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"mapping ([{annotation.__name__}](#{anchor(annotation)}))"
    return _scalar(annotation, metadata)


def _scalar(annotation: object, metadata: tuple[object, ...]) -> str:
    for item in metadata:
        if isinstance(item, StringConstraints) and item.pattern == ID_PATTERN:
            return "id"
        if isinstance(item, StringConstraints) and item.pattern == RULE_ID_PATTERN:
            return "rule id"
        if isinstance(item, AfterValidator):
            return "web address"
    if annotation is str:
        nonempty = any(getattr(item, "min_length", None) for item in metadata)
        return "text" if nonempty else "string"
    names: dict[object, str] = {int: "whole number", bool: "true or false", Decimal: "number",
                                Any: "any value", float: "number"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def default_of(field: FieldInfo) -> str:
    """The value a key takes when the file leaves it out."""
    if field.is_required():
        return "required"
    value = field.get_default(call_default_factory=True)
    if isinstance(value, BaseModel):
        return "its own defaults"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, tuple | list):
        return f"`[{', '.join(map(str, value))}]`"
    if isinstance(value, dict):
        return "`{}`" if not value else f"`{value}`"
    return f"`{value}`"


def meaning_of(model: type[BaseModel], name: str, docs: dict[str, str], notes: dict[str, str]) -> str:
    """A key's meaning: its docstring in the model, else the manual's note; a key with
    neither is reported, which fails a strict build."""
    text = docs.get(name) or next((notes[f"{klass.__name__}.{name}"] for klass in model.__mro__
                                   if f"{klass.__name__}.{name}" in notes), None)
    if text is None:
        LOG.warning("The key '%s' of %s has no meaning: add a docstring under it in the model, or a line "
                    "'%s.%s: ...' to manual/field-notes.yml", name, model.__name__, model.__name__, name)
        return ""
    return one_paragraph(text)


def model_section(model: type[BaseModel], notes: dict[str, str], heading: str) -> str:
    """One mapping's table of keys, under its model's own description."""
    own = model.__dict__.get("__doc__")
    lines = [f"{heading} {model.__name__} {{#{anchor(model)}}}", ""]
    if own:
        lines += [markdown_of(inspect.cleandoc(own)), ""]
    lines += ["| key | type | default | meaning |", "|---|---|---|---|"]
    docs = attribute_docs(model)
    for key, field, name in keys_of(model):
        kind = type_of(field.annotation, tuple(field.metadata)).replace("|", "\\|")
        lines.append(f"| `{key}` | {kind} | {default_of(field)} | {meaning_of(model, name, docs, notes)} |")
    return "\n".join(lines) + "\n"


def file_page(page: FilePage, notes: dict[str, str]) -> str:
    """The reference page of one YAML file: its top-level keys, then each mapping within."""
    models = models_of(page.model)
    intro = (f"# {page.title}\n\nThe keys of `{page.file}`. Any other key is an error, reported with its file and "
             "line. A *text* is a non-empty string (surrounding spaces are dropped); an *id* is lower-case words "
             "of letters and digits joined by hyphens; a *rule id* is `chapter/rule`, two ids.\n\n"
             "This page is generated from the models that validate the file, so it matches the tool you run.\n")
    sections = [model_section(model, notes, "##") for model in models]
    return "\n".join([intro, *sections])


def stale_notes(notes: dict[str, str]) -> list[str]:
    """Notes that name a key no model has any more: kept, they would mislead."""
    known = {f"{klass.__name__}.{name}" for page in PAGES for model in models_of(page.model)
             for klass in model.__mro__ for _key, _field, name in keys_of(model)}
    return sorted(set(notes) - known)


def mkdocs_page() -> str:
    """What the tool asks of a book's ``mkdocs.yml`` beyond MkDocs' own validation."""
    refused = "\n".join(f"- `{key}`: {reason}." for key, reason in REFUSED_KEYS.items())
    printed = ", ".join(f"`{key}`" for key in PRINTED_AS_HTML)
    addresses = ", ".join(f"`{key}`" for key in ADDRESSES)
    return f"""# mkdocs.yml

A book's `mkdocs.yml` is the base configuration every language's site inherits. `validator check` loads
it with MkDocs' own validation (an unknown theme, plugin, Markdown extension or option, a wrong type, an
`INHERIT` that leads back to itself), and reports each finding at the line of the option. On top of that:

Refused options:

{refused}

Plain text only (Material prints them into every page as HTML, so they may hold no markup, quote or
script address): {printed}.

Public web addresses only (`http://` or `https://` with a host, special characters percent-encoded):
{addresses}.

Set by the build for each language, whatever the file says: `site_name` (the book's title in that
language), `docs_dir`, `site_dir`, the theme's `language` and `custom_dir`, `nav`, `plugins`,
`extra_css`, `extra_javascript` and `extra.alternate`. Keep `use_directory_urls: false` and
`theme.font: false` so that the sites open from disk, offline.

This page is generated from the checks themselves.
"""


def public_names() -> list[str]:
    return list(api.__all__)


def api_page() -> str:
    """The contract of ``validator.api``: its docstring, then each public name."""
    sections = [f"## `{name}` {{#{name}}}\n\n{_described(name, getattr(api, name))}\n"
                for name in public_names()]
    intro = markdown_of(inspect.cleandoc(api.__doc__ or "")).replace("::\n", ":\n")
    return "\n".join([f"# validator.api\n\n{intro}\n", *sections])


def minimal_core() -> str:
    """The complete minimal core of ``validator.api``'s docstring, as a fenced block."""
    doc = inspect.cleandoc(api.__doc__ or "")
    code = doc.split("::\n", 1)[1]
    return "```python\n" + textwrap.dedent(code).strip() + "\n```\n"


def _described(name: str, value: object) -> str:
    """A public name's kind, signature and docstring."""
    if name == "Annotated":
        return "`typing.Annotated`, re-exported so that a core imports everything from one place."
    if inspect.isclass(value) or inspect.isfunction(value):
        kind = "class" if inspect.isclass(value) else "function"
        signature = _signature(value)
        doc = inspect.getdoc(value) or ""
        return f"{kind}\n\n```python\n{name}{signature}\n```\n\n{markdown_of(doc)}".rstrip()
    doc = _constant_doc(name)
    shown = f"`{name} = {value!r}`" if get_origin(value) is not Annotated else _alias(name, value)
    return f"{shown}\n\n{markdown_of(doc)}".rstrip()


def _signature(value: Callable[..., object]) -> str:
    try:
        return str(inspect.signature(value))
    except (TypeError, ValueError):
        return "(...)"


def _alias(name: str, value: object) -> str:
    base, *metadata = get_args(value)
    return f"`{name} = Annotated[{base.__name__}, {', '.join(map(repr, metadata))}]`"


def _constant_doc(name: str) -> str:
    """The docstring under a constant, in ``validator.api`` or the module it comes from."""
    for module_name in ("validator.api", "validator.api.shown", "validator.api.trace", "validator.api.ruleset",
                        "validator.api.citations"):
        module = __import__(module_name, fromlist=["_"])
        tree = ast.parse(inspect.getsource(module))
        for target, doc in _module_docs(tree.body):
            if target == name:
                return doc
    return ""


def _module_docs(statements: list[ast.stmt]) -> Iterator[tuple[str, str]]:
    """Each ``NAME = value`` or ``NAME: type = value`` followed at once by a string."""
    for statement, following in itertools.pairwise(statements):
        targets = (statement.targets if isinstance(statement, ast.Assign)
                   else [statement.target] if isinstance(statement, ast.AnnAssign) else [])
        if (isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)):
            for target in targets:
                if isinstance(target, ast.Name):
                    yield target.id, inspect.cleandoc(following.value.value)


def generated_pages() -> dict[str, str]:
    """Every generated page, by its path under the manual's docs folder."""
    notes = load_notes()
    for stale in stale_notes(notes):
        LOG.warning("manual/field-notes.yml describes '%s', which no model has: remove the line", stale)
    pages = {page.page: file_page(page, notes) for page in PAGES}
    pages[MKDOCS_PAGE] = mkdocs_page()
    pages[API_PAGE] = api_page()
    return pages


__all__ = ["PAGES", "FilePage", "generated_pages", "minimal_core"]
