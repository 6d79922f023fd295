"""Understanding that generalises: dialogues through the whole turn tree, no model.

Each test runs the real tree (packs, simulator, fresh memory; backend ``none``) in a small
kitchen written here, and says what the robot must say or do. The phrasings vary the objects,
rooms and wording of the cases that first showed each fault, so that a fix by word list
would not pass.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import py_trees
import pytest

from cogtree.evaluation.scenarios.scenario_run import TurnRecord, scenario_session
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import Scenario, parse_scenario
from cogtree.trees.assistant_session import AssistantSession

KITCHEN = """
id: understanding_kitchen
title: A kitchen and a living room for dialogue tests
tier: simple
robot: robot1
world:
  rooms:
    kitchen: {}
    living_room: {label: living room, synonyms: [lounge]}
  doors:
    arch: {between: [kitchen, living_room], kind: passage}
  furniture:
    counter: {kind: surface, type: Counter, room: kitchen, height_m: 0.9, label: kitchen counter}
    fridge: {kind: container, type: Fridge, room: kitchen, height_m: 1.0, open: false,
             flags: [appliance, electrical], powered: true}
    cupboard: {kind: container, type: Cupboard, room: kitchen, height_m: 1.5, open: false}
    drawer: {kind: container, type: Drawer, room: kitchen, height_m: 0.8, open: false}
    kitchen_table: {kind: surface, type: Table, room: kitchen, height_m: 0.75,
                    label: kitchen table}
    sink: {kind: surface, type: Sink, room: kitchen, height_m: 0.85,
           flags: [water_source, appliance], powered: false}
    sofa: {kind: surface, type: Sofa, room: living_room, height_m: 0.45}
    shelf: {kind: surface, type: Shelf, room: living_room, height_m: 1.1}
  objects:
    yoghurt: {type: Yoghurt, in: fridge, mass_kg: 0.2}
    butter: {type: Butter, in: fridge, mass_kg: 0.25}
    tangerine: {type: Mandarin, on: kitchen_table, mass_kg: 0.1, label: tangerine}
    plum: {type: Plum, on: kitchen_table, mass_kg: 0.1, label: plum}
    stock_pot: {type: Pot, on: counter, material: metal, mass_kg: 1.5, label: stock pot}
    toaster: {type: Toaster, on: counter, mass_kg: 2.0}
    red_wine: {type: Wine, on: counter, mass_kg: 1.2, label: bottle of red wine}
    corkscrew: {type: Corkscrew, in: drawer, material: metal, mass_kg: 0.1}
    tumbler: {type: Glass, in: cupboard, material: glass, flags: [fragile], capacity_ml: 300,
              empty: true, mass_kg: 0.2, label: tumbler}
    green_cup: {type: Cup, in: cupboard, colour: green, empty: true, mass_kg: 0.2,
                label: green cup}
    white_cup: {type: Cup, on: shelf, colour: white, empty: true, mass_kg: 0.2,
                label: white cup}
    remote: {type: Remote, on: sofa, mass_kg: 0.15, label: remote control}
    jam: {type: Jam, on: shelf, mass_kg: 0.3, label: jar of jam}
  robots:
    robot1: {profile: humanoid, room: kitchen}
  people:
    sam: {room: living_room}
  types:
    Yoghurt: {broader: Food, label: yoghurt}
    Butter: {broader: Food, label: butter}
    Mandarin: {broader: Fruit, label: mandarin, synonyms: [tangerine, clementine]}
    Plum: {broader: Fruit, label: plum}
    Pot: {label: pot}
    Toaster: {label: toaster}
    Wine: {broader: Drink, label: wine}
    Corkscrew: {label: corkscrew}
    Cup: {label: cup}
    Jam: {broader: Food, label: jam}
    Sofa: {label: sofa}
    Sink: {label: sink}
belief:
  objects: [butter, tangerine, plum, stock_pot, toaster, red_wine, corkscrew, tumbler,
            green_cup, white_cup, remote, jam]
  seen_seconds_ago: 600
