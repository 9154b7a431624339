"""Official answers on the pages: under each rule they touch, and on the FAQ page.

The helpers return escaped Markdown, as :class:`validator.site.view.BaseView` does;
templates reach them as the global ``faq`` that :func:`install` sets per language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jinja2 import Environment
from markupsafe import Markup

from validator.content.faq import FaqEntry, Standing, answers_of, home_chapter
from validator.content.model import Chapter, Evidence
from validator.site import markdown
from validator.site.text import anchor

if TYPE_CHECKING:
    from validator.site.view import BaseView

FAQ_PAGE = "faq.md"


def standing_label(standing: Standing, gettext: Callable[[str], str]) -> str | None:
    """What readers are told about who gave an answer that is not the design team's
    (None for an official answer, which needs no warning)."""
    if standing == "community":
        # Translators: A warning above an answer that a players' council gave, not the design team:
        # on the page of official answers, under each rule the answer touches, and in
        # the open data.
        return gettext("Community interpretation, not an official answer")
    if standing == "uncredited":
        # Translators: A warning above an answer that a public page reproduces without naming its
        # author: on the page of official answers, under each rule the answer touches,
        # and in the open data.
        return gettext("Answer from a public FAQ page whose author is not confirmed; not shown as official")
    return None


def group_title(standing: Standing, gettext: Callable[[str], str], pgettext: Callable[[str, str], str]) -> str:
    """The heading under which an answer of this standing is listed (under a rule, in
    search results): official answers apart from those that are not.  The official
    group's heading has a msgctxt of its own: the page of all answers bears the same
    English words as its title, and a language may word a group set against "Answers
    that are not official" otherwise than a page's title."""
    if standing == "official":
        # Translators: The heading of the group of official answers: collapsed under each rule they
        # touch, and in the search results. It is set against "Answers that are not
        # official"; the page of all answers has the same English title as an entry
        # without msgctxt.
        return pgettext("group of answers", "Official answers")
    # Translators: The heading of the group of answers that are not the design team's (a
    # players' council's, or with no confirmed author): collapsed under each rule
    # they touch, and in the search results.
    return gettext("Answers that are not official")


def entry_anchor(entry_id: str) -> str:
    """The anchor of an answer on the FAQ page (``faq.md#<id>``), the same in every language."""
    return anchor(entry_id)


@dataclass(frozen=True)
class FaqView:
    """What templates may ask about official answers, in the view's language."""

    view: BaseView

    def answers_of(self, rule_id: str) -> tuple[FaqEntry, ...]:
        return answers_of(self.view.rulebook, rule_id)

    def groups_of(self, rule_id: str) -> list[tuple[str, tuple[FaqEntry, ...]]]:
        """The answers under a rule in two groups, each with its heading: the official
        ones, then the others (community and uncredited), never mixed."""
        answers = self.answers_of(rule_id)
        official = tuple(entry for entry in answers if entry.official)
        others = tuple(entry for entry in answers if not entry.official)
        return [(group_title(group[0].standing, self.view._, self.view.pgettext), group)
                for group in (official, others) if group]

    def standing(self, entry: FaqEntry) -> Markup:
        """A warning line for an answer that is not official (empty for an official one)."""
        label = standing_label(entry.standing, self.view._)
        return Markup("") if label is None else (
            Markup('<span class="faq-standing faq-standing--') + entry.standing + Markup('">')
            + markdown.escape(label) + Markup("</span>"))

    def sections(self) -> list[tuple[Chapter, list[FaqEntry]]]:
        """Chapters in book order, each with the answers whose first rule is in it."""
        by_chapter: dict[str, list[FaqEntry]] = {}
        for entry in self.view.rulebook.faq.faq:
            by_chapter.setdefault(home_chapter(self.view.rulebook, entry), []).append(entry)
        return [(chapter, by_chapter[chapter.id]) for chapter in self.view.rulebook.chapters
                if chapter.id in by_chapter]

    def question(self, entry: FaqEntry) -> str:
        """The question as plain text, for a heading (made inert like every title)."""
        return self.view.plain(f"{entry.subject}#question", entry.question)

    def question_inline(self, entry: FaqEntry) -> Markup:
        """The question as one line of Markdown (its tokens as links), to be set in bold."""
        return self.view.inline(f"{entry.subject}#question", entry.question)

    def answer_block(self, entry: FaqEntry, indent: int = 0) -> Markup:
        return self.view.block(f"{entry.subject}#answer", entry.answer, indent)

    def computed(self, entry: FaqEntry, example_id: str) -> dict[str, object]:
        return self.view.report.computed(entry.subject, example_id)

    @staticmethod
    def heading_id(entry: FaqEntry) -> Markup:
        return Markup(f"{{ #{entry_anchor(entry.id)} }}")

    @staticmethod
    def chapter_heading_id(chapter: Chapter) -> Markup:
        return Markup(f"{{ #{anchor(chapter.id)} }}")

    @staticmethod
    def example_anchor(entry: FaqEntry, example_id: str) -> Markup:
        return Markup(f'<a id="{entry_anchor(entry.id)}--{example_id}"></a>')

    def page_link(self, entry: FaqEntry, label: str) -> Markup:
        return markdown.link(label, f"{FAQ_PAGE}#{entry_anchor(entry.id)}")

    def source(self, entry: FaqEntry) -> Markup:
        """Where the answer was published: the source, its page, and the public copy."""
        parts = [self.view.source_link(entry.source)]
        if not entry.source_shown:
            # Translators: In the line "Source: ..." under an answer, after the document's name: the
            # page that reproduces the answer prints no source for it.
            parts.append(markdown.escape(self.view._("source not shown")))
        if entry.page is not None:
            # Translators: In the line "Source: ..." under an answer, after the document's name:
            # %(page)s is the page (or pages) of the document where the answer is printed.
            parts.append(markdown.escape(self.view._("page %(page)s") % {"page": entry.page}))
        if entry.url is not None:
            # Translators: In the line "Source: ..." under an answer: a link to a copy of the document
            # that anyone can read online.
            parts.append(markdown.external_link(self.view._("public copy"), entry.url))
        shown = Markup(", ").join(parts)
        if entry.evidence:
            # Translators: In the line "Source: ..." under an answer, in brackets before a list of the
            # places where a reader can check it: "(check it in: <document>, <page>;
            # <address>)".
            shown += Markup(" (") + markdown.escape(self.view._("check it in")) + Markup(": ") + Markup("; ").join(
                self._evidence(item) for item in entry.evidence) + Markup(")")
        return shown

    def _evidence(self, item: Evidence) -> Markup:
        """A source a reader holds (with section and pages), or a public address."""
        shown = Markup(", ").join([self.view.source_link(item.source),
                                   *([markdown.escape(f"«{item.section}»")] if item.section else []),
                                   # Translators: In the list of places where a reader can check an answer, after the
                                   # document's name: %(page)s is the page (or pages) to look at.
                                   *([markdown.escape(self.view._("page %(page)s") % {"page": item.pages})]
                                     if item.pages else [])])
        if item.url:
            # Translators: In the list of places where a reader can check an answer: a link to a copy
            # of the document that anyone can read online.
            shown += Markup(", ") + markdown.external_link(self.view._("public copy"), item.url)
        return shown


def install(env: Environment, view: BaseView) -> None:
    """Make the answers of ``view``'s language available to every template as ``faq``."""
    env.globals["faq"] = FaqView(view)
