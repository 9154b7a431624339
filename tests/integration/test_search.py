"""The search index: folding, stemming and lemmas, and what the index holds (every
rule once, at an anchor that exists in the built page, dice and ids kept whole,
glossary terms in every language with their declined forms)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import ROOT, ProjectCopy

from validator.derived import Kept
from validator.site import search
from validator.site.search import Analyzer, build_index, fold, term_forms, words
from validator.workspace import Workspace, load_workspace

# No test here needs a cache of its own: each takes the worker's copy of the book, put back after it.
pytestmark = pytest.mark.reuses_the_book


LANGUAGES = ("en", "es", "pl")


@pytest.fixture(scope="module")
def workspace() -> Workspace:
    return load_workspace(ROOT)


@pytest.fixture(scope="module")
def indexes(workspace: Workspace) -> dict[str, dict[str, object]]:
    return {code: build_index(workspace, code) for code in LANGUAGES}


def entries(index: dict[str, object]) -> Iterator[tuple[str, str, str, str, dict[str, int]]]:
    """Each entry as (id, url, title, chapter, key -> weight)."""
    for entry_id, url, title, chapter, tokens, _share in index["entries"]:  # type: ignore[attr-defined]
        weights = {}
        for item in tokens.split():
            key, _, weight = item.rpartition(":") if re.search(r":\d+$", item) else (item, "", "1")
            weights[key] = int(weight)
        yield entry_id, url, title, chapter, weights


def keys_of(index: dict[str, object], form: str) -> set[str]:
    """What a query word stands for when it is a form the rulebook uses."""
    forms: dict[str, str] = index["forms"]  # type: ignore[assignment]
    return set(forms.get(form, form).split())


def matching(index: dict[str, object], form: str, normalise: Callable[[str], str] = fold) -> set[str]:
    """The entries a query word finds through the word forms the rulebook uses."""
    keys = keys_of(index, normalise(form))
    return {entry_id for entry_id, *_, weights in entries(index) if keys & weights.keys()}


def test_fold_removes_accents_and_polish_diacritics() -> None:
    assert fold("żołnierz") == "zolnierz"
    assert fold("desafío") == "desafio"
    assert fold("Łódź") == "lodz"  # ł has no decomposition: folded explicitly
    assert fold("ŚMIERĆ JEŹDŹCA") == "smierc jezdzca"
    assert fold("ñandú") == "nandu"
    assert fold("1\u20134") == "1-4"


def test_words_keep_dice_rolls_and_rule_ids_whole() -> None:
    assert words("Tira 2D6; con un 5+ o un 1\u20134, ver monstrous-mounts/cavalry") == [
        "tira", "2d6", "con", "un", "5+", "o", "un", "1-4", "ver", "monstrous-mounts/cavalry"]
    assert words("D6, D3 y dados") == ["d6", "d3", "y", "dados"]
    assert words("Żołnierzy ŁODZI") == ["żołnierzy", "łodzi"]  # stemmers see the letters as written


def test_spanish_plurals_and_verb_forms_share_a_key() -> None:
    spanish = Analyzer("es")
    assert set(spanish.keys("carros")) & set(spanish.keys("carro"))
    assert set(spanish.keys("desafíos")) & set(spanish.keys("desafío"))
    assert set(spanish.keys("rechazando")) & set(spanish.keys("rechazar"))
    assert not set(spanish.keys("carro")) & set(spanish.keys("jinete"))


def test_polish_declined_forms_share_a_key() -> None:
    polish = Analyzer("pl")
    nominative = set(polish.keys("jeździec"))
    for form in ("jeźdźca", "jeźdźcem", "jeźdźców"):  # the stem itself changes: a lemma joins them
        assert nominative & set(polish.keys(form)), form
    assert set(polish.keys("żołnierzy")) & set(polish.keys("żołnierz"))
    assert set(polish.keys("rydwanem")) & set(polish.keys("rydwan"))
    assert not nominative & set(polish.keys("rydwan"))
    assert all(key == fold(key) for key in polish.keys("śmierci"))


def test_every_rule_once_with_an_anchor_that_exists_in_the_built_page(
        workspace: Workspace, indexes: dict[str, dict[str, object]], built_site: Path) -> None:
    rule_ids = [rule.id for rule in workspace.rulebook.rules]
    for code in LANGUAGES:
        listed = [entry for entry in entries(indexes[code])
                  if "/" in entry[0] and not entry[0].startswith(("glossary/", "faq/"))]
        assert [entry[0] for entry in listed] == rule_ids
        answers = [entry for entry in entries(indexes[code]) if entry[0].startswith("faq/")]
        assert [entry[0] for entry in answers] == [f"faq/{entry.id}" for entry in workspace.rulebook.faq.faq]
        for _entry_id, url, *_rest in answers:
            page, _, fragment = url.partition("#")
            assert fragment in ids_of(built_site / code / page), f"{code}: {url} has no anchor"
        for entry_id, url, title, chapter, weights in listed:
            page, _, fragment = url.partition("#")
            assert fragment, url
            assert fragment in ids_of(built_site / code / page), f"{code}: {url} has no anchor"
            assert title and chapter
            assert weights[entry_id] >= search.ID_WEIGHT


def test_the_written_index_is_the_one_the_pages_load(built_site: Path, indexes: dict[str, dict[str, object]]) -> None:
    for code in LANGUAGES:
        text = (built_site / code / "assets" / "validator" / search.INDEX_FILE).read_text(encoding="utf-8")
        prefix = f"window.{search.GLOBAL}="
        assert text.startswith(prefix) and text.rstrip().endswith(";")
        assert json.loads(text[len(prefix):].rstrip().rstrip(";")) == json.loads(json.dumps(indexes[code]))
        page = (built_site / code / "monstrous-mounts.html").read_text(encoding="utf-8")
        assert f'src="assets/validator/{search.INDEX_FILE}"' in page


def test_titles_are_in_the_readers_language(workspace: Workspace, indexes: dict[str, dict[str, object]]) -> None:
    titles = {code: {entry[0]: entry[2] for entry in entries(indexes[code])} for code in LANGUAGES}
    rule = workspace.rulebook.rule("monstrous-mounts/death-of-the-rider")
    assert titles["en"][rule.id] == rule.title
    translated = workspace.rule_catalogs["pl"].translate(f"{rule.id}#title", rule.title).text
    assert titles["pl"][rule.id] == translated != rule.title


def test_unaccented_forms_lead_to_the_accented_words(indexes: dict[str, dict[str, object]]) -> None:
    assert "challenges/issuing" in matching(indexes["es"], "desafio")
    assert "shooting-at-characters/larger-characters" in matching(indexes["pl"], "zolnierzy")
    assert "monstrous-mounts/death-of-the-rider" in matching(indexes["pl"], "jezdzca")
    assert "monstrous-mounts/death-of-the-rider" in matching(indexes["pl"], "smierc")
    assert matching(indexes["es"], "carros") == matching(indexes["es"], "carro")
    assert "zolnierz" in keys_of(indexes["pl"], "zolnierzy")  # the lemma of "żołnierzy", found unaccented
    assert matching(indexes["pl"], "rydwanem") == matching(indexes["pl"], "rydwan")


def test_an_index_without_folding_misses_unaccented_queries(
        workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folding test above can fail: without folding, "desafio" finds nothing."""
    monkeypatch.setattr(search, "fold", str.lower)
    with Kept().current():  # none of the words folded before
        unfolded = build_index(workspace, "es")
    assert "desafio" not in unfolded["forms"]  # type: ignore[operator]
    assert "challenges/issuing" not in matching(unfolded, "desafio", str.lower)
    assert "challenges/issuing" in matching(unfolded, "desafío", str.lower)


