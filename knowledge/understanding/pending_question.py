"""What becomes of the robot's pending question when the user changes the subject.

The robot asked something (``/session/pending``) and the user, instead of answering, asks a
new question or makes a new request. The new request is handled like any other turn (the
scope and intent nodes do not read a question as an answer:
:func:`~knowledge.language.question_form.asks_the_robot`), and the pending question is kept or
dropped, and the robot says which:

- a question about a missing detail ("Which mug do you mean?") is kept and asked again after
  the reply, once ("Back to your earlier request: Which mug do you mean?"); when the user
  moves on a second time it is dropped, and the reply says so;
- a question that asks to confirm ("Just to be sure: should I go ahead...?") is dropped at
  once: a confirmation holds only for the turn right after its question;
- when the new request needs a question of its own, that question replaces the pending one,
  and the reply says so (:func:`dropped_note`).

A turn that only tells (:func:`only_tells`: "the kettle base has packed in", "I've not cooked
since breakfast") asks for no act: the robot asks what to do, but holds no task that acts
waiting for the answer, so the next request sets nothing aside; what was said stays in the
conversation (the hazard check reads every earlier turn). A statement is what a memory task
serves ("I'm no longer allergic to nuts"): that one waits for its confirmation.

A turn *continues* the pending question when its intent frame is the pending task (for a
sequence, one of its steps' tasks) in the pending domain (the intent node merged them), or
when the frame says it answers the question (``answers``: the intent node read the utterance
as the answer and it became another task: where the thing asked about is, noted); without
an intent frame nothing is judged.
"""

from __future__ import annotations

from dataclasses import dataclass

from cogtree.knowledge.language.question_form import asks_whether
from cogtree.knowledge.language.request_frame import RequestFrame
from cogtree.knowledge.understanding.turn_state import IntentFrame, PendingTask

BACK_TO_IT = "Back to your earlier request:"
"""What comes before a pending question asked again after the reply to a new request."""


@dataclass(frozen=True)
class Settled:
    """The pending task after a turn (None: dropped), the reply, and a note for the trace."""

    pending: PendingTask | None
    reply: str
    note: str


def only_tells(frame: RequestFrame | None) -> bool:
    """Whether the turn of ``frame`` is a statement that asks nothing: no step, no question."""
    return frame is not None and not frame.steps and not asks_whether(frame.text)


def moves_on(pending: PendingTask, intent: IntentFrame | None) -> bool:
    """Whether the turn of ``intent`` asked for something else than ``pending`` waits for."""
    if intent is None:
        return False
    if intent.answers:
        return False  # the answer, merged with the request it answers
    if pending.steps:  # a sequence: the answer completes one step, the frame names the first
        tasks = {step.task for step in pending.steps}
        return intent.domain != pending.domain or intent.task not in tasks
    return (intent.domain, intent.task) != (pending.domain, pending.task)


def dropped_note(pending: PendingTask) -> str:
    """The sentence that tells the user their earlier request is set aside."""
    request = pending.said[0] if pending.said else pending.task
    return f'I have set aside your earlier request ("{request}").'


def settle_moved_on(pending: PendingTask, reply: str) -> Settled:
    """Keep ``pending`` and ask it again after ``reply``, or drop it and say so (module doc).

    Called for a turn that moved on from ``pending`` and was answered or refused.
    """
    asks_detail = bool(pending.missing) and pending.question.strip() != ""
    if asks_detail and not pending.asked_again:
        kept = pending.model_copy(update={"asked_again": True})
        said = f"{reply} {BACK_TO_IT} {pending.question}".strip()
        return Settled(kept, said, f"pending {pending.task} kept and asked again")
    said = f"{reply} {dropped_note(pending)}".strip()
    return Settled(None, said, f"pending {pending.task} dropped: the user moved on")
