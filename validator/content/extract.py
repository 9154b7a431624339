"""The ``pybabel extract`` method for rulebook YAML files.

Registered as the ``validator`` extractor (entry point ``babel.extractors``), so
a mapping file line ``[docs/**.yml] / method = validator`` makes ``pybabel
extract`` write one message per text field, with msgctxt ``<id>#<field>``.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from pydantic import BaseModel

from validator.content.faq import Faq, faq_messages
from validator.content.model import (
    Chapter,
    Discrepancies,
    Glossary,
    Message,
    Sources,
    chapter_messages,
    discrepancy_messages,
    glossary_messages,
    source_messages,
)
from validator.content.project import Project
from validator.content.tokens import tokens
from validator.content.yamlsource import INPUT_LIMIT, mib, parse_yaml, validate
from validator.problems import ProblemsFound

TOKEN_COMMENT = "Keep every {...} token; only the text after | in a term token may change."


def messages_of_file(data: Mapping[str, Any], shown_as: str) -> Iterator[Message]:
    """The messages of one content file, recognised by its top-level keys."""
    kinds: list[tuple[str, type[BaseModel]]] = [
        ("chapter", Chapter), ("terms", Glossary), ("sources", Sources),
        ("discrepancies", Discrepancies), ("faq", Faq), ("source_language", Project),
    ]
    for key, model in kinds:
        if key in data:
            document = validate(model, data, shown_as)
            if isinstance(document, Chapter):
                yield from chapter_messages(document)
            elif isinstance(document, Glossary):
                yield from glossary_messages(document)
            elif isinstance(document, Sources):
                yield from source_messages(document)
            elif isinstance(document, Discrepancies):
                yield from discrepancy_messages(document)
            elif isinstance(document, Faq):
                yield from faq_messages(document)
            elif isinstance(document, Project):
                yield Message(context="rulebook#title", text=document.title, owner=document.position, key="title")
            return


def extract_rulebook(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel extraction method: yields ``pgettext`` calls so Babel sets msgctxt."""
    shown_as = getattr(fileobj, "name", "<rulebook>")
    try:
        raw = fileobj.read(INPUT_LIMIT.bytes + 1)  # Babel opened the file: bounded as every input is
        if len(raw) > INPUT_LIMIT.bytes:
            print(f"{shown_as}: {INPUT_LIMIT.of} larger than {mib(INPUT_LIMIT.bytes)}. Fix: {INPUT_LIMIT.fix}.",
                  file=sys.stderr)
            raise SystemExit(1)
        data = parse_yaml(raw.decode("utf-8"), str(shown_as))
        found = list(messages_of_file(data, str(shown_as)) if isinstance(data, Mapping) else [])
    except UnicodeDecodeError as error:
        print(f"{shown_as}: not UTF-8 text ({error}). Fix: save the file as UTF-8.", file=sys.stderr)
        raise SystemExit(1) from None
    except ProblemsFound as problems:
        print(problems, file=sys.stderr)
        raise SystemExit(1) from None
    for message in found:
        comments = [TOKEN_COMMENT] if tokens(message.text) else []
        yield message.position.line, "pgettext", (message.context, message.text), comments
