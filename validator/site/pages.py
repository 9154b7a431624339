"""Render the Markdown pages of one language from the model, independent of MkDocs.

Only the build step knows about MkDocs; these pages are plain Markdown with the
attr_list, admonition, md_in_html and tables extensions, so a move to another
static site generator keeps this module.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from gettext import NullTranslations
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from validator.api.citations import rule_ids_of
from validator.api.labels import humanize, is_identifier, label_context
from validator.catalogs.po import RULES_DOMAIN, State, interface_translations
from validator.catalogs.status import LABELS_GROUP, REFERENCE_GROUP, UI_GROUP, GroupStatus, translation_status
from validator.checks.run import CheckReport
from validator.content.model import Chapter, Discrepancy, Example, Term, kind_context
from validator.content.yamlsource import decode_utf8, present, read_input
from validator.derived import derived
from validator.site import faq as faq_pages
from validator.site import markdown
from validator.site.charts import example_charts
from validator.site.collation import sorted_by
from validator.site.handwritten import without_front_matter
from validator.site.previews import referrers
from validator.site.reads import PageReads, Reads, read_through
from validator.site.register import RegisterView
from validator.site.sections import Sections, guide_path, sections_of
from validator.site.text import GLOSSARY_PAGE, TextRenderer, anchor, chapter_page, percent
from validator.site.view import SOURCES_PAGE, BaseView
from validator.site.worked import worked_box
from validator.workspace import Workspace

TEMPLATES = Path(__file__).parent / "templates"
DISCREPANCY_PAGE = "discrepancies.md"
STATUS_PAGE = "status.md"
TRANSLATORS_PAGE = "translators.md"


def parallel_page(chapter_id: str) -> str:
    return f"parallel-{chapter_id}.md"


class PageView(BaseView):
    """What templates may call: lookups and helpers that return escaped Markdown."""

    @staticmethod
    def chapter_page(chapter_id: str) -> str:
        return chapter_page(chapter_id)

    @staticmethod
    def parallel_page(chapter_id: str) -> str:
        return parallel_page(chapter_id)

    def all_renderers(self) -> list[TextRenderer]:
        """One renderer per language of the project, for the parallel text (this
        language's shares the blocks of the chapter's page)."""
        return [TextRenderer(self.rulebook, self.workspace.rule_catalogs[language.code], language,
                             blocks=self._blocks_of(language.code))
                for language in self.workspace.project.languages]

    def _blocks_of(self, code: str) -> dict[tuple[str, str, int, bool], Markup]:
        if code == self.language.code and self.blocks is not None:
            return self.blocks
        return self.other_blocks.setdefault(code, {})

    def forget_blocks(self) -> None:
        """Drop the blocks kept so far: a chapter's are not shown on the next one's pages."""
        for kept in (self.blocks, *self.other_blocks.values()):
            if kept is not None:
                kept.clear()

    def sections(self) -> Sections:
        """The optional pages this book's site has (see :mod:`validator.site.sections`)."""
        return sections_of(self.workspace)

    def status(self) -> dict[str, list[GroupStatus]]:
        return self.translation_status if self.translation_status is not None else translation_status(self.workspace)

    def language_label(self, code: str) -> str:
        return self.workspace.project.language(code).name

    def group_label(self, group: str) -> str:
        if group == REFERENCE_GROUP:
            # Translators: A row of the table on the translation status page: the texts of the
            # glossary, the sources, the register of discrepancies and the official
            # answers, counted together beside the chapters.
            return self._("Glossary, sources and discrepancies")
        if group == UI_GROUP:
            # Translators: A row of the table on the translation status page: the site's own words
            # (headings, buttons, navigation), counted beside the chapters.
            return self._("The site's interface")
        if group == LABELS_GROUP:
            # Translators: A row of the table on the translation status page: the words the worked
            # examples show (the names of their values, their questions and steps),
            # counted beside the chapters.
            return self._("Words of the worked examples")
        chapter = next(chapter for chapter in self.rulebook.chapters if chapter.id == group)
        return self.plain(f"{chapter.id}#title", chapter.chapter.title)

    def percent(self, value: float) -> str:
        """A share of the messages translated, written as the results' percentages are."""
        return percent(Fraction(value).limit_denominator(10_000) / 100, self.language.code)

    def pending(self, groups: list[GroupStatus]) -> list[tuple[str, State, Markup]]:
        """Messages still to translate, each with a link to where it appears."""
        rows = []
        for group in groups:
            if group.domain != RULES_DOMAIN:
                continue  # counted only: an interface string or a label has no page of its own
            for context, state in group.pending:
                rows.append((context, state, self._context_link(context)))
        return rows

    def _context_link(self, context: str) -> Markup:
        entry = context.split("#", 1)[0]
        rule_ids = {rule.id for rule in self.rulebook.rules}
        if entry in rule_ids:
            return self.rule_link(entry)
        namespace, _, name = entry.partition("/")
        pages = {"glossary": GLOSSARY_PAGE, "discrepancies": DISCREPANCY_PAGE, "sources": SOURCES_PAGE,
                 "faq": faq_pages.FAQ_PAGE}
        if namespace in pages:
            return markdown.link(name, f"{pages[namespace]}#{name}")
        chapter = next((chapter for chapter in self.rulebook.chapters if chapter.id == entry), None)
        if chapter is not None:
            return self.chapter_link(chapter)
        # Translators: The link to the home page, in the translation status page's list of texts
        # still to translate, for a text that has no page of its own (such as the
        # book's title).
        return markdown.link(self._("Home"), "index.md")

    def state_label(self, state: State) -> str:
        if state is State.FUZZY:
            # Translators: In the translation status page's list of texts still to translate, after a
            # text's link and its msgctxt: its translation was made for an earlier English
            # text.
            return self._("out of date")
        # Translators: In the translation status page's list of texts still to translate, after a
        # text's link and its msgctxt: it has no translation yet.
        return self._("not translated")

    def kinds(self) -> list[str]:
        """The register's kinds that have entries, in the order it declares them: a
        filter for a kind with nothing under it would hide nothing."""
        register = self.rulebook.discrepancies
        used = {entry.kind for entry in register.discrepancies}
        return [kind.id for kind in register.kinds if kind.id in used]

    def glossary_entries(self) -> list[tuple[Term, str]]:
        """The glossary's terms with their words in this language, in this language's
        alphabetical order (:mod:`validator.site.collation`): a reader looks a word up
        by its first letters, as in a printed glossary, whatever order the book keeps
        them in."""
        entries = [(term, self.plain(f"glossary/{term.id}#term", term.term))
                   for term in self.rulebook.glossary.terms]
        return sorted_by(entries, lambda entry: entry[1], self.language.code)

    def source_term(self, term: Term, shown: str) -> Markup:
        """Under a term of a translated glossary, the term in the book's own language,
        marked with that language, so that a reader can match it with the original
        rules (nothing when the page shows that very word, untranslated).  The term
        is the book's text: HTML-escaped here, in a block Markdown does not read."""
        source = self.workspace.project.source_language
        if self.language.code == source or shown == markdown.inert(term.term):
            return Markup("")
        return (Markup('<p class="glossary-source">') + Markup.escape(self.language_name(source)) + Markup(": ")
                + Markup(f'<span lang="{Markup.escape(source)}">') + Markup.escape(term.term)
                + Markup("</span></p>"))

    def register_groups(self) -> list[tuple[str, list[Discrepancy]]]:
        """The register's entries in two groups, each in the register's order: those
        whose kind holds readings (what changes how a rule is played) and those whose
        kind holds places (misprints and damaged copies, editorial notes).  The kind
        declares what its entries hold, so the grouping follows the data, never the
        entries' words; a group with no entry is left out."""
        register = self.rulebook.discrepancies
        groups: dict[str, list[Discrepancy]] = {"readings": [], "places": []}
        for entry in register.discrepancies:
            kind = register.kind(entry.kind)
            groups[kind.holds if kind is not None else "readings"].append(entry)
        return [(holds, entries) for holds, entries in groups.items() if entries]

    @staticmethod
    def statuses() -> list[str]:
        return ["adopted", "open"]

    def status_label(self, status: str) -> str:
        labels = {
            # Translators: The status of an entry of the register of discrepancies, shown under its
            # heading and as a filter of the register: the site follows one of the
            # readings.
            "adopted": self._("reading adopted"),
            # Translators: The status of an entry of the register of discrepancies, shown under its
            # heading and as a filter of the register: no reading is adopted yet.
            "open": self._("open question"),
        }
        return labels[status]

    @staticmethod
    def heading_id(entry_id: str) -> Markup:
        return Markup(f"{{ #{anchor(entry_id)} }}")

    @staticmethod
    def example_anchor(rule_id: str, example_id: str) -> Markup:
        """An empty anchor before an example's box, which cannot carry an id itself."""
        return Markup(f'<a id="{anchor(rule_id)}--{example_id}"></a>')

    def label(self, identifier: object) -> Markup:
        """A core identifier as words of the reader's language, the identifier itself
        kept as a tooltip; anything else as a formatted value."""
        if not is_identifier(identifier):
            return markdown.escape(self.number(identifier))
        text = str(identifier)
        catalog = self.workspace.label_catalogs[self.language.code]
        translation = catalog.translate(label_context(text), humanize(text))
        # The label is text from a catalogue inside Markdown (a table cell): escaped for
        # Markdown as well as HTML, so no link, attribute list or autolink comes of it.
        # The title is the identifier itself, which is_identifier allows only letters,
        # digits, "_" and "-".
        return (Markup(f'<span title="{Markup.escape(text)}" lang="{Markup.escape(translation.language)}">')
                + markdown.escape(markdown.inert(translation.text)) + Markup("</span>"))

    def value(self, value: object) -> Markup:
        """A computed or given value for an example's table."""
        if isinstance(value, list):
            return Markup(", ").join(self.value(item) for item in value)
        if isinstance(value, dict):
            return Markup("; ").join(self.label(key) + Markup(": ") + self.value(item) for key, item in value.items())
        return self.label(value)

    @staticmethod
    def attr(value: object) -> Markup:
        """A value for an HTML attribute inside a raw HTML block (HTML-escaped only:
        Markdown does not read inside such blocks)."""
        return Markup.escape(str(value))

    def discrepancies_of(self, rule_id: str) -> tuple[Discrepancy, ...]:
        return self.rulebook.discrepancies_of(rule_id)

    def register(self) -> RegisterView:
        """Evidence, damaged places and distances (see validator.site.register)."""
        return RegisterView(self)

    def discrepancy_link(self, entry_id: str, label: str) -> Markup:
        return markdown.link(label, f"{DISCREPANCY_PAGE}#{entry_id}")

    def kind_label(self, kind_id: str) -> str:
        """A register kind's label, as the book declares it, in the reader's language."""
        kind = self.rulebook.discrepancies.kind(kind_id)
        return self.plain(kind_context(kind_id), kind.label) if kind is not None else kind_id

    def chart(self, rule_id: str, example: Example) -> Markup:
        """The example's charts, drawn from the rules core's numbers (or nothing)."""
        return example_charts(self, rule_id, example)

    def worked_box(self, subject: str, example: Example) -> Markup:
        """An example's box: its question, given values, outcome, steps and charts, as
        readers say them (``subject``: its rule, or its official answer's ``faq/<id>``)."""
        return worked_box(self, subject, example, self.chart(subject, example))

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

    def referred_by(self, rule_id: str, html: bool = False) -> list[Markup]:
        """Links to the rules whose text or examples link to ``rule_id``, in rulebook order."""
        return [self.rule_link(source, html) for source in self.referrers.get(rule_id, ())]

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


