"""The request frame: actions, phrases by role, steps, negation, unknown words kept.

Every phrasing here was written for this test; none comes from an evaluation set or a shipped
scenario.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from cogtree.knowledge.language import request_frame
from cogtree.knowledge.language.closing_tags import as_read
from cogtree.knowledge.language.grammar import words
from cogtree.knowledge.language.grammar.object_phrase import SPEAKER
from cogtree.knowledge.language.grammar.words import WordsError
from cogtree.knowledge.language.request_frame import RequestFrame, Step, parse_request
from cogtree.knowledge.language.unsupported_skills import unsupported_skills
from cogtree.knowledge.understanding.contents import with_contents


def only_step(text: str) -> Step:
    frame = parse_request(text)
    assert len(frame.steps) == 1, frame
    return frame.steps[0]


def objects(step: Step) -> list[str]:
    return [phrase.text for phrase in step.objects]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("fetch the stapler", "bring"),
        ("grab me a towel", "bring"),
        ("pass me the pepper", "bring"),
        ("could you hand me the tape measure", "bring"),
        ("can I have the blanket", "bring"),
        ("I'd like the green cushion", "bring"),
        ("set the vase on the windowsill", "place"),
        ("leave the parcel by the door", "place"),
        ("put the yoghurt away", "put_away"),
        ("put away the cereal box", "put_away"),
        ("chuck out the old newspaper", "dispose"),
        ("get rid of the broken cup", "dispose"),
        ("dispose of the paper towel", "dispose"),
        ("recycle the jam jar", "dispose"),
        ("shut the oven door", "close"),
        ("open up the pantry", "open"),
        ("switch the lamp off", "switch_off"),
        ("turn on the extractor fan", "switch_on"),
        ("pour the lemonade into the jug", "pour"),
        ("top up the watering can", "fill"),
        ("wipe down the worktop", "wipe"),
        ("tidy up the study", "tidy"),
        ("where did you see my wallet", "find"),
        ("have you seen the dog lead", "find"),
    ],
)
def test_verbs_synonyms_and_phrasal_verbs_name_the_capability(text: str, action: str) -> None:
    assert only_step(text).action == action


def test_a_modal_opener_is_no_noun() -> None:
    step = only_step("Can you chuck away the can, please?")
    assert step.action == "dispose"
    assert objects(step) == ["the can"]


def test_an_unknown_noun_is_kept_as_said() -> None:
    step = only_step("please fetch me the theodolite")
    assert objects(step) == ["the theodolite"]
    assert step.objects[0].head == "theodolite"
    assert step.recipient is not None and step.recipient.person == SPEAKER


def test_determiners_modifiers_and_quantities() -> None:
    step = only_step("bring me three small green apples")
    phrase = step.objects[0]
    assert (phrase.head, phrase.modifiers) == ("apples", ("small", "green"))
    assert phrase.quantity == "three"
    measure = only_step("get me a mug of cocoa").objects[0]
    assert (measure.head, measure.determiner, measure.quantity) == ("cocoa", "a", "mug of")
    part = only_step("take him half a glass of milk").objects[0]  # an amount of a measure
    assert (part.head, part.determiner, part.quantity) == ("milk", "", "half a glass of")
    half = only_step("bring me half the cake").objects[0]  # no measure: "the" is the cake's
    assert (half.head, half.quantity) == ("cake", "half")
    mine = only_step("fetch my woolly hat").objects[0]
    assert (mine.determiner, mine.head) == ("my", "hat")


def test_x_and_y_keeps_both() -> None:
    step = only_step("put the salt and the pepper on the shelf")
    assert objects(step) == ["the salt", "the pepper"]
    assert (step.relation, step.landmark and step.landmark.text) == ("on", "the shelf")


def test_or_marks_an_alternative() -> None:
    step = only_step("bring me the scarf or the gloves")
    assert [phrase.alternative for phrase in step.objects] == [False, True]


def test_negation_rules_a_thing_out() -> None:
    step = only_step("get me a biscuit, but not the ginger ones")
    assert [phrase.text for phrase in step.wanted] == ["a biscuit"]
    assert [phrase.head for phrase in step.excluded] == ["ones"]
    assert only_step("bring me a fruit except bananas").excluded[0].head == "bananas"


@pytest.mark.parametrize(
    "text",
    ["pour the milk into the bowl, not too much", "pour some milk into the jug but not much"],
)
def test_a_negated_amount_leaves_no_thing_out(text: str) -> None:
    step = only_step(text)
    assert [phrase.text for phrase in step.objects] == [step.wanted[0].text]
    assert step.landmark is not None and step.landmark.head in ("bowl", "jug")


@pytest.mark.parametrize(
    ("text", "relation", "landmark"),
    [
        ("put the lamp on the desk", "on", "the desk"),
        ("stand the umbrella in the corner", "in", "the corner"),
        ("put the kettle next to the toaster", "next_to", "the toaster"),
        ("leave the basket near the stairs", "near", "the stairs"),
        ("place the radio to the left of the clock", "left_of", "the clock"),
        ("place the radio right of the clock", "right_of", "the clock"),
        ("put the boots behind the door", "behind", "the door"),
        ("set the stool in front of the sink", "in_front_of", "the sink"),
        ("put the keys beside the phone", "next_to", "the phone"),
    ],
)
def test_every_spatial_relation_has_its_landmark(text: str, relation: str, landmark: str) -> None:
    step = only_step(text)
    assert step.relation == relation
    assert step.landmark is not None and step.landmark.text == landmark


def test_a_tool_with_using_and_use_to() -> None:
    wiped = only_step("clean the hob using the blue cloth")
    assert wiped.tool is not None and wiped.tool.text == "the blue cloth"
    moved = only_step("could you use the tongs to lift the hot bread roll")
    assert moved.action == "bring"
    assert objects(moved) == ["the hot bread roll"]
    assert moved.tool is not None and moved.tool.text == "the tongs"


@pytest.mark.parametrize(
    "text",
    [
        "Please, use the ladle to move the soup into the flask.",
        "Helper robot, please use the ladle to move the soup into the flask.",
        "Open the larder. Then, use the ladle to move the soup into the flask.",
        "open the larder and use the ladle to move the soup into the flask",
    ],
)
def test_a_comma_after_an_opener_or_an_address_keeps_the_tool_and_the_verb(text: str) -> None:
    moved = parse_request(text).steps[-1]
    assert (moved.verb, moved.action, objects(moved)) == ("move", "place", ["the soup"])
    assert moved.tool is not None and moved.tool.text == "the ladle"


def test_to_use_it_for_something_is_context_not_a_tool_step() -> None:
    frame = parse_request("We no longer want to use it for polishing. Please bin it.")
    assert [step.action for step in frame.steps] == ["dispose"]
    assert frame.context == ("We no longer want to use it for polishing",)


def test_a_manner_adverb_is_not_part_of_the_thing() -> None:
    step = only_step("lay the place mats tidily on the dining table")
    assert objects(step) == ["the place mats"]
    assert step.landmark is not None and step.landmark.text == "the dining table"


def test_recipients_by_name_pronoun_and_to() -> None:
    assert only_step("give Leila the crayons").recipient.person == "Leila"  # type: ignore[union-attr]
    named = only_step("take the tray to Grandad")
    assert named.recipient is not None and named.recipient.person == "Grandad"
    assert objects(named) == ["the tray"]
    assert only_step("hand me the ladle").recipient.person == SPEAKER  # type: ignore[union-attr]


def test_a_source_and_a_place_the_object_is_in() -> None:
    sourced = only_step("fetch the butter out of the larder")
    assert sourced.source is not None and sourced.source.text == "the larder"
    located = only_step("grab me the torch on the hall table")
    assert located.objects[0].described == "the torch on the hall table"
    assert located.landmark is None


@pytest.mark.parametrize(
    ("text", "thing", "where"),
    [
        ("fetch my slippers they ought to be under the bed", "my slippers", "under the bed"),
        ("grab the torch it's probably in the hall drawer", "the torch", "in the hall drawer"),
        ("get me my wallet they're usually by the front door", "my wallet", "by the front door"),
    ],
)
def test_a_statement_of_where_the_thing_is_said_without_a_comma_locates_it(
    text: str, thing: str, where: str
) -> None:
    step = only_step(text)
    assert [(o.text, o.where) for o in step.objects] == [(thing, where)]
    assert step.landmark is None  # where it is, not where it goes


def test_where_the_thing_is_leaves_where_it_goes_to_the_place_after_it() -> None:
    step = only_step("carry the vase it's on the windowsill to the hall table")
    assert [(o.text, o.where) for o in step.objects] == [("the vase", "on the windowsill")]
    assert step.landmark is not None and step.landmark.text == "the hall table"


@pytest.mark.parametrize(
    "text",
    [
        "fetch my scarf it's not on the hook",  # a negation: where it is not
        "put the scarf back it was on the hook",  # the past: where it goes back to
    ],
)
def test_a_negated_or_past_statement_says_no_place_the_thing_is_in(text: str) -> None:
    assert all(not phrase.where for phrase in only_step(text).objects)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("turn the grill off it's on", "switch_off"),
        ("switch the fan off it's been on since noon", "switch_off"),
        ("switch the heater off it is on in the study", "switch_off"),
        ("turn the radio on it's off", "switch_on"),
    ],
)
def test_a_statement_of_the_things_state_never_turns_the_switch_round(
    text: str, action: str
) -> None:
    assert parse_request(text).steps[0].action == action


def test_a_pronoun_joined_to_its_verb_opens_a_relative_clause() -> None:
    step = only_step("pass me the tin they're in")
    assert [(o.text, o.relative) for o in step.objects] == [("the tin", "they're in")]


@pytest.mark.parametrize(
    ("text", "actions"),
    [
        ("open the cupboard and get out the flour", ["open", "bring"]),
        ("close the window, then switch off the heater", ["close", "switch_off"]),
        ("fetch the ladder and then put it in the shed", ["bring", "place"]),
        ("turn the radio off and bring me my book", ["switch_off", "bring"]),
    ],
)
def test_a_sequence_of_steps_in_order(text: str, actions: list[str]) -> None:
    assert parse_request(text).actions == actions


def test_a_particle_after_the_object_finishes_the_phrasal_verb() -> None:
    assert only_step("turn the telly off").action == "switch_off"
    assert only_step("put the washing away").action == "put_away"
    out = only_step("take the pizza out of the oven")
    assert out.action == "bring" and out.source is not None and out.source.text == "the oven"


@pytest.mark.parametrize(
    ("text", "action", "missing"),
    [
        ("mop the hall floor", "", "sweep, mop or vacuum floors"),  # what mopping is done to
        ("mop up that puddle on the desk", "wipe", ""),  # anything else is wiped
        ("could you mop it up", "wipe", ""),
        ("scrub the saucepans", "", "wash up"),  # cookware: washing up
        ("scrub the worktop", "wipe", ""),
        ("take the frying pan out and scrub it", "", "wash up"),  # "it": the pan
        ("can you mop", "", "sweep, mop or vacuum floors"),  # no thing said: the missing skill
    ],
)
def test_what_a_verb_is_done_to_decides_a_missing_skill_or_a_capability(
    text: str, action: str, missing: str
) -> None:
    step = parse_request(text).steps[-1]
    assert (step.action, step.missing_skill) == (action, missing)


def test_a_missing_skill_is_named() -> None:
    frame = parse_request("could you chop the carrots")
    assert frame.missing_skills == ["cut things"] and not frame.actions
    assert parse_request("wash up the pans").missing_skills == ["wash up"]


def test_a_need_or_a_remark_has_no_action() -> None:
    frame = parse_request("I'm freezing")
    assert frame.steps == () and frame.context == ("I'm freezing",)
    remark = parse_request("That juice has gone off. Can you bin it?")
    assert remark.actions == ["dispose"] and remark.context


@pytest.mark.parametrize("text", ["", "   ", ",,,", "the the the", "???", "and then then"])
def test_odd_input_never_raises(text: str) -> None:
    assert isinstance(parse_request(text), RequestFrame)


def test_a_long_request_is_cut() -> None:
    frame = parse_request("bring me the spoon " * 500)
    assert len(frame.text) == request_frame.MAX_PARSE_CHARS


def test_a_broken_word_file_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "words.yaml"
    broken.write_text(yaml.safe_dump({"actions": {"bring": {"verbs": []}}}))
    monkeypatch.setattr(words, "WORDS_FILE", broken)
    words.request_words.cache_clear()
    try:
        with pytest.raises(WordsError, match="verbs"):
            words.request_words()
    finally:
        monkeypatch.undo()
        words.request_words.cache_clear()


def test_a_phrase_longer_than_the_matcher_looks_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalogue = tmp_path / "unsupported_skills.yaml"
    verb = " ".join(["sew"] * (words.PHRASE_WORDS + 1))
    entry = {"name": "sew", "verbs": [verb], "say": "I can't sew yet."}
    catalogue.write_text(yaml.safe_dump({"skills": [entry]}))
    monkeypatch.setattr(words, "unsupported_skills", lambda: unsupported_skills(catalogue))
    words.request_words.cache_clear()
    try:
        with pytest.raises(WordsError, match="at most"):
            words.request_words()
    finally:
        monkeypatch.undo()
        words.request_words.cache_clear()


def test_the_skill_catalogues_unsupported_skills_win(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalogue = tmp_path / "unsupported_skills.yaml"
    entry = {"name": "sew", "verbs": ["sew", "darn", "wipe"], "say": "I can't sew yet."}
    catalogue.write_text(yaml.safe_dump({"skills": [entry]}))
    monkeypatch.setattr(words, "unsupported_skills", lambda: unsupported_skills(catalogue))
    words.request_words.cache_clear()
    request_frame._parse.cache_clear()
    try:
        assert parse_request("darn the sock").missing_skills == ["sew"]
        assert parse_request("wipe the shelf").missing_skills == ["sew"]  # the catalogue wins
        catalogue.write_text("skills: [{name: sew}]")
        unsupported_skills.cache_clear()
        words.request_words.cache_clear()
        with pytest.raises(ValueError, match="each entry needs name, verbs and say"):
            words.request_words()
    finally:
        monkeypatch.undo()
        unsupported_skills.cache_clear()
        words.request_words.cache_clear()
        request_frame._parse.cache_clear()


@pytest.mark.parametrize(
    ("text", "objects"),
    [
        ("hand me something to dig with", ["something"]),
        ("fetch a tray to carry them on", ["a tray", "them"]),
    ],
)
def test_a_purpose_infinitive_is_no_step(text: str, objects: list[str]) -> None:
    frame = parse_request(text)
    assert [step.action for step in frame.steps] == ["bring"] and not frame.missing_skills
    assert [phrase.text for phrase in frame.steps[0].objects] == objects


def test_a_bare_noun_before_the_object_is_who_receives_it() -> None:
    step = only_step("give nana the teapot")
    assert step.action == "bring" and objects(step) == ["the teapot"]
    assert step.recipient is not None and step.recipient.person == "nana"


def test_how_to_hand_it_over_is_not_part_of_the_thing() -> None:
    step = only_step("pass me the scissors point first")
    assert objects(step) == ["the scissors"] and step.recipient is not None
    assert objects(only_step("give it to me handle first")) == ["it"]


def test_a_particle_before_a_place_ends_the_object() -> None:
    step = only_step("set the tray down on the bench")
    assert (step.verb, objects(step), step.relation) == ("set down", ["the tray"], "on")
    assert step.landmark is not None and step.landmark.text == "the bench"


def test_a_purpose_after_the_place_is_no_place() -> None:
    step = only_step("put it on the radiator to dry")
    assert step.landmark is not None and step.landmark.described == "the radiator"


def test_throwing_to_someone_is_a_handover_not_a_disposal() -> None:
    assert only_step("chuck it over to me, the ball").action == "bring"
    assert only_step("toss me the keys").action == "bring"
    assert only_step("chuck the peel").action == "dispose"
    # the person right after the verb receives the thing: "chuck us the X" is no disposal
    step = only_step("chuck us the tea towel")
    assert step.action == "bring" and [p.text for p in step.objects] == ["the tea towel"]
    assert step.recipient is not None and step.recipient.text == "us"
    fling = only_step("fling Priya the cushion")
    assert fling.action == "bring" and fling.recipient is not None
    assert fling.recipient.text == "Priya"


def test_warming_in_an_appliance_is_heating_not_cooking() -> None:
    step = only_step("warm the plate up in the oven")
    assert step.action == "heat" and not step.unsupported
    assert only_step("reheat the stew").action == "heat"
    assert only_step("fry an egg").missing_skill == "cook"


def test_a_verb_whose_last_words_follow_the_object() -> None:
    oven = only_step("get the oven going")
    assert (oven.verb, oven.action, objects(oven)) == ("get going", "switch_on", ["the oven"])
    wipe = only_step("give the counter a wipe please")
    assert (wipe.action, objects(wipe)) == ("wipe", ["the counter"])
    assert only_step("give it a clean").action == "wipe"
    towel = only_step("give nana a clean towel")  # not at the end: a thing, not the verb
    assert (towel.action, objects(towel)) == ("bring", ["a clean towel"])


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("add a splash of milk to the teapot", "pour"),
        ("add the cream to it", "pour"),  # a thing said, so "it" is one too
        ("add walnuts to my profile", ""),  # a record: a knowledge pack's, no action
        ("please add this to the list", ""),
        ("add peanuts to my allergies", ""),
    ],
)
def test_add_pours_only_into_a_physical_thing(text: str, action: str) -> None:
    step = only_step(text)
    assert (step.verb, step.action) == ("add", action)


def test_left_and_right_hand_side_are_one_relation() -> None:
    left = only_step("set the fork down on the left hand side of the placemat")
    assert (left.relation, left.landmark and left.landmark.text) == ("left_of", "the placemat")
    right = only_step("put the glass to the right side of the jug")
    assert right.relation == "right_of"


@pytest.mark.parametrize(
    ("text", "thing", "relation", "landmark"),
    [
        ("the butter should go in the fridge", "the butter", "in", "the fridge"),
        ("the towels belong behind the door", "the towels", "behind", "the door"),
        ("the vase is meant to stand next to the lamp", "the vase", "next_to", "the lamp"),
    ],
)
def test_a_statement_of_where_a_thing_goes_is_a_place_step(
    text: str, thing: str, relation: str, landmark: str
) -> None:
    step = only_step(text)
    assert (step.action, objects(step), step.relation) == ("place", [thing], relation)
    assert step.landmark is not None and step.landmark.text == landmark


def test_a_possessive_after_a_comma_is_another_thing_asked_for() -> None:
    assert objects(only_step("pass me Nadia's scarf, Omar's gloves")) == [
        "Nadia's scarf",
        "Omar's gloves",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "pass me the salt, could you also bring the pepper",
        "pass me the salt, gonna need the pepper",
    ],
)
def test_an_opener_or_a_want_after_a_comma_is_no_statement(text: str) -> None:
    frame = parse_request(text)
    said = [phrase.text for step in frame.steps for phrase in step.objects]
    assert said[0] == "the salt" and any("pepper" in thing for thing in said), said


def test_a_statement_is_no_step_beside_a_request_nor_without_a_real_place() -> None:
    frame = parse_request("the cheese goes in the fridge, could you take it there")
    assert [step.action for step in frame.steps] == ["bring"]
    assert frame.context == ("the cheese goes in the fridge",)
    assert parse_request("lunch goes out soon").steps == ()


@pytest.mark.parametrize(
    ("text", "context"),
    [
        ("switch the fan off, it is chilly", "it is chilly"),
        ("turn on the radio, we listen to the news at six", "we listen to the news at six"),
        ("start the kettle, the visitors will be here soon", "the visitors will be here soon"),
        ("pass the stapler, she's at her desk", "she's at her desk"),  # pronoun and verb joined
        ("hand me a spoon, it's for the soup", "it's for the soup"),
        ("fetch a cushion, we're in the den", "we're in the den"),
        ("bring a blanket because we're freezing", "we're freezing"),
        ("lay the table since they're coming at four", "they're coming at four"),
        ("chuck us a new loo roll, this one's run out", "this one's run out"),  # "this one"
        ("grab us an egg, gonna make pancakes", "gonna make pancakes"),  # a modal, no subject
        ("shut the cupboard door, you left it open", "you left it open"),  # "you", a past form
        ("close the fridge, you've left it open", "you've left it open"),
        ("take the bin out, you forgot it", "you forgot it"),
    ],
)
def test_a_statement_after_a_comma_or_a_reason_word_ends_the_step(text: str, context: str) -> None:
    frame = parse_request(text)
    assert len(frame.steps) == 1 and len(frame.steps[0].objects) == 1
    assert frame.context == (context,)


@pytest.mark.parametrize(
    ("text", "context", "action"),
    [
        (
            "the dining table is all sticky could you give it a wipe",
            "the dining table is all sticky",
            "wipe",
        ),
        ("mum is asleep can you turn the telly down", "mum is asleep", "switch_off"),
    ],
)
def test_a_request_said_after_a_statement_without_a_comma_is_its_own_clause(
    text: str, context: str, action: str
) -> None:
    frame = parse_request(text)
    assert frame.context == (context,)
    assert [step.action for step in frame.steps] == [action]


@pytest.mark.parametrize(
    "text",
    [
        "what can you do",  # one question
        "I don't think you could lift the sofa",  # a doubt: never an order to lift it
        "I doubt you could lift the sofa",
        "I'm not sure you could carry the telly",
        "I wish you could bring me the moon",  # a wish
        "the baby is asleep you can hoover later",  # "you can": no question put
        "the floor is wet you could mop it tomorrow",
    ],
)
def test_a_doubt_a_wish_or_one_question_is_not_split_at_its_modal(text: str) -> None:
    assert parse_request(text).steps == ()


def test_you_then_a_present_form_after_a_comma_is_still_the_request() -> None:
    """Only a past form or "have" after "you" makes a statement: "you" may open an order."""
    frame = parse_request("pass the salt, you take the pepper")
    assert frame.context == () and [step.action for step in frame.steps] == ["bring"]


@pytest.mark.parametrize(
    "text",
    ["a bit more tea please", "some bird seed please", "a dog bed please"],
)
def test_a_noun_spelt_like_a_past_form_is_still_the_thing_asked_for(text: str) -> None:
    """WordNet lists "bit", "seed" and "bed" as past forms too: only after "you" do they tell."""
    assert [step.action for step in parse_request(text).steps] == ["bring"]


def test_you_d_better_is_an_order() -> None:
    frame = parse_request("close the window, you'd better lock it too")
    assert frame.context == ()


@pytest.mark.parametrize(
    ("text", "action", "thing"),
    [
        ("pull the cupboard open", "open", "the cupboard"),
        ("could you push that drawer shut please", "close", "that drawer"),
        ("prise the tin open", "open", "the tin"),  # a verb the lexicon does not know
        ("kick the gate closed", "close", "the gate"),
    ],
)
def test_the_state_a_verb_leaves_a_thing_in_names_the_action(
    text: str, action: str, thing: str
) -> None:
    step = only_step(text)
    assert (step.action, objects(step)) == (action, [thing])


def test_a_need_that_names_nothing_is_context_beside_a_request() -> None:
    frame = parse_request("I want something out of the cupboard, pull it open")
    assert [step.action for step in frame.steps] == ["open"]
    assert frame.context == ("I want something out of the cupboard",)
    assert only_step("I need something from the shed").action == "bring"  # alone: the need


def test_its_door_opens_or_closes_the_thing_it_stands_for() -> None:
    step = only_step("shut its lid")
    assert step.action == "close" and step.objects[0].pronoun
    assert not only_step("bring me its lid").objects[0].pronoun  # fetching the lid itself


def test_a_region_of_a_thing_names_the_thing_and_alone_stands_for_it() -> None:
    """Checked to fail before: "the outside" was a thing of its own, headed "outside"."""
    [outside] = only_step("I've unplugged the toaster - wipe down the outside").objects
    assert outside.pronoun  # the outside of what the context names, as "it" would be
    [whole] = only_step("wipe down the outside of the toaster").objects
    assert (whole.head, whole.pronoun) == ("toaster", False)
    assert not only_step("bring me my top").objects[0].pronoun  # a top may be worn
    assert not any(phrase.pronoun for phrase in only_step("put the bins outside").phrases())


def test_inside_after_the_names_a_region_not_a_place() -> None:
    """Checked to fail before: "clean the inside of the microwave" read "the" as the object."""
    [inside] = only_step("clean the inside of the microwave").objects
    assert (inside.head, inside.pronoun) == ("microwave", False)
    assert only_step("wipe the inside").objects[0].pronoun  # of what the context names
    [of_it] = only_step("clean the inside of it").objects  # one phrase, standing for "it"
    assert (of_it.head, of_it.pronoun) == ("it", True)
    step = only_step("put the cup inside the cupboard")  # a place after any other word
    assert step.relation == "in" and step.landmark is not None
    assert step.landmark.head == "cupboard"


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("find somewhere nice for these sunflowers, they're in the way here", "sunflowers"),
        ("find a place for the vase", "vase"),
        ("find a spot for the vase", "vase"),
        ("find somewhere for the vase", "vase"),
        ("find somewhere safe for the vase", "vase"),
    ],
)
def test_finding_a_place_for_a_thing_puts_it_somewhere_unsaid(text: str, thing: str) -> None:
    """Checked to fail before: a find of "a place" (or of "nice"), the vase dropped."""
    step = parse_request(text).steps[0]
    assert (step.action, [p.head for p in step.objects], step.landmark) == ("place", [thing], None)


@pytest.mark.parametrize(
    ("text", "action", "said"),
    [
        ("find the remote for me", "find", ["the remote"]),  # a find on my behalf
        ("find a place for Anna", "find", ["a place"]),  # a seat for someone: no thing put
        ("find a seat for grandma", "find", ["a seat"]),  # a person is never put somewhere
        ("find a home for the kitten", "find", ["a home"]),  # nor an animal
        ("find a place for the party", "find", ["a place"]),  # nor an event
        ("find a place on the counter for the kettle", "find", ["a place"]),  # a place said
        ("put these flowers somewhere nice", "place", ["these flowers"]),  # "nice": no thing
    ],
)
def test_a_find_for_someone_stays_a_find(text: str, action: str, said: list[str]) -> None:
    step = only_step(text)
    assert (step.action, objects(step)) == (action, said)


def test_split_verb_before_a_tool() -> None:
    step = only_step("give the hob a wipe with the sponge")
    assert (step.action, objects(step)) == ("wipe", ["the hob"])
    assert step.tool is not None and step.tool.text == "the sponge"


@pytest.mark.parametrize(
    ("text", "action", "said", "recipient"),
    [
        ("give the spider plant a really good drench", "", ["the spider plant"], None),
        ("give the plant a drink", "bring", ["a drink"], "the plant"),  # a drink is a thing
        ("give nana a clean towel", "bring", ["a clean towel"], "nana"),
        ("give the dog a bone", "bring", ["a bone"], "the dog"),
    ],
)
def test_a_noun_that_names_an_act_is_the_action_not_a_thing_given(
    text: str, action: str, said: list[str], recipient: str | None
) -> None:
    """Checked to fail before: "give the spider plant a really good drench" gave the drench to
    the plant, and the robot brought the plant (a drench is no verb of the grammar, the
    dictionary names it an act); a drink, a towel and a bone stay things given."""
    step = only_step(text)
    assert (step.action, objects(step)) == (action, said)
    assert (step.recipient.text if step.recipient else None) == recipient


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("give the dog that chocolate", ["that chocolate"]),  # the dog receives it
        ("pour some of that bleach down the sink", ["some of", "that bleach"]),
        ("give grandma some of that medicine", ["some of", "that medicine"]),
    ],
)
def test_that_before_a_noun_is_its_determiner_not_a_relative_clause(
    text: str, said: list[str]
) -> None:
    assert objects(only_step(text)) == said


@pytest.mark.parametrize(
    ("text", "recipient", "said"),
    [
        ("give the baby the tumbler", "the baby", ["the tumbler"]),
        ("hand the toddler her beaker", "the toddler", ["her beaker"]),
        ("get the kids some juice", "the kids", ["some juice"]),
        ("bring the dog its bowl", "the dog", ["its bowl"]),
        ("give the plant the water", None, ["the plant the water"]),  # a plant receives no "the"
    ],
)
def test_a_person_or_an_animal_before_a_second_noun_phrase_receives_it(
    text: str, recipient: str | None, said: list[str]
) -> None:
    step = only_step(text)
    assert (step.recipient.text if step.recipient else None) == recipient
    assert objects(step) == said


def test_interjections_open_a_clause_and_encouragement_closes_one() -> None:
    told = parse_request("oh no, the pan is on fire")
    assert not told.steps and told.context[-1] == "the pan is on fire"
    assert objects(only_step("ah go on, put the kettle on")) == ["the kettle"]
    steps = parse_request("go on the balcony and close the door").steps
    assert [step.action for step in steps] == ["come", "close"]


def test_a_demonstrative_before_a_noun_of_action_is_the_object() -> None:
    step = only_step("could you give that a quick wipe for me")
    assert step.action == "wipe" and [p.text for p in step.objects] == ["that"]
    assert step.objects[0].pronoun


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("can I have an apple pleeease", "an apple"),
        ("sooo hungry, get me the biscuits pleeease", "the biscuits"),
        ("fetch the zzz box", "the zzz box"),  # shortens to no known word: kept as said
        ("bring the AAA batteries", "the AAA batteries"),  # capitals: kept as said
    ],
)
def test_a_stretched_word_is_read_as_the_word(text: str, said: str) -> None:
    assert objects(parse_request(text).steps[-1]) == [said]


@pytest.mark.parametrize(
    ("text", "said", "head", "recipient"),
    [
        ("fill the kettle about halfway for me", "the kettle", "kettle", "me"),
        ("fill the bucket half full", "the bucket", "bucket", None),
        ("pour Leo about half a cup of milk", "about half a cup of milk", "milk", "Leo"),
        ("pour me a glass of the red", "a glass of the red", "red", "me"),
        (
            "put 150 ml of the cooled water in the bottle",
            "150 ml of the cooled water",
            "water",
            None,
        ),
        ("add a teaspoon of sugar to the pan", "a teaspoon of sugar", "sugar", None),
        ("bring me the stack of plates", "the stack of plates", "stack", "me"),  # no unit
        ("put the book about birds on the shelf", "the book about birds", "birds", None),
        ("bring me the book about two dogs", "the book about two dogs", "dogs", "me"),
        ("fill the jug roughly halfway", "the jug", "jug", None),
    ],
)
def test_an_amount_is_no_part_of_the_thing(
    text: str, said: str, head: str, recipient: str | None
) -> None:
    """Checked to fail before: "the kettle about halfway" was the thing, "ml" the head of "150
    ml of the water" (a unit the dictionary knows as an amount), "Leo about half a cup" one
    thing, and "me" a thing poured."""
    step = only_step(text)
    assert [(phrase.text, phrase.head) for phrase in step.objects] == [(said, head)]
    assert (step.recipient.text if step.recipient else None) == recipient


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("can u grab the torch", "can you grab the torch"),
        ("get a fork outta the drawer", "get a fork out of the drawer"),
        ("gimme the remote", "give me the remote"),
        ("fit the U-bend", "fit the U-bend"),
        ("Can U pass the salt", "Can you pass the salt"),
        ("bring the U shaped cushion", "bring the U shaped cushion"),  # a capital U: a shape
        ("got summat to prop it up?", "got something to prop it up?"),  # as a dialect says it
        ("is there owt to eat", "is there anything to eat"),
    ],
)
def test_a_spelling_of_speech_is_read_in_full(text: str, read: str) -> None:
    """Checked to fail before: "outta the drawer" was no place, "u" no listener."""
    assert as_read(text) == read


def test_a_count_of_things_keeps_the_determiner_of_the_things() -> None:
    """Checked to fail before: "a few of the tulips" was read as "a the tulips"."""
    frame = with_contents(parse_request("snip a few of the tulips"))
    assert [phrase.text for phrase in frame.steps[0].objects] == ["the tulips"]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("wheres my toothbrush", "where's my toothbrush"),
        ("im cold", "i'm cold"),
        ("theyre in the drawer, thats all", "they're in the drawer, that's all"),
        ("its on the table", "its on the table"),  # a word of the dictionary: kept
        ("the kids were here", "the kids were here"),
    ],
)
def test_a_short_form_typed_without_its_apostrophe_is_read_with_it(text: str, read: str) -> None:
    """Checked to fail before: "wheres" and "im" were unknown words."""
    assert as_read(text) == read


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # checked to fail before: the slip was an unknown verb ("I can't swich the lamp yet")
        ("swich the lamp on", "switch the lamp on"),
        ("can you brign me the mug", "can you bring me the mug"),
        ("tunr the telly off", "turn the telly off"),
        ("clsoe the door", "close the door"),  # two letters swapped
        # kept: a capitalised word, a name where no verb stands or before a verb said of it
        # (the reviewer's: "trish" read as "trash" threw the glasses away), a word the
        # dictionary knows, too short a word, two edits from the nearest verb, a slip in a
        # verb the robot has no skill for ("chop")
        ("Swich the lamp on", "Swich the lamp on"),
        ("give brign the ball", "give brign the ball"),
        ("trish wants her reading glasses", "trish wants her reading glasses"),
        ("tess, bring me the mug", "tess, bring me the mug"),
        ("stitch the hem", "stitch the hem"),
        ("pur me some milk", "pur me some milk"),
        ("stiwch off the fan", "stiwch off the fan"),
        ("chopp the onion", "chopp the onion"),
    ],
)
def test_a_slip_of_one_key_in_a_verb_of_the_robots_is_read_as_the_verb(
    text: str, read: str
) -> None:
    assert as_read(text) == read


@pytest.mark.parametrize(
    ("text", "said", "where"),
    [
        ("bin any rubbish that's lying about in here", "any rubbish", ""),
        ("bring me the mug I left on the table", "the mug", "on the table"),
        ("hand me the book she was reading", "the book", ""),
        ("get me the mug that has a chip", "the mug", ""),
        # an adverb before the clause's verb stays in it (failed before: "made" was a thing)
        ("I'd love a cup of that coffee that's just been made", "a cup of that coffee", ""),
        ("bring me the mug that was only washed yesterday", "the mug", ""),
    ],
)
def test_a_relative_clause_says_more_of_the_thing_and_is_no_part_of_its_name(
    text: str, said: str, where: str
) -> None:
    phrase = only_step(text).objects
    assert [(p.text, p.where) for p in phrase] == [(said, where)]


def test_an_adverb_before_a_verbs_base_form_ends_the_relative_clause() -> None:
    """Reviewer's case: "so" before "wash" stayed in the clause of the mug."""
    [mug] = parse_request("bring me the mug that's dirty so wash it").steps[0].objects
    assert mug.relative == "that's dirty"


