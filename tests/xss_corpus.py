"""Hostile text for the escaping tests: payloads planted in every kind of text a
site shows, in the English YAML and in the Spanish and Polish catalogues.

Each payload calls ``__xss('<id>')`` with an id naming the text it was planted in
and the kind of attack, so a test that sees a call knows which hole it came through.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from babel.messages.pofile import read_po, write_po
from conftest import copy_engine_interface

KINDS: dict[str, str] = {
    "script": "<script>__xss('{id}')</script>",
    "img": "<img src=x onerror=\"__xss('{id}')\">",
    "svg": "<svg onload=\"__xss('{id}')\"></svg>",
    "title": "</title><script>__xss('{id}')</script>",
    "attr": "\" onmouseover=\"__xss('{id}')\" x=\"",
    "quote": "'><img src=x onerror=__xss('{id}')>",
    "focus": "<input autofocus onfocus=\"__xss('{id}')\">",
    "mdlink": "[click](javascript:__xss('{id}'))",
    "attrlist": "**bold**{{: onclick=\"__xss('{id}')\" }}",
    "autolink": "<javascript:__xss('{id}')>",
    "entity": "&lt;img src=x onerror=__xss('{id}')&gt;",
    "numeric": "&#60;img src=x onerror=__xss('{id}')&#62;",
}
"""Every kind of attack, with ``{id}`` where the payload's id goes."""

YAML_CONTEXTS = (
    "rulebook#title",
    "chariots#title",
    "chariots#intro",
    "chariots/challenges#title",
    "chariots/challenges#text",
    "chariots/challenges#example.lone-enemy",
    "glossary/chariot#term",
    "glossary/chariot#definition",
    "sources/es-characters#name",
    "sources/es-characters#title",
    "discrepancies/impact-hits-on-a-mount#title",
    "discrepancies/kind.translation-error#label",
    "discrepancies/kind.edition-difference#label",
    "discrepancies/impact-hits-on-a-mount#summary",
    "discrepancies/impact-hits-on-a-mount#reading.spanish-compilation",
    "discrepancies/impact-hits-on-a-mount#reading.rulebook",
    "discrepancies/impact-hits-on-a-mount#rationale",
    *(f"faq/chariots-and-chariot-units#{field}" for field in ("question", "answer",
                                                               "example.hero-on-foot-and-chariots")),
)
"""Texts planted in the English YAML and, translated, in every catalogue."""

FAQ_UNDER_RULE = "characters-in-units.html"
"""The page where the planted official answer is shown, collapsed, under the rule it touches."""

PREVIEWED = "chariots/challenges"
LINKING = ("chariots#intro", "discrepancies/impact-hits-on-a-mount#summary")
"""Texts that also get a link to PREVIEWED, a rule with payloads in its title and text,
so that its preview (title and first paragraph) shows them on every page of PAGES
but the glossary's, sources' and status'."""

LABELS = ("labels/chariot", "labels/character", "labels/enemy_in_unit", "labels/impact_hits_on",
          "labels/enemy-character")
"""Labels of what the chariots/challenges examples show."""

UI = ("Worked example", "Glossary", "Home", "Sources", "Rule", "Why", "Given", "Reference",
      "See the register of discrepancies", "Dark theme")
"""Words of the site's own templates (navigation, headings, admonition titles)."""

FIELDS = (
    ("docs/sources.yml", "    pages: ", "source-pages"),
    ("docs/discrepancies.yml", "        printed: ", "place-printed"),
    ("docs/discrepancies.yml", "        reads: ", "place-reads"),
    ("docs/discrepancies.yml", "            section: Randomise Hits (Monsters)", "evidence-section"),
    ("docs/units.yml", "          section: Muerte del carro;", "units-section"),
    ("docs/units.yml", '          pages: "127-128"', "units-pages"),
    ("docs/faq.yml", '    page: "114"', "faq-page"),
    ("docs/faq.yml", "        section: Disparos contra", "faq-evidence-section"),
)
"""Texts of the YAML that are shown as written, not translated: (file, the start of
the line of the first one planted, the payload's id)."""

LANGUAGE_NAMES = {"English": "language-en", "Español": "language-es", "Polski": "language-pl"}
"""The languages' names in rulebook.yml (the language selector, the status page), by their id."""