def test_dice_rolls_and_ids_are_keys_of_the_rules_that_use_them(indexes: dict[str, dict[str, object]]) -> None:
    for code in LANGUAGES:
        weights = {entry[0]: entry[4] for entry in entries(indexes[code])}
        assert "2d6" in weights["core-tables/leadership-tests"]
        assert "5+" in weights["chariots/armour-save"]
        assert "1-4" in weights["monstrous-mounts/shooting-hit-allocation"]
        assert "2d6" not in weights["monstrous-mounts/cavalry"]


def test_glossary_terms_in_every_language_and_their_declined_forms(
        workspace: Workspace, indexes: dict[str, dict[str, object]]) -> None:
    polish = indexes["pl"]
    by_id = {entry[0]: entry for entry in entries(polish)}
    chariot = by_id["glossary/chariot"]
    assert chariot[1] == "glossary.html#chariot"
    assert keys_of(polish, "chariot") & chariot[4].keys()  # the English term, on the Polish site
    assert keys_of(polish, "carro") & chariot[4].keys()  # and the Spanish one
    used = term_forms(workspace)[("chariot", "pl")]
    assert used, "the Polish catalogue declines 'chariot' in {term:chariot|form} tokens"
    for form in used:
        for word in words(form):
            assert keys_of(polish, fold(word)) & chariot[4].keys(), form