def test_somewhere_and_a_relation_is_that_relation() -> None:
    step = only_step("leave the umbrella somewhere by the front door")
    assert (step.relation, step.landmark and step.landmark.text) == ("next_to", "the front door")


def test_what_is_left_of_a_thing_is_the_thing() -> None:
    step = only_step("pour the rest of the soup into the flask")
    assert (objects(step), step.relation) == (["the soup"], "in")
    assert objects(only_step("bin what's left of the cake")) == ["the cake"]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("put the stapler where it belongs", "put_away"),
        ("put the used tea bag where it should go", "dispose"),  # rubbish: the bin
        ("put those broken pegs where they go", "dispose"),
    ],
)
def test_putting_a_thing_where_it_goes(text: str, action: str) -> None:
    assert only_step(text).action == action


def test_a_means_clause_is_what_to_do() -> None:
    frame = parse_request("cool the drink by putting the can in the freezer")
    (step,) = frame.steps
    assert (step.action, objects(step), step.relation) == ("place", ["the can"], "in")
    assert frame.context == ("cool the drink",)
    standing = only_step("put the basket by the washing machine")  # no verb after "by"
    assert standing.relation == "next_to"


@pytest.mark.parametrize(
    ("text", "wanted", "excluded"),
    [
        ("a biscuit please", ["a biscuit"], []),
        ("some oranges, but not the blood oranges", ["some oranges"], ["the blood oranges"]),
        ("a hot drink, not the cocoa", ["a hot drink"], ["the cocoa"]),
        ("two clothes pegs please", ["two clothes pegs"], []),
        ("a sweet, not the toffee or the mints, thanks", ["a sweet"], ["the toffee", "the mints"]),
    ],
)
def test_a_thing_asked_for_without_a_verb_is_wanted(
    text: str, wanted: list[str], excluded: list[str]
) -> None:
    (step,) = parse_request(text).steps
    assert step.action == "bring" and step.recipient is not None
    assert step.recipient.person == "speaker"
    assert [phrase.text for phrase in step.wanted] == wanted
    assert [phrase.text for phrase in step.excluded] == excluded