request: {speaker: sam, text: hello}
goal: {all: ["on(remote, sofa)"]}
"""
"""The yoghurt is in the fridge, but the robot has not seen it (it is not in the belief)."""


@dataclass(frozen=True)
class Said:
    """One turn as the user saw it: the reply and the gate's decision."""

    reply: str
    control: str | None


@pytest.fixture(scope="module")
def kitchen() -> Scenario:
    return parse_scenario(KITCHEN, source="understanding_kitchen")


@pytest.fixture(scope="module")
def domains() -> DomainRegistry:
    return DomainRegistry.discover()


class Dialogue:
    """A session over the kitchen: say a line, get what the robot said and did."""

    def __init__(self, session: AssistantSession, simulator: SimExecutor) -> None:
        self.session = session
        self.simulator = simulator

    def say(self, text: str) -> Said:
        turn = self.session.turn(text)
        return Said(reply=turn.reply, control=turn.control)


@pytest.fixture
def talk(kitchen: Scenario, domains: DomainRegistry) -> Iterator[Dialogue]:
    client = LLMClient(LLMConfig.load().with_backend("none"))
    py_trees.blackboard.Blackboard.clear()
    with scenario_session(kitchen, llm=client, domains=domains) as (session, simulator):
        yield Dialogue(session, simulator)
    py_trees.blackboard.Blackboard.clear()
    client.close()


# -- a verb the robot has no skill for ----------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "said"),
    [
        ("throw the pot", "throw the pot"),
        ("please toss the tumbler", "toss the tumbler"),
        ("juggle the plum and the tangerine", "juggle the plum and the tangerine"),
        ("could you kick the remote control", "kick the remote control"),
    ],
)
def test_a_verb_without_a_skill_is_refused_by_name(
    talk: Dialogue, request_text: str, said: str
) -> None:
    heard = talk.say(request_text)
    assert heard.control == "Reject"
    assert f"can't {said}" in heard.reply


def test_throwing_to_someone_is_still_handing_over(talk: Dialogue) -> None:
    heard = talk.say("toss me the remote control")
    assert heard.control == "Proceed"
    assert "brought you the remote control" in heard.reply


def test_a_switching_verb_without_its_particle_asks_which_and_the_particle_answers(
    talk: Dialogue,
) -> None:
    asked = talk.say("could you switch the toaster")
    assert asked.control == "Clarify"
    assert asked.reply == "Should I switch the toaster on or off?"
    done = talk.say("on, please")
    assert done.control == "Proceed"
    assert "SWITCH_ON(toaster)" in done.reply  # the kitchen's toaster has no power socket
    assert "set aside" not in done.reply  # the answer completed the request it was asked of


# -- the fallback question is one short sentence ------------------------------------------------


def test_an_unclear_request_gets_one_short_question_naming_what_was_understood(
    talk: Dialogue,
) -> None:
    heard = talk.say("swap the plum for the jam")
    assert heard.control == "Clarify"
    assert heard.reply.count("?") == 1 and heard.reply.count(".") == 0
    assert "the plum" in heard.reply
    assert len(heard.reply) < 80


# -- questions about the scene are answered from the belief -------------------------------------


def test_how_many_counts_the_things_of_a_kind_and_says_where(talk: Dialogue) -> None:
    heard = talk.say("How many cups have we got?")
    assert heard.control == "Proceed"
    count, _, listed = heard.reply.removeprefix("I know of ").partition(": ")
    assert int(count) == len(listed.split(", ")) >= 2  # the taxonomy may know more cups
    assert "green cup in the cupboard" in listed and "white cup on the shelf" in listed


