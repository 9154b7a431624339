"""Cross-references that help: rule previews and the rules that refer to a rule.

A link to a rule (a ``{rule:…}`` token) shows a preview of its target, its title
and first paragraph in the reader's language, on hover, on focus and on a first
tap.  A link to a glossary term (``{term:…}``) has its definition as its title,
which Material shows on hover and on focus; a touch screen shows no title, so a
first tap on it shows the term and its definition in the same box as a rule's
preview, where a tap would otherwise leave the page for the glossary.
Material's ``navigation.instant.preview`` fetches the target page (and the
sitemap first), which a page opened from disk cannot do, and it takes the
``title`` away from every link it handles.  The previews are computed here
instead, at build time, and written as a script that assigns a global, so a
plain ``<script>`` tag loads them from ``file://`` as well as from a server;
``assets/previews.js`` shows them, as text only (``textContent``, never HTML).

The same pass over the ``{rule:…}`` tokens of every rule text and worked example
gives, for each rule, the rules that refer to it ("Referred to by" on its page).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from validator.content.loader import Rulebook
from validator.content.model import Rule
from validator.content.tokens import tokens
from validator.site.markdown import html_page
from validator.site.scriptdata import write_global
from validator.site.text import GLOSSARY_PAGE, TextRenderer, anchor, chapter_page
from validator.workspace import Workspace

PREVIEWS_FILE = "previews-data.js"
"""Written beside ``previews.js`` in the site's assets; loaded by a plain script tag."""
GLOBAL = "validatorPreviews"


def _texts(rule: Rule) -> Iterator[str]:
    """The English texts of a rule that may hold ``{rule:…}`` tokens (translations
    must keep the same tokens, so the English ones stand for every language)."""
    yield rule.text
    for example in rule.examples:
        yield example.text


def referrers(rulebook: Rulebook) -> dict[str, tuple[str, ...]]:
    """Rule id -> the ids of the rules whose text or examples link to it, in the
    rulebook's order, each once; a rule linking to itself is left out.

    A token naming an alias counts for the rule that carries the alias; one naming
    no rule is skipped (``validator check`` reports it)."""
    found: dict[str, list[str]] = {}
    for rule in rulebook.rules:
        for text in _texts(rule):
            for token in tokens(text):
                if token.kind != "rule":
                    continue
                try:
                    target = rulebook.rule(token.argument).id
                except KeyError:
                    continue
                sources = found.setdefault(target, [])
                if target != rule.id and rule.id not in sources:
                    sources.append(rule.id)
    return {target: tuple(sources) for target, sources in found.items() if sources}


def preview_key(rulebook: Rulebook, rule_id: str) -> str:
    """Where a link to the rule points on the built site: ``page.html#anchor``.

    >>> from types import SimpleNamespace
    >>> book = SimpleNamespace(chapter_of=lambda rule_id: SimpleNamespace(id="vehicles"))
    >>> preview_key(book, "vehicles/destruction")  # type: ignore[arg-type]
    'vehicles.html#destruction'
    """
    return f"{html_page(chapter_page(rulebook.chapter_of(rule_id).id))}#{anchor(rule_id)}"


def previews(renderer: TextRenderer) -> dict[str, dict[str, str]]:
    """Every rule's and glossary term's preview in the renderer's language: key ->
    title ``t`` (the rule's title, the term), text ``p`` (the rule's first
    paragraph or the term's definition: plain text, tokens reduced to words), for a
    term ``k`` (shown on a tap only) and, when the text is
    shown in another language because its translation is missing or out of date,
    that language ``l``."""
    rulebook = renderer.rulebook
    result: dict[str, dict[str, str]] = {}
    for rule in rulebook.rules:
        text = renderer.plain(f"{rule.id}#text", rule.text)
        entry = {"t": renderer.plain(f"{rule.id}#title", rule.title), "p": text.split("\n\n", 1)[0].strip()}
        language = renderer.translate(f"{rule.id}#text", rule.text).language
        if language != renderer.language.code:
            entry["l"] = language
        result[preview_key(rulebook, rule.id)] = entry
    for term in rulebook.glossary.terms:
        # On a phone a first tap on a term explains the word where it is read, instead
        # of leaving the rule for the glossary.  Pointer and keyboard have the link's
        # title (Material's tooltip) already: ``k`` says the box is for a tap alone.
        entry = {"t": renderer.plain(f"glossary/{term.id}#term", term.term),
                 "p": renderer.plain(f"glossary/{term.id}#definition", term.definition), "k": "term"}
        language = renderer.translate(f"glossary/{term.id}#definition", term.definition).language
        if language != renderer.language.code:
            entry["l"] = language
        result[f"{html_page(GLOSSARY_PAGE)}#{term.id}"] = entry
    return result


def write_previews(workspace: Workspace, code: str, folder: Path) -> Path:
    """Write the language's previews as a script that assigns ``window.validatorPreviews``."""
    renderer = TextRenderer(workspace.rulebook, workspace.rule_catalogs[code], workspace.project.language(code))
    data: Mapping[str, object] = previews(renderer)
    return write_global(folder / PREVIEWS_FILE, GLOBAL, data, sort_keys=True)
