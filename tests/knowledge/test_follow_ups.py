"""A request that only adds to the one before: "and the pepper too", "same again".

Every phrasing here was written for this test.
"""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.request_frame import RequestFrame, parse_request
from cogtree.knowledge.language.step_antecedents import with_earlier_request


def carried(earlier: str, now: str) -> RequestFrame:
    return with_earlier_request(parse_request(now), parse_request(earlier), parse_request)


def objects(frame: RequestFrame) -> list[tuple[str, str]]:
    return [(step.action, phrase.text) for step in frame.steps for phrase in step.objects]


@pytest.mark.parametrize(
    ("earlier", "now", "thing"),
    [
        ("take the mustard to the dining table", "and the ketchup too", "the ketchup"),
        ("take the mustard to the table", "Cheers. The ketchup as well, please", "the ketchup"),
        ("put the scarf on the hook", "also the hat", "the hat"),
        ("switch the fan on in the study", "and the one in the den", "the fan in the den"),
    ],
)  # fmt: skip
def test_a_follow_up_that_adds_does_the_same_to_what_it_names(
    earlier: str, now: str, thing: str
) -> None:
    """Checked to fail before: the follow-up had no step, or a step that brought it to the user."""
    frame = carried(earlier, now)
    before = parse_request(earlier).steps[0]
    (step,) = frame.steps
    said = [phrase.described.lower() for phrase in step.objects]
    assert (step.action, said) == (before.action, [thing])
    assert (step.landmark, step.relation) == (before.landmark, before.relation)
    assert frame.said_before == (step.text,)  # what it is read as, not the earlier thing


def test_same_again_repeats_every_step_and_keeps_who_it_is_for() -> None:
    earlier = "take Grandpa his pipe"
    frame = carried(earlier, "Lovely. Same again, please.")
    assert frame.steps == parse_request(earlier).steps
    assert frame.said_before == (earlier,)


def test_an_owner_alone_means_their_own_of_the_same_kind() -> None:
    frame = carried("fill Noor's flask please", "do Priya's as well?")
    (step,) = frame.steps
    assert step.action == "fill"
    assert [(phrase.text, phrase.head) for phrase in step.objects] == [("Priya's", "flask")]


def test_the_person_the_earlier_request_named_stays() -> None:
    frame = carried("could you take Grandpa his pipe", "his hat too")
    (step,) = frame.steps
    assert [phrase.text for phrase in step.objects] == ["his hat"]
    assert step.recipient is not None and step.recipient.person == "Grandpa"


def test_a_question_followed_up_is_asked_of_the_new_thing() -> None:
    (step,) = carried("where are the scissors", "and the tape too?").steps
    assert (step.action, [phrase.text for phrase in step.objects]) == ("find", ["the tape"])


@pytest.mark.parametrize(
    ("earlier", "now"),
    [
        ("bin the old flyers", "the green one"),  # no adding word: may set a thing apart
        ("bin the old flyers", "and put the bag by the door"),  # a verb of its own
        ("put the mug and the plate in the sink", "the bowl too"),  # which of two it replaces
        ("bin the old flyers", "too right"),  # "right" is no thing
        ("bin the old flyers", "me too"),
        ("bin the old flyers", "same here"),
        ("bin the old flyers", "Same again? No, forget it."),  # called off
        ("bin the old flyers", "and the leaflets too? actually no"),
        ("bin the old flyers", "and the leaflets as well? is that wise?"),  # a question beside
        ("bin the old flyers", "and the leaflets, are they recyclable?"),
        ("bin the old flyers", "and the leaflets?"),  # "and" alone, asked: may be a question
        ("bin the old flyers", "the same, but the glossy ones"),  # changes what is added
        ("bin the old flyers", "and 's too"),
        # found by the second review: each of these acted
        ("bin the old flyers", "and the leaflets too, wait."),
        ("bin the old flyers", "and the leaflets too... nope."),
        ("bin the old flyers", "and the leaflets too, I don't want them"),
        ("bin the old flyers", "do the washing up too"),  # "do" with a thing of its own
        ("bin the old flyers", "and the leaflets, as well as the cards"),
        ("bin the old flyers", "and the leaflets too in an hour"),
        ("bin the old flyers", "and the leaflets too, if they are old"),
        ("bring me the plum", "and one for Dad too"),  # a new person, not only a new thing
    ],
)
def test_a_request_that_does_not_only_add_is_left_as_it_is(earlier: str, now: str) -> None:
    assert carried(earlier, now) == parse_request(now)


def test_nothing_earlier_leaves_the_request_as_it_is() -> None:
    frame = parse_request("and the ketchup too")
    assert with_earlier_request(frame, None, parse_request) is frame


def test_a_thing_with_a_place_of_its_own_does_not_come_from_the_earlier_place() -> None:
    frame = carried(
        "move the plum from the kitchen table to the shelf", "and the one on the rack too"
    )
    (step,) = frame.steps
    assert [phrase.described for phrase in step.objects] == ["the plum on the rack"]
    assert step.source is None and step.landmark is not None and step.landmark.text == "the shelf"


def test_the_same_for_a_thing_does_the_earlier_step_to_it() -> None:
    (step,) = carried("switch the fan on in the study", "do the same for the heater").steps
    assert (step.action, [phrase.text for phrase in step.objects]) == ("switch_on", ["the heater"])
