"""The worked examples' finished HTML goes to MkDocs unparsed, and the site is the
same as plain MkDocs makes it from the same pages."""

from __future__ import annotations

import filecmp
from pathlib import Path
from typing import Any

import markdown
import pytest
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config

from validator.catalogs.status import translation_status
from validator.site.build import load_site_config, write_config, write_docs
from validator.site.handwritten import NAME as HANDWRITTEN_PLUGIN
from validator.site.prerendered import (
    END,
    PAGES_PLUGIN,
    START,
    PrerenderedExtension,
    PrerenderedPages,
    _StashPrerendered,
)

EXTENSIONS = ["admonition", "attr_list", "md_in_html", "tables", "toc"]
PAGE = f"""# Title

Some *text* and a [link](other.md).

<a id="x"></a>

{START}
<div class="admonition example worked-example">
<p class="admonition-title">Worked</p>


<details open="open"><summary>Steps</summary>
<ol><li>one *not emphasis*</li></ol>
</details>
</div>
{END}

Between.

{START}
<div>last</div>
{END}
"""


def _convert(text: str, *extra: Any) -> str:
    return markdown.markdown(text, extensions=[*EXTENSIONS, *extra])


def test_a_marked_block_never_reaches_the_parsers() -> None:
    md = markdown.Markdown(extensions=EXTENSIONS)
    lines = _StashPrerendered(md).run(PAGE.split("\n"))
    assert not any("<div" in line or "details" in line for line in lines)
    assert len(md.htmlStash.rawHtmlBlocks) == 2
    assert "Between." in lines and "Some *text* and a [link](other.md)." in lines


def test_the_html_is_what_python_markdown_makes_of_the_same_text() -> None:
    assert _convert(PAGE, PrerenderedExtension()) == _convert(PAGE)


def test_an_unclosed_block_is_left_to_python_markdown() -> None:
    last = PAGE.rindex(END)
    unclosed = PAGE[:last] + PAGE[last + len(END):]
    md = markdown.Markdown(extensions=EXTENSIONS)
    lines = _StashPrerendered(md).run(unclosed.split("\n"))
    assert "<div>last</div>" in lines and len(md.htmlStash.rawHtmlBlocks) == 1
    assert _convert(unclosed, PrerenderedExtension()) == _convert(unclosed)


def test_the_comparison_sees_a_block_that_went_astray() -> None:
    """The equality above can fail: a stash that drops the line break Python-Markdown
    keeps after a raw comment gives another page."""

    class Careless(_StashPrerendered):
        def run(self, lines: list[str]) -> list[str]:
            text = "\n".join(lines)
            start, end = text.find(START), text.find(END) + len(END)
            return (text[:start] + f"\n\n{self.md.htmlStash.store(text[start:end])}\n\n" + text[end:]).split("\n")

    class CarelessExtension(PrerenderedExtension):
        def extendMarkdown(self, md: markdown.Markdown) -> None:
            md.preprocessors.register(Careless(md), "careless", 25)

    assert _convert(PAGE, CarelessExtension()) != _convert(PAGE)


def _differing(comparison: filecmp.dircmp[str]) -> list[str]:
    found = [*comparison.diff_files, *comparison.left_only, *comparison.right_only]
    for sub in comparison.subdirs.values():
        found += _differing(sub)
    return found


class HeldContent:
    """A plugin noting, for each page, whether the Markdown and HTML MkDocs keeps
    between reading the page and writing it hold a worked example's HTML."""

    def __init__(self) -> None:
        self.held: dict[str, bool] = {}

    def on_page_content(self, html: str, /, *, page: Any, config: Any, files: Any) -> str:
        self.held[page.file.src_uri] = "worked-example" in html or "worked-example" in (page.markdown or "")
        return html


@pytest.mark.parametrize("code", ["en", "pl"])
def test_the_bundled_site_is_byte_for_byte_plain_mkdocs(workspace: Any, report: Any, tmp_path: Path,
                                                         code: str) -> None:
    docs = tmp_path / "docs"
    write_docs(workspace, report, translation_status(workspace), code, docs)
    assert START in (docs / "monstrous-mounts.md").read_text(encoding="utf-8")
    config_path = write_config(workspace, code, docs, tmp_path / "ours", tmp_path / "mkdocs.yml")
    config = load_site_config(config_path)
    spy = HeldContent()
    config.plugins["held-content"] = spy  # type: ignore[assignment]
    mkdocs_build(config)
    plain = load_config(str(config_path), site_dir=str(tmp_path / "plain"))
    # The hand-written pages are cleaned in either build: what is compared is the pre-rendering.
    plain.plugins[HANDWRITTEN_PLUGIN] = config.plugins[HANDWRITTEN_PLUGIN]
    mkdocs_build(plain)

    assert _differing(filecmp.dircmp(tmp_path / "ours", tmp_path / "plain", ignore=[])) == []
    page = (tmp_path / "ours" / "monstrous-mounts.html").read_text(encoding="utf-8")
    assert page.count('class="example worked-example"') >= 3
    # MkDocs held only the stand-ins while it built the language, not the blocks.
    assert spy.held["monstrous-mounts.md"] is False and len(spy.held) > 5 and not any(spy.held.values())


def test_the_comparison_sees_a_block_left_out(workspace: Any, report: Any, tmp_path: Path) -> None:
    """The comparison above can fail: blocks not put back in place of their stand-ins
    leave pages that differ from plain MkDocs'."""

    class Forgetful(PrerenderedPages):
        def on_post_page(self, output: str, /, *, page: Any, config: Any) -> str:
            return output

    docs = tmp_path / "docs"
    write_docs(workspace, report, translation_status(workspace), "en", docs)
    config_path = write_config(workspace, "en", docs, tmp_path / "ours", tmp_path / "mkdocs.yml")
    config = load_site_config(config_path)
    config.plugins[PAGES_PLUGIN] = Forgetful()
    mkdocs_build(config)
    mkdocs_build(load_config(str(config_path), site_dir=str(tmp_path / "plain")))
    assert "monstrous-mounts.html" in _differing(filecmp.dircmp(tmp_path / "ours", tmp_path / "plain", ignore=[]))
