"""The stages of a build that make one language's site: its pages and the MkDocs
configuration that builds them (:func:`render_language`), MkDocs' build of them
(:func:`write_language_site`), and the root page that picks a language.

:mod:`validator.pipeline` calls them in order, each language's in a job of its own;
``validator.site.output`` decides where a build may write and does the swap.
"""

from __future__ import annotations

import contextlib
import html
import json
import shutil
from pathlib import Path

import yaml  # type: ignore[import-untyped]
from babel import Locale, localedata
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import MkDocsException

from validator.catalogs.status import GroupStatus
from validator.checks.charts import declared_series
from validator.checks.run import CheckReport
from validator.content.mkdocs_config import inherited_option, mkdocs_warnings
from validator.problems import Problem, ProblemsFound
from validator.site.editorview import editor_switch
from validator.site.handwritten import NAME as HANDWRITTEN_PLUGIN
from validator.site.handwritten import HandwrittenPages
from validator.site.incremental import Frame, LanguageMade, ReadMemo
from validator.site.material import interface_words, permalink_title, with_permalink_title
from validator.site.output import (
    is_marked,
)
from validator.site.pages import TRANSLATORS_PAGE, NavItem, navigation, render_units, site_title
from validator.site.prerendered import PAGES_PLUGIN, PrerenderedExtension, PrerenderedPages
from validator.site.previews import write_previews
from validator.site.reads import Reads
from validator.site.scheme import palette_stylesheet, scheme_switch
from validator.site.search import IndexRow, TermForms, write_index
from validator.site.written import NAME as FORGET_PLUGIN
from validator.site.written import ForgetWrittenPages
from validator.store import Store
from validator.workspace import Workspace

OVERRIDES = Path(__file__).parent / "overrides"
ASSETS = Path(__file__).parent / "assets"


def prepare_shared(workspace: Workspace) -> None:
    """Make here, once, what every language's pages ask for, before they are rendered
    in processes of their own, which share it: the rules core (each scenario's input
    validator, each declared chart; a check that found every result kept made none of
    it, see :mod:`validator.checks.rulescore`), Babel's data of every language of
    the site (each page names every language, in its own, and writes numbers and
    distances the language's way; each process loaded the data of all three anew),
    and the distances the texts give (a walk of every text)."""
    ruleset = workspace.ruleset
    ruleset.prepare()
    for rule in workspace.rulebook.rules:
        for example in rule.examples:
            if example.chart is not None:
                with contextlib.suppress(Exception):  # what fails fails again where a page needs it, reported
                    declared_series(ruleset, example)
    for language in workspace.project.languages:
        localedata.load(str(Locale.parse(language.code)))
    _ = workspace.rulebook.distances  # made now, and kept by the rulebook (a cached property)


def language_parts(workspace: Workspace, parts: list[Path]) -> dict[str, Path]:
    """language code -> the folder of that language's site, in the project's order."""
    codes = [language.code for language in workspace.project.languages]
    found: dict[str, Path] = {}
    problems = []
    for part in parts:
        if not part.is_dir() or not is_marked(part):
            problems.append(Problem(str(part), 0, "", "is not a site built by validator build",
                                    "give the --site-dir folders of the validator build --language jobs"))
            continue
        for code in codes:
            folder = part / code
            if not (folder / "index.html").is_file():
                continue
            if code in found:
                problems.append(Problem(str(part), 0, code, f"the language {code} is also in {found[code]}",
                                        "give each language's site once"))
            found.setdefault(code, folder)
    for code in codes:
        if code not in found and not problems:
            problems.append(Problem(", ".join(str(part) for part in parts) or "(no parts)", 0, code,
                                    f"no part holds the site of the language {code}",
                                    f"build it with validator build --language {code} and give its folder"))
    if problems:
        raise ProblemsFound(problems)
    return {code: found[code] for code in codes}


