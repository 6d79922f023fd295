"""Casual phrasing reaches the one parse as a request plus what is only said beside it.

Asides after a comma, tags and forms of address, light verbs ("give it a scrub"), people
named by pronoun, settings after a switch, and statements that ask nothing. Every sentence
here was written for this test; none comes from an evaluation set.
"""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.closing_tags import without_tags
from cogtree.knowledge.language.pronouns import context_referent, people_meant
from cogtree.knowledge.language.request_frame import Step, parse_request
from cogtree.knowledge.understanding.pending_question import only_tells


def only_step(text: str) -> Step:
    frame = parse_request(text)
    assert len(frame.steps) == 1, frame
    return frame.steps[0]


def wanted(step: Step) -> list[str]:
    return [phrase.text for phrase in step.wanted]


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("fetch the ladle would ya, the stew's ready", "fetch the ladle, the stew's ready"),
        ("leave the keys on the hook pal, I'm off out", "leave the keys on the hook, I'm off out"),
        ("shut the gate, mate, ta", "shut the gate"),
        ("love", "love"),  # never every word
    ],
)
def test_tags_close_every_clause_not_only_the_last(said: str, left: str) -> None:
    assert without_tags(said) == left


@pytest.mark.parametrize(
    ("text", "action", "objects", "landmark", "aside"),
    [
        ("put the tray on the rack, it's stopped dripping", "place", ["the tray"], "the rack",
         "it's stopped dripping"),
        ("leave the keys on the hook pal, they're the spare set", "place", ["the keys"],
         "the hook", "they're the spare set"),
        ("hang the apron on the door, I've finished with it", "place", ["the apron"], "the door",
         "I've finished with it"),
    ],
)  # fmt: skip
def test_an_aside_after_a_comma_is_context_not_a_thing(
    text: str, action: str, objects: list[str], landmark: str, aside: str
) -> None:
    frame = parse_request(text)
    step = only_step(text)
    assert (step.action, wanted(step)) == (action, objects)
    assert step.landmark is not None and step.landmark.text == landmark
    assert aside in frame.context  # kept for what the user said of things, never dropped


def test_a_dash_sets_a_description_apart_like_a_comma() -> None:
    step = only_step("grab the colander - the steel one, not the plastic")
    assert "the plastic" in [phrase.text for phrase in step.excluded]
    assert "the colander - the steel one" not in wanted(step)


@pytest.mark.parametrize(
    ("text", "action", "objects"),
    [
        ("give the tray a good wipe down", "wipe", ["the tray"]),
        ("give the radiator a quick dust with the duster", "wipe", ["the radiator"]),
        ("give the mirror a polish before the guests come", "wipe", ["the mirror"]),
        ("give the baby a bath", "bring", ["a bath"]),  # "bath" is no verb: the baby gets it
        ("give Sam a hand", "bring", ["a hand"]),  # a person first: the thing given
    ],
)
def test_a_light_verb_asks_for_the_action_its_noun_names(
    text: str, action: str, objects: list[str]
) -> None:
    step = only_step(text)
    assert (step.action, wanted(step)) == (action, objects)


@pytest.mark.parametrize(
    ("text", "recipient", "objects"),
    [
        ("give the dog a treat", "the dog", ["a treat"]),
        ("give the spider plant a really good soak", "the spider plant", ["a really good soak"]),
        ("bring the kids a drink", "the kids", ["a drink"]),
        ("give the outside of the toaster a wipe", None, ["the outside of the toaster"]),
        # an amount of a thing is still the second phrase (checked to fail for the wine with
        # the first degree rule: a degree hid who it was for, a child's safety)
        ("give the dog a bit of ham", "the dog", ["a bit of ham"]),
        ("give the grandson a little wine", "the grandson", ["a little wine"]),
        ("give the dog a lot more chocolate", "the dog", ["a lot more chocolate"]),
    ],
)
def test_the_first_of_two_noun_phrases_receives_the_second(
    text: str, recipient: str | None, objects: list[str]
) -> None:
    step = only_step(text)
    assert (step.recipient and step.recipient.text, wanted(step)) == (recipient, objects)


def test_a_tool_after_the_noun_of_action_is_the_tool() -> None:
    step = only_step("give the radiator a quick dust with the duster")
    assert step.tool is not None and step.tool.text == "the duster"


