"""The rules as open data: one set of JSON files per language beside the sites.

An army builder or a bot should not have to scrape the pages.  ``validator build``
writes ``api/<lang>/rules.json``, ``glossary.json``, ``discrepancies.json`` and
``examples.json`` with the same ids and anchors as the pages, and the JSON Schema
(draft 2020-12) of each file in ``api/schema/``; beside them ``glossary.tbx``, the
glossary for translators' terminology tools (see :mod:`validator.site.tbx`).

Every text is plain text, as on the pages: it is never HTML or Markdown, and its
tokens are not pasted in as markup but kept as structured segments (a rule
reference keeps the rule's id beside its title in the language), with ``plain``
the same text as one string.  A text shown in another language, because its
translation is missing or out of date, names that language and its state.

The files are deterministic (sorted keys, the rulebook's order, no dates), so two
builds of the same input are byte-identical.
"""

from __future__ import annotations

import html
import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from validator.catalogs.po import RuleCatalog, interface_translations
from validator.checks.run import CheckReport
from validator.content.faq import FaqEntry, home_chapter
from validator.content.model import Citation, Discrepancy, Evidence, Example, Rule, Term
from validator.content.tokens import Literal, Token, is_rolled, split
from validator.plain import decimal_number
from validator.site.faq import standing_label
from validator.site.markdown import html_page
from validator.site.pages import DISCREPANCY_PAGE
from validator.site.previews import preview_key, referrers
from validator.site.tbx import FILE_NAME as TBX_FILE
from validator.site.tbx import entries as tbx_entries
from validator.site.tbx import tbx_bytes
from validator.site.text import GLOSSARY_PAGE, TextRenderer, anchor
from validator.workspace import Workspace

API_FOLDER = "api"
SCHEMA_FOLDER = "schema"
SCHEMAS = Path(__file__).parent / "schema"
"""The published schemas, one per file kind: ``<kind>.schema.json``."""
FORMAT = 2
"""The version of the files' format: raised when a field changes meaning or goes."""
KINDS = ("rules", "glossary", "discrepancies", "examples", "faq")

JSON = dict[str, Any]


def write_open_data(workspace: Workspace, report: CheckReport, site: Path) -> Path:
    """Write ``site/api/``: every language's files and the schemas; returns the folder."""
    folder = site / API_FOLDER
    schema = folder / SCHEMA_FOLDER
    schema.mkdir(parents=True)
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        shutil.copyfile(path, schema / path.name)
    computed = Computed(report)
    for language in workspace.project.languages:
        target = folder / language.code
        target.mkdir()
        # One document at a time, written as it is laid out: a whole language's documents
        # and their text at once were the largest thing a one-process build held.
        for kind, data in iter_documents(workspace, report, language.code, computed):
            with (target / f"{kind}.json").open("w", encoding="utf-8") as handle:
                handle.writelines(_pieces(data, RECORD_DEPTH, 0))
                handle.write("\n")
            del data  # not held while the next one is made
        (target / TBX_FILE).write_bytes(glossary_tbx(workspace, language.code))
    _write_index(workspace, folder)
    return folder


def _write_index(workspace: Workspace, folder: Path) -> None:
    """A plain page listing the files, for whoever opens ``api/`` in a browser (and
    like every folder of the site, one with its own ``index.html``)."""
    project = workspace.project
    items = [f'<li><a href="{SCHEMA_FOLDER}/{kind}.schema.json">{SCHEMA_FOLDER}/{kind}.schema.json</a></li>'
             for kind in KINDS]
    for language in project.languages:
        code = html.escape(language.code)
        items += [f'<li><a href="{code}/{name}" hreflang="{code}">{code}/{name}'
                  f"</a> ({html.escape(language.name)})</li>"
                  for name in (*(f"{kind}.json" for kind in KINDS), TBX_FILE)]
    (folder / "index.html").write_text(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(project.title)}: open data</title></head>"
        f"<body><ul>{''.join(items)}</ul></body></html>\n", encoding="utf-8")


def dumps(data: object) -> str:
    """Stable JSON: sorted keys, UTF-8 as written, one record (a rule, a term, an
    example) per line, so that two builds' data compare line by line; one trailing newline."""
    return "".join(_pieces(data, RECORD_DEPTH, 0)) + "\n"


RECORD_DEPTH = 2
"""Nesting levels laid out one item per line: the document's keys, then its records."""


