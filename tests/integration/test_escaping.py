"""Escaping of rulebook text, piece by piece: titles are inert, labels are plain
text for Markdown, and the lint refuses markup and script addresses in the English
text and in every catalogue, with file, line and msgctxt."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import markdown as python_markdown
import pytest
from babel.messages.catalog import Catalog
from conftest import ROOT, ProjectCopy, copy_engine_interface

from validator.checks.lint import LintContext, Severity, lint_catalog, source_findings
from validator.content.loader import load_rulebook
from validator.content.project import load_project
from validator.site import markdown
from validator.site.pages import iter_pages, navigation, site_title
from validator.workspace import load_workspace

EXTENSIONS = ["admonition", "attr_list", "md_in_html", "tables", "toc"]
RULEBOOK = load_rulebook(ROOT, load_project(ROOT))


def html_of(text: str) -> str:
    return python_markdown.markdown(text, extensions=EXTENSIONS)


@pytest.mark.parametrize("hostile", [
    "</title><script>x()</script>", "<img src=x onerror=x()>", "\" onmouseover=\"x()", "'><b>",
])
def test_a_title_has_no_tag_after_any_number_of_decodings(hostile: str) -> None:
    import html

    text = str(markdown.escape(markdown.inert(hostile)))
    for _ in range(3):
        text = html.unescape(text)
        assert "<" not in text and ">" not in text


@pytest.mark.parametrize("hostile", ["&lt;script&gt;", "&#60;b&#62;"])
def test_an_entity_in_a_title_decodes_to_itself_once(hostile: str) -> None:
    """Escaped, then decoded once by the browser and once more by a tooltip: the
    reader sees the entity's character as text, which is where it ends."""
    import html

    once = html.unescape(str(markdown.escape(markdown.inert(hostile))))
    assert once == hostile
    assert "<" not in once


def test_a_link_title_and_label_are_inert_and_escaped() -> None:
    rendered = html_of(str(markdown.link("[a](javascript:x())", "glossary.md#x", "<img src=x onerror=x()>")))
    assert rendered.count("<a ") == 1 and 'href="glossary.md#x"' in rendered
    title = re.search(r'title="([^"]*)"', rendered)
    assert title and "&lt;" not in title.group(1) and "<" not in title.group(1)
    assert "javascript" not in rendered.split(">", 1)[0]


@pytest.fixture
def hostile_labels(project: ProjectCopy) -> ProjectCopy:
    """The Spanish label of 'chariot' written as a Markdown link to a script, with an
    attribute list and an autolink."""
    text = project.read("locales/es/LC_MESSAGES/labels.po")
    hostile = '[carro](javascript:x()) **c**{: onclick=\\"x()\\" } <javascript:x()>'
    assert 'msgid "chariot"\nmsgstr "carro"' in text
    project.write("locales/es/LC_MESSAGES/labels.po",
                  text.replace('msgid "chariot"\nmsgstr "carro"', f'msgid "chariot"\nmsgstr "{hostile}"'))
    return project


def test_a_label_from_the_catalogue_is_text_not_markdown(hostile_labels: ProjectCopy) -> None:
    workspace = load_workspace(hostile_labels.root)
    from validator.checks.run import check_workspace

    pages = dict(iter_pages(workspace, check_workspace(workspace), "es"))
    html = html_of(pages["chariots.md"])
    import html as html_module

    shown = html_module.unescape(re.sub(r"<[^>]+>", "", html))
    assert '[carro](javascript:x()) **c**{: onclick="x()" } \u2039javascript:x()\u203a' in shown
    assert "javascript:" not in " ".join(re.findall(r"<a [^>]*>", html))
    assert "onclick" not in " ".join(re.findall(r"<[a-z]+ [^>]*>", html))


def test_the_lint_refuses_a_label_that_is_markup(hostile_labels: ProjectCopy) -> None:
    run = hostile_labels.command("lint")
    assert run.code == 1
    lines = [line for line in run.out.splitlines() + run.err.splitlines() if "[labels/chariot]" in line]
    assert any(line.startswith("locales/es/LC_MESSAGES/labels.po:") and "url-scheme (error)" in line
               for line in lines), lines
    assert any("markup (error)" in line and "Fix: " in line for line in lines), lines


def test_navigation_and_site_title_are_inert(project: ProjectCopy) -> None:
    project.replace("rulebook.yml", "title: Characters", "title: </title><b>Characters")
    project.replace("docs/rules/chariots.yml", "title: Characters riding chariots",
                    "title: <img src=x onerror=x()> chariots")
    text = project.read(copy_engine_interface(project.root, "es"))
    project.write("locales/es/LC_MESSAGES/ui.po",
                  text.replace('msgid "Glossary"\nmsgstr "', 'msgid "Glossary"\nmsgstr "<svg onload=x()>', 1))
    workspace = load_workspace(project.root)
    titles = [site_title(workspace, "es"), site_title(workspace, "en")]
    for title, page in navigation(workspace, "es") + navigation(workspace, "en"):
        titles.append(title)
        if isinstance(page, list):
            titles.extend(t for t, _ in page)
    joined = " ".join(titles)
    assert "chariots" in joined and "onload" in joined and "Characters" in joined
    assert "<" not in joined and ">" not in joined


def lint_one(english: str, translation: str) -> list[tuple[str, Severity]]:
    catalog = Catalog(locale="es", last_translator="Team <team@example.org>", language_team="Team")
    message = catalog.add(english, translation, context="chariots/armour-save#title")
    message.lineno = 7
    findings = lint_catalog(catalog, "x.po", LintContext.of(RULEBOOK, "es", {}, {}))
    return [(finding.check, finding.severity) for finding in findings]


