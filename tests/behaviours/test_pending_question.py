"""What becomes of a pending question when the user moves on: kept once, then dropped."""

from __future__ import annotations

from cogtree.knowledge.understanding.pending_question import (
    BACK_TO_IT,
    dropped_note,
    moves_on,
    settle_moved_on,
)
from cogtree.knowledge.understanding.turn_state import IntentFrame, IntentStep, PendingTask

WHICH_MUG = PendingTask(
    domain="household",
    task="Fetch",
    missing=["object"],
    said=["bring me the mug"],
    question="Which mug do you mean?",
)


def test_only_an_intent_of_another_task_or_domain_moves_on() -> None:
    assert not moves_on(WHICH_MUG, None)  # nothing known: nothing judged
    assert not moves_on(WHICH_MUG, IntentFrame(domain="household", task="Fetch"))
    assert moves_on(WHICH_MUG, IntentFrame(domain="household", task="FindObject"))
    assert moves_on(WHICH_MUG, IntentFrame(domain="advisor", task="Fetch"))
    assert moves_on(WHICH_MUG, IntentFrame(domain="OutOfScope", task=None))


def test_the_answer_to_a_step_of_a_sequence_does_not_move_on() -> None:
    steps = [
        IntentStep(task="Wipe", slots={"surface": "the counter"}, said="wipe the counter"),
        IntentStep(task="Bring", slots={"object": "the tray"}, said="set the tray on it"),
    ]
    which_tray = WHICH_MUG.model_copy(update={"task": "Bring", "steps": steps, "focus": 1})
    assert not moves_on(which_tray, IntentFrame(domain="household", task="Wipe", steps=steps))
    assert moves_on(which_tray, IntentFrame(domain="household", task="FindObject"))


def test_a_detail_question_is_asked_again_once_then_dropped() -> None:
    first = settle_moved_on(WHICH_MUG, "The magazine is on the table.")
    assert first.pending == WHICH_MUG.model_copy(update={"asked_again": True})
    assert first.reply == f"The magazine is on the table. {BACK_TO_IT} Which mug do you mean?"
    assert first.pending is not None
    second = settle_moved_on(first.pending, "You have not told me your name yet.")
    assert second.pending is None
    assert second.reply == (
        'You have not told me your name yet. I have set aside your earlier request ("bring me '
        'the mug").'
    )
    assert "dropped" in second.note


def test_a_confirmation_is_dropped_at_once() -> None:
    confirm = PendingTask(
        domain="advisor",
        task="AddToDatabase",
        said=["I'm no longer allergic to peanuts"],
        question="Just to be sure: should I go ahead?",
        confirm=["takes back a fact"],
    )
    settled = settle_moved_on(confirm, "Lasagne has 605 kcal.")
    assert settled.pending is None
    assert settled.reply.endswith(dropped_note(confirm))
    assert "I'm no longer allergic to peanuts" in settled.reply


def test_the_note_names_the_task_when_nothing_was_said() -> None:
    assert "Fetch" in dropped_note(PendingTask(domain="household", task="Fetch"))
