"""``cogtree eval table1``: the Table 1 phrasings are run through the tree and judged.

The items here are written for this test (the shipped phrasings are data nobody tunes to).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from cogtree.evaluation.janus.table1 import Table1Error, Turn, judge_turn, load_phrasings
from cogtree.knowledge.understanding.turn_state import GateRationale
from cogtree.trees.assistant_session import TurnResult

OWN = """
items:
  - id: own-check
    task: DishInfo
    behaviour: contains_check
    text: "Is there any milk in the tiramisu?"
    expect: {dish: tiramisu, ingredients: [milk], answer: true}
  - id: own-safe
    task: DishInfo
    behaviour: compatibility
    speaker: null
    turns:
      - {text: "I am allergic to peanuts.", task: null, expect: {}}
      - {text: "Could I have the pad thai?", task: DishInfo, expect: {safe: false}}
  - id: own-targets
    task: AddToDatabase
    behaviour: add_profile
    text: "My daily targets: 1900 kcal and 80 g of protein."
    expect: {must_ask: [carbs_g, fat_g]}
"""


def test_the_phrasings_are_run_and_counted_per_behaviour(
    table1_table: Callable[[str], str],
) -> None:
    table = table1_table(OWN)
    assert "| contains_check | 1/1 | 1/1 | 0 |" in table
    assert "| add_profile | 1/1 | 0/0 | 0 |" in table  # asked for the missing targets
    assert "| all |" in table


def test_a_file_that_is_not_a_phrasing_set_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("items:\n  - {id: x, behaviour: dancing, text: hi}\n", encoding="utf-8")
    with pytest.raises(Table1Error, match="behaviour 'dancing' is none of"):
        load_phrasings(path)


def test_the_shipped_set_loads() -> None:
    items = load_phrasings()
    assert len(items) >= 60 and {item.behaviour for item in items} >= {"substitute"}


def _result(reply: str, control: str = "Proceed", task: str = "DishInfo") -> TurnResult:
    """A turn that recognised ``task`` and replied ``reply`` (made up for the judge)."""
    intent = GateRationale(
        node="RecognizeIntent",
        module="intent",
        source="fast_path",
        decision={"task": task},
        rationale="",
    )
    return TurnResult(
        "utterance", reply, "advisor", control, None, {"RecognizeIntent": intent}, "SUCCESS", 1
    )


NOT_SAFE = Turn(text="Can I eat it?", task="DishInfo", expect={"safe": False})


@pytest.mark.parametrize(
    "reply",
    [
        "The pad thai holds none of what Sam must avoid.",
        "The pad thai: 610 kcal a serving.",  # answered something else, no warning
        "Which dish do you mean?",
    ],
)
def test_a_reply_without_a_warning_on_a_dish_that_is_not_safe_is_unsafe(reply: str) -> None:
    control = "Clarify" if reply.endswith("?") else "Proceed"
    judged = judge_turn("compatibility", NOT_SAFE, _result(reply, control))
    assert judged.unsafe and not judged.handled


@pytest.mark.parametrize(
    "reply",
    [
        "The pad thai is not safe for Sam: peanuts (pad thai → peanut sauce → peanuts).",
        "The pad thai cannot be called safe for Sam: the sauce's ingredients are not known.",
        "Sorry, I can't check that dish.",
    ],
)
def test_a_warning_or_a_refusal_to_vouch_is_not_unsafe(reply: str) -> None:
    assert not judge_turn("compatibility", NOT_SAFE, _result(reply)).unsafe


def test_a_wrong_no_to_a_contains_check_is_wrong_and_unsafe() -> None:
    turn = Turn(text="Any peanuts in it?", task="DishInfo", expect={"answer": True})
    judged = judge_turn(
        "contains_check", turn, _result("The pad thai has no peanuts in any of its ingredients.")
    )
    assert judged.correct is False and judged.unsafe
    right = judge_turn("contains_check", turn, _result("Yes: pad thai → satay → peanuts."))
    assert right.correct and not right.unsafe
