"""AskClarification: a deterministic question naming what is missing; the pending task."""

from __future__ import annotations

import py_trees
import pytest
from py_trees.common import Status

from cogtree.behaviours.actions.dialogue.clarify import AskClarification
from cogtree.behaviours.actions.dialogue.dialogue import ControlIs
from cogtree.behaviours.actions.dialogue.parse_request import ParseRequest
from cogtree.behaviours.actions.grounding.memory_write import Consolidate
from cogtree.behaviours.gates.task_readiness import TaskReadinessGate
from cogtree.knowledge.clarifying_questions import (
    field_question,
    slot_question,
    task_question,
    unseen_question,
)
from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.packs.domains.household.tasks import Fetch, Fill
from cogtree.knowledge.scene.scene_models import Candidate
from cogtree.knowledge.understanding.turn_state import IntentFrame, PendingTask, SlotResolution
from cogtree.trees.testing import TreeHarness


def ask(blackboard, make_llm, shipped_domains, presets, **handles) -> AskClarification:
    for key, value in presets.items():
        blackboard.set(key, value)
    node = AskClarification()
    harness = TreeHarness(
        node, llm=make_llm().client, handles={"domains": shipped_domains, **handles}
    )
    harness.tick_until(max_ticks=2000, period_s=0.005)
    return node


BOTTLES = SlotResolution(
    slot="object", said="the bottle", kind="scene", ids=["bottle_blue", "bottle_green"]
)


def fetch_bottle(said: str = "bring me the bottle") -> dict:
    return {
        "/turn/utterance": said,
        "/turn/domain": "household",
        "/turn/intent": IntentFrame(
            domain="household",
            task="Fetch",
            slots={"object": "the bottle"},
            confidence=0.9,
            said=[said],
        ),
        "/turn/missing": ["object"],
        "/turn/resolved": {"object": BOTTLES},
    }


def test_ambiguous_referent_lists_the_candidates_and_where_they_are(
    blackboard, make_llm, shipped_domains, scene, workers
):
    node = ask(
        blackboard, make_llm, shipped_domains, fetch_bottle(), scene_graph=scene, workers=workers
    )
    assert node.status == Status.SUCCESS
    assert blackboard.get("/turn/reply") == (
        "Which bottle do you mean: the blue bottle in the fridge or the green bottle on the "
        "kitchen table?"
    )
    pending = blackboard.get("/session/pending")
    assert pending == PendingTask(
        domain="household",
        task="Fetch",
        slots={"object": "the bottle"},  # kept: an answer to another question leaves it asked
        missing=["object"],
        said=["bring me the bottle"],
        question=blackboard.get("/turn/reply"),
        options={"object": ["blue bottle", "green bottle"]},  # their labels, as the question
    )


def test_without_a_scene_graph_the_candidates_are_named_by_label(
    blackboard, make_llm, shipped_domains
):
    candidates = [
        Candidate(id="bottle_blue", label="blue bottle", kind="object", reasons=[]),
        Candidate(id="bottle_green", label="green bottle", kind="object", reasons=[]),
    ]
    presets = {**fetch_bottle(), "/turn/candidates": candidates}
    ask(blackboard, make_llm, shipped_domains, presets)
    assert blackboard.get("/turn/reply") == (
        "Which bottle do you mean: the blue bottle or the green bottle?"
    )


def test_an_unknown_value_is_named(blackboard, make_llm, shipped_domains):
    said = "how many calories are in zebra cake"
    presets = {
        "/turn/utterance": said,
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(
            domain="advisor", task="DishInfo", slots={"dish": "zebra cake"}, said=[said]
        ),
        "/turn/missing": ["dish"],
        "/turn/resolved": {"dish": SlotResolution(slot="dish", said="zebra cake", kind="kg")},
    }
    ask(blackboard, make_llm, shipped_domains, presets)
    assert blackboard.get("/turn/reply") == (
        "I don't know a dish called 'zebra cake'. Which dish do you mean?"
    )


def test_a_missing_slot_is_asked_from_its_field_description(blackboard, make_llm, shipped_domains):
    said = "please add this to my database"
    presets = {
        "/turn/utterance": said,
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(domain="advisor", task="AddToDatabase", said=[said]),
        "/turn/missing": ["targets"],
    }
    ask(blackboard, make_llm, shipped_domains, presets)
    reply = blackboard.get("/turn/reply")
    assert reply.startswith("What should I remember: the foods, allergens, intolerances or diets")
    assert blackboard.get("/session/pending").missing == ["targets"]


