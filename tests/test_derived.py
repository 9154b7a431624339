"""What a pass derives from an input object is kept for that very object only: an
equal object read again, or a catalogue edited in the preview, gets fresh values."""

from __future__ import annotations

from conftest import ProjectCopy

from validator.checks.run import check_workspace
from validator.derived import derived
from validator.site.pages import render_pages
from validator.workspace import load_workspace


def test_kept_for_the_same_object_and_made_again_for_another() -> None:
    made: list[str] = []

    def make(name: str) -> str:
        made.append(name)
        return name.upper()

    first, second = ["a"], ["a"]  # equal, not the same
    assert derived("test kind", first, lambda: make("first")) == "FIRST"
    assert derived("test kind", first, lambda: make("again")) == "FIRST"
    assert derived("test kind", second, lambda: make("second")) == "SECOND"
    assert derived("test kind", first, lambda: make("other"), detail="pl") == "OTHER"
    assert made == ["first", "second", "other"]


def test_the_limit_drops_old_entries() -> None:
    sources = [object() for _ in range(3)]
    for source in sources:
        derived("limited kind", source, object, limit=2)
    made: list[int] = []
    derived("limited kind", sources[0], lambda: made.append(1), limit=2)
    assert made == [1]


def test_a_label_edited_between_two_renders_shows_the_new_words(project: ProjectCopy) -> None:
    """The worked examples keep each language's formatted values per loaded workspace: a
    labels catalogue edited (in the preview) is never shown with its earlier words."""
    def chapter_page() -> str:
        workspace = load_workspace(project.root)
        return render_pages(workspace, check_workspace(workspace, lint=False), "es")["characters-alone.md"]

    before = chapter_page()
    assert 'worked-label">tipo de tropa<' in before and ">caballería</option>" in before
    project.replace("locales/es/LC_MESSAGES/labels.po", 'msgstr "tipo de tropa"', 'msgstr "clase de tropa"')
    project.replace("locales/es/LC_MESSAGES/labels.po", 'msgstr "caballería"', 'msgstr "jinetes"')
    after = chapter_page()
    assert 'worked-label">clase de tropa<' in after and 'worked-label">tipo de tropa<' not in after
    assert ">jinetes</option>" in after and ">caballería</option>" not in after