def _environment_of(catalog: Catalog | None) -> tuple[NullTranslations, Environment]:
    """The templates, with the interface translations of ``catalog``: compiled once
    per catalogue (compiling them again would slow every page the preview rebuilds).
    The pages' globals are installed on each render: one environment per thread
    (the preview renders in two)."""
    def make() -> tuple[NullTranslations, Environment]:
        translations = interface_translations(catalog)
        return translations, environment(translations)

    return derived("templates", catalog, make, threading.get_ident())


def _page_view(workspace: Workspace, report: CheckReport, language_code: str,
               status: dict[str, list[GroupStatus]] | None, reads: Reads | None = None
               ) -> tuple[Environment, PageView]:
    """The templates and the view of one language's pages; with ``reads``, the view
    reads the book through stand-ins that note what each page reads
    (:mod:`validator.site.reads`)."""
    translations, env = _environment_of(workspace.ui_catalogs.get(language_code))
    shown_status = status if status is not None or reads is None else translation_status(workspace)
    linked: Mapping[str, tuple[str, ...]] = referrers(workspace.rulebook)
    if reads is not None:
        workspace, report, linked, shown_status = read_through(workspace, report, linked, shown_status, reads)
    view = PageView(
        rulebook=workspace.rulebook,
        catalog=workspace.rule_catalogs[language_code],
        language=workspace.project.language(language_code),
        workspace=workspace,
        report=report,
        gettext_=translations.gettext,
        pgettext_=translations.pgettext,
        translation_status=shown_status,
        referrers=linked,
        blocks={},
    )
    faq_pages.install(env, view)
    return env, view


