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
Markdown (``tests/test_prerendered.py`` builds both), only sooner.

The stash holds pieces of *this* page's Markdown source, which the pipeline wrote;
text from YAML or a catalogue inside the block was escaped when the block was
rendered, as everywhere else.  A marked block carries no anchor another page links
to (MkDocs would not see it, and its link check would say so).
"""

from __future__ import annotations

from markdown import Extension, Markdown  # type: ignore[import-untyped]
from markdown.preprocessors import Preprocessor  # type: ignore[import-untyped]

START = "<!-- prerendered -->"
END = "<!-- /prerendered -->"

PRIORITY = 25
"""Before MkDocs' anchor scan (21) and Python-Markdown's raw HTML reader (20), after
its whitespace normalisation (30), which strips the stash's placeholder characters
from the source so that no text can forge a placeholder."""


class _StashPrerendered(Preprocessor):  # type: ignore[misc]
    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if START not in text:
            return lines
        pieces: list[str] = []
        position = 0
        while (start := text.find(START, position)) >= 0:
            end = text.find(END, start)
            if end < 0:
                break  # an unclosed block: left to Python-Markdown, which reads it as raw HTML
            end += len(END)
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