def test_how_many_keeps_the_place_said_after_the_verb(talk: Dialogue) -> None:
    heard = talk.say("how many cups are on the shelf")
    assert heard.reply == "I know of 1: the white cup on the shelf."


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Have we got any plums?", ["plum on the kitchen table"]),
        ("is there a corkscrew", ["corkscrew in the drawer"]),
        ("Are there any cups on the shelf?", ["white cup"]),
    ],
)
def test_is_there_answers_yes_with_where_from_the_belief(
    talk: Dialogue, question: str, named: list[str]
) -> None:
    heard = talk.say(question)
    assert heard.control == "Proceed"
    assert heard.reply.startswith("Yes: ")
    assert all(name in heard.reply for name in named), heard.reply
    assert "green cup" not in heard.reply


@pytest.mark.parametrize(
    ("question", "named"),
    [
        (
            "What fruit have we got?",
            ["tangerine on the kitchen table", "plum on the kitchen table"],
        ),
        ("which food do we have", ["butter", "jar of jam on the shelf"]),
        ("what's on the kitchen table?", ["tangerine", "plum"]),
        ("What is in the cupboard", ["green cup", "tumbler"]),
    ],
)
def test_what_there_is_is_a_list_not_a_yes(talk: Dialogue, question: str, named: list[str]) -> None:
    heard = talk.say(question)
    assert heard.control == "Proceed"
    assert heard.reply.startswith("I have seen "), heard.reply
    assert all(name in heard.reply for name in named), heard.reply
    assert "remote" not in heard.reply and "yoghurt" not in heard.reply


def test_a_kind_the_robot_has_not_seen_is_a_no(talk: Dialogue) -> None:
    heard = talk.say("Do we have any yoghurt?")  # in the fridge, but never seen
    assert heard.control == "Proceed"
    assert heard.reply.startswith("No, I have not seen any yoghurt")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("is the fridge still on?", "Yes: the fridge is on."),
        ("did I leave the sink on? can't recall", "No: the sink is off."),
        ("Is the fridge off, do you know?", "No: the fridge is on."),
    ],
)
def test_a_question_whether_a_thing_is_on_is_answered_from_the_belief(
    talk: Dialogue, question: str, answer: str
) -> None:
    heard = talk.say(question)  # "still on" is a cue to switch off: a question is no order
    assert heard.control == "Proceed"
    assert heard.reply == answer


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("hang on, did I leave the cupboard open?", "No: the cupboard is closed."),
        ("is the drawer shut, do you know?", "Yes: the drawer is closed."),
        ("have I left the fridge open", "No: the fridge is closed."),
    ],
)
def test_a_question_whether_a_thing_is_open_is_answered_from_the_belief(
    talk: Dialogue, question: str, answer: str
) -> None:
    heard = talk.say(question)  # a question, not an order to open or close it
    assert heard.control == "Proceed"
    assert heard.reply == answer
    assert not talk.simulator.world.state.open.get("cupboard")


def test_where_a_kind_is_tells_each_thing_of_it_instead_of_asking_which(talk: Dialogue) -> None:
    heard = talk.say("where's the fruit, do you know?")
    assert heard.control == "Proceed"
    assert heard.reply == (
        "The plum is on the kitchen table in the kitchen. "
        "The tangerine is on the kitchen table in the kitchen."
    )


def test_a_tag_after_the_place_asked_about_leaves_the_place(talk: Dialogue) -> None:
    heard = talk.say("What's in the cupboard, do you know?")
    assert heard.reply.startswith("I have seen "), heard.reply
    assert "green cup" in heard.reply and "tumbler" in heard.reply


def test_what_is_asked_to_remain_and_tags_are_not_the_kind(talk: Dialogue) -> None:
    heard = talk.say("is there any jam left, d'you reckon?")
    assert heard.reply.startswith("Yes: "), heard.reply
    assert "jar of jam on the shelf" in heard.reply


# -- category, purpose and content ----------------------------------------------------------------


def test_a_portion_is_read_as_the_kind_it_is_of(talk: Dialogue) -> None:
    heard = talk.say("Grab me a piece of fruit")  # the taxonomy's fruit: the plum, the tangerine
    assert "have not seen" not in heard.reply
    assert "tangerine" in heard.reply and "plum" in heard.reply