REFERENCE_PAGES = (("index.md", "index.md.j2"), (GLOSSARY_PAGE, "glossary.md.j2"), (SOURCES_PAGE, "sources.md.j2"),
                   (DISCREPANCY_PAGE, "discrepancies.md.j2"), (faq_pages.FAQ_PAGE, "faq.md.j2"),
                   (STATUS_PAGE, "status.md.j2"))
"""The pages that are not a chapter's, each with its template (the translator's guide
is the book's own text)."""


def page_units(workspace: Workspace) -> dict[str, tuple[str, ...]]:
    """Every page of a language, in units rendered together, in the order they are
    rendered: unit -> its pages.  A page that is not a chapter's is a unit of its own
    (named as the page); a chapter's page and its parallel text are one (named as the
    chapter): the parallel text shows the very blocks of the chapter's page."""
    has = sections_of(workspace)
    shown = {DISCREPANCY_PAGE: has.register, faq_pages.FAQ_PAGE: has.faq, STATUS_PAGE: has.status}
    units: dict[str, tuple[str, ...]] = {name: (name,) for name, _template in REFERENCE_PAGES
                                         if shown.get(name, True)}
    if has.guide:
        units[TRANSLATORS_PAGE] = (TRANSLATORS_PAGE,)
    for chapter in workspace.rulebook.chapters:
        units[chapter.id] = (chapter_page(chapter.id), parallel_page(chapter.id))
    return units


