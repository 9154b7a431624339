"""What the helpers of the pages (charts, official answers, register, worked
examples) read of the page they render: the language's texts and lookups.

The page itself (:class:`validator.site.pages.PageView`) adds what calls those
helpers; they see only this base, so that no helper imports the pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from markupsafe import Markup

from validator.catalogs.po import State
from validator.catalogs.status import GroupStatus
from validator.checks.run import CheckReport
from validator.content.model import Source
from validator.site import markdown
from validator.site.text import TextRenderer
from validator.workspace import Workspace

SOURCES_PAGE = "sources.md"


@dataclass(frozen=True)
class BaseView(TextRenderer):
    """A page's language, its texts and the lookups every helper of a page uses."""

    workspace: Workspace
    report: CheckReport
    gettext_: object
    pgettext_: object
    translation_status: dict[str, list[GroupStatus]] | None
    """How far each language's translation has come; None: counted when a page asks
    (the preview's chapter pages never do)."""
    referrers: Mapping[str, tuple[str, ...]]
    """Rule id -> the rules that link to it, computed once per page set."""
    other_blocks: dict[str, dict[tuple[str, str, int, bool], Markup]] = field(default_factory=dict, kw_only=True,
                                                                             compare=False, repr=False)
    """The blocks of the other languages' renderers (see :attr:`TextRenderer.blocks`)."""

    def _(self, message: str) -> str:
        return str(self.gettext_(message))  # type: ignore[operator]

    def pgettext(self, context: str, message: str) -> str:
        """A word with a msgctxt, for English words that stand for two things on the
        pages (the name matches the keyword that extraction looks for)."""
        return str(self.pgettext_(context, message))  # type: ignore[operator]

    def block(self, context: str, english: str, indent: int = 0, html: bool = False) -> Markup:
        """As :meth:`TextRenderer.block`, with an "out of date" badge when the
        translation was made for an older English text (the current English is shown)."""
        body = super().block(context, english, indent, html)
        if self.translate(context, english).state is not State.FUZZY:
            return body
        badge = Markup('<span class="badge-outdated">') + markdown.escape(
            # Translators: A badge above a text whose translation was made for an earlier English text:
            # the page shows the current English text instead, until the translation is
            # brought up to date.
            self._("Translation out of date: showing the current English text")) + Markup("</span>")
        if html:
            return Markup("<p>") + badge + Markup("</p>\n") + body
        return Markup(" " * indent) + badge + Markup("\n\n") + body

    def variant_label(self, variant: str) -> str:
        """Name a ruling variant by the reading that uses it, in the reader's language."""
        for entry in self.rulebook.discrepancies.discrepancies:
            for reading in entry.readings:
                if reading.variant == variant:
                    # Translators: In brackets after the question of a worked example computed under another
                    # reading of the rules: %(source)s is the short name of the document whose
                    # reading it follows, as the sources page gives it.
                    return self._("following the %(source)s") % {"source": self.source_name(reading.source)}
        return variant

    def computed(self, rule_id: str, example_id: str) -> dict[str, object]:
        return self.report.computed(rule_id, example_id)

    @staticmethod
    def code(text: object) -> Markup:
        return Markup("<code>") + Markup.escape(str(text)) + Markup("</code>")

    def source(self, source_id: str) -> Source:
        return next(source for source in self.rulebook.sources.sources if source.id == source_id)

    def source_link(self, source_id: str, html: bool = False) -> Markup:
        source = self.source(source_id)
        title = self.plain(f"sources/{source_id}#title", source.title)
        return markdown.link_for(html)(self.source_name(source_id), f"{SOURCES_PAGE}#{source_id}", title)

    def source_name(self, source_id: str) -> str:
        return self.plain(f"sources/{source_id}#name", self.source(source_id).name)