GUIDES = ("en", "es", "pl")
"""The translator's guides (docs/guide/translators.<code>.md): payloads in their text and
in forms only a hand-written Markdown page has (front matter, raw HTML blocks, attribute
lists, link references, the markers of prerendered HTML)."""

DESCRIPTION = "mkdocs-site-description"
"""The id of the payload planted in mkdocs.yml's site_description."""
MKDOCS: dict[str, object] = {"site_url": "https://x.example/\"><script>__xss('mkdocs-site-url:script')</script>"
                      "<img/src=x/onerror=__xss('mkdocs-site-url:img')><a/x=\"",
          "extra": {"homepage": "javascript:__xss('mkdocs-homepage:click')"}}
"""Values of mkdocs.yml that the engine's templates print (besides site_description,
which gets the payloads of :data:`DESCRIPTION`)."""

PAGES = ("index.html", "chariots.html", "parallel-chariots.html", "glossary.html", "discrepancies.html",
         "sources.html", "status.html", "faq.html", "translators.html")
"""The pages the payloads above reach (each language's site has them all); the official
answer's only on the FAQ page (and FAQ_UNDER_RULE), the others on every page but it."""


def short(context: str) -> str:
    """A context as a short id fragment, safe inside a JavaScript string."""
    return re.sub(r"[^a-z0-9]+", "-", context.lower()).strip("-")[-40:]


def payload(where: str, kinds: tuple[str, ...] = tuple(KINDS)) -> str:
    """Every kind of attack, each with the id ``<where>:<kind>``, in one line of text."""
    return " ".join(KINDS[kind].format(id=f"{where}:{kind}") for kind in kinds)


def all_ids(languages: tuple[str, ...] = ("en", "es", "pl")) -> set[str]:
    """Every id planted, to check the test looks for what was put in."""
    ids = {f"en-{short(c)}:{k}" for c in YAML_CONTEXTS for k in KINDS}
    ids |= {f"{name}:{k}" for name in shown_ids() for k in KINDS}
    for code in languages:
        if code == "en":
            continue
        for group in (YAML_CONTEXTS, LABELS, UI):
            ids |= {f"{code}-{short(c)}:{k}" for c in group for k in KINDS}
    return ids


def shown_ids() -> tuple[str, ...]:
    """The ids of the payloads planted outside the translated texts, each shown as written
    on some page of every language."""
    return (*(name for _file, _start, name in FIELDS), *LANGUAGE_NAMES.values(),
            *(f"guide-{code}" for code in GUIDES), DESCRIPTION)


def guide_payload(code: str) -> str:
    """A guide's hostile Markdown: front matter, then every kind of payload in a paragraph,
    and the forms of Markdown a hand-written page could use to make markup."""
    where = f"guide-{code}"
    title = json.dumps(KINDS["title"].format(id=f"{where}-front-matter:title"))
    return (f"---\ntitle: {title}\n---\n\n{payload(where)}\n\n"
            f"<div onmouseover=\"__xss('{where}-block:div')\" markdown>**x**</div>\n\n"
            f"Text{{: onclick=\"__xss('{where}-attrlist:para')\" }}\n\n"
            f"[reference][r]\n\n[r]: javascript:__xss('{where}-reference:click')\n\n"
            f"<!-- prerendered --><img src=x onerror=\"__xss('{where}-prerendered:img')\"><!-- /prerendered -->\n\n")


def plant_shown(root: Path) -> None:
    """Put payloads into the texts of the YAML shown as written, the languages' names,
    the translator's guides and mkdocs.yml."""
    for file, start, name in FIELDS:
        path = root / file
        lines = path.read_text(encoding="utf-8").split("\n")
        line = next(index for index, text in enumerate(lines) if text.startswith(start)) + 1
        _replace_values(path, [(line, payload(name))])
    project = root / "rulebook.yml"
    text = project.read_text(encoding="utf-8")
    for language, name in LANGUAGE_NAMES.items():
        assert f"name: {language}," in text
        text = text.replace(f"name: {language},", f"name: {json.dumps(payload(name))},")
    project.write_text(text, encoding="utf-8")
    for code in GUIDES:
        guide = root / "docs" / "guide" / f"translators.{code}.md"
        guide.write_text(guide_payload(code) + guide.read_text(encoding="utf-8"), encoding="utf-8")
    with (root / "mkdocs.yml").open("a", encoding="utf-8") as config:
        values = {**MKDOCS, "site_description": payload(DESCRIPTION)}
        config.write("".join(f"{key}: {json.dumps(value)}\n" for key, value in values.items()))


