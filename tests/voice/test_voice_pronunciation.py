"""Words the shipped dictionary lacks, pronounced from espeak-ng's phonemes."""

from __future__ import annotations

from cogtree.trees.voice.pocketsphinx_engine import PocketsphinxRecognizer, dictionary_words
from cogtree.trees.voice.pronunciation import arpabet, pronounce


def test_ipa_phonemes_map_to_arpabet_phones() -> None:
    assert arpabet("k ˈɛ ɾ əl") == "K EH T AH L"
    assert arpabet("k ˌɑːɹ b ə n ˈɑːɹ ɹ ə") == "K AA R B AH N AA R AH"
    assert arpabet("w ˈɪ ǂ") is None


def test_words_the_dictionary_lacks_are_pronounced_by_espeak_ng() -> None:
    missing = {"worktop", "yoghurt", "windowsill"}
    assert not missing & dictionary_words()
    said = pronounce(missing)
    assert said == {
        "windowsill": "W IH N D OW S IH L",
        "worktop": "W ER K T AA P",
        "yoghurt": "Y OW G ER T",
    }


def test_a_word_only_espeak_ng_can_say_is_heard(synthesizer) -> None:
    recognizer = PocketsphinxRecognizer.for_sentences(
        ["put the mug on the worktop", "put the mug on the table", "wipe the worktop"]
    )
    heard = recognizer.transcribe(synthesizer.synthesize("put the mug on the worktop"))
    assert heard.text == "put the mug on the worktop"