def _compact(data: object) -> str:
    # Without indentation the json module encodes in C: indenting every level would
    # make encoding most of the open data's time.
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _pieces(data: object, depth: int, indent: int) -> Iterator[str]:
    """The text of :func:`dumps` in pieces (a record at most), to be written as made."""
    if depth == 0 or not isinstance(data, dict | list) or not data:
        yield _compact(data)
        return
    pad = " " * (indent + 1)
    if isinstance(data, dict):
        yield "{\n"
        for number, key in enumerate(sorted(data)):
            yield f",\n{pad}" if number else pad
            yield f"{_compact(str(key))}: "
            yield from _pieces(data[key], depth - 1, indent + 1)
        yield "\n" + " " * indent + "}"
        return
    yield "[\n"
    for number, item in enumerate(data):
        yield f",\n{pad}" if number else pad
        yield from _pieces(item, depth - 1, indent + 1)
    yield "\n" + " " * indent + "]"


@dataclass
class Computed:
    """What the rules core computed for each worked example, as JSON: the same in every
    language, so made once for all of them (it was half of the open data's time)."""

    report: CheckReport
    made: dict[tuple[str, str], tuple[Any, Any, list[tuple[Any, Any]]]] = field(default_factory=dict)

    def of(self, subject: str, example: Example) -> tuple[Any, Any, list[tuple[Any, Any]]]:
        """The given values, the outcome, and each step's arguments and result."""
        key = (subject, example.id)
        if key not in self.made:
            self.made[key] = (outcome(example.given), outcome(self.report.computed(subject, example.id)),
                              [(outcome(dict(step.params)), outcome(step.result))
                               for step in self.report.trace(subject, example.id)])
        return self.made[key]


def documents(workspace: Workspace, report: CheckReport, code: str,
              computed: Computed | None = None) -> dict[str, JSON]:
    """The documents of one language, by kind (``computed``: shared by the languages)."""
    return dict(iter_documents(workspace, report, code, computed))


def iter_documents(workspace: Workspace, report: CheckReport, code: str,
                   computed: Computed | None = None) -> Iterator[tuple[str, JSON]]:
    """The documents of one language, each made when the previous one has been taken."""
    computed = computed or Computed(report)
    renderer = TextRenderer(workspace.rulebook, workspace.rule_catalogs[code], workspace.project.language(code))
    labels = workspace.label_catalogs[code]
    head = {"format": FORMAT, "language": code, "source_language": workspace.project.source_language}
    rulebook = workspace.rulebook
    referred = referrers(rulebook)
    yield "rules", {**head, "$schema": "../schema/rules.schema.json",
                    "chapters": [{"id": chapter.chapter.id, "url": html_page(f"{chapter.id}.md"),
                                  "title": text(renderer, f"{chapter.id}#title", chapter.chapter.title),
                                  "intro": text(renderer, f"{chapter.id}#intro", chapter.chapter.intro),
                                  "rules": [rule.id for rule in chapter.rules]}
                                 for chapter in rulebook.chapters],
                    "rules": [_rule(renderer, rule, referred.get(rule.id, ())) for rule in rulebook.rules]}
    yield "glossary", {**head, "$schema": "../schema/glossary.schema.json",
                       "terms": [_term(renderer, term, code) for term in rulebook.glossary.terms]}
    yield "discrepancies", {**head, "$schema": "../schema/discrepancies.schema.json",
                            "discrepancies": [_discrepancy(renderer, entry)
                                              for entry in rulebook.discrepancies.discrepancies]}
    yield "examples", {**head, "$schema": "../schema/examples.schema.json",
                       "examples": [_example(renderer, labels, computed, rule, example)
                                    for rule in rulebook.rules for example in rule.examples]}
    gettext = interface_translations(workspace.ui_catalogs.get(code)).gettext
    yield "faq", {**head, "$schema": "../schema/faq.schema.json",
                  "faq": [{**_faq(renderer, labels, computed, entry),
                           "standing_label": standing_label(entry.standing, gettext)}
                          for entry in rulebook.faq.faq]}


def glossary_tbx(workspace: Workspace, code: str) -> bytes:
    """The glossary of ``code``, a language of the project, as TBX: each text as the
    open data's ``plain`` gives it, and only where it is a current translation."""
    project = workspace.project
    renderers = {language: TextRenderer(workspace.rulebook, workspace.rule_catalogs[language],
                                        project.language(language))
                 for language in dict.fromkeys((project.source_language, code))}

    def plain(language: str, context: str, english: str) -> str | None:
        shown = text(renderers[language], context, english)
        return str(shown["plain"]) if (shown["language"], shown["state"]) == (language, "translated") else None

    found = tbx_entries(workspace.rulebook.glossary, project.source_language, code, plain)
    return tbx_bytes(f"{project.title}: glossary", project.source_language, found)


