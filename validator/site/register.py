"""What the register of discrepancies and the sources page show beyond plain text:
where a claim about a document the project holds no copy of can be checked (or
that it is unverified), the damaged places of a document, and the distances as
each edition prints them.

Every piece is escaped Markdown: quoted document text is data, never markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from babel.units import format_unit, get_unit_name
from markupsafe import Markup

from validator.content.model import Discrepancy, Evidence, Reading
from validator.content.units import convert
from validator.site import markdown

if TYPE_CHECKING:
    from validator.site.view import BaseView


@dataclass(frozen=True)
class RegisterView:
    view: BaseView

    def _(self, message: str) -> str:
        return self.view._(message)

    def _page(self, pages: str) -> str:
        """The abbreviation before one page ("p. 127") or before several ("pp. 127-128"):
        languages that tell them apart (Spanish "pág." and "págs.") need both."""
        if re.search("\\d\\s*[-\u2013,]\\s*\\d", pages):
            # Translators: The abbreviation before a range or list of pages, where the register of
            # discrepancies says where a reader can check a reading: "pp. 127-128".
            return self._("pp.")
        # Translators: The abbreviation before a single page, where the register of discrepancies
        # says where a reader can check a reading: "p. 127".
        return self._("p.")

    def has_places(self, entry: Discrepancy) -> bool:
        """Whether the entry's kind, as the register declares it, holds damaged places."""
        kind = self.view.rulebook.discrepancies.kind(entry.kind)
        return kind is not None and kind.holds == "places"

    def evidence(self, reading: Reading) -> Markup:
        """After a reading: where to check it, or "unverified" (nothing when its
        source is one a reader holds, such as a seed document)."""
        if reading.verified is False and not reading.evidence:
            # Translators: After a reading in the register of discrepancies that has not been checked
            # against its document.
            return (Markup(' <span class="reading-unverified">') + markdown.escape(self._("unverified"))
                    + Markup("</span>"))
        return self._evidence_list(reading.evidence)

    def _evidence_list(self, evidence: tuple[Evidence, ...]) -> Markup:
        if not evidence:
            return Markup("")
        links = Markup("; ").join(self._evidence(item) for item in evidence)
        # Translators: In brackets after a reading (or a correction) in the register of
        # discrepancies, before the list of places where a reader can check it:
        # "(check it in: <document>, p. 12)".
        return Markup(" (") + markdown.escape(self._("check it in")) + Markup(": ") + links + Markup(")")

    def _evidence(self, item: Evidence) -> Markup:
        name = self.view.source_name(item.source)
        shown = f"{name}, «{item.section}»" if item.section else name
        if item.pages:
            shown += f", {self._page(item.pages)} {item.pages}"
        if item.url:
            return markdown.external_link(shown, item.url)
        return self.view.source_link(item.source) + markdown.escape(shown[len(name):])

    def places(self, entry: Discrepancy, indent: int) -> Markup:
        """The damaged places as a table: source, page, section, the text as the
        document has it and what it should read."""
        pad = " " * indent
        header = [
            # Translators: The heading of the first column of the table of damaged places (misprints)
            # under an entry of the register of discrepancies: the document.
            self._("Source"),
            # Translators: The heading of the column of the table of damaged places (misprints) that
            # gives the page of the document.
            self._("Page"),
            # Translators: The heading of the column of the table of damaged places (misprints) that
            # gives where on the page: the heading of the document it stands under.
            self._("Where"),
            # Translators: The heading of the column of the table of damaged places (misprints) that
            # quotes the text as the document prints it.
            self._("As printed"),
            # Translators: The heading of the last column of the table of damaged places (misprints):
            # what the text should say.
            self._("Should read"),
        ]
        rows = [pad + "| " + " | ".join(markdown.escape(cell) for cell in header) + " |",
                pad + "|---|---|---|---|---|"]
        for place in entry.places:
            language = self.view.source(place.source).language
            cells = [self.view.source_link(place.source), markdown.escape(place.pages),
                     self._section(place.section, language), self._quote(place.printed, language),
                     self._quote(place.reads, language) + self._evidence_list(place.evidence)]
            rows.append(pad + "| " + " | ".join(cells) + " |")
        return Markup("\n").join(Markup(row) for row in rows)

    @staticmethod
    def _section(section: str | None, language: str) -> Markup:
        """A heading of the document, in its language (a dash when the place has none)."""
        if section is None:
            return Markup("—")
        return Markup(f'<span lang="{Markup.escape(language)}">') + markdown.escape(section) + Markup("</span>")

    @staticmethod
    def _quote(text: str, language: str) -> Markup:
        """Document text kept as it is, spaces too, in the document's own words and
        marked with its language (a language code is an id: letters, digits, hyphens)."""
        return (Markup(f'<q class="document-text" lang="{Markup.escape(language)}">')
                + markdown.escape(text).replace("  ", Markup("&nbsp; ")) + Markup("</q>"))

    def distances(self) -> list[tuple[str, str, bool]]:
        """Every distance the texts use, as this site shows it: (in the book's unit,
        shown, printed by the edition).  Empty for a language that shows the book's unit."""
        units = self.view.rulebook.units.of(self.view.language.code)
        project = self.view.rulebook.project
        if units is None or project.shown_unit(self.view.language) != units.unit:
            return []
        return [(self._in_book_unit(distance), self.view.distance(distance), convert(units, distance)[1])
                for distance in self.view.rulebook.distances]

    def _in_book_unit(self, value: Decimal) -> str:
        return str(format_unit(value, f"length-{self.view.rulebook.project.length_unit}", length="short",
                               locale=self.view.language.code))

    def distance_citations(self) -> list[Markup]:
        """Where the edition prints its conversions, and the rule they follow."""
        units = self.view.rulebook.units.of(self.view.language.code)
        if units is None:
            return []
        cites = [conversion.cite for conversion in units.table] + list(units.rule.cite if units.rule else ())
        shown: list[Markup] = []
        for cite in cites:
            text = self.view.source_link(cite.source)
            if cite.section:
                text += markdown.escape(f", «{cite.section}»")
            if cite.pages:
                text += markdown.escape(f", {self._page(cite.pages)} {cite.pages}")
            if text not in shown:
                shown.append(text)
        return shown

    @staticmethod
    def address(url: str) -> Markup:
        """A public address as a link showing itself (the loader allows http and https only)."""
        return markdown.external_link(url, url)

    def _unit_name(self, unit: str | None) -> str:
        """A unit's name in the reader's language, from CLDR ("pulgadas", "centímetros")."""
        return str(get_unit_name(f"length-{unit}", length="long", locale=self.view.language.code))

    def book_unit_heading(self) -> str:
        """The heading of the column of distances as the rules give them: the unit's name."""
        name = self._unit_name(self.view.rulebook.project.length_unit)
        return name[:1].upper() + name[1:]

    def conversion_words(self) -> dict[str, str]:
        """What the sentence on conversions names: the book's unit and this site's, and
        the rule for a distance the edition does not print, as one of the book's unit
        and what it becomes ("1 in", "2,5 cm"; empty when every distance must be in
        the edition's table)."""
        project = self.view.rulebook.project
        units = self.view.rulebook.units.of(self.view.language.code)
        one = rate = ""
        if units is not None and units.rule is not None:
            one = self._in_book_unit(Decimal(1))
            rate = str(format_unit(units.rule.per_unit, f"length-{units.unit}", length="short",
                                   locale=self.view.language.code))
        return {"book_units": self._unit_name(project.length_unit),
                "site_units": self._unit_name(project.shown_unit(self.view.language)), "one": one, "rate": rate}