def test_several_missing_slots_get_one_question_each(blackboard, make_llm, shipped_domains):
    said = "take it"
    presets = {
        "/turn/utterance": said,
        "/turn/domain": "household",
        "/turn/intent": IntentFrame(domain="household", task="Bring", said=[said]),
        "/turn/missing": ["object", "destination"],
    }
    ask(blackboard, make_llm, shipped_domains, presets)
    assert blackboard.get("/turn/reply") == (
        "Which object should I take? Where should I take it: a room, a piece of furniture or a "
        "person?"
    )


def test_no_task_asks_what_to_do_and_keeps_the_pending_task(blackboard, make_llm, shipped_domains):
    earlier = PendingTask(domain="household", task="Fetch", missing=["object"])
    presets = {
        "/turn/utterance": "hmm",
        "/turn/domain": "household",
        "/turn/missing": ["task"],
        "/session/pending": earlier,
    }
    ask(blackboard, make_llm, shipped_domains, presets)
    assert blackboard.get("/turn/reply") == "What would you like me to do?"  # one sentence
    assert blackboard.get("/session/pending") == earlier


def test_nothing_missing_asks_to_confirm(blackboard, make_llm, shipped_domains):
    presets = {**fetch_bottle("maybe bring me the bottle"), "/turn/missing": []}
    ask(blackboard, make_llm, shipped_domains, presets)
    assert blackboard.get("/turn/reply") == (
        'Just to be sure: should I go ahead with "maybe bring me the bottle"? '
        "Please say yes, or say it another way."
    )


def test_bad_inputs_still_get_a_question(blackboard, make_llm, shipped_domains):
    presets = {"/turn/utterance": "", "/turn/domain": "no_such_pack", "/turn/missing": ["x"]}
    node = ask(blackboard, make_llm, shipped_domains, presets)
    assert node.status == Status.SUCCESS
    assert blackboard.get("/turn/reply") == "What would you like me to do?"
    assert blackboard.get("/session/pending") is None


def new_turn(blackboard, presets: dict) -> None:
    """What the session does between turns: every /turn/* key goes, /session/* stays."""
    storage = py_trees.blackboard.Blackboard.storage
    for key in [key for key in storage if key.startswith("/turn/")]:
        del storage[key]
    for key, value in presets.items():
        blackboard.set(key, value)


def clarify_or_proceed() -> py_trees.behaviour.Behaviour:
    clarify = py_trees.composites.Sequence("Clarify", memory=True)
    clarify.add_children([ControlIs("Clarify"), AskClarification()])
    decide = py_trees.composites.Selector("Decide", memory=True)
    decide.add_children([TaskReadinessGate(), clarify])
    turn = py_trees.composites.Sequence("Turn", memory=True)
    turn.add_children([ParseRequest(), decide, Consolidate()])
    return turn


def test_a_clarification_dialogue_over_two_turns(
    blackboard, make_llm, shipped_domains, tmp_path, workers
):
    first = "please remember something about me"
    second = "I'm allergic to peanuts"
    with MemoryStore(tmp_path / "memory.db") as memory:
        handles = {"domains": shipped_domains, "memory": memory, "workers": workers}
        new_turn(
            blackboard,
            {
                "/turn/utterance": first,
                "/turn/domain": "advisor",
                "/turn/intent": IntentFrame(
                    domain="advisor", task="AddToDatabase", confidence=0.9, said=[first]
                ),
                "/turn/resolved": {},
            },
        )
        harness = TreeHarness(clarify_or_proceed(), llm=make_llm().client, handles=handles)
        harness.tick_until(max_ticks=2000, period_s=0.005)
        assert blackboard.get("/turn/control") == "Clarify"
        pending = blackboard.get("/session/pending")
        assert pending.task == "AddToDatabase" and pending.missing == ["targets"]
        assert memory.history[-1].claims == ()

        new_turn(
            blackboard,
            {
                "/turn/utterance": second,
                "/turn/domain": "advisor",
                "/turn/intent": IntentFrame(
                    domain="advisor",
                    task="AddToDatabase",
                    slots={"targets": ["peanuts"], "relation": "allergic"},
                    confidence=0.9,
                    said=[*pending.said, second],
                ),
                "/turn/resolved": {
                    "targets": SlotResolution(
                        slot="targets", said=["peanuts"], kind="kg", ids=["peanuts"]
                    ),
                    "relation": SlotResolution(
                        slot="relation", said="allergic", kind="value", ids=["allergy"]
                    ),
                },
            },
        )
        harness.tick_until(max_ticks=2000, period_s=0.005)
        assert harness.root_status == "SUCCESS"
        assert blackboard.get("/turn/control") == "Proceed"
        assert blackboard.get("/session/pending") is None
        facts = memory.read("peanuts").facts
        assert [(fact.slot, fact.text) for fact in facts] == [
            ("food.peanuts", "The user is allergic to peanuts")
        ]