@pytest.mark.parametrize(
    "text",
    ["the kettle is still warm", "a biscuit?", "which one", "thanks a lot", "the tea I like"],
)
def test_a_verbless_remark_or_question_is_no_request(text: str) -> None:
    assert parse_request(text).steps == ()


@pytest.mark.parametrize(
    ("text", "action", "wanted"),
    [
        # a request wrapped in a question or a wish is read from its verb on (failed before)
        ("is there any chance you could fetch me the hairbrush", "bring", ["the hairbrush"]),
        ("I was wondering if you could open the shed door", "open", ["the shed door"]),
        ("do you think you could possibly close the blind", "close", ["the blind"]),
        ("any chance you'd grab me the stapler", "bring", ["the stapler"]),
        # the speaker's "I" dropped: still a thing asked for (failed before)
        ("need a plaster from the first aid box", "bring", ["a plaster"]),
        # a manner word after the noun ends its phrase (failed before: head "quick")
        ("hand me a flannel quick before the bath overflows", "bring", ["a flannel"]),
    ],
)
def test_requests_said_indirectly_or_casually_are_read_from_their_verb(
    text: str, action: str, wanted: list[str]
) -> None:
    step = only_step(text)
    assert step.action == action
    assert [phrase.text for phrase in step.wanted] == wanted