def plant(root: Path) -> None:
    """Put the payloads into the project at ``root``: English YAML first, then each
    catalogue's translation of the new English text, its labels and its site words;
    then the texts shown as written (see :func:`plant_shown`)."""
    from validator.workspace import load_workspace

    plant_shown(root)
    _kinds_in_block_style(root / "docs" / "discrepancies.yml")
    workspace = load_workspace(root)
    english = {message.context: message for message in workspace.rulebook.messages()}
    new_english: dict[str, str] = {}
    edits: dict[str, list[tuple[int, str]]] = {}
    for context in YAML_CONTEXTS:
        message = english[context]
        # Keep the tokens of the text: they are what turns a term into a link with a tooltip.
        text = payload(f"en-{short(context)}") + " " + message.text
        if context in LINKING:
            text += f" {{rule:{PREVIEWED}}}"
        new_english[context] = text
        edits.setdefault(message.position.file, []).append((message.position.line, text))
    for file, changes in edits.items():
        _replace_values(root / file, changes)
    for language in workspace.project.translated_languages:
        code = language.code
        folder = root / workspace.project.locales_dir / code / "LC_MESSAGES"
        _translate(folder / "rules.po", {context: (new_english[context], payload(f"{code}-{short(context)}")
                                                   + " " + _tokens_of(new_english[context]))
                                         for context in YAML_CONTEXTS})
        _translate(folder / "labels.po", {context: (None, payload(f"{code}-{short(context)}"))
                                          for context in LABELS})
        copy_engine_interface(root, code)  # the book's own words in place of the engine's
        _translate(folder / "ui.po", {message: (None, payload(f"{code}-{short(message)}")) for message in UI},
                   by_msgid=True)


def _kinds_in_block_style(path: Path) -> None:
    """The register's kinds, written one key a line, so that a label can be set like any text."""
    text = re.sub(r"^  - \{id: ([\w-]+), label: ([^,]+), holds: (\w+)\}$",
                  lambda kind: f"  - id: {kind[1]}\n    label: {kind[2]}\n    holds: {kind[3]}",
                  path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    path.write_text(text, encoding="utf-8")


def _tokens_of(text: str) -> str:
    from validator.content.tokens import tokens

    return " ".join(token.source for token in tokens(text))


def _replace_values(path: Path, changes: list[tuple[int, str]]) -> None:
    """Set the YAML values that start at the given lines (``key: value`` or a block
    scalar under ``key: >-``) to new text, written as a JSON string (valid YAML)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for line_number, text in sorted(changes, reverse=True):
        index = line_number - 1
        line = lines[index]
        match = re.match(r"^(\s*(?:- )?[\w-]+:)\s*(.*)$", line)
        assert match, f"{path}:{line_number}: not a key: {line!r}"
        indent = len(line) - len(line.lstrip(" -"))
        end = index + 1
        if match[2].startswith((">", "|")):
            while end < len(lines) and (not lines[end].strip() or
                                        len(lines[end]) - len(lines[end].lstrip()) > indent):
                end += 1
            # Leave the blank line that separated this block from the next key.
            while end > index + 1 and not lines[end - 1].strip():
                end -= 1
        lines[index:end] = [f"{match[1]} {json.dumps(text, ensure_ascii=False)}"]
    path.write_text("\n".join(lines), encoding="utf-8")


def _translate(path: Path, entries: dict[str, tuple[str | None, str]], by_msgid: bool = False) -> None:
    """Give the catalogue's messages a translation (and, when given, a new msgid)."""
    with path.open("rb") as handle:
        catalog = read_po(handle)
    found = set()
    for message in list(catalog):
        key = str(message.id) if by_msgid else str(message.context or "")
        if key in entries and message.id:
            msgid, msgstr = entries[key]
            if msgid is not None:
                catalog.delete(message.id, message.context)
                catalog.add(msgid, msgstr, context=message.context, locations=message.locations)
            else:
                message.string = msgstr
                message.flags.discard("fuzzy")
            found.add(key)
    missing = set(entries) - found
    assert not missing, f"{path}: no message for {sorted(missing)}"
    with path.open("wb") as handle:
        write_po(handle, catalog, width=0)
