"""A request with a step the robot cannot do is done up to that step, and the rest is said."""

from __future__ import annotations

from collections.abc import Callable

from cogtree.knowledge.language.grammar.object_phrase import SPEAKER
from cogtree.knowledge.language.missing_steps import doable_part, gathering, left_undone
from cogtree.knowledge.language.request_frame import WANTED, parse_request


def test_the_steps_before_the_first_missing_one_are_done_and_the_rest_left() -> None:
    frame = parse_request("take the bread out of the cupboard, then slice it and put it on a plate")
    done, left = doable_part(frame), left_undone(frame)
    assert [step.action for step in done.steps] == [frame.steps[0].action]
    assert done.missing_skills == []
    assert left[0].missing_skill == "cut things" and len(left) == len(frame.steps) - 1


def test_a_request_that_starts_with_a_missing_step_leaves_nothing_to_do() -> None:
    frame = parse_request("slice the bread and put it on a plate")
    assert doable_part(frame).steps == ()
    assert left_undone(frame) == frame.steps


def test_a_request_with_nothing_missing_is_done_whole() -> None:
    frame = parse_request("bring me the milk, then open the fridge")
    assert doable_part(frame) == frame and left_undone(frame) == ()


def test_nothing_is_done_when_the_part_before_the_missing_step_leaves_something_running() -> None:
    for said in ("switch on the kettle and stir the soup", "warm the soup, then chop the onions"):
        frame = parse_request(said)
        assert frame.missing_skills, said
        assert doable_part(frame).steps == (), said  # refused whole, naming the missing skill
        assert left_undone(frame)[0].missing_skill, said


def _holds(*names: str) -> Callable[[str], list[str]]:
    """A scene holding the things ``names``: the names some words mention (as a lexicon would)."""
    return lambda said: [name for name in names if name in said.lower()]


def test_a_missing_first_step_with_doable_steps_after_it_has_its_things_set_out() -> None:
    frame = parse_request("chop the leek with the small knife, then tip the pieces into the wok")
    step = gathering(frame, _holds("leek", "knife", "wok"))
    assert step is not None and step.action == WANTED
    assert [phrase.text for phrase in step.objects] == ["the leek", "the small knife"]
    done = doable_part(frame, _holds("leek", "knife", "wok"))
    assert done.steps == (step,) and done.missing_skills == []
    assert left_undone(frame) == frame.steps  # the reply still says the chopping was left


def test_things_the_scene_does_not_hold_are_not_fetched() -> None:
    frame = parse_request("grate the parmesan over the pasta and carry the plate to the table")
    assert gathering(frame, _holds("plate")) is None  # the grating's thing is not in the scene
    assert doable_part(frame, _holds("plate")).steps == ()
    step = gathering(frame, _holds("plate", "parmesan"))
    assert step is not None and [phrase.text for phrase in step.objects] == ["the parmesan"]


def test_a_request_for_the_missing_skill_alone_is_still_refused() -> None:
    for said in ("dice the courgette", "fry the mushrooms in the skillet"):
        frame = parse_request(said)
        assert frame.missing_skills, said
        assert gathering(frame, _holds("courgette", "mushrooms", "skillet")) is None, said
        assert doable_part(frame, _holds("courgette", "mushrooms", "skillet")).steps == (), said


def test_nothing_is_gathered_when_a_step_before_the_missing_one_powers_something() -> None:
    frame = parse_request("turn on the hob, then stir the gravy and pour it in the jug")
    assert frame.missing_skills
    assert doable_part(frame, _holds("hob", "gravy", "jug")).steps == ()


def test_an_appliance_named_as_the_tool_is_used_where_it_stands_not_brought() -> None:
    frame = parse_request("toast the bagel in the toaster and put it on the plate")
    step = gathering(frame, _holds("bagel", "toaster", "plate"))
    assert step is not None and [phrase.text for phrase in step.objects] == ["the bagel"]
    frame = parse_request("blend the berries with the blender, then pour them into the jug")
    step = gathering(frame, _holds("berries", "blender", "jug"))
    assert step is not None and "the blender" not in [phrase.text for phrase in step.objects]