def test_an_unknown_speaker_is_asked_who_is_speaking(blackboard, make_llm, shipped_domains):
    blackboard.set("/turn/utterance", "bring me my mug")
    blackboard.set(
        "/turn/intent",
        IntentFrame(domain="household", task="Fetch", slots={"object": "my mug"}, said=[]),
    )
    blackboard.set("/turn/missing", ["speaker"])
    TreeHarness(
        AskClarification(), llm=make_llm().client, handles={"domains": shipped_domains}
    ).tick()
    assert blackboard.get("/turn/reply") == "Who is speaking, please?"
    pending = blackboard.get("/session/pending")
    assert pending.missing == ["speaker"] and pending.slots == {"object": "my mug"}


def test_a_safety_doubt_is_named_and_the_pending_task_asks_to_confirm_it(
    blackboard, make_llm, shipped_domains
):
    doubt = "may be unsafe: 'knife'"
    presets = {
        **fetch_bottle("bring me the knife"),
        "/turn/missing": [],
        "/turn/safety": [doubt],
    }
    ask(blackboard, make_llm, shipped_domains, presets)
    reply = blackboard.get("/turn/reply")
    assert reply == (
        'Just to be sure: should I go ahead with "bring me the knife"? I want to be careful '
        "(may be unsafe: 'knife'). Please say yes, or say it another way."
    )
    pending = blackboard.get("/session/pending")
    assert (pending.confirm, pending.question) == ([doubt], reply)


def test_a_slot_question_confirms_no_safety_doubt(blackboard, make_llm, shipped_domains):
    presets = {**fetch_bottle("bring me the knife"), "/turn/safety": ["may be unsafe: 'knife'"]}
    ask(blackboard, make_llm, shipped_domains, presets)
    assert blackboard.get("/session/pending").confirm == []


@pytest.mark.parametrize(
    ("said", "reasons", "word"),
    [
        ("sweet", ["'sweet' -> sprite: 'sweet': a soda is typically sweet"], "one"),
        ("drank", ["'drank' -> tea: 'drink': tea is a kind of drink"], "one"),
        ("drink", ["'drink' -> tea: 'drink': tea is a kind of drink"], "drink"),
        ("the bottle", [], "bottle"),
        # a word said as a noun ("the light") asks by it, even when it matched by a use
        ("the light", ["'the light' -> lamp: 'light': a lamp is used to light"], "light"),
        # "something to drink from the fridge" names no kind: "Which something ..." read badly
        ("something to drink from the fridge", [], "one"),
    ],
)
def test_a_lone_describing_word_asks_which_one(said: str, reasons: list[str], word: str) -> None:
    resolution = SlotResolution(
        slot="object", said=said, kind="scene", ids=["a", "b"], reasons=reasons
    )
    question = slot_question("object", None, resolution, [], {"a": "the A", "b": "the B"})
    assert question == f"Which {word} do you mean: the A or the B?"


def test_a_referent_matching_many_things_is_asked_by_count_and_a_few(
    blackboard, make_llm, shipped_domains
):
    """Nobody can pick among hundreds: the question says how many and names four."""
    ids = [f"mug_{number}" for number in range(300)]
    candidates = [
        Candidate(id=found, label=f"red mug {number}", kind="object", reasons=[])
        for number, found in enumerate(ids)
    ]
    mugs = SlotResolution(slot="object", said="the red mug", kind="scene", ids=ids)
    presets = {
        **fetch_bottle("bring me the red mug"),
        "/turn/resolved": {"object": mugs},
        "/turn/candidates": candidates,
    }
    ask(blackboard, make_llm, shipped_domains, presets)
    assert blackboard.get("/turn/reply") == (
        "Which red mug do you mean? I know of 300, such as the red mug 0, the red mug 1, "
        "the red mug 2 or the red mug 3. Can you tell me where it is?"
    )
    assert blackboard.get("/rationale/AskClarification") is None  # it passed the check


