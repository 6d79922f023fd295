"""Tags that close a request are not read as things asked for ("..., would you, love?")."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.closing_tags import without_tags
from cogtree.knowledge.language.request_frame import parse_request


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("hang my coat up, would you, sweetheart?", "hang my coat up?"),
        ("open the back gate will you", "open the back gate"),
        ("wipe the hob down, cheers!", "wipe the hob down!"),
        ("where are the scissors, d'you reckon?", "where are the scissors?"),
        ("thanks", "thanks"),  # never every word
        ("what do you know", "what do you know"),  # a tag needing a comma, with none before it
        ("put it on the dresser", "put it on the dresser"),
        # a first clause of thanks asks nothing (failed before: "ta" was a thing to find)
        ("Ta. And the pepper too.", "And the pepper too."),
        ("Cheers, bring me the pepper", "bring me the pepper"),
        ("would you, love?", "would you?"),  # a tag after it is not what it asks
    ],
)
def test_tags_that_ask_nothing_go_and_the_closing_mark_stays(said: str, left: str) -> None:
    assert without_tags(said) == left


def test_a_tag_is_no_thing_asked_for() -> None:
    step = parse_request("fetch the atlas off the shelf, would you, love?").steps[0]
    assert [phrase.text for phrase in step.objects] == ["the atlas"]


def test_an_address_word_after_a_possessive_is_a_person_of_the_request() -> None:
    """Checked to fail before: "to my mate" lost "mate", so the recipient was "my"."""
    assert without_tags("give the pills to my mate") == "give the pills to my mate"
    bring = parse_request("give the pills to my mate").steps[0]
    assert "my mate" in [phrase.text for phrase in bring.phrases()]
    assert without_tags("bring me the tea mate") == "bring me the tea"


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("mate chuck us a loo roll", "chuck us a loo roll"),
        ("oi mate pass me the salt", "pass me the salt"),
        ("hey dear, could you shut the door", "hey, could you shut the door"),
        ("love you", "love you"),  # a verb and its object
        ("dear me", "dear me"),
        ("love", "love"),  # never every word
    ],
)
def test_a_form_of_address_opening_a_clause_goes(said: str, left: str) -> None:
    """Checked to fail before: "mate chuck us a loo roll" kept "mate" and parsed as no request."""
    assert without_tags(said) == left


def test_a_request_after_a_form_of_address_is_read() -> None:
    (step,) = parse_request("oi mate pass me the salt").steps
    assert step.action == "bring"
    assert [phrase.text for phrase in step.objects] == ["the salt"]