def test_sharp_hot_or_chemical_things_are_gathered_for_the_hazard_check_to_judge() -> None:
    # whether they may be brought is the hazard check's (tests/skills/test_said_of_speaker.py:
    # a gathering brings them only after an explicit yes, and never to a child)
    frame = parse_request("chop the leek with the small knife, then tip the pieces into the wok")
    step = gathering(frame, _holds("leek", "knife", "wok"))
    assert step is not None and [phrase.text for phrase in step.objects] == [
        "the leek",
        "the small knife",
    ]
    scrub = parse_request("scrub the hot saucepan, then put the lid on the shelf")
    step = gathering(scrub, _holds("saucepan", "lid", "shelf"))
    assert step is not None and [phrase.text for phrase in step.objects] == ["the hot saucepan"]


def test_a_thing_to_make_has_what_its_name_says_it_is_made_of_set_out_for_the_speaker() -> None:
    frame = parse_request("make me a cheese toastie")
    step = gathering(frame, _holds("cheese", "bread"))
    assert step is not None and [phrase.text for phrase in step.objects] == ["cheese"]
    assert step.recipient is not None and step.recipient.person == SPEAKER
    assert doable_part(frame, _holds("cheese")).steps == (step,)
    assert left_undone(frame) == frame.steps  # the making is still said to be left


def test_the_thing_to_make_is_for_whom_the_request_says() -> None:
    step = gathering(parse_request("whip up a pear tart for Tom"), _holds("pear"))
    assert step is not None and [phrase.text for phrase in step.objects] == ["pear"]
    assert step.recipient is not None and step.recipient.text == "Tom"


def test_what_the_making_names_as_said_is_not_fetched_twice() -> None:
    frame = parse_request("could you make a ham omelette with the eggs and the ham")
    step = gathering(frame, _holds("ham", "eggs"))
    assert step is not None
    assert sorted(phrase.text for phrase in step.objects) == ["the eggs", "the ham"]


def test_a_later_step_that_makes_something_sets_out_the_first_steps_things() -> None:
    frame = parse_request("stir the cream and the honey to make a honey topping")
    step = gathering(frame, _holds("cream", "honey"))
    assert step is not None
    assert [phrase.text for phrase in step.objects] == ["the cream", "the honey"]


def test_a_missing_step_on_things_the_scene_holds_or_a_making_of_nothing_known_is_refused() -> None:
    for said, held in (
        ("chop the onion", ("onion", "knife")),  # the missing step alone
        ("toast the bread", ("bread",)),
        ("make a berry smoothie", ("banana",)),  # nothing its name says is here
    ):
        frame = parse_request(said)
        assert gathering(frame, _holds(*held)) is None, said
        assert doable_part(frame, _holds(*held)).steps == (), said


def test_things_said_as_them_are_no_one_to_bring_the_things_to() -> None:
    frame = parse_request("peel the swede and the parsnip, then stir them into the stew pot")
    step = gathering(frame, _holds("swede", "parsnip"))
    assert step is not None and step.recipient is None  # brought to the speaker


def test_several_steps_the_robot_cannot_do_have_the_first_things_set_out() -> None:
    frame = parse_request("grate the carrot and mix it with the oil")
    step = gathering(frame, _holds("carrot", "oil"))
    assert step is not None and [phrase.text for phrase in step.objects] == ["the carrot"]
    assert left_undone(frame) == frame.steps


def test_the_first_missing_step_that_names_a_thing_of_the_scene_gives_the_things() -> None:
    frame = parse_request("mix them together, then spread the jam on the toast")
    step = gathering(frame, _holds("jam", "toast"))
    assert step is not None and [phrase.text for phrase in step.objects] == ["the jam"]