@pytest.mark.parametrize(
    "request_text",
    ["I need something to open this wine", "fetch me something to open the bottle with"],
)
def test_a_thing_asked_for_by_its_use_is_the_tool_whose_use_fits(
    talk: Dialogue, request_text: str
) -> None:
    heard = talk.say(request_text)
    assert heard.control == "Proceed"
    assert "brought you the corkscrew" in heard.reply


def test_a_glass_of_water_is_filled_before_it_is_handed_over(talk: Dialogue) -> None:
    record = TurnRecord()
    record.add(talk.session.turn("bring me a glass of water"))
    ran = record.executed
    filled = ran.index("FILL(container=tumbler, source=sink, hand=right)")
    assert filled < ran.index("HANDOVER(object=tumbler, person=sam, hand=right)")
    # each step said in its own words, not the steps dumped (failed before)
    assert record.turns[-1].reply == "I filled the tumbler with water. I brought you the tumbler."


def test_a_bit_of_water_in_a_cup_fills_it_a_little(talk: Dialogue) -> None:
    """Checked to fail before: "a bit of water" was read as "a water", which nothing is."""
    record = TurnRecord()
    record.add(talk.session.turn("pop a bit of water in the green cup"))
    fills = [step for step in record.executed if step.startswith("FILL(")]
    assert len(fills) == 1 and "amount_ml=" in fills[0], record.executed
    assert record.turns[-1].reply.startswith("I filled the green cup with water"), record.turns


def test_a_glass_of_a_drink_is_poured_before_it_is_handed_over(talk: Dialogue) -> None:
    heard = talk.say("could you get me a glass of wine?")
    assert heard.control == "Proceed"  # the bottle here holds nothing: the plan says what it is
    assert "pour(red_wine, tumbler), then bring(tumbler, sam)" in heard.reply, heard.reply


@pytest.mark.parametrize(
    "request_text", ["Do you have a plum for me?", "have you got a jar of jam I could take"]
)
def test_a_question_of_having_for_the_speaker_asks_for_the_thing(
    talk: Dialogue, request_text: str
) -> None:
    heard = talk.say(request_text)
    assert heard.control == "Proceed"
    assert heard.reply.startswith("I brought you the "), heard.reply


# -- a follow-up that adds to the last request ----------------------------------------------------


@pytest.mark.parametrize(
    ("first", "then", "done"),
    [
        ("put the plum on the kitchen table", "Thanks. And the jam too.",
         "the jar of jam to the kitchen table"),
        ("take the remote control to the kitchen table", "the jar of jam as well",
         "the jar of jam to the kitchen table"),
        ("bring me the green cup", "also the white one", "brought you the white cup"),
    ],
)  # fmt: skip
def test_a_follow_up_that_adds_does_the_earlier_request_to_what_it_names(
    talk: Dialogue, first: str, then: str, done: str
) -> None:
    """Checked to fail before: the follow-up was read as a thing asked for, or not at all."""
    assert talk.say(first).control == "Proceed"
    heard = talk.say(then)
    assert heard.control == "Proceed", heard.reply
    assert done in heard.reply, heard.reply


def test_a_second_fill_in_a_row_takes_the_free_hand_and_is_seen_filled(talk: Dialogue) -> None:
    """Checked to fail before: the belief did not say which hand held the first cup, so the
    second pick planned the full hand and failed; and a cup filled from empty was never seen
    to hold water (the robot said it could not tell)."""
    assert talk.say("fill the green cup with water").control == "Proceed"
    heard = talk.say("and the white cup too")
    assert heard.control == "Proceed", heard.reply
    assert "filled the white cup" in heard.reply, heard.reply
    world = talk.simulator.world
    assert set(world.held("robot1").values()) == {"green_cup", "white_cup"}
    assert (liquid := world.liquid_in("white_cup")) is not None and liquid.liquid == "water"


