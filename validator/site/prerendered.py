"""Hand MkDocs the pipeline's finished HTML without parsing it again.

The rule texts, the parallel text and the worked examples are HTML the pipeline
already wrote (escaped, links resolved), nearly all of a chapter page's bytes.
Python-Markdown passes raw HTML through, but only after parsing it twice (its own
raw-HTML block reader, then MkDocs' scan for anchors), which was over half of
MkDocs' time on a chapter page.  The pages mark
such HTML with two comments::

    <!-- prerendered -->
    <div ...>...</div>
    <!-- /prerendered -->

and :class:`PrerenderedExtension`, which the build adds to MkDocs' Markdown
extensions, stores every marked block in Python-Markdown's stash before either
parser runs: the page comes out byte for byte as plain MkDocs makes it from the same
Markdown (``tests/integration/test_prerendered.py`` builds both), only sooner.

The stash holds pieces of *this* page's Markdown source, which the pipeline wrote;
text from YAML or a catalogue inside the block was escaped when the block was
rendered, as everywhere else.  A marked block carries no anchor another page links
to (MkDocs would not see it, and its link check would say so).

MkDocs reads and converts every page of a language before it writes the first one,
and keeps each page's source and HTML meanwhile: with the blocks inside, the whole
language at once, which would be most of a build's memory.  :class:`PrerenderedPages`,
the plugin the build adds beside the extension, hands MkDocs each block as a short
numbered stand-in instead, stashed the same way, and puts the block itself in its
place as the page is written, read again from the page's file: MkDocs holds one
page's blocks at a time, and the page is byte for byte the same.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from markdown import Extension, Markdown  # type: ignore[import-untyped]
from markdown.preprocessors import Preprocessor  # type: ignore[import-untyped]
from mkdocs.plugins import BasePlugin
from mkdocs.structure.pages import Page

START = "<!-- prerendered -->"
END = "<!-- /prerendered -->"

PRIORITY = 25
"""Before MkDocs' anchor scan (21) and Python-Markdown's raw HTML reader (20), after
its whitespace normalisation (30), which strips the stash's placeholder characters
from the source so that no text can forge a placeholder."""


def _blocks(text: str) -> list[tuple[int, int]]:
    """Where each marked block of ``text`` starts and ends (an unclosed one is no block:
    it is left to Python-Markdown, which reads it as raw HTML)."""
    found = []
    position = 0
    while (start := text.find(START, position)) >= 0:
        end = text.find(END, start)
        if end < 0:
            break
        position = end + len(END)
        found.append((start, position))
    return found


class _StashPrerendered(Preprocessor):  # type: ignore[misc]
    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if START not in text:
            return lines
        pieces: list[str] = []
        position = 0
        for start, end in _blocks(text):
            pieces.append(text[position:start])
            # With the line break Python-Markdown keeps after a raw comment: the page is the same.
            block = text[start:end] + "\n"
            pieces.append(f"\n\n{self.md.htmlStash.store(block)}\n\n")
            position = end
        pieces.append(text[position:])
        return "".join(pieces).split("\n")


class PrerenderedExtension(Extension):  # type: ignore[misc]
    """Store the blocks between :data:`START` and :data:`END` as raw HTML, unparsed."""

    def extendMarkdown(self, md: Markdown) -> None:
        md.preprocessors.register(_StashPrerendered(md), "validator_prerendered", PRIORITY)


PAGES_PLUGIN = "validator-prerendered"


class PrerenderedPages(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
    """Each marked block reaches MkDocs as a numbered stand-in (itself a marked block,
    so the extension stashes it as it would the block) and is put back as the page is
    written.  The stand-in carries a number drawn for the build, which no text of a
    page can know in advance."""

    def __init__(self) -> None:
        super().__init__()
        self.nonce = secrets.token_hex(8)
        self.stand_in = re.compile(re.escape(START) + self.nonce + r":(\d+)" + re.escape(END))

    def on_page_markdown(self, markdown: str, /, *, page: Page, config: Any, files: Any) -> str:
        pieces: list[str] = []
        position = 0
        for number, (start, end) in enumerate(_blocks(markdown)):
            pieces += [markdown[position:start], f"{START}{self.nonce}:{number}{END}"]
            position = end
        pieces.append(markdown[position:])
        return "".join(pieces)

    def on_post_page(self, output: str, /, *, page: Page, config: Any) -> str:
        if self.stand_in.search(output) is None:
            return output
        # The blocks as the page's file holds them (the Markdown MkDocs kept has only
        # the stand-ins), numbered as on_page_markdown numbered them.
        source = page.file.content_string
        blocks = [source[start:end] for start, end in _blocks(source)]
        return self.stand_in.sub(lambda match: blocks[int(match.group(1))], output)
