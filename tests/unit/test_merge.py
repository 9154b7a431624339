"""Merging templates into catalogues never loses a translation."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from conftest import ProjectCopy
from hypothesis import given, settings
from hypothesis import strategies as st

from validator.catalogs.merge import FORMAT_FLAGS, catalog_bytes, merge_catalog
from validator.catalogs.po import restore_previous_ids


def catalog(entries: dict[str, tuple[str, str]], locale: str = "es") -> Catalog:
    """msgctxt -> (English, translation)."""
    result = Catalog(locale=locale)
    for context, (english, translation) in entries.items():
        result.add(english, translation, context=context)
    return result


def template(entries: dict[str, str]) -> Catalog:
    return catalog({context: (english, "") for context, english in entries.items()})


def roundtrip(value: Catalog) -> Catalog:
    """Through the .po format and back, as a file on disk would be."""
    data = catalog_bytes(value)
    return restore_previous_ids(read_po(io.BytesIO(data)), data.decode("utf-8"))


def entry(value: Catalog, context: str):  # type: ignore[no-untyped-def]
    return next(message for message in value if message.context == context)


def test_unchanged_text_keeps_its_translation() -> None:
    merged = merge_catalog(template({"r/a#title": "Hit"}), catalog({"r/a#title": ("Hit", "Impacto")}))
    message = entry(merged, "r/a#title")
    assert message.string == "Impacto" and not message.fuzzy


def test_changed_text_keeps_translation_as_fuzzy_with_previous_text() -> None:
    merged = roundtrip(merge_catalog(template({"r/a#title": "Hits"}), catalog({"r/a#title": ("Hit", "Impacto")})))
    message = entry(merged, "r/a#title")
    assert message.string == "Impacto" and message.fuzzy
    assert message.previous_id == ["Hit"]


def test_matching_is_by_context_never_by_similar_text() -> None:
    existing = catalog({"r/a#title": ("Shooting", "Disparo"), "r/b#title": ("Shooting at it", "Disparar")})
    merged = merge_catalog(template({"r/b#title": "Shooting at it", "r/c#title": "Shooting here"}), existing)
    assert entry(merged, "r/c#title").string == ""
    assert [m.string for m in merged.obsolete.values()] == ["Disparo"]


def test_a_moved_entry_offers_its_translation_for_review() -> None:
    """A core function moved to another module changes its step's msgctxt, not its English."""
    existing = catalog({"labels/step/a.f": ("Hits a unit.", "Impacta a una unidad."),
                        "labels/step/a.g": ("Kept.", "Guardado.")})
    merged = merge_catalog(template({"labels/step/b.f": "Hits a unit.", "labels/step/a.g": "Kept."}), existing)
    moved = entry(merged, "labels/step/b.f")
    assert moved.string == "Impacta a una unidad." and moved.fuzzy
    assert not merged.obsolete
    assert not entry(merged, "labels/step/a.g").fuzzy


def test_two_orphans_with_one_english_leave_the_new_entry_empty() -> None:
    existing = catalog({"r/a#title": ("Shooting", "Disparo"), "r/b#title": ("Shooting", "Disparos")})
    merged = merge_catalog(template({"r/c#title": "Shooting"}), existing)
    assert entry(merged, "r/c#title").string == ""
    assert sorted(m.string for m in merged.obsolete.values()) == ["Disparo", "Disparos"]


def test_removed_text_stays_obsolete() -> None:
    merged = roundtrip(merge_catalog(template({}), catalog({"r/a#title": ("Hit", "Impacto")})))
    assert [(m.context, m.string) for m in merged.obsolete.values()] == [("r/a#title", "Impacto")]


def test_renamed_rule_keeps_its_translations() -> None:
    merged = merge_catalog(template({"r/new#title": "Hit"}), catalog({"r/old#title": ("Hit", "Impacto")}),
                           renamed={"r/new": "r/old"})
    assert entry(merged, "r/new#title").string == "Impacto"
    assert not merged.obsolete


def test_interface_strings_match_by_exact_text() -> None:
    existing = Catalog(locale="pl")
    existing.add("Glossary", "Słowniczek")
    new = Catalog()
    new.add("Glossary")
    new.add("Sources")
    merged = merge_catalog(new, existing)
    assert {m.id: m.string for m in merged if m.id} == {"Glossary": "Słowniczek", "Sources": ""}


