"""Render the Markdown pages of one language from the model, independent of MkDocs.

Only the build step knows about MkDocs; these pages are plain Markdown with the
attr_list, admonition, md_in_html and tables extensions, so a move to another
static site generator keeps this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from babel import Locale
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from validator.checks.run import CheckReport
from validator.citations import rule_ids_of
from validator.content.catalogs import interface_translations
from validator.content.model import Chapter, Discrepancy, Source
from validator.site import markdown
from validator.site.text import GLOSSARY_PAGE, TextRenderer, anchor, chapter_page
from validator.workspace import Workspace

TEMPLATES = Path(__file__).parent / "templates"
DISCREPANCY_PAGE = "discrepancies.md"
SOURCES_PAGE = "sources.md"


@dataclass(frozen=True)
class PageView(TextRenderer):
    """What templates may call: lookups and helpers that return escaped Markdown."""

    workspace: Workspace
    report: CheckReport
    gettext_: object

    def _(self, message: str) -> str:
        return str(self.gettext_(message))  # type: ignore[operator]

    @staticmethod
    def heading_id(entry_id: str) -> Markup:
        return Markup(f"{{ #{anchor(entry_id)} }}")

    @staticmethod
    def example_anchor(rule_id: str, example_id: str) -> Markup:
        """An empty anchor before an example's box, which cannot carry an id itself."""
        return Markup(f'<a id="{anchor(rule_id)}--{example_id}"></a>')

    @staticmethod
    def code(text: object) -> Markup:
        return Markup("<code>") + Markup.escape(str(text)) + Markup("</code>")

    def source(self, source_id: str) -> Source:
        return next(source for source in self.rulebook.sources.sources if source.id == source_id)

    def source_link(self, source_id: str) -> Markup:
        source = self.source(source_id)
        return markdown.link(self.source_name(source_id), f"{SOURCES_PAGE}#{source_id}",
                             self.plain(f"sources/{source_id}#title", source.title))

    def source_name(self, source_id: str) -> str:
        return self.plain(f"sources/{source_id}#name", self.source(source_id).name)

    def discrepancies_of(self, rule_id: str) -> tuple[Discrepancy, ...]:
        return self.rulebook.discrepancies_of(rule_id)

    def discrepancy_link(self, entry_id: str, label: str) -> Markup:
        return markdown.link(label, f"{DISCREPANCY_PAGE}#{entry_id}")

    def kind_label(self, kind: str) -> str:
        labels = {
            "translation-error": self._("Translation error"),
            "edition-difference": self._("Edition difference"),
            "source-erratum": self._("Source erratum"),
            "ambiguity": self._("Ambiguity"),
        }
        return labels[kind]

    def variant_label(self, variant: str) -> str:
        """Name a ruling variant by the reading that uses it, in the reader's language."""
        for entry in self.rulebook.discrepancies.discrepancies:
            for reading in entry.readings:
                if reading.variant == variant:
                    return self._("following the %(source)s") % {"source": self.source_name(reading.source)}
        return variant

    def computed(self, rule_id: str, example_id: str) -> dict[str, object]:
        return self.report.computed(rule_id, example_id)

    def implementations(self, rule_id: str) -> list[str]:
        names = []
        for scenario in self.workspace.ruleset.scenarios:
            for function in scenario.implementations:
                if rule_id in rule_ids_of(function):
                    name = f"{function.__module__}.{function.__qualname__}"
                    if name not in names:
                        names.append(name)
        return names

    def chapter_link(self, chapter: Chapter) -> Markup:
        return markdown.link(self.plain(f"{chapter.id}#title", chapter.chapter.title), chapter_page(chapter.id))

    @staticmethod
    def page_link(page: str, label: str) -> Markup:
        return markdown.link(label, page)

    def rule_link(self, rule_id: str) -> Markup:
        rule = self.rulebook.rule(rule_id)
        return markdown.link(self.plain(f"{rule.id}#title", rule.title),
                             f"{chapter_page(self.rulebook.chapter_of(rule.id).id)}#{anchor(rule.id)}")

    def language_name(self, code: str) -> str:
        return str(Locale.parse(code).get_display_name(self.language.code) or code).capitalize()


def environment(translations: object) -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        undefined=StrictUndefined,
        finalize=markdown.finalize,
        extensions=["jinja2.ext.i18n"],
        keep_trailing_newline=True,
    )
    env.install_gettext_translations(translations, newstyle=True)  # type: ignore[attr-defined]
    return env


def render_pages(workspace: Workspace, report: CheckReport, language_code: str) -> dict[str, str]:
    """Every page of one language: file name -> Markdown."""
    translations = interface_translations(workspace.ui_catalogs.get(language_code))
    env = environment(translations)
    view = PageView(
        rulebook=workspace.rulebook,
        catalog=workspace.rule_catalogs[language_code],
        language=workspace.project.language(language_code),
        workspace=workspace,
        report=report,
        gettext_=translations.gettext,
    )
    pages = {
        "index.md": env.get_template("index.md.j2").render(view=view),
        GLOSSARY_PAGE: env.get_template("glossary.md.j2").render(view=view),
        SOURCES_PAGE: env.get_template("sources.md.j2").render(view=view),
        DISCREPANCY_PAGE: env.get_template("discrepancies.md.j2").render(view=view),
    }
    for chapter in workspace.rulebook.chapters:
        pages[chapter_page(chapter.id)] = env.get_template("chapter.md.j2").render(view=view, chapter=chapter)
    return pages


def page_titles(workspace: Workspace, language_code: str) -> dict[str, str]:
    """Navigation titles, as plain text (the build escapes them for HTML)."""
    translations = interface_translations(workspace.ui_catalogs.get(language_code))
    renderer = TextRenderer(workspace.rulebook, workspace.rule_catalogs[language_code],
                            workspace.project.language(language_code))
    titles = {"index.md": renderer.plain("rulebook#title", workspace.rulebook.project.title)}
    for chapter in workspace.rulebook.chapters:
        titles[chapter_page(chapter.id)] = renderer.plain(f"{chapter.id}#title", chapter.chapter.title)
    titles[GLOSSARY_PAGE] = translations.gettext("Glossary")
    titles[DISCREPANCY_PAGE] = translations.gettext("Discrepancies between editions and translations")
    titles[SOURCES_PAGE] = translations.gettext("Sources")
    return titles