@pytest.mark.parametrize(("translation", "check"), [
    ("La <b>tirada</b> de salvación", "markup"),
    ("La tirada &lt;de&gt; salvación", "markup"),
    ("La tirada &#60;de salvación", "markup"),
    ("La tirada de salvación [x](javascript:x())", "url-scheme"),
    ("La tirada de salvación JavaScript :x()", "url-scheme"),
    ("La tirada de salvación data:text/html,x", "url-scheme"),
    ("La tirada de salvación vbscript:x", "url-scheme"),
    ("La tirada de salvación DATA : ,x", "url-scheme"),
])
def test_markup_and_script_addresses_in_a_translation_are_errors(translation: str, check: str) -> None:
    assert (check, Severity.ERROR) in lint_one("The armour save", translation)


@pytest.mark.parametrize("translation", [
    "La tirada de salvación", "Carros & personajes", "«Tirada» de salvación 5+", "Nota: la tirada",
    "Data: 2004, strona 12", "Podane dane: liczba trafień",
])
def test_plain_text_is_not_markup(translation: str) -> None:
    assert [check for check, _ in lint_one("The armour save", translation) if check in ("markup", "url-scheme")] == []


def test_the_bundled_rulebook_has_no_markup() -> None:
    assert list(source_findings(RULEBOOK, ROOT)) == []


def test_markup_in_the_english_yaml_is_one_line_at_its_place(project: ProjectCopy) -> None:
    line = project.replace("docs/rules/chariots.yml", "title: Characters riding chariots",
                           "title: Characters riding <i>chariots</i>")
    run = project.command("check")
    assert run.code == 1
    ours = [text for text in run.err.splitlines() if "markup:" in text]
    assert ours == [ours[0]] and ours[0].startswith(f"docs/rules/chariots.yml:{line}: [chariots#title] markup:")
    assert "Traceback" not in run.err


def test_markup_in_a_citation_section_is_refused(project: ProjectCopy) -> None:
    """A citation's section is shown as written, untranslated: the same rule holds."""
    line = project.replace("docs/rules/chariots.yml", "section: Disparos contra un carro",
                           "section: Disparos <script>contra</script> un carro")
    run = project.command("check")
    assert run.code == 1
    assert any(text.startswith(f"docs/rules/chariots.yml:{line}: [chariots/shooting-hit-allocation] markup:")
               for text in run.err.splitlines()), run.err


class _Elements(HTMLParser):
    """Every element of some HTML, with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs)))


def elements_of(page: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Elements()
    parser.feed(page)
    return parser.found


@pytest.mark.parametrize("address", [
    'https://x.example/a){: onmouseover="x()" }',
    "https://x.example/)[y](javascript:x())",
    'https://x.example/"onmouseover="x()',
    "https://x.example/a]{: onclick=x() }",
])
def test_an_address_is_a_link_attribute_never_markdown(address: str) -> None:
    """Whatever an address holds (the loader refuses these; the rendering must not rely
    on it), it is one link whose only attribute is the address itself."""
    from validator.site.register import RegisterView

    page = html_of(f"Online: {RegisterView.address(address)}")
    assert elements_of(page) == [("p", {}), ("a", {"href": address})]


@pytest.mark.parametrize("hostile", [
    '<script>x()</script>', '<img src=x onerror="x()">', '<a href=" java\tscript:x()">y</a>',
    '<p onclick="x()">y</p>', '<!-- prerendered --><svg onload=x()><!-- /prerendered -->',
    '**y**{: onmouseover="x()" }', '[y](javascript:x())', "[y][r]\n\n[r]: vbscript:x()",
    '<div markdown onmouseover="x()">*y*</div>', '<iframe src="data:text/html,x"></iframe>',
])
def test_a_hand_written_page_keeps_no_script(hostile: str) -> None:
    """A volunteer's page as MkDocs converts it, then sanitized: no element that runs
    script, no event handler, no address but a web, mail or relative one."""
    from validator.site.handwritten import safe_address, sanitized

    unsafe = elements_of(html_of(hostile))
    assert any(tag not in ("p", "strong", "em", "div") or any(name != "id" for name in attrs)
               for tag, attrs in unsafe), unsafe  # the hostile text is markup before sanitizing
    for tag, attrs in elements_of(sanitized(html_of(hostile))):
        assert tag in ("p", "a", "strong", "em", "div"), tag
        assert not any(name.startswith("on") for name in attrs), attrs
        assert safe_address(attrs.get("href") or ""), attrs


def test_the_site_url_is_an_address(project: ProjectCopy) -> None:
    from validator.checks.handwritten import site_url_problems

    config = project.path("mkdocs.yml")
    with config.open("a", encoding="utf-8") as handle:
        handle.write("site_url: 'https://x.example/\"><script>x()</script>'\n")
    lines = [str(problem) for problem in site_url_problems(config, "mkdocs.yml", project.root)]
    assert len(lines) == 1 and lines[0].startswith("mkdocs.yml:") and "site_url is not a web address" in lines[0]
    config.write_text(config.read_text(encoding="utf-8").replace("x.example/\"><script>x()</script>",
                                                               "x.example/rules/"), encoding="utf-8")
    assert site_url_problems(config, "mkdocs.yml", project.root) == []
    # In a file mkdocs.yml inherits, the same option is held to the same rule, at its line there.
    project.write("base.yml", "site_name: Rules\ncopyright: '<script>x()</script>'\n")
    config.write_text("INHERIT: base.yml\n" + config.read_text(encoding="utf-8"), encoding="utf-8")
    lines = [str(problem) for problem in site_url_problems(config, "mkdocs.yml", project.root)]
    assert len(lines) == 1 and lines[0].startswith("base.yml (inherited by mkdocs.yml):2: copyright holds markup")
