"""Memory a person can trust and question: scripted conversations through the whole turn tree.

Real packs, memory (SQLite), simulator; no model (backend ``none``) unless a scripted model
stands in to show that whatever it answers, no question, doubt or retraction becomes a stated
fact.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import py_trees
import pytest

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.memory.experience import ExperienceStore
from cogtree.knowledge.memory.store import MemoryConfig, MemoryStore
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.assistant_session import AssistantSession
from cogtree.trees.handles import Handles
from cogtree.trees.sim_wiring import step_when_busy
from cogtree.trees.testing import ScriptedLLM, mock_blackboard, scripted_llm


@pytest.fixture(scope="module")
def domains() -> DomainRegistry:
    """The shipped packs."""
    return DomainRegistry.discover()


class Conversation:
    """One session in the default world with its own memory (small H, so C fills quickly)."""

    def __init__(
        self, domains: DomainRegistry, folder: Path, llm: LLMClient, domain: str = "advisor"
    ) -> None:
        scenario = load_scenario("tidy_for_guests")
        self.simulator = SimExecutor.from_scenario(scenario)
        self.memory = MemoryStore(folder / "memory.sqlite", config=MemoryConfig(history_capacity=2))
        self.experience = ExperienceStore()
        domains.switch(domain)
        handles = Handles(domains=domains, memory=self.memory, experience=self.experience)
        handles.attach_simulator(self.simulator)
        self.session = AssistantSession(
            llm=llm,
            handles=handles.as_kwargs(),
            speaker=scenario.request.speaker,
            robot=scenario.main_robot,
            before_tick=lambda: step_when_busy(self.simulator),
            rate_hz=2000.0,
        )

    def say(self, utterance: str) -> str:
        return self.session.turn(utterance).reply

    def believed(self, request: str) -> list[tuple[str, str]]:
        """(text, polarity) of every fact memory believes now, core and recent."""
        return [(fact.text, fact.polarity) for fact in self.memory.read(request).facts]

    def close(self) -> None:
        for item in (self.session, self.simulator, self.experience, self.memory):
            item.close()


@pytest.fixture
def converse(tmp_path: Path, domains: DomainRegistry) -> Iterator[type[Conversation]]:
    made: list[Conversation] = []
    clients: list[LLMClient] = []

    def start(llm: LLMClient | None = None, domain: str = "advisor") -> Conversation:
        client = llm
        if client is None:
            client = LLMClient(LLMConfig.load().with_backend("none"))
            clients.append(client)
        folder = tmp_path / str(len(made))
        folder.mkdir()
        conversation = Conversation(domains, folder, client, domain)
        made.append(conversation)
        return conversation

    with mock_blackboard():
        yield start  # type: ignore[misc]
    for conversation in made:
        conversation.close()
    for client in clients:
        client.close()


def test_a_retraction_is_confirmed_and_the_memory_then_answers_from_it(converse) -> None:
    talk = converse()
    assert "Anna" in talk.say("My name is Anna")
    assert "allergic to peanuts" in talk.say("I'm allergic to peanuts")
    asked = talk.say("I'm no longer allergic to peanuts")
    assert "yes" in asked.lower()  # the robot asks to confirm before it forgets an allergy
    assert ("The user is allergic to peanuts", "positive") in talk.believed("peanuts")
    assert "no longer allergic to peanuts" in talk.say("yes")

    allergies = talk.say("What am I allergic to?")
    name = talk.say("What's my name?")

    assert allergies.startswith("Nothing that I know of")
    assert "Anna" in name and "turn 1" in name
    talk.say("thanks")  # H holds two turns: everything above is consolidated into C now
    core = [(fact.text, fact.polarity) for fact in talk.memory.core]
    assert not [text for text, polarity in core if "allergic" in text and polarity == "positive"]
    assert ("The user is no longer allergic to peanuts", "negative") in core
    assert ("The user's name is Anna", "positive") in core


def test_a_retraction_the_user_does_not_confirm_changes_nothing(converse) -> None:
    talk = converse()
    talk.say("I'm allergic to peanuts")
    talk.say("Actually, I'm not allergic to peanuts anymore")
    talk.say("How many calories does the lasagne have?")  # moves on instead of saying yes
    assert talk.believed("peanuts") == [("The user is allergic to peanuts", "positive")]
    assert talk.say("What am I allergic to?").startswith("You told me: you are allergic")


def test_questions_are_answered_not_stored(converse) -> None:
    talk = converse()
    for question in ("What am I allergic to?", "what do you know about me?", "What's my name?"):
        talk.say(question)
    assert talk.believed("allergic name") == []
    assert talk.say("what do you know about me?") == "Nothing that I know of."


def test_a_note_is_found_by_a_question_in_other_words(converse) -> None:
    talk = converse()
    talk.session.turn("remember that my granddaughter Mia comes on Sunday")
    reply = talk.say("When is Mia coming?")
    assert "Mia comes on Sunday" in reply and "(turn 1)" in reply


def proceed_with_everything(task: str, slots: dict[str, object]) -> ScriptedLLM:
    """A model that reads every utterance as ``task`` with ``slots`` and says Proceed."""
    intent = {"answer": {"task": task, "slots": slots, "confidence": 0.99, "rationale": "sure"}}
    proceed = {"answer": {"control": "Proceed", "missing": [], "rationale": "go"}}
    return scripted_llm({"by_module": {"intent": [intent] * 8, "inner_speech": [proceed] * 8}})


@pytest.mark.parametrize(
    "utterance",
    [
        # "I don't think I'm allergic to shrimp" is the next test's (it checks this and more)
        "What am I allergic to?",
        "Am I allergic to shrimp?",
        "maybe I'm allergic to shrimp",
    ],
)
def test_an_eager_model_cannot_store_a_question_or_a_doubt_as_a_fact(
    converse, utterance: str
) -> None:
    llm = proceed_with_everything("AddToDatabase", {"targets": ["prawns"], "relation": "allergy"})
    talk = converse(llm.client)
    result = talk.session.turn(utterance)
    assert "Noted" not in result.reply
    assert talk.believed("shrimp prawns") == talk.believed("shrimp prawns allergic") == []
    llm.client.close()


def test_a_doubt_the_model_proceeds_with_is_still_not_noted(converse) -> None:
    llm = proceed_with_everything("AddToDatabase", {"targets": ["prawns"], "relation": "allergy"})
    talk = converse(llm.client)
    result = talk.session.turn("I don't think I'm allergic to shrimp")
    assert result.control == "Proceed"  # the gate let the model's reading through...
    assert any(call.module == "inner_speech" and call.outcome == "ok" for call in llm.calls)
    assert result.reply.startswith("You don't sound sure")  # ...and the memory guard did not
    assert "Noted" not in result.reply
    assert talk.believed("shrimp prawns") == talk.believed("shrimp prawns allergic") == []
    llm.client.close()


def test_an_eager_model_cannot_turn_a_retraction_into_its_opposite(converse) -> None:
    llm = proceed_with_everything("AddToDatabase", {"targets": ["peanuts"], "relation": "allergy"})
    talk = converse(llm.client)
    talk.say("Actually, I'm not allergic to peanuts anymore")
    talk.say("yes")
    believed = talk.believed("peanuts")
    assert not [text for text, polarity in believed if polarity == "positive"]
    llm.client.close()


def test_explain_shows_the_pass_that_switched_domain() -> None:
    from cogtree.trees.assistant_session import TurnResult

    common = {"utterance": "hi", "reply": "", "task": None, "rationales": {}, "status": "SUCCESS"}
    first = TurnResult(**common, domain="household", control="SwitchDomain", ticks=3)
    second = TurnResult(
        **common, domain="advisor", control="Proceed", ticks=5, switched=True, first_pass=first
    )
    text = second.explain()
    assert "pass 1 in household: SwitchDomain" in text
    assert "pass 2 in advisor: Proceed" in text


def test_another_language_is_told_the_robot_only_understands_english(converse) -> None:
    talk = converse()
    result = talk.session.turn("¿Dónde está mi taza?")
    assert result.reply == "Sorry, I only understand English for now."
    assert talk.memory.history == ()  # nothing ticked, nothing remembered


def test_daily_targets_are_asked_for_never_assumed_then_stored_together(converse) -> None:
    """JANUS's clarification-then-complete flow for AddToDatabase's four daily targets."""
    talk = converse()
    asked = talk.say("Set my daily targets to 1900 kcal and 85 g of protein.")
    assert "carbohydrate" in asked.lower() and "fat" in asked.lower()
    assert not [text for text, _ in talk.believed("daily target") if "target" in text]
    done = talk.say("230 g of carbs and 62 g of fat")
    assert "Noted" in done
    stored = {text for text, _ in talk.believed("daily target energy protein carbohydrate fat")}
    assert {
        "The user's daily energy target is 1900 kcal",
        "The user's daily protein target is 85 g",
        "The user's daily carbohydrate target is 230 g",
        "The user's daily fat target is 62 g",
    } <= stored


WHICH_MUG = "Which mug do you mean"


def test_a_new_question_while_a_question_is_pending_is_answered_and_the_question_kept(
    converse,
) -> None:
    talk = converse(domain="household")
    assert talk.say("bring me the mug").startswith(WHICH_MUG)
    answered = talk.say("how many calories does lasagne have?")
    assert answered.startswith("Lasagne") and "kcal" in answered  # answered, not swallowed
    assert f"Back to your earlier request: {WHICH_MUG}" in answered  # the question is kept
    assert talk.say("the white one") == "I brought you the white mug."


def test_a_pending_question_is_asked_again_once_then_dropped_and_the_robot_says_so(
    converse,
) -> None:
    talk = converse(domain="household")
    talk.say("bring me the mug")
    first = talk.say("What's my name?")
    assert first.startswith("You have not told me your name yet.")
    assert f"Back to your earlier request: {WHICH_MUG}" in first
    second = talk.say("where is the magazine?")
    assert second.startswith("The magazine is on the coffee table")
    assert second.endswith('I have set aside your earlier request ("bring me the mug").')
    assert py_trees.blackboard.Blackboard.storage.get("/session/pending") is None
    assert WHICH_MUG not in talk.say("the white one")  # nothing pending: not read as an answer


def test_a_new_request_that_needs_its_own_question_replaces_the_pending_one(converse) -> None:
    talk = converse(domain="household")
    talk.say("bring me the mug")
    replaced = talk.say("put it away")
    assert replaced.startswith('I have set aside your earlier request ("bring me the mug").')
    # "it" is the mug the last request talked about; the new request asks its own question
    assert WHICH_MUG in replaced


def test_an_answer_the_conversation_holds_is_not_fetched_again(converse) -> None:
    """Tool grounding from the working context: reuse held rows, ground when they do not fit."""
    talk = converse()

    def grounding(utterance: str) -> tuple[str, str]:
        result = talk.session.turn(utterance)
        return result.reply, result.rationales["NeedsEvidence"].rationale

    whole, why = grounding("Give me the nutrition facts for the lasagne.")
    assert "31.8 g of protein" in whole and "no earlier answer" in why
    part, why = grounding("How much protein is in the lasagne?")
    assert part == "Lasagne alla bolognese has 31.8 g of protein per serving."
    assert why.startswith("already known from the answer to 'Give me the nutrition facts")
    assert why.endswith("no query")
    other, why = grounding("How many calories does tiramisu have?")
    assert "Tiramisu has" in other and "dish=lasagne, now dish=tiramisu" in why
    talk.say("I'm allergic to peanuts")
    _, why = grounding("How many calories does tiramisu have?")
    assert "avoid=nothing, now avoid=peanuts" in why  # the profile changed: asked again


# -- allergies: categories, phrasings, whose they are, and lifting one only with a yes -----------

PEANUT_DISHES = ("satay", "pad thai", "peanut butter")


def offered(talk: Conversation) -> str:
    """What the robot suggests instead of the lasagne (the allergy filter at work)."""
    return talk.say("Suggest something instead of the lasagne").lower()


@pytest.mark.parametrize(
    "lift", ["Actually I like peanuts now", "I can eat peanuts again", "I love peanuts"]
)
def test_lifting_an_allergy_asks_for_a_yes_and_changes_nothing_without_it(
    converse, lift: str
) -> None:
    talk = converse()
    talk.say("I'm allergic to peanuts")
    asked = talk.say(lift)
    assert "yes" in asked.lower() and "Noted" not in asked  # the robot asks before it lifts
    assert ("The user is allergic to peanuts", "positive") in talk.believed("peanuts")
    suggestions = offered(talk)  # moves on instead of saying yes
    assert "instead of" in suggestions
    assert not [dish for dish in PEANUT_DISHES if dish in suggestions]
    assert ("The user is allergic to peanuts", "positive") in talk.believed("peanuts")


def test_an_allergy_is_lifted_once_the_user_says_yes(converse) -> None:
    talk = converse()
    talk.say("I'm allergic to peanuts")
    assert "yes" in talk.say("Actually I like peanuts now").lower()
    assert "likes peanuts" in talk.say("yes")
    believed = talk.believed("peanuts")
    assert ("The user likes peanuts", "positive") in believed
    assert not [text for text, holds in believed if "allergic" in text and holds == "positive"]


def test_a_liking_with_no_allergy_to_lift_is_noted_at_once(converse) -> None:
    talk = converse()
    assert talk.say("Actually I like peanuts now").startswith("Noted")


@pytest.mark.parametrize(
    "said", ["I have a peanut allergy", "I'm allergic to peanut", "I'm allergic to groundnuts"]
)
def test_allergy_phrasings_are_understood(converse, said: str) -> None:
    talk = converse()
    assert talk.say(said) == "Noted. The user is allergic to peanuts."
    assert not [dish for dish in PEANUT_DISHES if dish in offered(talk)]


def test_an_allergy_to_nuts_covers_peanuts(converse) -> None:
    talk = converse()
    assert talk.say("I am allergic to nuts") == "Noted. The user is allergic to nuts."
    assert "allergic to nuts" in talk.say("What am I allergic to?")
    assert not [dish for dish in PEANUT_DISHES if dish in offered(talk)]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My son is allergic to peanuts", "The user's son is allergic to peanuts"),
        ("my wife is allergic to nuts", "The user's wife is allergic to nuts"),
    ],
)
def test_an_allergy_of_someone_else_is_theirs_not_the_users(
    converse, said: str, stored: str
) -> None:
    talk = converse()
    assert talk.say(said) == f"Noted. {stored}."
    assert (stored, "positive") in talk.believed("allergic peanuts nuts")
    assert talk.say("What am I allergic to?").startswith("Nothing that I know of")


def test_an_eager_model_cannot_make_someone_elses_allergy_the_users(converse) -> None:
    llm = proceed_with_everything("AddToDatabase", {"targets": ["peanuts"], "relation": "allergy"})
    talk = converse(llm.client)
    talk.say("My son is allergic to peanuts")
    assert not [text for text, _ in talk.believed("peanuts") if text.startswith("The user is")]
    llm.client.close()


def test_a_place_answers_the_question_where_an_unseen_thing_is(converse) -> None:
    talk = converse(domain="household")
    assert talk.say("Where is the honey?").endswith("Can you tell me where it is?")
    noted = talk.say("on the kitchen counter")
    assert "I have not seen on the kitchen counter" not in noted  # not read as a new request
    assert noted == "Noted. The user said: the honey on the kitchen counter."
    assert py_trees.blackboard.Blackboard.storage.get("/session/pending") is None  # answered
    assert ("The user said: the honey on the kitchen counter", "positive") in talk.believed("honey")


def test_an_answer_of_the_wrong_kind_is_not_taken_for_the_thing_asked_about(converse) -> None:
    talk = converse(domain="household")
    assert talk.say("bring me the mug").startswith(WHICH_MUG)
    assert "yes" not in talk.say("yes").lower().split()  # a yes names no mug
    assert talk.say("the white one") == "I brought you the white mug."


def test_a_request_with_a_missing_skill_is_done_up_to_it_and_says_the_rest(converse) -> None:
    talk = converse(domain="household")
    said = talk.say("bring me the magazine, then cut the flowers")
    assert said == "I brought you the magazine. I did not do the rest: I can't cut things yet."
    assert talk.say("cut the flowers") == "Sorry, I can't cut things yet."  # nothing before it


def test_a_missing_first_step_with_steps_after_it_brings_its_things_and_says_so(converse) -> None:
    talk = converse(domain="household")
    said = talk.say("cut the flowers, then put them on the table")
    brought = "I brought you the vase of flowers."
    assert said == f"{brought} I did not do the rest: I can't cut things yet."