@pytest.mark.parametrize(
    ("text", "person", "objects"),
    [
        ("pass her two of the napkins", "her", ["two of the napkins"]),
        ("hand him one of the spoons", "him", ["one of the spoons"]),
    ],
)
def test_a_person_pronoun_before_a_count_is_who_receives(
    text: str, person: str, objects: list[str]
) -> None:
    step = only_step(text)
    assert step.recipient is not None and step.recipient.person == person
    assert wanted(step) == objects


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("turn the fan on high", "switch_on"),
        ("switch the heater on low before you go", "switch_on"),
    ],
)
def test_a_setting_after_a_switch_is_no_place(text: str, action: str) -> None:
    step = only_step(text)
    assert step.action == action and step.landmark is None and len(step.wanted) == 1


def test_down_a_drain_is_into_it() -> None:
    step = only_step("pour the cold tea down the sink")
    assert (step.action, step.relation) == ("pour", "in")
    assert step.landmark is not None and step.landmark.text == "the sink"


@pytest.mark.parametrize(
    "text", ["stack the bowls in the cupboard, any old how", "bung the bowls in the cupboard"]
)
def test_everyday_placing_words_place(text: str) -> None:
    step = only_step(text)
    assert (step.action, wanted(step)) == ("place", ["the bowls"])


@pytest.mark.parametrize(
    "text",
    ["the fridge light has gone", "the milk boiled over on the hob", "the hoover keeps beeping"],
)
def test_a_thing_and_what_happened_to_it_asks_for_nothing(text: str) -> None:
    assert parse_request(text).steps == ()


@pytest.mark.parametrize("text", ["a poached egg please", "some grated cheese"])
def test_a_thing_with_a_past_form_before_its_name_is_still_asked_for(text: str) -> None:
    assert only_step(text).action == "bring"


@pytest.mark.parametrize(
    ("text", "tells"),
    [
        ("the fridge light has gone", True),
        ("we ate early, the oven's cold", True),
        ("is the oven still on?", False),
        ("put the oven gloves away", False),
    ],
)
def test_a_statement_only_tells(text: str, tells: bool) -> None:
    assert only_tells(parse_request(text)) is tells


@pytest.mark.parametrize(
    ("text", "objects", "aside"),
    [
        ("set the plates on the table, tea's nearly ready", ["the plates"], "tea's nearly ready"),
        ("fetch Gran's cup, Dad's mug is chipped", ["Gran's cup"], "Dad's mug is chipped"),
        ("pass the tray, the teapot's lid is loose", ["the tray"], "the teapot's lid is loose"),
    ],
)
def test_a_noun_joined_to_is_opens_an_aside_when_no_thing_follows(
    text: str, objects: list[str], aside: str
) -> None:
    frame = parse_request(text)
    assert wanted(frame.steps[0]) == objects and aside in frame.context


def test_whose_thing_it_is_is_no_recipient() -> None:
    step = only_step("fetch Gran's cup")
    assert step.recipient is None and wanted(step) == ["Gran's cup"]


@pytest.mark.parametrize(
    ("pronoun", "named", "present", "meant"),
    [
        ("him", [], ["me", "finn"], ["finn"]),  # the one other person at home
        ("her", ["ella"], ["me", "ella", "sam"], ["ella"]),  # the one the turn named
        ("him", [], ["me", "finn", "leo"], ["finn", "leo"]),  # a choice: the robot asks
        ("him", ["me"], ["me"], []),  # never the speaker
        ("it", [], ["me", "finn"], []),  # no person pronoun
    ],
)
def test_a_person_pronoun_is_someone_of_the_belief_but_the_speaker(
    pronoun: str, named: list[str], present: list[str], meant: list[str]
) -> None:
    assert people_meant(pronoun, named, present, "me") == meant


def test_a_sequencer_ending_on_a_determiner_of_a_lone_noun_sequences_nothing() -> None:
    frame = parse_request("stiff after that walk, pass me the cushion")
    assert [step.action for step in frame.steps] == ["bring"]
    assert frame.context == ("stiff after that walk",)
    steps = parse_request("dust the shelf and after that put the vase back").steps
    assert [step.action for step in steps] == ["wipe", "put_away"]


