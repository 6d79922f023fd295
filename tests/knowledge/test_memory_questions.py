"""Answers to memory questions: only what the memory holds, each fact with its turn."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from cogtree.knowledge.memory.model import Claim, TurnTrace
from cogtree.knowledge.memory.questions import NOTHING_RECALLED, answer
from cogtree.knowledge.memory.store import MemoryStore

ALLERGY = Claim(
    text="The user is allergic to sesame",
    kind="hard_constraint",
    slot="food.sesame",
    source="stated",
)
NAME = Claim(text="The user's name is Anna", kind="identifier", slot="user.name", source="stated")


def test_answers_cite_the_turn_and_say_nothing_more(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "m.sqlite") as memory:
        memory.write(TurnTrace(user="My name is Anna", claims=(NAME,)))
        memory.write(TurnTrace(user="I'm allergic to sesame", claims=(ALLERGY,)))

        def ask(question: str) -> str:
            return answer(question, memory.read(question)).text

        assert ask("What's my name?") == "You told me: your name is Anna (turn 1)."
        assert ask("What am I allergic to?") == "You told me: you are allergic to sesame (turn 2)."
        assert ask("what do you know about me?").count("(turn") == 2
        assert ask("What diet do I follow?") == "You have not told me about a diet."
        assert ask("When is the plumber coming?") == NOTHING_RECALLED


def test_a_withdrawn_fact_is_said_to_be_withdrawn(tmp_path: Path) -> None:
    withdrawal = ALLERGY.withdrawn().model_copy(update={"source": "confirmed"})
    with MemoryStore(tmp_path / "m.sqlite") as memory:
        memory.write(TurnTrace(user="I'm allergic to sesame", claims=(ALLERGY,)))
        memory.write(TurnTrace(user="I'm no longer allergic to sesame"))
        memory.write(TurnTrace(user="yes", claims=(withdrawal,)))
        said = answer("What am I allergic to?", memory.read("allergic")).text
    assert said.startswith("Nothing that I know of.")
    assert "No longer true: you are allergic to sesame (turn 3)" in said


def test_what_the_user_asked_yesterday_comes_from_the_recent_turns(tmp_path: Path) -> None:
    now = dt.datetime(2026, 3, 5, 10, 0)
    yesterday = (now - dt.timedelta(days=1)).timestamp()
    with MemoryStore(tmp_path / "m.sqlite") as memory:
        memory.write(TurnTrace(user="bring me my glasses", timestamp=yesterday))
        memory.write(TurnTrace(user="tidy the kitchen", timestamp=now.timestamp()))
        context = memory.read("what did I ask you yesterday")
    said = answer("What did I ask you yesterday?", context, now=now)
    assert said.text == "You asked me yesterday: 'bring me my glasses' (turn 1)."
    assert said.turns == (1,)