def test_forms_listed_in_the_glossary_are_indexed(workspace: Workspace) -> None:
    """When the glossary lists ``forms:`` per language, they are searchable even if no
    text uses them."""
    term = workspace.rulebook.term("chariot")
    object.__setattr__(term, "forms", {"pl": ["rydwanikami"]})
    try:
        assert "rydwanikami" in term_forms(workspace)[("chariot", "pl")]
        index = build_index(workspace, "pl")
        assert "glossary/chariot" in matching(index, "rydwanikami")
    finally:
        object.__delattr__(term, "forms")
    assert "rydwanikami" not in term_forms(workspace)[("chariot", "pl")]


def test_names_players_use_are_keys_in_every_language(workspace: Workspace,
                                                      indexes: dict[str, dict[str, object]]) -> None:
    """``also_called:`` names find the rule: in their own language as much as a title
    nearly, in the others less; and a rule's title in another language finds it too."""
    rule = workspace.rulebook.rule("shooting-at-characters/look-out-sir")
    assert "uwaga panie" in rule.also_called["pl"] and "lookout" in rule.also_called["en"]
    weight = {code: {entry[0]: entry[4] for entry in entries(indexes[code])}[rule.id] for code in LANGUAGES}
    assert any(weight["pl"].get(key, 0) >= search.RULE_ALIAS_WEIGHT for key in keys_of(indexes["pl"], "uwaga"))
    assert any(weight["en"].get(key, 0) >= search.RULE_ALIAS_WEIGHT for key in keys_of(indexes["en"], "lookout"))
    assert rule.id in matching(indexes["en"], "uwaga")  # the Polish nickname, on the English site
    assert rule.id in matching(indexes["es"], "lookout")
    refusing = "challenges/refusing"
    assert refusing in matching(indexes["en"], "rechazar")  # the Spanish title, on the English site
    assert "glossary/battle-standard" in matching(indexes["es"], "bsb")


def test_dice_are_keys_as_every_language_writes_them(indexes: dict[str, dict[str, object]]) -> None:
    """Polish writes D6 as K6 (``dice: notation``): a player types either on any site."""
    for code in LANGUAGES:
        weights = {entry[0]: entry[4] for entry in entries(indexes[code])}
        assert {"2d6", "2k6"} <= weights["core-tables/leadership-tests"].keys(), code


def test_rules_are_found_by_the_headings_of_their_sources(indexes: dict[str, dict[str, object]]) -> None:
    """A rule's citation names the heading of its Spanish source, which Spanish players
    know it by: "disparos" finds the rule on sharing hits, whose text never says it."""
    assert "monstrous-mounts/shooting-hit-allocation" in matching(indexes["es"], "disparos")


def test_glossary_terms_and_answers_score_below_the_rules(indexes: dict[str, dict[str, object]]) -> None:
    shares = {row[0]: row[5] for row in indexes["en"]["entries"]}  # type: ignore[attr-defined]
    assert shares["chariots/destruction"] == 1
    assert shares["glossary/chariot"] == search.TERM_SHARE < 1
    assert shares["faq/chariots-and-chariot-units"] == search.ANSWER_SHARE < 1


def test_hreflang_alternates_are_absolute_with_a_site_url(project: ProjectCopy) -> None:
    project.write("mkdocs.yml", project.read("mkdocs.yml") + "site_url: https://rules.example.org/wfb/\n")
    done = project.command("build", "--site-dir", "out", "--language", "es")  # the others' addresses all the same
    assert done.code == 0, done.err
    page = (project.root / "out" / "es" / "chariots.html").read_text(encoding="utf-8")
    alternates = dict((lang, href) for href, lang in
                      re.findall(r'<link rel="alternate" href="([^"]+)" hreflang="([^"]+)">', page))
    assert alternates == {"en": "https://rules.example.org/wfb/en/chariots.html",
                          "x-default": "https://rules.example.org/wfb/en/chariots.html",
                          "es": "https://rules.example.org/wfb/es/chariots.html",
                          "pl": "https://rules.example.org/wfb/pl/chariots.html"}


def test_pages_carry_relative_hreflang_alternates_without_a_site_url(built_site: Path) -> None:
    page = (built_site / "pl" / "glossary.html").read_text(encoding="utf-8")
    alternates = dict((lang, href) for href, lang in
                      re.findall(r'<link rel="alternate" href="([^"]+)" hreflang="([^"]+)">', page))
    assert set(alternates) == {"en", "es", "pl", "x-default"}
    for href in alternates.values():
        assert (built_site / "pl" / href).resolve().is_file()


def test_no_page_refers_to_another_host_for_scripts_or_styles(built_site: Path) -> None:
    for html_file in built_site.rglob("*.html"):
        text = html_file.read_text(encoding="utf-8")
        assert not re.search(r'<(?:script|link)[^>]+(?:src|href)="(?:https?:)?//', text), html_file
    assert not list(built_site.rglob("search_index.json"))


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)


def ids_of(path: Path) -> set[str]:
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.ids
