"""The ``pybabel extract`` method for rulebook YAML files.

Registered as the ``validator`` extractor (entry point ``babel.extractors``), so
a mapping file line ``[docs/**.yml] / method = validator`` makes ``pybabel
extract`` write one message per text field, with msgctxt ``<id>#<field>``.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import IO, Any

from pydantic import BaseModel

from validator.content.faq import Faq, faq_messages
from validator.content.model import (
    BOOK_TITLE,
    Chapter,
    Discrepancies,
    Glossary,
    Message,
    Sources,
    Term,
    chapter_messages,
    discrepancy_messages,
    glossary_messages,
    source_messages,
)
from validator.content.project import Project
from validator.content.tokens import tokens
from validator.content.yamlsource import INPUT_LIMIT, mib, parse_yaml, validate
from validator.problems import ProblemsFound

TOKEN_COMMENT = "Keep every {...} token; only the form after | may change."


def message_comments(message: Message) -> list[str]:
    """The automatic comments of a text in the template, the same for every language:
    what it belongs to (a rule's title and chapter), and the rule of its tokens once
    when it has any.  The forms a term may take differ by language: see
    :func:`term_notes`."""
    return [*([message.about] if message.about else []), *([TOKEN_COMMENT] if tokens(message.text) else [])]


def term_notes(messages: Iterable[Message], glossary: Glossary, language: str) -> dict[str, list[str]]:
    """For one language's catalogue, msgctxt -> a comment for each glossary term its
    English links (``{term:id}`` or ``{term:id|form}``), and for a term's own entry:
    the forms the glossary lists for the term in ``language``, which a ``{term:id|form}``
    of the translation must choose from (the lint's ``term-form``).  A term kept in
    English says so; a term with no forms in the language, or unknown, says nothing.

    Written into each language's catalogue by the merge rather than into the template:
    the template is the same for every language, and a translator needs the forms of
    the language at hand, not those of every other."""
    terms = {term.id: term for term in glossary.terms}
    notes: dict[str, list[str]] = {}
    for message in messages:
        ids = [token.argument for token in tokens(message.text) if token.kind == "term"]
        if message.context.startswith("glossary/") and message.context.endswith("#term"):
            ids.insert(0, message.context.removeprefix("glossary/").removesuffix("#term"))
        found = [note for term_id in dict.fromkeys(ids) if term_id in terms
                 for note in [_forms_note(terms[term_id], language)] if note]
        if found:
            notes[message.context] = found
    return notes


def _forms_note(term: Term, language: str) -> str:
    """``{term:rider} in es: sg jinete; pl jinetes`` (each number's forms in the order
    the glossary's grammar gives its cases), or that the term stays in English."""
    if term.keep:
        return f"{{term:{term.id}}}: a name, kept in English in every language"
    inflection = term.forms.get(language)
    if inflection is None:
        return ""
    numbers = (("sg", inflection.sg), ("du", inflection.du), ("pl", inflection.pl), ("other", inflection.other))
    listed = "; ".join(f"{number} {', '.join(forms)}" for number, forms in numbers if forms)
    return f"{{term:{term.id}}} in {language}: {listed}"


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
                yield Message(context="rulebook#title", text=document.title, owner=document.position, key="title",
                              about=BOOK_TITLE)
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
        yield message.position.line, "pgettext", (message.context, message.text), message_comments(message)