def text(renderer: TextRenderer, context: str, english: str) -> JSON:
    """A text in the renderer's language as segments and as one plain string, with
    the language it is really in and its state (``translated``, ``fuzzy``: out of
    date, shown in the source language; ``untranslated``)."""
    translation = renderer.translate(context, english)
    fallback = translation.language != renderer.language.code
    segments = [{"text": piece.text} if isinstance(piece, Literal) else _segment(renderer, piece, fallback)
                for piece in split(translation.text)]
    return {"segments": segments, "plain": "".join(str(segment["text"]) for segment in segments),
            "language": translation.language, "state": translation.state.value}


def _segment(renderer: TextRenderer, token: Token, fallback: bool = False) -> JSON:
    """A token as data: what it stands for, and the words the page shows for it (a
    term in the English text shown for want of a translation keeps its English word)."""
    rulebook = renderer.rulebook
    if token.kind == "rule":
        rule = rulebook.rule(token.argument)
        return {"rule": rule.id, "url": preview_key(rulebook, rule.id),
                "text": _words(renderer, f"{rule.id}#title", rule.title)}
    if token.kind == "term":
        term = rulebook.term(token.argument)
        words = term.term if fallback else _words(renderer, f"glossary/{term.id}#term", term.term)
        return {"term": term.id, "url": f"{html_page(GLOSSARY_PAGE)}#{term.id}", "text": token.form or words}
    if token.kind == "roll":
        return {"roll": token.argument, "text": token.argument.replace("-", "\u2013")}
    if token.kind == "dist":
        words = renderer.distance_words(token.argument)
        amount: dict[str, object] = ({"roll": token.argument} if is_rolled(token.argument)
                                     else {"length": decimal_number(Decimal(token.argument))})
        return {"dist": {**amount, "unit": rulebook.project.length_unit, "text": words}, "text": words}
    return {token.kind: token.argument, "text": token.argument}


def _words(renderer: TextRenderer, context: str, english: str) -> str:
    """A title as plain words, its own tokens reduced to theirs (no look-alike characters:
    JSON is not read as HTML)."""
    return "".join(piece.text if isinstance(piece, Literal) else str(_segment(renderer, piece)["text"])
                   for piece in split(renderer.translate(context, english).text))


def _citation(renderer: TextRenderer, cite: Citation) -> JSON:
    return {"source": cite.source, "section": cite.section, "pages": cite.pages,
            "source_name": _words(renderer, f"sources/{cite.source}#name", _source(renderer, cite.source).name)}


def _source(renderer: TextRenderer, source_id: str) -> Any:
    return next(source for source in renderer.rulebook.sources.sources if source.id == source_id)


def _rule(renderer: TextRenderer, rule: Rule, referred_by: tuple[str, ...]) -> JSON:
    rulebook = renderer.rulebook
    refers_to: list[str] = []
    for english in (rule.text, *(example.text for example in rule.examples)):
        for piece in split(english):
            if isinstance(piece, Token) and piece.kind == "rule":
                target = rulebook.rule(piece.argument).id
                if target != rule.id and target not in refers_to:
                    refers_to.append(target)
    return {
        "id": rule.id,
        "anchor": anchor(rule.id),
        "chapter": rulebook.chapter_of(rule.id).id,
        "url": preview_key(rulebook, rule.id),
        "title": text(renderer, f"{rule.id}#title", rule.title),
        "text": text(renderer, f"{rule.id}#text", rule.text),
        "citations": [_citation(renderer, cite) for cite in rule.cite],
        "aliases": list(rule.aliases),
        "refers_to": refers_to,
        "referred_by": list(referred_by),
        "discrepancies": [entry.id for entry in rulebook.discrepancies_of(rule.id)],
        "examples": [example.id for example in rule.examples],
    }


def _term(renderer: TextRenderer, term: Term, code: str) -> JSON:
    inflection = term.forms.get(code)
    forms = None if inflection is None else {
        "sg": list(inflection.sg), "du": None if inflection.du is None else list(inflection.du),
        "pl": None if inflection.pl is None else list(inflection.pl),
        "other": list(inflection.other)}
    return {"id": term.id, "anchor": term.id, "url": f"{html_page(GLOSSARY_PAGE)}#{term.id}",
            "term": text(renderer, f"glossary/{term.id}#term", term.term),
            "definition": text(renderer, f"glossary/{term.id}#definition", term.definition),
            "keep": term.keep, "defined_elsewhere": term.defined_elsewhere, "forms": forms}