def render_units(workspace: Workspace, report: CheckReport, language_code: str,
                 status: dict[str, list[GroupStatus]] | None = None, wanted: Iterable[str] | None = None,
                 reads: Reads | None = None) -> Iterator[tuple[str, dict[str, str], PageReads | None]]:
    """The units of :func:`page_units` (those ``wanted``, else all), one at a time: each
    as (unit, page -> Markdown, what its pages read when ``reads`` notes it).  The build
    writes each as it comes and holds one unit, not the language's whole text."""
    env, view = _page_view(workspace, report, language_code, status, reads)
    units = page_units(workspace)
    names = list(units) if wanted is None else [unit for unit in units if unit in set(wanted)]
    templates = dict(REFERENCE_PAGES)
    chapters = {chapter.id: chapter for chapter in workspace.rulebook.chapters}
    for unit in names:
        if unit in templates:
            pages = {unit: env.get_template(templates[unit]).render(view=view)}
        elif unit == TRANSLATORS_PAGE:
            pages = {unit: translators_guide(workspace, language_code)}
        else:
            pages = dict(_chapter_pages(env, view, [chapters[unit]]))
        view.forget_blocks()  # a block kept from another unit would be shown without being read
        yield unit, pages, None if reads is None else reads.taken()


def iter_pages(workspace: Workspace, report: CheckReport, language_code: str,
               status: dict[str, list[GroupStatus]] | None = None) -> Iterator[tuple[str, str]]:
    """Every page of one language as (file name, Markdown)."""
    for _unit, pages, _reads in render_units(workspace, report, language_code, status):
        yield from pages.items()


def chapter_pages(workspace: Workspace, report: CheckReport, language_code: str,
                  chapters: Iterable[Chapter], parallel: bool = True) -> dict[str, str]:
    """The pages of some chapters only (each chapter's page and, with ``parallel``,
    its parallel text), as :func:`render_units` renders them: what the live preview
    rebuilds after an edit."""
    env, view = _page_view(workspace, report, language_code, None)
    return dict(_chapter_pages(env, view, chapters, parallel))


def _chapter_pages(env: Environment, view: PageView, chapters: Iterable[Chapter],
                   parallel: bool = True) -> Iterator[tuple[str, str]]:
    for chapter in chapters:
        yield chapter_page(chapter.id), env.get_template("chapter.md.j2").render(view=view, chapter=chapter)
        if parallel:
            yield parallel_page(chapter.id), env.get_template("parallel.md.j2").render(view=view, chapter=chapter)
        view.forget_blocks()


def translators_guide(workspace: Workspace, language_code: str) -> str:
    """The hand-written guide of the language, or the source language's as a fallback
    (a book without the latter has no guide page, see :mod:`validator.site.sections`).

    It is kept as Markdown in ``docs/guide/translators.<lang>.md`` and translated by
    volunteers, like the catalogues, so it is untrusted: without front matter here,
    and its HTML sanitized by the build (see :mod:`validator.site.handwritten`)."""
    own = guide_path(workspace, language_code)
    path = own if present(own) else guide_path(workspace, workspace.project.source_language)
    shown = path.relative_to(workspace.root).as_posix()
    return without_front_matter(decode_utf8(read_input(path, shown), shown))