@pytest.mark.parametrize("yes", ["yes", "yes, that one"])
def test_a_guess_by_size_is_asked_about_and_a_yes_takes_it(talk: Dialogue, yes: str) -> None:
    """Checked to fail before: a thing found only by a guess was "not seen anywhere"."""
    asked = talk.say("bring me the big pot")
    assert asked.control == "Clarify" and "Do you mean the stock pot" in asked.reply, asked.reply
    heard = talk.say(yes)
    assert heard.control == "Proceed" and "brought you the stock pot" in heard.reply, heard.reply


@pytest.mark.parametrize("no", ["no", "no, not that one", "nope, the other one"])
def test_a_no_to_a_guess_asks_where_the_thing_is_and_moves_nothing(talk: Dialogue, no: str) -> None:
    assert "Do you mean the stock pot" in talk.say("fetch me the huge pot").reply
    heard = talk.say(no)
    assert heard.control == "Clarify", heard.reply
    assert "have not seen the huge pot" in heard.reply, heard.reply
    assert "stock_pot" not in talk.simulator.world.held("robot1").values()


def test_a_thing_said_first_and_pointed_at_is_brought_from_where_it_is(talk: Dialogue) -> None:
    """Checked to fail before: "on the shelf" was read as where to bring it ("Nothing needed
    doing: the white cup is already on the shelf")."""
    heard = talk.say("the white cup on the shelf - could you bring that over?")
    assert heard.control == "Proceed" and "brought you the white cup" in heard.reply, heard.reply


def test_a_no_then_the_one_meant_picks_it(talk: Dialogue) -> None:
    """Checked to fail before: "No, the white one - on the shelf." was a new request."""
    assert "Which cup do you mean" in talk.say("bring me a cup").reply
    heard = talk.say("No, the white one - on the shelf.")
    assert heard.control == "Proceed" and "white cup" in heard.reply, heard.reply


def test_either_is_no_choice_among_guesses(talk: Dialogue) -> None:
    """Found by review: "either" took the first of the guessed cups (a wine bottle among them)."""
    assert "Which large cup" in talk.say("could you get me the large cup").reply
    heard = talk.say("either")
    assert heard.control == "Clarify" and "Which large cup" in heard.reply, heard.reply
    assert not talk.simulator.world.held("robot1"), heard.reply
    assert "white cup" in talk.say("the white one").reply  # the question, asked again, stands


def test_several_guesses_are_offered_to_pick_from(talk: Dialogue) -> None:
    asked = talk.say("could you get me the large cup")
    assert asked.control == "Clarify", asked.reply
    assert "green cup" in asked.reply and "white cup" in asked.reply, asked.reply
    heard = talk.say("the white one")
    assert heard.control == "Proceed" and "white cup" in heard.reply, heard.reply


@pytest.mark.parametrize("then", ["same again", "and the plum too"])
def test_a_request_that_did_not_run_is_never_carried_on(talk: Dialogue, then: str) -> None:
    """Found by review: a request the user turned down ran on "same again"."""
    assert talk.say("put the tangerine on the sofa? no, stop").control != "Proceed"
    talk.say("no")
    heard = talk.say(then)
    assert "sofa" not in heard.reply, heard.reply


@pytest.mark.parametrize(
    "said",
    [
        "put the stock pot on the shelf, there's a hamster in it",
        "put the plum on the shelf",  # then the follow-up says it
    ],
)
def test_a_living_thing_said_to_be_in_it_keeps_the_thing_from_being_moved(
    talk: Dialogue, said: str
) -> None:
    """Found by review: a living thing named with "it" after a comma was missed."""
    heard = talk.say(said)
    if "hamster" not in said:
        heard = talk.say("and the stock pot too - there's a hamster in it")
    assert heard.control == "Reject", heard.reply
    assert 'the stock pot has "hamster" in it' in heard.reply
    assert "is alive" not in heard.reply, heard.reply  # the pot holds one; it is not one


def test_a_thing_said_alone_with_no_adding_word_does_not_repeat_the_earlier_act(
    talk: Dialogue,
) -> None:
    assert talk.say("put the plum on the kitchen table").control == "Proceed"
    heard = talk.say("the jar of jam")
    assert "kitchen table" not in heard.reply, heard.reply


