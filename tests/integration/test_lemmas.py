"""Lemmas are kept between builds: a word met before is not looked up again, and a
cache that cannot be read or written changes nothing but the time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import simplemma

from validator.resultcache import CACHE_VARIABLE
from validator.site import lemmas


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def test_a_lemma_found_once_is_read_from_the_cache_afterwards(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = lemmas.Lemmas("pl", cache)
    assert first.lemma("jeźdźcem") == simplemma.lemmatize("jeźdźcem", lang="pl") == "jeździec"
    first.save()
    saved = json.loads(next(cache.glob("lemmas-pl-simplemma-*.json")).read_text(encoding="utf-8"))
    assert saved == {"jeźdźcem": "jeździec"}

    def unavailable(word: str, lang: str) -> str:
        raise AssertionError(f"the dictionary was read for {word!r}")

    monkeypatch.setattr(lemmas.Lemmas, "_looked_up", lambda self, word: unavailable(word, self.code))
    assert lemmas.Lemmas("pl", cache).lemma("jeźdźcem") == "jeździec"
    with pytest.raises(AssertionError):
        lemmas.Lemmas("pl", cache).lemma("potwora")  # not kept: looked up (here, refused)


def test_savers_merge_and_a_broken_cache_is_ignored(cache: Path) -> None:
    one, two = lemmas.Lemmas("es", cache), lemmas.Lemmas("es", cache)
    one.lemma("carros")
    two.lemma("jinetes")
    one.save()
    two.save()
    path = next(cache.glob("lemmas-es-*.json"))
    assert set(json.loads(path.read_text(encoding="utf-8"))) == {"carros", "jinetes"}
    path.write_text("{not json", encoding="utf-8")
    broken = lemmas.Lemmas("es", cache)
    assert broken.known == {} and broken.lemma("carros") == simplemma.lemmatize("carros", lang="es")
    assert [p.name for p in cache.iterdir() if p.name.startswith(".lemmas-")] == []  # no temporary file left


def test_an_unwritable_cache_or_none_at_all_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.store import Store, opened

    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    kept = lemmas.Lemmas("pl", blocker / "cache")  # under a file: cannot be made
    assert kept.lemma("potwora") == simplemma.lemmatize("potwora", lang="pl")
    kept.save()
    assert lemmas.Lemmas("pl", None).path is None
    # A command that keeps nothing (VALIDATOR_CACHE_DIR empty, or --no-cache) keeps no lemma.
    monkeypatch.setenv(CACHE_VARIABLE, "")
    assert Store().lemmas is None
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))
    with opened(tmp_path, keeps_results=True, no_cache=True, workers=1) as store:
        assert store.lemmas is None
    with opened(tmp_path / "book", keeps_results=False, no_cache=False, workers=1) as store:
        assert store.lemmas == tmp_path / "cache"


NEW_WORDS = {"pl": ["jeźdźcami", "postaciom", "Żołnierzy", "bohaterowie", "całego", "xyzzyq", "strzelaniu"],
             "es": ["caballeros", "desafío", "editadob", "héroes", "jinetes", "disparando"],
             "en": ["characters", "heroes", "editedb", "rode", "shooting"]}


def test_a_new_word_is_found_through_the_kept_index_as_in_the_whole_dictionary(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first new word of a language makes the index; later ones, in any process,
    read it and decode only a few records, never the whole dictionary."""
    for code, words in NEW_WORDS.items():
        assert [lemmas.Lemmas(code, cache).lemma(word) for word in words] == \
            [simplemma.lemmatize(word, lang=code) for word in words]
        assert (cache / f"lemma-index-{code}-simplemma-{simplemma.__version__}.bin").is_file()

    def whole(data: bytes) -> None:
        raise AssertionError("the whole dictionary was decoded")

    monkeypatch.setattr(lemmas.BlockIndex, "of", whole)
    for code, words in NEW_WORDS.items():
        assert [lemmas.Lemmas(code, cache).lemma(word) for word in words] == \
            [simplemma.lemmatize(word, lang=code) for word in words]


def test_the_comparison_fails_with_restart_points_one_record_off(cache: Path) -> None:
    """The test above can fail: an index whose restart points are shifted by one
    record finds other lemmas (or none) for some words."""
    from simplemma.strategies.dictionaries.dictionary_factory import _read_decompressed

    good = lemmas.BlockIndex.of(_read_decompressed("es"))
    shifted = lemmas.BlockIndex([good.firsts[0], *good.firsts[:-1]], good.offsets, good.keys, good.values)
    name = f"lemma-index-es-simplemma-{simplemma.__version__}.bin"
    cache.mkdir(mode=0o700)
    (cache / name).write_bytes(shifted.to_bytes())
    words = [word for words in NEW_WORDS.values() for word in words]
    found = [lemmas.Lemmas("es", cache).lemma(word) for word in words]
    assert found != [simplemma.lemmatize(word, lang="es") for word in words]


def test_a_damaged_index_is_made_again(cache: Path) -> None:
    name = f"lemma-index-pl-simplemma-{simplemma.__version__}.bin"
    cache.mkdir(mode=0o700)
    (cache / name).write_bytes(b"VLIX1 not an index")
    assert lemmas.Lemmas("pl", cache).lemma("jeźdźcami") == simplemma.lemmatize("jeźdźcami", lang="pl")
    assert lemmas.BlockIndex.from_bytes((cache / name).read_bytes()) is not None