@pytest.mark.parametrize(
    "text", ["i need to take the dog out", "you could see the paint was chipped", "need to go"]
)
def test_a_need_to_act_or_a_remark_on_the_listener_asks_for_no_thing(text: str) -> None:
    """Failed before for the first: "to take the dog" was read as a thing to bring."""
    assert all(step.action != "bring" for step in parse_request(text).steps)


def test_a_missing_skill_after_an_opener_is_its_own_step() -> None:
    """ "..., can you climb up and get it": climbing is a step the robot cannot do (failed
    before: the clause went to the context and only the fetch was read)."""
    frame = parse_request("the kite's caught on the roof, can you climb up and fetch it")
    assert [step.unsupported for step in frame.steps] == ["catalogue:climb", ""]
    assert frame.steps[1].action == "bring"


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # a drink put into a drink or a drinking vessel is poured (failed before: placed)
        ("pop a splash of milk in my coffee", "pour"),
        ("put some orange juice in the tumbler", "pour"),
        # a drink's carton put away, into a vessel for other things, or no drink: moved
        ("put the juice in the fridge", "place"),
        ("put the lemonade in the picnic basket", "place"),
        ("put the wine in the ice bucket", "place"),
        ("put a drop of the medicine in his juice", "place"),
        ("pick up the sock and drop it in the basket", "place"),
    ],
)
def test_putting_a_drink_into_a_drink_or_a_glass_is_pouring(text: str, action: str) -> None:
    assert parse_request(text).steps[-1].action == action


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        # what happened to the thing ends its phrase (failed before: no step at all)
        ("where did the stepladder end up?", "the stepladder"),
        ("which room has the laundry basket got to?", "the laundry basket"),
        ("where have my slippers gone", "my slippers"),
    ],
)
def test_a_where_question_asks_after_the_thing_whatever_happened_to_it(
    text: str, thing: str
) -> None:
    step = only_step(text)
    assert step.action == "find"
    assert [phrase.text for phrase in step.wanted] == [thing]