def site_title(workspace: Workspace, language_code: str) -> str:
    """The rulebook's title in the language, as plain text."""
    renderer = TextRenderer(workspace.rulebook, workspace.rule_catalogs[language_code],
                            workspace.project.language(language_code))
    return renderer.plain("rulebook#title", workspace.rulebook.project.title)


NavItem = tuple[str, "str | list[NavItem]"]
"""(title, page) or (section title, [items])."""

CHAPTERS_PER_SECTION = 12
"""A book with more chapters shows them in sections of this many (at most): with
navigation.prune, a page then carries its own section's links and the sections'
titles, not a link to every chapter (at 128 chapters, half of a page's bytes)."""


def grouped(items: list[tuple[str, str]]) -> list[NavItem]:
    """``items`` as they are when few; else in sections of consecutive items, each
    titled by its first and last titles."""
    if len(items) <= CHAPTERS_PER_SECTION:
        return list(items)
    count = -(-len(items) // CHAPTERS_PER_SECTION)
    base, extra = divmod(len(items), count)  # sizes differ by one at most
    sections: list[NavItem] = []
    start = 0
    for index in range(count):
        part = items[start:start + base + (index < extra)]
        start += len(part)
        title = part[0][0] if len(part) == 1 else f"{part[0][0]} \u2013 {part[-1][0]}"
        sections.append((title, list(part)))
    return sections


def navigation(workspace: Workspace, language_code: str) -> list[NavItem]:
    """The site's navigation as (title, page) or (section title, [items]), with
    plain-text titles (the build escapes them for HTML) made :func:`markdown.inert`,
    as Material decodes a title once more in places.  Chapters come in sections
    when there are many (see :data:`CHAPTERS_PER_SECTION`)."""
    translations = interface_translations(workspace.ui_catalogs.get(language_code))

    def _(message: str) -> str:
        # Navigation titles reach <title>, link titles and tooltips: inert, like plain().
        return markdown.inert(translations.gettext(message))

    renderer = TextRenderer(workspace.rulebook, workspace.rule_catalogs[language_code],
                            workspace.project.language(language_code))
    chapters = [(renderer.plain(f"{c.id}#title", c.chapter.title), chapter_page(c.id))
                for c in workspace.rulebook.chapters]
    parallel = [(renderer.plain(f"{c.id}#title", c.chapter.title), parallel_page(c.id))
                for c in workspace.rulebook.chapters]
    has = sections_of(workspace)
    reference = _kept([
        # Translators: The glossary page's title in the navigation, under Reference.
        (_("Glossary"), GLOSSARY_PAGE, True),
        # Translators: The title of the page of official answers in the navigation, under
        # Reference.
        (_("Official answers"), faq_pages.FAQ_PAGE, has.faq),
        # Translators: The title of the register of discrepancies in the navigation, under
        # Reference.
        (_("Discrepancies between editions and translations"), DISCREPANCY_PAGE, has.register),
        # Translators: The title of the page of the documents the rules are written from, in the
        # navigation, under Reference.
        (_("Sources"), SOURCES_PAGE, True),
    ])
    translating = _kept([
        # Translators: The title of the translation status page in the navigation, under For
        # translators.
        (_("Translation status"), STATUS_PAGE, has.status),
        # Translators: The title of the translator's guide in the navigation, under For
        # translators.
        (_("Translator's guide"), TRANSLATORS_PAGE, has.guide),
    ])
    return [
        # Translators: The home page's title in the navigation, its first item.
        (_("Home"), "index.md"),
        *grouped(chapters),
        # Translators: The navigation's section of reference pages: the glossary, the official
        # answers, the register of discrepancies and the sources.
        (_("Reference"), reference),
        # Translators: The navigation's section of pages for translators: the translation status
        # and the translator's guide.
        *([(_("For translators"), translating)] if translating else []),
        # Translators: The navigation's section that lists, for each chapter, its page of the rules
        # in every language side by side.
        (_("Parallel text"), grouped(parallel)),
    ]


def _kept(items: list[tuple[str, str, bool]]) -> list[NavItem]:
    """The (title, page) of the ``items`` the site has: a link to a page the book has
    no section for would lead nowhere (MkDocs warns of it, which stops the build)."""
    return [(title, page) for title, page, shown in items if shown]