def write_docs(workspace: Workspace, report: CheckReport, status: dict[str, list[GroupStatus]], code: str,
               docs: Path, forms: TermForms | None = None, store: Store | None = None,
               frame: Frame | None = None) -> LanguageMade:
    """Everything MkDocs reads for one language: the rendered pages and the site's
    assets (``forms``: see :func:`validator.site.search.build_index`); returns what each
    unit of pages read and each rule's row of the search index, keyed in ``frame``
    (see :mod:`validator.site.incremental`)."""
    docs.mkdir()
    records = {}
    for unit, pages, reads in render_units(workspace, report, code, status, reads=Reads() if frame else None):
        for name, text in pages.items():
            (docs / name).write_text(text, encoding="utf-8")
        if frame is not None and reads is not None:
            records[unit] = frame.record(reads)
    shutil.copytree(ASSETS, docs / "assets" / "validator")
    rows: ReadMemo[IndexRow] | None = None if frame is None else ReadMemo(frame, {})
    write_index(workspace, code, docs / "assets" / "validator", forms, store, rows)
    write_previews(workspace, code, docs / "assets" / "validator")
    return LanguageMade(records, {} if rows is None else rows.kept)


def write_config(workspace: Workspace, code: str, docs: Path, output: Path, config_path: Path) -> Path:
    """The MkDocs configuration of one language, written as YAML by PyYAML (MkDocs' own
    reader).  Not as JSON, which YAML reads too but for a key of more than 1,024
    characters: a title that long in the navigation stopped the build."""
    config_path.write_text(config_text(mkdocs_config(workspace, code, docs, output)), encoding="utf-8")
    return config_path


class _ConfigDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """PyYAML's safe writer (libyaml's, where PyYAML was built with it) that writes a
    YAML node of the book's own configuration as it was read, tags and all."""


for _node in (yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode):
    _ConfigDumper.add_representer(_node, lambda _dumper, node: node)


def config_text(config: dict[str, object]) -> str:
    """``config`` as the YAML text of a MkDocs configuration file."""
    return str(yaml.dump(config, Dumper=_ConfigDumper, allow_unicode=True, sort_keys=False))


def render_language(workspace: Workspace, report: CheckReport, status: dict[str, list[GroupStatus]], code: str,
                    scratch: Path, output: Path, forms: TermForms, store: Store, frame: Frame | None = None
                    ) -> LanguageMade:
    """One language's pages and the MkDocs configuration that builds them into ``output``,
    written under ``scratch``; returns what each unit of pages read (see :func:`write_docs`)."""
    docs = scratch / code
    made = write_docs(workspace, report, status, code, docs, forms, store, frame)
    write_config(workspace, code, docs, output, scratch / f"mkdocs-{code}.yml")
    return made


def write_language_site(workspace: Workspace, code: str, scratch: Path) -> None:
    """MkDocs' build of the pages :func:`render_language` wrote."""
    config = load_site_config(scratch / f"mkdocs-{code}.yml")
    with mkdocs_warnings() as warnings:
        try:
            mkdocs_build(config)
        except MkDocsException as error:
            raise ProblemsFound([Problem(workspace.project.mkdocs_config, 0, code, f"MkDocs failed: {error}",
                                         "see the message above; the previous site was left untouched")]) from None
    if warnings:
        raise ProblemsFound([Problem(workspace.project.mkdocs_config, 0, code, f"MkDocs warned: {warning}",
                                     "fix the page or link it names") for warning in warnings])


def load_site_config(config_path: Path) -> MkDocsConfig:
    """The configuration MkDocs builds a language with: the written one, with the
    finished HTML handed over unparsed (``validator.site.prerendered``) and each page
    forgotten once written (``validator.site.written``)."""
    config = load_config(str(config_path))
    config.markdown_extensions.append(PrerenderedExtension())
    config.plugins[PAGES_PLUGIN] = PrerenderedPages()
    config.plugins[FORGET_PLUGIN] = ForgetWrittenPages()
    config.plugins[HANDWRITTEN_PLUGIN] = HandwrittenPages(frozenset({TRANSLATORS_PAGE}))
    return config