@pytest.mark.parametrize(
    ("text", "things"),
    [
        ("polish the table with the soft duster, not the old rag", ["the table"]),
        ("hang the coat on the peg, not the door handle", ["the coat"]),
        ("bring me the lemonade, not the cola", ["the lemonade", "the cola"]),  # the object's
        ("wipe the shelf with the green cloth, but not the white cloth", ["the shelf"]),
        ("take the plum to Sam, no Mia", ["the plum", "Mia"]),  # "no" corrects, as before
    ],
)
def test_a_thing_ruled_out_after_a_tool_or_a_place_is_none_of_the_objects(
    text: str, things: list[str]
) -> None:
    """Checked to fail before: "the old rag" was read as a second thing to polish."""
    assert objects(only_step(text)) == things


@pytest.mark.parametrize(
    ("text", "things"),
    [
        ("close the back door", ["the back door"]),
        ("open that back door", ["that back door"]),  # before a made thing
        ("give me that back tomorrow", ["that", "tomorrow"]),  # "back" is the verb's
    ],
)
def test_back_after_a_determiner_describes_a_thing(text: str, things: list[str]) -> None:
    """Checked to fail before: "the back door" was read as "the" and "door"."""
    assert objects(only_step(text)) == things


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("I can't find my specs anywhere.", "specs"),
        ("we cannot seem to find the remote", "remote"),
        ("I couldn't find the cat, where is it?", "cat"),
        ("I can't find the key to the shed", "key"),  # a reviewer's: "to the shed" is no purpose
        ("have you seen my keys anywhere", "keys"),  # "anywhere": where to look, no landmark
    ],
)
def test_a_speaker_who_cannot_find_a_thing_asks_the_robot_to_look(text: str, thing: str) -> None:
    """Checked to fail before: "I can't find my specs" was no step, "anywhere" a landmark."""
    step = parse_request(text).steps[0]
    assert (step.action, [p.head for p in step.objects]) == ("find", [thing])
    assert step.landmark is None and step.relation == ""