@pytest.mark.parametrize(
    ("text", "action", "objects"),
    [
        ("bring the teapot through", "bring", ["the teapot"]),
        ("warm the stew through", "heat", ["the stew"]),
    ],
)
def test_through_after_the_object_finishes_the_verb(
    text: str, action: str, objects: list[str]
) -> None:
    step = only_step(text)
    assert (step.action, wanted(step)) == (action, objects)


def test_a_thing_joined_to_is_is_what_it_stands_for() -> None:
    frame = parse_request("my fern's drooping, move it by the window")
    assert context_referent(frame) == "my fern"


@pytest.mark.parametrize(
    ("text", "action", "objects"),
    [
        ("fetch me a plaster, quick", "bring", ["a plaster"]),  # how, said alone: no thing
        ("pass us over one of those lemons, pal", "bring", ["one of those lemons"]),
        ("hand me down the big tin", "bring", ["the big tin"]),
        ("stick the radio on", "switch_on", ["the radio"]),
        ("pop the lid on the jar", "place", ["the lid"]),  # a place follows: no switching
    ],
)
def test_particles_and_counts_in_everyday_order(text: str, action: str, objects: list[str]) -> None:
    step = only_step(text)
    assert (step.action, wanted(step)) == (action, objects)


@pytest.mark.parametrize(
    ("text", "objects", "head"),
    [
        ("can you grab me some baking stuff from the larder", ["some baking stuff"], "stuff"),
        ("fetch the camping stuff down", ["the camping stuff"], "stuff"),
    ],
)
def test_stuff_after_its_words_heads_one_phrase(text: str, objects: list[str], head: str) -> None:
    step = only_step(text)
    assert (wanted(step), [phrase.head for phrase in step.wanted]) == (objects, [head])


@pytest.mark.parametrize(
    ("text", "objects", "source"),
    [
        ("grab me a yoghurt out the fridge", ["a yoghurt"], "the fridge"),
        ("fish the spoon out the sink", ["the spoon"], "the sink"),
        ("take the cake out of the tin", ["the cake"], "the tin"),
    ],
)
def test_out_before_a_determiner_says_where_from(
    text: str, objects: list[str], source: str
) -> None:
    step = only_step(text)
    assert step.source is not None
    assert (wanted(step), step.source.text) == (objects, source)


def test_out_at_the_end_stays_the_verbs_particle() -> None:
    step = only_step("put the bins out")
    assert (wanted(step), step.source) == (["the bins"], None)


@pytest.mark.parametrize(
    ("text", "said_beside"),
    [
        ("fetch the toast rack, the bread's about to pop", "the bread's about to pop"),
        ("grab the lid, the pan's about to boil over", "the pan's about to boil over"),
        ("get the dog lead, we're about to go out", "we're about to go out"),
    ],
)
def test_a_to_clause_after_a_statement_is_part_of_it(text: str, said_beside: str) -> None:
    frame = parse_request(text)
    assert [step.action for step in frame.steps] == ["bring"]
    assert said_beside in frame.context


def test_a_to_clause_after_a_request_is_its_purpose_whatever_was_said_before() -> None:
    """Checked to fail before: "to go over the cake" joined the statement two clauses back."""
    frame = parse_request("the wasps are coming - bring me the cover to go over the cake")
    assert frame.context == ("the wasps are coming",)
    assert [step.purpose for step in frame.steps] == [False, True]


def test_a_heap_named_by_its_kind_is_no_pronoun() -> None:
    """Checked to fail before: 'the gardening stuff' was a pronoun, so no task took it."""
    step = only_step("put the gardening stuff in the shed")
    assert [(phrase.text, phrase.pronoun) for phrase in step.wanted] == [
        ("the gardening stuff", False)
    ]
    assert parse_request("bring me something sweet").steps[0].wanted[0].pronoun


@pytest.mark.parametrize(
    "text", ["bring the knife a bit closer", "chuck the lighter a little further"]
)
def test_a_degree_after_a_noun_phrase_receives_nothing(text: str) -> None:
    """Checked to fail before: the knife received "a bit", out of the objects' checks."""
    step = only_step(text)
    assert step.recipient is None
    assert step.objects[0].text.split()[:2] == text.split()[1:3]  # "the knife", "the lighter"