# -- where a thing goes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "answer", "thing", "place"),
    [
        ("could you put the remote away", "in the cupboard", "remote", "cupboard"),
        ("put the jam back please", "on the kitchen table", "jam", "kitchen_table"),
    ],
)
def test_a_thing_with_no_known_home_is_put_where_the_answer_says(
    talk: Dialogue, request_text: str, answer: str, thing: str, place: str
) -> None:
    asked = talk.say(request_text)  # nothing here has a home place the robot knows
    assert asked.control == "Clarify"
    assert asked.reply.startswith("Where should I put it"), asked.reply
    done = talk.say(answer)
    assert done.control == "Proceed", done.reply
    assert talk.simulator.world.state.placements[thing].support == place


HOMES = """
@prefix cog: <https://cogtree.dev/ontology#> .
@prefix : <https://cogtree.dev/scene#> .
:jam cog:homePlace :cupboard .
:tumbler cog:homePlace :shelf .
"""
"""Where two things of the kitchen go, told to the robot's belief for these tests."""


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("where does the jar of jam go?", "The jar of jam goes in the cupboard"),
        ("where should I put the tumbler?", "The tumbler goes on the shelf"),
    ],
)
def test_where_a_thing_goes_is_answered_from_its_home(
    talk: Dialogue, question: str, answer: str
) -> None:
    talk.session.runner.handles["scene_graph"].load_text(HOMES, source="homes")
    heard = talk.say(question)
    assert heard.control == "Proceed"
    assert heard.reply.startswith(answer), heard.reply


def test_a_thing_with_a_known_home_is_put_away_without_asking(talk: Dialogue) -> None:
    talk.session.runner.handles["scene_graph"].load_text(HOMES, source="homes")
    heard = talk.say("could you put the jam away")
    assert heard.control == "Proceed", heard.reply
    assert talk.simulator.world.state.placements["jam"].support == "cupboard"


def test_a_yes_to_the_proposed_home_puts_the_thing_there(talk: Dialogue) -> None:
    """No home place is known: the robot proposes where such things usually are (butter: the
    fridge); "yeah, cheers" takes the proposal, a yes with closing words."""
    asked = talk.say("put the butter back")
    assert asked.control == "Clarify"
    assert asked.reply == "Where should I put it: in the fridge?", asked.reply
    done = talk.say("yeah, cheers")
    assert done.control == "Proceed", done.reply
    assert talk.simulator.world.state.placements["butter"].support == "fridge"


def test_a_no_to_the_proposed_home_asks_where_instead(talk: Dialogue) -> None:
    talk.say("put the jam back")  # the jam usually goes in the cupboard
    asked = talk.say("no")
    assert asked.control == "Clarify"
    assert asked.reply == "Where should I put it: a piece of furniture or a container?"
    done = talk.say("on the kitchen table")
    assert done.control == "Proceed", done.reply
    assert talk.simulator.world.state.placements["jam"].support == "kitchen_table"


# -- social turns are answered in kind, never refused or read as answers ------------------------


@pytest.mark.parametrize(
    ("said", "answer"),
    [
        ("thank you", "You're welcome."),
        ("hello, how are you?", "Hello! I'm well, thank you. What can I do for you?"),
        ("no thanks, I'm fine", "All right."),
    ],
)
def test_a_social_turn_is_answered_in_kind(talk: Dialogue, said: str, answer: str) -> None:
    heard = talk.say(said)
    assert (heard.control, heard.reply) == ("Acknowledge", answer)


def test_thanks_said_while_a_question_waits_leave_the_question_waiting(talk: Dialogue) -> None:
    asked = talk.say("bring me a cup")
    assert asked.control == "Clarify"
    assert talk.say("hello").reply == "Hello! What can I do for you?"  # not a thing asked about
    done = talk.say("the white one")
    assert done.control == "Proceed"
    assert "brought you the white cup" in done.reply