def _discrepancy(renderer: TextRenderer, entry: Discrepancy) -> JSON:
    base = f"discrepancies/{entry.id}"
    return {
        "id": entry.id, "anchor": anchor(entry.id), "url": f"{html_page(DISCREPANCY_PAGE)}#{anchor(entry.id)}",
        "title": text(renderer, f"{base}#title", entry.title),
        "kind": entry.kind, "status": entry.status, "rules": list(entry.rules),
        "summary": text(renderer, f"{base}#summary", entry.summary),
        "readings": [{"id": reading.id, "source": reading.source, "variant": reading.variant,
                      "says": text(renderer, f"{base}#reading.{reading.id}", reading.says),
                      "evidence": _evidence(reading.evidence),
                      "verified": reading.verified}
                     for reading in entry.readings],
        "places": [{"source": place.source, "pages": place.pages, "section": place.section,
                    "printed": place.printed, "reads": place.reads, "evidence": _evidence(place.evidence)}
                   for place in entry.places],
        "adopted": entry.adopted,
        "rationale": text(renderer, f"{base}#rationale", entry.rationale) if entry.rationale else None,
    }


def _evidence(evidence: tuple[Evidence, ...]) -> list[JSON]:
    return [{"source": item.source, "section": item.section, "pages": item.pages, "url": item.url}
            for item in evidence]


def _example(renderer: TextRenderer, labels: RuleCatalog, computed: Computed, rule: Rule,
             example: Example) -> JSON:
    return {
        "id": example.id, "rule": rule.id, "anchor": f"{anchor(rule.id)}--{example.id}",
        "url": f"{preview_key(renderer.rulebook, rule.id).split('#')[0]}#{anchor(rule.id)}--{example.id}",
        "scenario": example.scenario, "variant": example.variant,
        **_worked(renderer, labels, computed, rule.id, example),
    }


def _worked(renderer: TextRenderer, labels: RuleCatalog, computed: Computed, subject: str,
            example: Example) -> JSON:
    """An example's given values, outcome, text and steps (of a rule or an official answer)."""
    given, result, _steps = computed.of(subject, example)
    return {"given": given, "outcome": result,
            "text": text(renderer, f"{subject}#example.{example.id}", example.text),
            "steps": steps(labels, computed, subject, example)}


def steps(labels: RuleCatalog, computed: Computed, subject: str, example: Example) -> list[JSON]:
    """How the rules core worked an example out, step by step, as the page shows it:
    each call of a core function with the rules it applies, its arguments and result,
    and its description in the reader's language (``text_language`` says which)."""
    found: list[JSON] = []
    values = computed.of(subject, example)[2]
    for step, (given, result) in zip(computed.report.trace(subject, example.id), values, strict=True):
        shown = labels.translate(f"labels/step/{step.key}", step.text)
        found.append({"depth": step.depth, "function": step.key, "rules": list(step.rules),
                      "text": shown.text, "text_language": shown.language, "given": given, "result": result})
    return found


def _faq(renderer: TextRenderer, labels: RuleCatalog, computed: Computed, entry: FaqEntry) -> JSON:
    """An official answer, with its worked examples inline (they belong to no rule)."""
    base, page = entry.subject, f"{html_page('faq.md')}#{anchor(entry.id)}"
    return {
        "id": entry.id, "anchor": anchor(entry.id), "url": page,
        "chapter": home_chapter(renderer.rulebook, entry),
        "question": text(renderer, f"{base}#question", entry.question),
        "answer": text(renderer, f"{base}#answer", entry.answer),
        "source": entry.source, "page": entry.page, "address": entry.url,
        "standing": entry.standing, "source_shown": entry.source_shown,
        "source_name": _words(renderer, f"sources/{entry.source}#name", _source(renderer, entry.source).name),
        "rules": list(entry.rules),
        "evidence": [{"source": item.source, "section": item.section, "pages": item.pages, "url": item.url}
                     for item in entry.evidence],
        "examples": [{"id": example.id, "anchor": f"{anchor(entry.id)}--{example.id}",
                      "url": f"{page}--{example.id}", "scenario": example.scenario, "variant": example.variant,
                      **_worked(renderer, labels, computed, base, example)}
                     for example in entry.examples],
    }


def outcome(value: object) -> Any:
    """A computed outcome as JSON: each exact fraction as ``{"fraction": "19/27",
    "float": 0.7037…}`` (the string is exact, the float for convenience).

    >>> outcome({"probability": Fraction(19, 27), "hits": [1, 2]})
    {'probability': {'float': 0.7037037037037037, 'fraction': '19/27'}, 'hits': [1, 2]}
    """
    if isinstance(value, Fraction):
        return {"float": float(value), "fraction": str(value)}
    if isinstance(value, Decimal):
        return decimal_number(value)
    if isinstance(value, dict):
        return {str(key): outcome(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [outcome(item) for item in value]
    # The YAML reader's own scalar types (a float that remembers its spelling) as plain ones.
    for kind in (bool, int, float, str):
        if isinstance(value, kind):
            return kind(value)
    return value
