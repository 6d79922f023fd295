"""The one pronoun resolver: what "it" / "her" stands for among what was named."""

from __future__ import annotations

from cogtree.knowledge.language.pronouns import antecedent


def test_a_person_pronoun_takes_a_person_and_a_thing_pronoun_a_thing() -> None:
    assert antecedent("her", ["teapot"], ["nana"]) == "nana"
    assert antecedent("it", ["teapot"], ["nana"]) == "teapot"
    assert antecedent("them", ["teapot"], ["nana"]) == "teapot"


def test_in_one_utterance_two_candidates_are_a_choice_for_the_user() -> None:
    assert antecedent("him", [], ["Anna", "Dr Weber"]) is None
    assert antecedent("him", [], ["Anna", "Dr Weber"], taken=lambda name: name == "Anna") == (
        "Dr Weber"
    )


def test_an_earlier_turns_first_mention_is_its_topic() -> None:
    things = ["teapot", "sink"]
    assert antecedent("it", things, [], topic_first=True) == "teapot"
    assert antecedent("it", things, [], taken=lambda t: t == "teapot", topic_first=True) == "sink"
    assert antecedent("it", [], ["nana"], topic_first=True) is None
