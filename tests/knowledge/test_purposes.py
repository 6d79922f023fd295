"""A thing asked for by its use: the clause that says what it is for, and the tool it names."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.purposes import with_purposes
from tests.knowledge.scenes import SCENE_PREFIXES

# A study and a porch, written for these tests.
ROOMS = (
    SCENE_PREFIXES
    + """

:study a cog:Room ; rdfs:label "study" .
:desk a cog:Surface ; rdfs:label "desk" ; cog:inRoom :study .
:pencil a cog:Object ; rdfs:label "stubby pencil" ; cog:objectType cog:Pencil ; cog:on :desk .
:jotter a cog:Object ; rdfs:label "spiral jotter" ; cog:objectType cog:Notebook ; cog:on :desk .
:board a cog:Object ; rdfs:label "oak board" ; cog:objectType cog:CuttingBoard ; cog:on :desk .
:scissors a cog:Object ; rdfs:label "scissors" ; cog:objectType cog:Scissors ; cog:on :desk .
:brolly a cog:Object ; rdfs:label "golf umbrella" ; cog:objectType cog:Umbrella ; cog:on :desk .
:tweezers a cog:Object ; rdfs:label "tweezers" ; cog:objectType cog:Tweezers ; cog:on :desk .
:rug a cog:Object ; rdfs:label "wool throw" ; cog:objectType cog:Blanket ; cog:on :desk .
:driver a cog:Object ; rdfs:label "screwdriver" ; cog:objectType cog:Screwdriver ; cog:on :desk .
:wedge a cog:Object ; rdfs:label "rubber wedge" ; cog:objectType cog:Doorstop ; cog:on :desk .
:spoon a cog:Object ; rdfs:label "coffee spoon" ; cog:objectType cog:Teaspoon ; cog:on :desk .
"""
)


@pytest.fixture(scope="module")
def study() -> Iterator[SceneGraph]:
    scene = SceneGraph.from_turtle_text(ROOMS, source="study")
    yield scene
    scene.close()


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("something to draw with", ["pencil"]),
        ("anything I can sketch this with", []),  # no use is "sketch": nothing, never a guess
        ("anything we could draw a map with", ["pencil"]),
        ("something to jot this on", ["jotter"]),  # no listed use: its label is named for it
        ("something to write it on", ["jotter"]),  # written on: not the pencil
        ("something to cut the ribbon with", ["scissors"]),  # cut with: not the board
        ("something to cut the onion on", ["board"]),
        ("something to keep the drizzle off", ["brolly"]),  # keep off: not a "keep" box
        ("anything to get this splinter out with", []),
        ("anything to pull this splinter out with", ["tweezers"]),
        ("something to put over my legs", ["rug"]),  # the particle right after the verb
        ("something to put the pens in", []),  # put in: a container, none on the desk
        ("something to cut the tag off", ["scissors"]),  # no use is "cut off": a use to cut
        ("anything I could do these bolts up with", ["driver"]),  # the particle after its object
        ("something to prop it open", ["wedge"]),
        ("nothing to stir my coffee with", ["spoon"]),  # the thing lacking is told by its use
        ("something to give my tea a good stir with", ["spoon"]),  # a light verb's noun of act
        ("something to give the desk a polish with", []),  # nothing is for polishing: no desk
        ("something to plane this with", []),  # nothing is called a plane or a planer here
    ],
)
def test_the_use_is_the_verb_and_the_particle_that_ends_its_clause(
    study: SceneGraph, description: str, expected: list[str]
) -> None:
    assert [c.id for c in study.resolve_referent(description)] == expected


@pytest.mark.parametrize(
    ("said", "thing", "recipient"),
    [
        (
            "quick, hand me something to draw with before the idea goes",
            "something to draw with",
            "me",
        ),
        (
            "ugh, pass me something to dry my hands on, would you",
            "something to dry my hands on",
            "me",
        ),
        ("fetch us something to keep the sun off", "something to keep the sun off", "us"),
        (  # a remark beside the request is no second request
            "my hands are all inky from the pen, hand me something to wipe them on",
            "something to wipe them on",
            "me",
        ),
        # asking whether there is one, or to find one, asks to be brought it
        ("have we got anything I can draw a map with?", "anything I can draw a map with", "me"),
        ("is there something to put over my legs?", "something to put over my legs", "me"),
        ("could you find me something to keep the pens in", "something to keep the pens in", "me"),
        ("got anything to dry my hands on?", "anything to dry my hands on", "me"),
        ("anything I can draw with?", "anything I can draw with", "me"),
        ("fetch us summat to sweep it up with", "something to sweep it up with", "us"),
        # the clause's own words make no step ("jam it open" opens nothing)
        (
            "the gate keeps swinging, get me something to jam it open",
            "something to jam it open",
            "me",
        ),
        # a want of doing something asks for no thing
        (
            "I'd like to check the shelf is level, do we have anything to measure it with?",
            "anything to measure it with",
            "me",
        ),
    ],
)
def test_a_request_for_a_thing_told_by_its_use_brings_what_the_whole_clause_describes(
    said: str, thing: str, recipient: str
) -> None:
    frame = with_purposes(parse_request(said))
    assert [step.action for step in frame.steps] == ["bring"]
    step = frame.steps[0]
    assert [phrase.text for phrase in step.objects] == [thing]
    assert step.tool is None  # the "with" of the purpose names no tool to use
    assert step.recipient is not None and step.recipient.text == recipient
    assert not any(thing.lower() in clause.lower() for clause in frame.context)


@pytest.mark.parametrize(
    "said",
    [
        "use something to prop the door open",
        "please add something to my shopping list",  # "to my ...": a place, not a use
        "put something to the left of the kettle",
        "Tom found something to cut with",  # a statement asks for nothing
        "I don't need anything to cut with",  # a negation before it
        "don't bring me anything to cut with",
        "find Tom something to cut with",  # for someone else: whom is not guessed
        "find something to cut with for Tom",
        "I've got nothing to cut with",  # a lack said, nothing asked for
    ],
)
def test_a_thing_told_by_its_use_in_a_request_to_do_something_else_is_left_alone(said: str) -> None:
    frame = with_purposes(parse_request(said))
    assert "bring" not in [step.action for step in frame.steps]


def test_a_lack_said_beside_a_request_for_a_named_thing_leaves_the_thing_as_named() -> None:
    frame = with_purposes(parse_request("there's nothing to cut with, bring me the bread knife"))
    assert [[phrase.text for phrase in step.objects] for step in frame.steps] == [
        ["the bread knife"]
    ]


def test_a_lack_said_before_a_request_for_something_tells_what_it_is_for() -> None:
    said = "the soup's lumpy and there's nothing to stir it with. Fetch me something?"
    frame = with_purposes(parse_request(said))
    assert [step.action for step in frame.steps] == ["bring"]
    assert [phrase.text for phrase in frame.steps[0].objects] == ["nothing to stir it with"]


def test_a_question_of_having_a_thing_not_told_by_its_use_stays_a_question() -> None:
    frame = with_purposes(parse_request("have we got any batteries?"))
    assert [step.action for step in frame.steps] == ["have"]