def test_an_interface_string_that_gains_a_msgctxt_keeps_its_translation() -> None:
    """One English word told apart in two senses (pgettext): the entry with the new
    msgctxt takes the translation the page showed in its place, not fuzzy, and the
    entry without one keeps it too."""
    existing = Catalog(locale="pl")
    existing.add("Official answers", "Oficjalne odpowiedzi", user_comments=["checked"])
    new = Catalog()
    new.add("Official answers")
    new.add("Official answers", context="group of answers")
    merged = roundtrip(merge_catalog(new, existing))
    assert [(m.context, m.string, m.fuzzy, m.user_comments) for m in merged if m.id] == [
        (None, "Oficjalne odpowiedzi", False, ["checked"]),
        ("group of answers", "Oficjalne odpowiedzi", False, ["checked"])]
    assert not merged.obsolete


def test_a_string_whose_every_use_gained_a_msgctxt_is_not_left_obsolete() -> None:
    existing = Catalog(locale="es")
    existing.add("Source", "Fuente")
    new = Catalog()
    new.add("Source", context="document")
    merged = merge_catalog(new, existing)
    assert [(m.context, m.string, m.fuzzy) for m in merged if m.id] == [("document", "Fuente", False)]
    assert not merged.obsolete


def test_a_books_override_covers_the_entries_that_gained_a_msgctxt() -> None:
    """A book that overrode the English words keeps its word in every place it was shown."""
    from validator.catalogs.interface import override_template

    book = Catalog(locale="es")
    book.add("Official answers", "Respuestas")
    engine = Catalog()
    engine.add("Official answers")
    engine.add("Official answers", context="group of answers")
    engine.add("Sources")
    part = override_template(engine, book)
    assert [(m.context, m.id) for m in part if m.id] == [(None, "Official answers"),
                                                          ("group of answers", "Official answers")]
    assert {m.context: m.string for m in merge_catalog(part, book) if m.id} == {
        None: "Respuestas", "group of answers": "Respuestas"}


