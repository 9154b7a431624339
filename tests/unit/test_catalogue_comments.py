"""Every message carries, inside the catalogue, what its translator needs to know of it:
where an interface word stands on the page, what a label names, which rule a text
belongs to and which forms a term may take."""

from __future__ import annotations

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from validator.api.labels import RESULT, USES_SHOWN, Where, function_owner, identifier_uses, scenario_owner
from validator.catalogs.extract import TOKEN_COMMENT, message_comments, term_notes
from validator.catalogs.interface import ENGINE_LOCALES
from validator.catalogs.merge import merge_catalog
from validator.catalogs.update import CHECKS_PACKAGE, SITE_PACKAGE, TRANSLATOR_TAGS, lint_template, ui_template
from validator.content.model import Glossary, Inflection, Message, Position, Term


def test_every_use_of_an_interface_string_in_the_code_has_a_translator_comment() -> None:
    """A word alone ("p.", "check it in", "exact") says nothing of where it stands: each
    call in the site's code and templates has a ``Translators:`` comment next to it."""
    uses = extract_from_dir(SITE_PACKAGE, [("templates/**.j2", "jinja2"), ("**.py", "python")],
                            {"templates/**.j2": {"encoding": "utf-8"}}, comment_tags=TRANSLATOR_TAGS)
    bare = [f"validator/site/{filename}:{line}: {message!r}" for filename, line, message, comments, _context in uses
            if not comments]
    assert bare == [], "write a '# Translators: ...' (or '{# Translators: ... #}') comment before each"


def test_every_interface_entry_has_a_translator_comment_or_a_msgctxt() -> None:
    with (ENGINE_LOCALES / "ui.pot").open("rb") as handle:
        shipped = read_po(handle)
    for template in (ui_template(), shipped):
        bare = [str(message.id) for message in template if message.id and not message.auto_comments
                and not message.context]
        assert bare == []
    assert all(not comment.startswith(TRANSLATOR_TAGS) for message in shipped for comment in message.auto_comments)


def test_every_sentence_of_the_lint_has_a_translator_comment() -> None:
    """A sentence of the lint is a piece of a line with values filled in ("missing
    %(missing)s"): each call of ``said`` says which piece it is and what each value holds."""
    uses = extract_from_dir(CHECKS_PACKAGE, [("**.py", "python")], keywords={"said": None},
                            comment_tags=TRANSLATOR_TAGS)
    bare = [f"validator/checks/{filename}:{line}: {message!r}" for filename, line, message, comments, _context
            in uses if not comments]
    assert bare == [], "write a '# Translators: ...' comment on the line before each"
    with (ENGINE_LOCALES / "lint.pot").open("rb") as handle:
        shipped = read_po(handle)
    for template in (lint_template(), shipped):
        assert [str(message.id) for message in template if message.id and not message.auto_comments] == []
    assert all(not comment.startswith(TRANSLATOR_TAGS) for message in shipped for comment in message.auto_comments)


def _glossary() -> Glossary:
    return Glossary(terms=(
        Term(id="rider", term="rider", definition="Who rides.",
             forms={"es": Inflection(sg=("jinete",), pl=("jinetes",)),
                    "pl": Inflection(sg=("jeździec", "jeźdźca"), pl=("jeźdźcy", "jeźdźców"), other=("jeździć",))}),
        Term(id="banner", term="banner", definition="A name.", keep=True),
        Term(id="unit", term="unit", definition="Models together.", forms={"es": Inflection(sg=("unidad",))}),
    ))


def _message(context: str, text: str) -> Message:
    return Message(context=context, text=text, owner=Position(file="docs/rules/a.yml", line=1), key="text",
                   about="Rule: Riding (chapter: Mounts)")


def test_a_rule_text_names_its_rule_and_chapter_and_its_tokens_rule_once() -> None:
    assert message_comments(_message("a/b#text", "The {term:rider} and the {term:rider|riders}.")) == [
        "Rule: Riding (chapter: Mounts)", TOKEN_COMMENT]
    assert message_comments(_message("a/b#title", "Riding")) == ["Rule: Riding (chapter: Mounts)"]