@pytest.mark.parametrize(
    "text",
    [
        "I can't open this jar",
        "I can't stand the noise",
        "I can't take it any more",
        "I can't find the words to thank you",  # a reviewer's: nothing is looked for
    ],
)
def test_an_inability_to_do_what_changes_the_home_orders_nothing(text: str) -> None:
    assert parse_request(text).steps == ()


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        # how the thing should be, not a thing to bring: the step after it is the request
        ("I need the dressing table clear, put the hairdryer on the bed", [("place", False)]),
        ("I want my tea hot", [("bring", True)]),
        ("I need my phone charged", [("bring", True)]),
        ("I need the red mug", [("bring", False)]),  # ends with its noun
        ("can I have a hot chocolate", [("bring", False)]),
        ("I need a clean towel", [("bring", False)]),
        ("I want the table salt", [("bring", False)]),  # a reviewer's: the whole is a type
        ("I need the bath mat", [("bring", False)]),
    ],
)
def test_a_want_of_how_a_thing_should_be_brings_nothing(
    text: str, steps: list[tuple[str, bool]]
) -> None:
    """Checked to fail before: "I need the dressing table clear" fetched "the dressing table
    clear"."""
    frame = parse_request(text)
    assert [(step.action, step.statement) for step in frame.steps] == steps


@pytest.mark.parametrize(
    ("text", "objects", "recipient"),
    [
        ("top her bottle up from the kettle", ["her bottle"], None),
        ("take her cup to the sink", ["her cup"], None),
        ("give her the bottle", ["the bottle"], "her"),  # a determiner follows: her, the person
        ("give her one", ["one"], "her"),
        ("pick her up", ["her"], None),
    ],
)
def test_her_before_a_noun_is_whose_it_is(
    text: str, objects: list[str], recipient: str | None
) -> None:
    """Checked to fail before: "her bottle" was two things, "her" and "bottle"."""
    step = parse_request(text).steps[0]
    assert [phrase.text for phrase in step.objects] == objects
    assert (step.recipient.text if step.recipient else None) == recipient


def test_her_before_a_plural_after_a_verb_of_handing_is_not_whose_it_is() -> None:
    """A reviewer's case: "give her flowers" hands flowers to her; no "her flowers" is sought."""
    step = parse_request("give her flowers").steps[0]
    assert "her flowers" not in [phrase.text for phrase in step.objects]