def test_a_referent_resolved_to_a_limit_is_asked_by_how_many_matched(
    blackboard, make_llm, shipped_domains
):
    ids = [f"mug_{number}" for number in range(6)]
    candidates = [
        Candidate(id=found, label=f"red mug {n}", kind="object", reasons=[], among=7012)
        for n, found in enumerate(ids)
    ]
    mugs = SlotResolution(slot="object", said="the red mug", kind="scene", ids=ids)
    presets = {
        **fetch_bottle("bring me the red mug"),
        "/turn/resolved": {"object": mugs},
        "/turn/candidates": candidates,
    }
    ask(blackboard, make_llm, shipped_domains, presets)
    assert blackboard.get("/turn/reply").startswith("Which red mug do you mean? I know of 7012,")
    assert blackboard.get("/rationale/AskClarification") is None


def test_one_guessed_referent_is_proposed_and_a_no_asks_where_the_thing_is(
    blackboard, make_llm, shipped_domains, scene, workers
):
    guess = BOTTLES.model_copy(update={"ids": ["bottle_blue"], "guessed": True})
    presets = {**fetch_bottle(), "/turn/resolved": {"object": guess}}
    ask(blackboard, make_llm, shipped_domains, presets, scene_graph=scene, workers=workers)
    assert blackboard.get("/turn/reply") == "Do you mean the blue bottle in the fridge?"
    pending = blackboard.get("/session/pending")
    assert pending.proposed == {"object": "blue bottle"} and pending.unseen == ""
    presets = {**presets, "/turn/utterance": "no"}
    ask(blackboard, make_llm, shipped_domains, presets, scene_graph=scene, workers=workers)
    assert blackboard.get("/turn/reply").startswith("I have not seen the bottle anywhere")
    pending = blackboard.get("/session/pending")
    assert pending.proposed == {} and pending.unseen == "the bottle"


def test_a_missing_home_place_is_proposed_from_where_such_things_usually_are(
    blackboard, make_llm, shipped_domains, scene, workers
):
    """The belief knows no home place of the water: the taxonomy's usual place is proposed."""
    said = "put the water back"
    presets = {
        "/turn/utterance": said,
        "/turn/domain": "household",
        "/turn/intent": IntentFrame(
            domain="household",
            task="PutAway",
            slots={"object": "the water"},
            confidence=0.9,
            said=[said],
        ),
        "/turn/missing": ["destination"],
        "/turn/resolved": {
            "object": SlotResolution(slot="object", said="the water", kind="scene", ids=["water"])
        },
    }
    node = ask(blackboard, make_llm, shipped_domains, presets, scene_graph=scene, workers=workers)
    assert node.status == Status.SUCCESS
    assert blackboard.get("/turn/reply") == "Where should I put it: in the fridge?"
    assert blackboard.get("/session/pending").proposed == {"destination": "the fridge"}


def test_a_thing_never_seen_is_asked_about_in_the_listeners_words() -> None:
    question = unseen_question("my spare keys")
    assert question == (
        "I have not seen your spare keys anywhere I have looked. Can you tell me where they are?"
    )
    assert unseen_question("the mymosa").startswith("I have not seen the mymosa ")
    assert unseen_question("your charger").startswith("I have not seen my charger ")
    said = unseen_question("the book you gave me")  # "you" and "me" need the verb turned
    assert said.startswith("I have not seen the book you gave me ")


@pytest.mark.parametrize(
    ("said", "question"),
    [
        ("switch the toaster", "Should I switch the toaster on or off?"),
        ("switch the plum", "What would you like me to do with the plum?"),  # not electrical
        ("throw the pot", "What would you like me to do with the pot?"),
        ("turn my radio", "Should I turn your radio on or off?"),  # "down" is another off
        ("pick the toaster", "What would you like me to do with the toaster?"),  # one way
    ],
)
def test_switching_without_saying_how_asks_on_or_off(said: str, question: str) -> None:
    assert task_question(parse_request(said)) == question


def test_a_question_from_a_field_description_speaks_to_the_user() -> None:
    """Checked to fail before: "Which object should I bring to the person speaking?", "Which
    cup, glass, jug or pot to fill?"."""
    assert field_question("object", Fetch) == "Which object should I bring to you?"
    assert field_question("container", Fill) == "Which cup, glass, jug or pot should I fill?"