def mkdocs_nav(items: list[NavItem]) -> list[dict[str, object]]:
    """The navigation as MkDocs reads it, titles escaped: MkDocs does not escape them
    in its templates, so they are escaped here, once."""
    return [{html.escape(title): entry if isinstance(entry, str) else mkdocs_nav(entry)} for title, entry in items]


def mkdocs_config(workspace: Workspace, code: str, docs: Path, output: Path) -> dict[str, object]:
    """The configuration MkDocs builds one language's site with."""
    project = workspace.project
    nav = mkdocs_nav(navigation(workspace, code))
    title = site_title(workspace, code)
    interface = workspace.ui_catalogs.get(code)
    extensions = inherited_option(workspace.root / project.mkdocs_config, "markdown_extensions", workspace.root)
    return {
        "INHERIT": str((workspace.root / project.mkdocs_config).resolve()),
        "site_name": html.escape(title),
        "docs_dir": str(docs),
        "site_dir": str(output),
        "theme": {"name": "material", "language": code, "custom_dir": str(OVERRIDES)},
        "nav": nav,
        # The book's extensions, the permalinks' tooltip in the site's language (see material.py).
        "markdown_extensions": with_permalink_title(extensions, permalink_title(interface)),
        # No material/search (its worker cannot start from file://) and so no offline plugin
        # (its shim comes from the internet): the site's own search works from disk and served.
        "plugins": [],
        # Material's palettes first (the dark one is the header's switch, see scheme.py),
        # then the site's own rules, which adapt to either.
        "extra_css": [*filter(None, [palette_stylesheet()]), "assets/validator/validator.css",
                      "assets/validator/search.css", "assets/validator/charts.css"],
        "extra_javascript": ["assets/validator/search-index.js", "assets/validator/search.js",
                             "assets/validator/validator.js", "assets/validator/previews-data.js",
                             "assets/validator/previews.js"],
        "extra": {"alternate": [{"name": language.name, "link": f"../{language.code}/", "lang": language.code}
                                for language in project.languages],
                  "scheme": scheme_switch(interface),
                  "interface": interface_words(interface, code),
                  "editor_view": editor_switch(interface),
                  # The logo leads to the language's home page: Material would print an
                  # extra.homepage of mkdocs.yml as a link, an address no check reads.
                  "homepage": ""},
    }


ROOT_SCRIPT = (
    "(function(){var have=HAVE,chosen=FALLBACK,tags=navigator.languages||[navigator.language||''];"
    "for(var i=0;i<tags.length;i++){var tag=String(tags[i]).toLowerCase(),base=tag.split('-')[0];"
    "if(have.indexOf(tag)>=0){chosen=tag;break;}if(have.indexOf(base)>=0){chosen=base;break;}}"
    "location.replace(chosen+'/index.html'+location.hash);}());"
)
"""Sends a visitor of the root page to the first of their browser's languages the site has."""


def write_root_index(workspace: Workspace, staging: Path) -> None:
    """A root page that sends readers to the language their browser prefers.

    A tiny inline script picks the first of ``navigator.languages`` that the site
    has (``es-AR`` picks ``es``), else the source language; without scripts the
    page is the plain list of languages."""
    project = workspace.project
    codes = [language.code for language in project.languages]
    links = "".join(f'<li><a href="{language.code}/index.html" hreflang="{language.code}" lang="{language.code}">'
                    f"{html.escape(language.name)}</a></li>" for language in project.languages)
    script = ROOT_SCRIPT.replace("HAVE", json.dumps(codes)).replace("FALLBACK", json.dumps(project.source_language))
    (staging / "index.html").write_text(
        f'<!doctype html><html lang="{project.source_language}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{html.escape(project.title)}</title><script>{script}</script></head>"
        f"<body><ul>{links}</ul></body></html>\n",
        encoding="utf-8",
    )
