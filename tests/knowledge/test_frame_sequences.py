"""A request of several steps as a sequence of pack tasks: "and", "then", commas; "it"
carried from the step before; a bare pick-up folded into the step about it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cogtree.knowledge.language.request_frame import RequestFrame, parse_request
from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.contents import water_as_fill
from cogtree.knowledge.understanding.frame_tasks import (
    StepTask,
    TalkedAbout,
    doable_tasks,
    one_per_thing,
    step_task,
)

Tasks = list[tuple[str, dict[str, object]]]


def sequence_tasks(
    frame: RequestFrame,
    pack: DomainPack,
    utterance: str,
    known: Callable[[str], bool] | None = None,
    earlier: TalkedAbout | None = None,
) -> list[StepTask] | None:
    """The tasks of every step of ``frame``; None when some step is left (none of it done)."""
    done = doable_tasks(frame, pack, utterance, known, earlier)
    return None if done.left else done.tasks


@pytest.fixture(scope="module")
def household() -> DomainPack:
    return DomainRegistry.discover(active="household").get("household")


def tasks_of(pack: DomainPack, text: str) -> Tasks | None:
    found = sequence_tasks(parse_request(text), pack, text)
    return None if found is None else [(task.task, task.slots) for task in found]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "open the larder and get out the jam",
            [("Open", {"container": "the larder"}), ("Fetch", {"object": "the jam"})],
        ),
        (
            "switch off the radio then wipe the windowsill",
            [("SwitchOff", {"appliance": "the radio"}), ("Wipe", {"surface": "the windowsill"})],
        ),
        (
            "close the dishwasher, then throw away the peel",
            [("Close", {"container": "the dishwasher"}), ("Dispose", {"object": "the peel"})],
        ),
    ],
)
def test_two_steps_joined_by_and_then_or_a_comma(
    household: DomainPack, text: str, expected: Tasks
) -> None:
    assert tasks_of(household, text) == expected


def test_three_steps_with_a_comma_and_then(household: DomainPack) -> None:
    text = "open the bread bin, take the rolls to the dining table and then shut the bread bin"
    assert tasks_of(household, text) == [
        ("Open", {"container": "the bread bin"}),
        ("Bring", {"object": "the rolls", "destination": "the dining table"}),
        ("Close", {"container": "the bread bin"}),
    ]


def test_it_is_the_thing_the_step_before_acted_on(household: DomainPack) -> None:
    assert tasks_of(household, "fill the watering can and then empty it into the planter") == [
        ("Fill", {"container": "the watering can"}),
        ("Pour", {"source": "the watering can", "target": "the planter"}),
    ]


def test_it_carries_through_three_steps(household: DomainPack) -> None:
    text = "fill the flask, put it on the tray and then switch it on"
    assert tasks_of(household, text) == [
        ("Fill", {"container": "the flask"}),
        ("Bring", {"object": "the flask", "destination": "the tray"}),
        ("SwitchOn", {"appliance": "the flask"}),
    ]


def test_it_after_putting_something_in_a_container_that_is_switched_is_the_container(
    household: DomainPack,
) -> None:
    assert tasks_of(household, "put the pie dish in the oven and turn it on") == [
        ("Bring", {"object": "the pie dish", "destination": "the oven"}),
        ("SwitchOn", {"appliance": "the oven"}),
    ]


def test_it_as_a_landmark_is_the_thing_said_before(household: DomainPack) -> None:
    assert tasks_of(household, "wipe the bench, then stand the vase on it") == [
        ("Wipe", {"surface": "the bench"}),
        ("Bring", {"object": "the vase", "destination": "the bench"}),
    ]


def test_a_bare_pick_up_is_folded_into_the_step_about_it(household: DomainPack) -> None:
    found = sequence_tasks(
        parse_request("grab the colander and put it in the sink"),
        household,
        "grab the colander and put it in the sink",
    )
    assert found is not None and len(found) == 1
    assert (found[0].task, found[0].slots) == (
        "Bring",
        {"object": "the colander", "destination": "the sink"},
    )
    assert found[0].said == "put it in the sink"


def test_a_thing_carried_on_to_another_place_is_one_task(household: DomainPack) -> None:
    text = "carry the lamp to the study and set it on the desk"
    found = sequence_tasks(parse_request(text), household, text)
    assert found is not None and len(found) == 1
    assert (found[0].task, found[0].slots) == (
        "Bring",
        {"object": "the lamp", "destination": "the desk"},
    )
    assert found[0].said == "carry the lamp to the study and set it on the desk"


def test_each_task_keeps_its_clause_without_the_joining_words(household: DomainPack) -> None:
    text = "fill the jug, and after that switch on the lamp"
    found = sequence_tasks(parse_request(text), household, text)
    assert found is not None
    assert [task.said for task in found] == ["fill the jug", "switch on the lamp"]


def test_a_step_no_task_holds_leaves_no_sequence(household: DomainPack) -> None:
    assert tasks_of(household, "go to the porch, then sweep the step") is None


def test_water_put_in_a_container_fills_it() -> None:
    step = water_as_fill(parse_request("pour some water into the teapot").steps[0])
    assert step.action == "fill" and [phrase.text for phrase in step.objects] == ["the teapot"]
    kept = parse_request("pour the water into the teapot").steps[0]
    assert water_as_fill(kept) == kept  # the water of some jug, not the tap's


def test_one_step_water_request_is_fill(household: DomainPack) -> None:
    text = "put water in the vase"
    found = step_task(parse_request(text).steps[0], household, text)
    assert found is not None and (found.task, found.slots) == ("Fill", {"container": "the vase"})


@pytest.mark.parametrize(
    ("text", "task"),
    [
        ("fill the kettle from the tap", ("Fill", {"container": "the kettle"})),
        ("top up the jug from the sink", ("Fill", {"container": "the jug"})),
        # a vessel's liquid is poured from it (the hazard rules judge what it holds)
        ("fill the vase from the jug", ("Pour", {"source": "the jug", "target": "the vase"})),
        (
            "top up the dog bowl from the kettle",
            ("Pour", {"source": "the kettle", "target": "the dog bowl"}),
        ),
    ],
)
def test_a_fill_from_a_tap_fills_there(
    household: DomainPack, text: str, task: tuple[str, dict[str, object]]
) -> None:
    """Checked to fail before: the tap joined the container ("the kettle from the tap"),
    which matched nothing."""
    found = step_task(parse_request(text).steps[0], household, text)
    assert found is not None and (found.task, found.slots) == task


def test_the_particle_before_a_place_is_not_part_of_the_thing() -> None:
    step = parse_request("take the cheese out onto the board").steps[0]
    assert [phrase.text for phrase in step.objects] == ["the cheese"]
    assert step.landmark is not None and step.landmark.text == "the board"


def test_a_purpose_clause_is_no_task_of_a_sequence(household: DomainPack) -> None:
    frame = parse_request("tip the oil into the pan to fry the onions")
    assert [step.purpose for step in frame.steps] == [False, True]
    assert tasks_of(household, "pour the vinegar in the bucket to clean the floor") is None


def test_folding_a_pick_up_keeps_where_it_comes_from_and_never_drops_a_tool(
    household: DomainPack,
) -> None:
    assert tasks_of(household, "take the yoghurt out of the fridge and put it on the tray") == [
        ("Bring", {"object": "the yoghurt out of the fridge", "destination": "the tray"})
    ]
    assert tasks_of(household, "use the tongs to lift the bun and put it on the plate") is None


def test_water_from_somewhere_or_into_it_is_not_the_taps() -> None:
    for text in ("pour some water from the jug into the pan", "put water in it"):
        step = parse_request(text).steps[0]
        assert water_as_fill(step) == step


def test_a_pick_up_before_a_step_about_its_place_is_folded(household: DomainPack) -> None:
    assert tasks_of(household, "grab the fruit bowl and put the kiwi in it") == [
        ("Bring", {"object": "the kiwi", "destination": "the fruit bowl"})
    ]


def test_no_sequence_when_the_frame_cannot_say_where_or_what(household: DomainPack) -> None:
    assert tasks_of(household, "fetch the tray and place the scone inside") is None
    assert tasks_of(household, "take the teapot and pour its contents into the mug") is None


def _knows(*names: str) -> Callable[[str], bool]:
    return lambda words: any(name in words for name in names)


def test_several_things_for_a_one_thing_task_are_one_task_each(household: DomainPack) -> None:
    text = "put the oat milk and the orange squash in the fridge"
    found = sequence_tasks(parse_request(text), household, text, _knows("oat milk", "squash"))
    assert found is not None
    assert [(task.task, task.slots) for task in found] == [
        ("Bring", {"object": "the oat milk", "destination": "the fridge"}),
        ("Bring", {"object": "the orange squash", "destination": "the fridge"}),
    ]
    assert [task.said for task in found] == [f"{text}: the oat milk", f"{text}: the orange squash"]
    text = "pick up the saucer and the teaspoon and put them in the sink"
    found = sequence_tasks(parse_request(text), household, text, _knows("saucer", "teaspoon"))
    assert found is not None
    assert [task.slots["object"] for task in found] == ["the saucer", "the teaspoon"]


def test_several_things_stay_whole_when_one_is_unknown_or_a_choice(household: DomainPack) -> None:
    text = "put the oat milk and the orange squash in the fridge"
    assert sequence_tasks(parse_request(text), household, text, _knows("oat milk")) is None
    assert sequence_tasks(parse_request(text), household, text) is None  # nothing known
    text = "bring me the lime cordial or the tonic"
    step = parse_request(text).steps[0]
    assert one_per_thing(step, household, text, _knows("cordial", "tonic")) == [step]


def test_it_in_a_sequence_is_what_the_last_turn_talked_about(household: DomainPack) -> None:
    earlier = TalkedAbout(said=["the flask is on the landing"], things=["flask"])
    text = "fetch it and then close the larder"
    found = sequence_tasks(parse_request(text), household, text, earlier=earlier)
    assert found is not None
    assert [(task.task, task.slots) for task in found] == [
        ("Fetch", {"object": "flask"}),
        ("Close", {"container": "the larder"}),
    ]
    assert found[0].said_before == ("the flask is on the landing",)
    assert sequence_tasks(parse_request(text), household, text) is None  # "it": unsaid


def test_the_cloth_to_wipe_with_is_the_wipes_tool(household: DomainPack) -> None:
    text = "wipe the hob with the blue cloth"
    found = step_task(parse_request(text).steps[0], household, text)
    assert found is not None and found.task == "Wipe"
    assert found.slots == {"surface": "the hob", "tool": "the blue cloth"}
