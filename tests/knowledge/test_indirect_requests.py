"""Where a request said indirectly starts: the verb after the listener and a modal, or a lead.

Every phrasing here was written for this test.
"""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.grammar.clause import tokens
from cogtree.knowledge.language.grammar.indirect_requests import gerunds_asked, wrapped_request
from cogtree.knowledge.language.request_frame import parse_request


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("is it possible you could water the ferns", "water"),
        ("you could tidy the desk", "tidy"),  # what is left after an opener ("any chance")
        ("i was wondering if you might possibly tidy the desk", "tidy"),
        ("do you think you'd fetch the post", "fetch"),
        ("would it be possible for you to shut the gate", "shut"),
        ("would you be able to dim the lights", "dim"),
    ],
)
def test_the_request_starts_after_its_wrapping(text: str, verb: str) -> None:
    words = text.split()
    start = wrapped_request(words)
    assert start is not None and words[start] == verb


@pytest.mark.parametrize("text", ["the ferns need water", "do you think you could", "hello you"])
def test_words_that_wrap_no_verb_open_nothing(text: str) -> None:
    assert wrapped_request(text.split()) is None


@pytest.mark.parametrize(
    "text",
    [
        "i'm worried you might drop the glass",
        "they say you can bring the kettle",
        "i don't think you could lift the wardrobe",
        "i wish you would stop moving the bleach",
    ],
)
def test_a_worry_a_report_or_a_doubt_wraps_no_request(text: str) -> None:
    assert wrapped_request(text.split()) is None


@pytest.mark.parametrize(
    ("text", "verb", "thing"),
    [
        ("would you mind fetching the teapot", "fetch", "the teapot"),
        ("do you mind closing the back door", "close", "the back door"),
        ("would u mind putting the mat away", "put away", "the mat"),
    ],
)
def test_a_gerund_after_you_mind_is_the_verb_asked_for(text: str, verb: str, thing: str) -> None:
    """Checked to fail before: the clause was read as context, no step ("fetching" no verb)."""
    (step,) = parse_request(text).steps
    assert (step.verb, [phrase.text for phrase in step.objects]) == (verb, [thing])


@pytest.mark.parametrize(
    "text", ["never mind getting it", "do you mind if I open the window", "mind the sewing kit"]
)
def test_a_mind_that_asks_nothing_of_the_robot_wraps_no_gerund(text: str) -> None:
    said = tokens(text)
    assert gerunds_asked(said) == said
    assert not parse_request("do you mind if I open the window").steps


def test_every_gerund_of_the_wish_is_a_verb_and_the_reply_keeps_the_words_said() -> None:
    """Found by review: "washing the white cup" was a second thing to bring."""
    frame = parse_request("would you mind bringing the plum and washing the white cup")
    assert [(step.verb, step.text) for step in frame.steps] == [
        ("bring", "would you mind bringing the plum"),
        ("wash", "washing the white cup"),
    ]


@pytest.mark.parametrize(
    ("text", "verbs"),
    [
        ("would you mind bringing the plum and putting it on the sofa", ["bring", "put"]),
        ("would U mind fetching the cup and washing it", ["fetch", "wash"]),
    ],
)
def test_a_gerund_chained_before_a_pronoun_is_a_verb_too(text: str, verbs: list[str]) -> None:
    assert [step.verb for step in parse_request(text).steps] == verbs
