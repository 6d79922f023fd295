"""The memory's stance guard: no question, doubt or retraction is ever kept as a positive fact."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogtree.behaviours.actions.grounding.memory_write import guard_claims
from cogtree.knowledge.memory.model import Claim, TurnTrace
from cogtree.knowledge.memory.polarity import inadmissible, request_stance, stance_of
from cogtree.knowledge.memory.store import MemoryConfig, MemoryStore

QUESTIONS = [
    "What am I allergic to?",
    "what's my name",
    "Do you know what I like?",
    "am I allergic to {food}?",
    "Is {food} ok for me?",
    "remind me what I can't eat",
    "Did I tell you I'm allergic to {food}",
]
HEDGES = [
    "I don't think I'm allergic to {food}",
    "maybe I'm allergic to {food}",
    "I'm not sure if I like {food}",
    "I might be intolerant to {food}, I guess",
    "perhaps I'm vegan",
]
RETRACTIONS = [
    "I'm no longer allergic to {food}",
    "Actually, I'm not allergic to {food} anymore",
    "I was wrong about {food}",
    "I'm not allergic to {food}",
    "I don't have a {food} allergy",
    "I don't like {food} any more",
    "I can eat {food} again",  # a constraint on the food has ended: nothing new is stated
    "I eat {food} again",
    "I can have {food} again now",
]
FOODS = ["peanuts", "shrimp", "milk", "sesame", "basil"]


@pytest.mark.parametrize("template", QUESTIONS)
def test_questions_ask(template: str) -> None:
    assert stance_of(template.format(food="peanuts")) == "asks"


@pytest.mark.parametrize("template", HEDGES)
def test_hedges_hedge(template: str) -> None:
    assert stance_of(template.format(food="peanuts")) == "hedges"


@pytest.mark.parametrize("template", RETRACTIONS)
def test_retractions_retract(template: str) -> None:
    assert stance_of(template.format(food="peanuts")) == "retracts"


@pytest.mark.parametrize(
    "text",
    [
        "I'm allergic to peanuts",
        "I don't like coriander",
        "Could you remember that I'm vegan?",
        "no, I'm not allergic to peanuts, I just don't like them",
        "My name is Anna",
        # a negation before "again" states a new constraint; it takes nothing back
        "I will never have prawns again",
        "I won't eat peanuts again",
        "don't let me eat peanuts again",
    ],
)
def test_statements_assert(text: str) -> None:
    assert stance_of(text) == "asserts"


def test_a_yes_does_not_change_the_stance_of_the_request() -> None:
    assert request_stance(["What am I allergic to?", "yes"]) == "asks"
    assert request_stance(["I'm no longer allergic to peanuts", "Yes, go ahead."]) == "retracts"
    assert request_stance(["yes"]) == "asserts"


def test_a_withdrawal_needs_the_users_confirmation() -> None:
    withdrawal = Claim(text="The user is no longer allergic to peanuts", source="stated")
    withdrawal = withdrawal.withdrawn()
    said = ["I'm no longer allergic to peanuts"]
    assert inadmissible(withdrawal, said) is not None
    confirmed = withdrawal.model_copy(update={"source": "confirmed"})
    assert inadmissible(confirmed, [*said, "yes"]) is None


claims = st.builds(
    Claim,
    text=st.sampled_from(
        ["The user is allergic to prawns", "The user likes basil", "The user's name is Anna"]
    ),
    kind=st.sampled_from(["identifier", "hard_constraint", "preference", "other"]),
    slot=st.sampled_from([None, "food.prawns", "user.name", "diet.vegan"]),
    source=st.sampled_from(["stated", "confirmed", "inferred"]),
    correction=st.booleans(),
    polarity=st.sampled_from(["positive", "negative"]),
)
not_statements = st.builds(
    lambda template, food: template.format(food=food),
    st.sampled_from(QUESTIONS + HEDGES + RETRACTIONS),
    st.sampled_from(FOODS),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(utterance=not_statements, drawn=st.lists(claims, min_size=1, max_size=4))
def test_no_question_doubt_or_retraction_is_stored_as_a_positive_fact(
    tmp_path_factory: pytest.TempPathFactory, utterance: str, drawn: list[Claim]
) -> None:
    folder = tmp_path_factory.mktemp("memory")
    with MemoryStore(folder / "m.sqlite", config=MemoryConfig(history_capacity=1)) as memory:
        memory.write(TurnTrace(user=utterance, claims=tuple(drawn), domain="advisor"))
        memory.write(TurnTrace(user="thanks"))  # the first turn is consolidated into C now
        kept = [*memory.core, *(record.fact for record in memory.archive)]
        assert not [fact for fact in kept if fact.holds]
        assert not [fact for fact in memory.read(utterance).facts if fact.holds]


@settings(max_examples=150, deadline=None)
@given(utterance=not_statements, drawn=st.lists(claims, min_size=1, max_size=4), yes=st.booleans())
def test_the_tree_guard_keeps_no_positive_fact_from_them_whatever_the_task_says(
    utterance: str, drawn: list[Claim], yes: bool
) -> None:
    said = [utterance, "yes"] if yes else [utterance]
    guarded = guard_claims(drawn, said, confirmed=yes)
    assert not [claim for claim in guarded.kept if claim.holds]
    assert all(claim.source == "confirmed" for claim in guarded.kept if not claim.holds)


def test_a_version_1_file_is_upgraded_and_keeps_its_facts(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    with MemoryStore(path, config=MemoryConfig(history_capacity=1)) as memory:
        claim = Claim(
            text="The user is allergic to peanuts",
            kind="hard_constraint",
            slot="food.peanuts",
            source="stated",
        )
        memory.write(TurnTrace(user="I'm allergic to peanuts", claims=(claim,)))
        memory.write(TurnTrace(user="thanks"))
    connection = sqlite3.connect(path)  # make it a version 1 file: no polarity column
    connection.executescript(
        "CREATE TABLE old AS SELECT id, text, kind, slot, source, correction, turn, timestamp, "
        "domain, tier, superseded_by FROM facts; DROP TABLE facts; "
        "ALTER TABLE old RENAME TO facts; PRAGMA user_version = 1;"
    )
    connection.close()
    with MemoryStore(path) as memory:
        assert [(fact.text, fact.polarity) for fact in memory.core] == [
            ("The user is allergic to peanuts", "positive")
        ]
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 2


@pytest.mark.parametrize("word", ["yes", "ok", "no", "sure, go ahead"])
def test_an_answer_word_is_never_taken_for_the_users_name(word: str) -> None:
    from pydantic import ValidationError

    from cogtree.knowledge.memory.note import Introduction

    with pytest.raises(ValidationError, match="it is not a name"):
        Introduction(name=word)
    assert Introduction(name="Sam").claims()[0].text == "The user's name is Sam"


@pytest.mark.parametrize(
    ("said", "users_own_kept"),
    [
        ("My son is allergic to peanuts", False),
        ("our guest can't eat gluten", False),
        ("my son and I are allergic to peanuts", True),
        ("I'm allergic to peanuts", True),
        ("My name is Anna and I'm allergic to peanuts", True),
    ],
)
def test_a_constraint_said_of_someone_else_is_never_kept_as_the_users(
    said: str, users_own_kept: bool
) -> None:
    users = Claim(
        text="The user is allergic to peanuts",
        kind="hard_constraint",
        slot="food.peanuts",
        source="stated",
    )
    theirs = users.model_copy(update={"slot": "about.son.food.peanuts"})
    assert (inadmissible(users, [said]) is None) == users_own_kept
    assert inadmissible(theirs, [said]) is None