def test_a_term_token_lists_the_forms_the_glossary_declares_for_the_language() -> None:
    messages = [_message("a/b#text", "The {term:rider|riders} of a {term:unit} bear the {term:banner}."),
                _message("a/b#title", "Riding"),
                _message("glossary/rider#term", "rider"),
                _message("a/c#text", "A {term:nobody} nobody knows.")]
    assert term_notes(messages, _glossary(), "pl") == {
        "a/b#text": ["{term:rider} in pl: sg jeździec, jeźdźca; pl jeźdźcy, jeźdźców; other jeździć",
                     "{term:banner}: a name, kept in English in every language"],
        "glossary/rider#term": ["{term:rider} in pl: sg jeździec, jeźdźca; pl jeźdźcy, jeźdźców; other jeździć"]}
    assert term_notes(messages, _glossary(), "es")["a/b#text"] == [
        "{term:rider} in es: sg jinete; pl jinetes", "{term:unit} in es: sg unidad",
        "{term:banner}: a name, kept in English in every language"]


def test_the_merge_writes_the_notes_of_the_catalogues_language_after_the_templates_comments() -> None:
    template = Catalog()
    template.add("The {term:rider}.", context="a/b#text", auto_comments=["Rule: Riding (chapter: Mounts)"])
    existing = Catalog(locale="es")
    existing.add("The {term:rider}.", "El {term:rider}.", context="a/b#text", auto_comments=["an old comment"],
                 user_comments=["checked with the editor"])
    merged = merge_catalog(template, existing, notes={"a/b#text": ["{term:rider} in es: sg jinete"]})
    entry = merged.get("The {term:rider}.", context="a/b#text")
    assert entry is not None
    assert entry.auto_comments == ["Rule: Riding (chapter: Mounts)", "{term:rider} in es: sg jinete"]
    assert entry.user_comments == ["checked with the editor"] and entry.string == "El {term:rider}."


def test_each_label_says_where_its_identifier_is_used() -> None:
    scenario = scenario_owner("unit-may-join", "Whether a character may join a unit, and why not")
    function = function_owner("units.may_join")
    uses = identifier_uses([
        (Where("input", scenario), {"unit": {"troop_type": "infantry"}, "mounts": ["steed"]}),
        (Where("outcome", scenario), {"membership": "joined"}),
        (Where("argument", function), {"unit": {"size": 5}}),
        (Where("result", function), {RESULT: "joined"}),
        (Where("input", scenario, "mount"), {RESULT: ["steed", "none"]}),
        (Where("chart", scenario), {"size": [1, 2], "chance": None}),
    ])
    assert uses == {
        "unit": ["An input field of the scenario 'unit-may-join' (Whether a character may join a unit, and why not).",
                 "An argument of the core function units.may_join."],
        "troop_type": ["A field of 'unit' in the input of the scenario 'unit-may-join' (Whether a character may "
                       "join a unit, and why not)."],
        "infantry": ["A value of the input field 'troop_type' of the scenario 'unit-may-join' (Whether a character "
                     "may join a unit, and why not)."],
        "mounts": ["An input field of the scenario 'unit-may-join' (Whether a character may join a unit, and why "
                   "not)."],
        "steed": ["A value of the input field 'mounts' of the scenario 'unit-may-join' (Whether a character may "
                  "join a unit, and why not).",
                  "A value of the input field 'mount' of the scenario 'unit-may-join' (Whether a character may join "
                  "a unit, and why not)."],
        "membership": ["An outcome field of the scenario 'unit-may-join' (Whether a character may join a unit, and "
                       "why not)."],
        "joined": ["A value of the outcome field 'membership' of the scenario 'unit-may-join' (Whether a character "
                   "may join a unit, and why not).", "A value returned by the core function units.may_join."],
        "size": ["A field of 'unit' in the argument of the core function units.may_join.",
                 "The name of an axis of a chart of the scenario 'unit-may-join' (Whether a character may join a "
                 "unit, and why not)."],
        "none": ["A value of the input field 'mount' of the scenario 'unit-may-join' (Whether a character may join "
                 "a unit, and why not)."],
        "chance": ["The name of an axis of a chart of the scenario 'unit-may-join' (Whether a character may join a "
                   "unit, and why not)."],
    }


def test_a_label_used_in_many_places_lists_a_few_and_counts_the_rest() -> None:
    uses = identifier_uses([(Where("input", f"the scenario 's{number}' (A question)"), {"hits": 1})
                            for number in range(USES_SHOWN + 3)])
    assert uses["hits"][:1] == ["An input field of the scenario 's0' (A question)."]
    assert uses["hits"][USES_SHOWN:] == ["And 3 more uses."]