CONTEXTS = [f"r/{name}#text" for name in "abcdef"]
edit = st.one_of(
    st.tuples(st.just("change"), st.sampled_from(CONTEXTS), st.text("xyz ", min_size=1, max_size=6)),
    st.tuples(st.just("remove"), st.sampled_from(CONTEXTS), st.just("")),
    st.tuples(st.just("rename"), st.sampled_from(CONTEXTS), st.sampled_from("uvw")),
    st.tuples(st.just("restore"), st.sampled_from(CONTEXTS), st.text("xyz ", min_size=1, max_size=6)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(edit, max_size=12))
def test_no_translation_is_ever_lost(edits: list[tuple[str, str, str]]) -> None:
    """Random edits, renames and removals of the English: every translation made at
    any point is still in the catalogue afterwards, active or obsolete."""
    english = {context: f"text {context}" for context in CONTEXTS}
    current = catalog({context: (text, f"T({context})") for context, text in english.items()})
    ever_translated = {f"T({context})" for context in CONTEXTS}
    for kind, context, value in edits:
        renamed: dict[str, str] = {}
        if kind == "change" and context in english:
            english[context] = value
        elif kind == "remove":
            english.pop(context, None)
        elif kind == "rename" and context in english:
            new_context = f"r/{value}{context[2:]}"
            if new_context not in english:
                english[new_context] = english.pop(context)
                renamed = {new_context.split("#")[0]: context.split("#")[0]}
        elif kind == "restore":
            english.setdefault(context, value)
        current = roundtrip(merge_catalog(template(english), current, renamed))
        for message in current:  # a translator fills in anything new
            if message.id and not message.string:
                message.string = f"T({message.context}:{message.id})"
                ever_translated.add(message.string)
        current = roundtrip(current)
    kept = {m.string for m in current if m.id} | {m.string for m in current.obsolete.values()}
    assert ever_translated <= kept


def test_the_python_format_flag_of_an_interface_string_is_kept() -> None:
    """msgfmt --check-format and translators' editors check placeholders by this flag."""
    source = Catalog()
    source.add("page %(page)s", flags=["python-format"])
    existing = Catalog(locale="es")
    existing.add("page %(page)s", "página %(page)s")
    assert "#, python-format\nmsgid \"page %(page)s\"" in catalog_bytes(merge_catalog(source, existing)).decode()


def test_an_update_keeps_the_placeholders_flag_of_every_interface_string() -> None:
    """The interface's format strings keep their python-format flag through a merge,
    also when a catalogue lost it, and the shipped catalogues carry every one."""
    from validator.catalogs.interface import engine_catalog_path, engine_languages
    from validator.catalogs.po import read_catalog
    from validator.catalogs.update import ui_template

    def flagged(catalog: Catalog) -> set[str]:
        return {str(message.id) for message in catalog if message.id and "python-format" in message.flags}

    template = ui_template()
    assert flagged(template)
    for language in engine_languages():
        shipped = read_catalog(engine_catalog_path(language), language)
        assert flagged(shipped) == flagged(template)
        for message in shipped:
            message.flags.discard("python-format")
        assert flagged(merge_catalog(template, shipped)) == flagged(template)


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
def test_i18n_update_end_to_end(project: ProjectCopy) -> None:
    project.replace("docs/rules/monstrous-mounts.yml", "title: Death of the mount", "title: When the mount dies")
    run = project.command("i18n", "update")
    assert run.code == 0, run.err
    assert "locales/es/LC_MESSAGES/rules.po:" in run.out
    text = project.read("locales/es/LC_MESSAGES/rules.po")
    block = text[text.index('msgctxt "monstrous-mounts/death-of-the-mount#title"') - 80:]
    assert '#| msgid "Death of the mount"' in block[:400] and "#, fuzzy" in block[:400]
    assert 'msgstr "Muerte de la montura"' in block[:600]
    for language in ("es", "pl"):
        path = project.path(f"locales/{language}/LC_MESSAGES/rules.po")
        done = subprocess.run(["msgfmt", "--check-format", "--check-header", "-o", "/dev/null", str(path)],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    check = project.command("check")
    assert check.code == 0, check.err
    first = project.read("locales/es/LC_MESSAGES/rules.po")
    assert project.command("i18n", "update").code == 0
    second = project.read("locales/es/LC_MESSAGES/rules.po")

    def without_dates(text: str) -> list[str]:
        return [line for line in text.splitlines() if "POT-Creation-Date" not in line]
    assert without_dates(first) == without_dates(second), "a second update must change nothing"


def test_renaming_a_rule_with_an_alias_keeps_its_translations(project: ProjectCopy) -> None:
    project.replace("docs/rules/monstrous-mounts.yml", "  - id: monstrous-mounts/movement\n",
                    "  - id: monstrous-mounts/moving\n    aliases: [monstrous-mounts/movement]\n")
    assert project.command("i18n", "update").code == 0
    text = project.read("locales/es/LC_MESSAGES/rules.po")
    block = text[text.index('msgctxt "monstrous-mounts/moving#text"'):]
    assert 'msgstr "' in block and 'msgstr ""\n\n' not in block[:block.index("\n\n")]
    assert "#, fuzzy" not in text[text.index('msgctxt "monstrous-mounts/moving#title"') - 200:
                                  text.index('msgctxt "monstrous-mounts/moving#title"')]
    assert 'msgctxt "monstrous-mounts/movement#' not in text
    run = project.command("check")
    assert run.code == 0, run.err


@pytest.mark.parametrize("context", ["r/a#text", "labels/mount", None])
def test_a_catalogues_own_flags_survive_an_update_and_the_templates_decide_the_format(context: str | None) -> None:
    """A flag a translator or a tool put on an entry stays through every update of every
    domain; the format flags are the template's, so a stale one goes."""
    source = Catalog()
    made = source.add("Hit %(n)s", context=context)
    if context is not None:
        made.flags -= FORMAT_FLAGS  # as the rule and label templates are made
    existing = Catalog(locale="es")
    existing.add("Hit %(n)s", "Impacto %(n)s", context=context, flags=["no-wrap", "max-length:40", "c-format"])
    written = catalog_bytes(merge_catalog(source, existing)).decode()
    flags = "max-length:40, no-wrap, python-format" if context is None else "max-length:40, no-wrap"
    assert f"#, {flags}\n" in written


def test_a_reviewed_entry_loses_its_previous_english_and_a_fuzzy_one_keeps_it() -> None:
    reviewed = catalog({"r/a#title": ("Hits", "Impactos"), "r/b#title": ("Wounds", "Heridas")})
    for message in reviewed:
        if message.id:
            message.previous_id = ["Hit"] if message.context == "r/a#title" else ["Wound"]
    reviewed.get("Wounds", "r/b#title").flags.add("fuzzy")  # type: ignore[union-attr]
    merged = roundtrip(merge_catalog(template({"r/a#title": "Hits", "r/b#title": "Wounds"}), reviewed))
    assert entry(merged, "r/a#title").previous_id == [] and not entry(merged, "r/a#title").fuzzy
    assert entry(merged, "r/b#title").previous_id == ["Wound"] and entry(merged, "r/b#title").fuzzy


def test_pieces_of_a_wrapped_previous_english_are_dropped_and_real_comments_kept() -> None:
    existing = catalog({"r/a#text": ("Hit", "Impacto"), "r/b#text": ("Old", "Viejo")})
    kept = ['lint-ignore: unchanged: the word "Impacto" is a name', "checked against the 2004 printing"]
    for message in existing:
        if message.id:
            message.user_comments = ['character"', '"', 'models."', *kept]
    merged = merge_catalog(template({"r/a#text": "Hit"}), existing)
    assert entry(merged, "r/a#text").user_comments == kept
    assert [message.user_comments for message in merged.obsolete.values()] == [kept]
