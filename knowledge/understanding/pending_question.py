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

The robot asks a question of its own after an answer, too: an offer (:func:`offer_after`).
A question about the home that found one thing the robot can carry ("I can't find my specs",
"is there any milk?") is answered, and the robot offers to bring it, as a helper who has just
said where a thing is would. It is decided from what the turn found, with no list of
questions: the answer came from a task that only answers (``knowledge_query``), its scene
slot resolved to exactly one object (not a piece of furniture nor a room, nor a thing whose
kind matters to safety, :data:`NOT_OFFERED`; a guess from a label's words is named, so a yes
confirms it), the reply asks nothing itself, and the pack
has a task that brings a thing to the person speaking (:func:`bringing_task`: its plan takes
a slot's thing to ``$speaker``). The offer is a pending task (``offered``) whose slot holds
the thing's label, as proposed: the robot says what it would do, so a yes runs exactly that
(:func:`accepts`), and anything else drops the offer.

A no to an offer or a question may come with its reason ("no thanks, I'll get them myself"):
:func:`turn_acts` reads such a turn as a decline, as the social formulas read a bare "no".

After a physical task that took any one of several things ("bring me a mug": the red one),
the reply names the others ("The striped mug is there too, if you meant that one instead"),
so a wrong pick costs the user a word: the same task waits for the next turn with its slot
open and the things as its options, the one taken first (:func:`instead_offer`); an answer
that picks one ("the striped one") runs the task with it (the one taken: nothing needs doing),
and anything else drops it, as an offer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from cogtree.knowledge.language.grammar.social_acts import (
    SocialAct,
    clause_acts,
    clauses_of,
    first_clause,
    social_acts,
    words_of,
)
from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.question_form import asks_whether
from cogtree.knowledge.language.request_frame import RequestFrame, Step
from cogtree.knowledge.packs.domain_pack import SPEAKER_ARGUMENT, DomainPack, TaskSpec
from cogtree.knowledge.scene.fit_for_use import WHICH_MATTERS, also_there
from cogtree.knowledge.scene.scene_models import Candidate
from cogtree.knowledge.scene.taxonomy import household_taxonomy
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


CARRIED = "object"
"""The kind of scene node the robot can carry (not furniture, a container or a room)."""


def bringing_task(pack: DomainPack) -> tuple[TaskSpec, str] | None:
    """The pack's first task whose plan brings one of its scene slots' things to the speaker.

    As (task, slot); None when the pack brings nothing to anyone.
    """
    for task in pack.manifest.tasks:
        if task.plan is None or SPEAKER_ARGUMENT not in task.plan.args.values():
            continue
        slots = [
            slot
            for slot in task.plan.args.values()
            if (spec := task.slots.get(slot)) is not None and spec.resolve == "scene"
        ]
        if len(slots) == 1:
            return task, slots[0]
    return None


def offer_after(
    pack: DomainPack, answered: str, candidates: Sequence[Candidate], reply: str, said: str
) -> PendingTask | None:
    """The offer to bring the one thing the answer of task ``answered`` found, else None.

    ``candidates``: what the answer's scene slot resolved to; ``reply``: the answer given;
    ``said``: the user's utterance (kept with the offer, so a yes is grounded in it).
    """
    spec = pack.task(answered)  # the turn's task: one of the pack's
    bringing = bringing_task(pack)
    if not spec.answers_only or bringing is None or len(candidates) != 1:
        return None
    thing = candidates[0]
    if thing.kind != CARRIED or not reply.strip() or "?" in reply or _not_offered(thing):
        return None
    task, slot = bringing
    return PendingTask(
        domain=pack.name,
        task=task.name,
        slots={slot: thing.label},
        said=[said],
        proposed={slot: thing.label},
        question=f"I can bring the {thing.label} to you, if you like.",
        offered=True,
    )


def instead_offer(
    pack: DomainPack, intent: IntentFrame, picked: Sequence[Candidate], said: str
) -> PendingTask | None:
    """The task done again with another of the things a pick of any one left, else None.

    ``picked``: what the task's first scene slot resolved to; the one kept names the others
    (:func:`~knowledge.scene.fit_for_use.also_there`), those labelled as it is told by no word.
    ``said``: the user's utterance.
    """
    spec = pack.task(intent.task or "")
    slot = next((name for name, s in spec.slots.items() if s.resolve == "scene"), None)
    kept = picked[0].label if picked else ""
    others = [label for thing in picked[:1] for label in also_there(thing.reasons) if label != kept]
    if spec.grounding != "physical" or slot is None or slot not in intent.slots or not others:
        return None
    return PendingTask(
        domain=pack.name,
        task=spec.name,
        slots={name: value for name, value in intent.slots.items() if name != slot},
        missing=[slot],
        said=[said],
        options={slot: list(dict.fromkeys([kept, *others]))},  # the one taken too
        question="Did you mean another one instead?",
        offered=True,
    )


NOT_OFFERED: Final = WHICH_MATTERS | {"animal"}
"""Kinds of thing never offered unasked (a knife, bleach, pills, a hamster): bringing one
waits for the user to ask, and then meets every check."""


def _not_offered(thing: Candidate) -> bool:
    flags = household_taxonomy().properties(thing.type).flags if thing.type else frozenset()
    return bool(flags & NOT_OFFERED)


def accepts(utterance: str, frame: RequestFrame | None = None) -> bool:
    """Whether ``utterance`` takes an offer: its first clause says yes ("oh yes please, ...").

    What follows the yes in other clauses ("you're a treasure") does not undo it; a request
    of ``frame`` (the turn's parse) outside that clause makes it no mere yes ("yes, and bring
    the mug too"): the turn is read as any other.
    """
    said = first_clause(utterance)
    acts = clause_acts(said)
    asks = frame is not None and any(step.text.lower() not in said.lower() for step in frame.steps)
    later = clauses_of(utterance.lower())[1:]
    hedged = any(  # "yes - no wait", "yes, in a minute": no plain yes
        SocialAct.DECLINE in clause_acts(part) or _HEDGES.search(part) for part in later
    )
    return SocialAct.ACCEPT in acts and SocialAct.DECLINE not in acts and not (asks or hedged)


_HEDGES: Final = re.compile(
    r"\b(?:wait|instead|but|later|after|minute|moment|first|then|too|also|well)\b"
)
"""Words after a yes that put off, change or add to what it takes ("yes, after lunch", "yes,
and the mug too"): the turn is then read as any other."""


def turn_acts(frame: RequestFrame) -> tuple[SocialAct, ...]:
    """The social acts of the parsed turn ``frame``: its formulas', or a no and why.

    Its formulas' (:func:`social_acts`) when every clause is one. Else a turn that opens with a
    no and asks nothing more is a decline, whatever it goes on to say of why ("no thanks, I'll
    get them myself", "nah, you're alright, it's cold enough"): its first clause declines or
    dismisses and says no yes; every clause after it is social, a statement
    (:func:`_says_why`; never "no, the blue one", which
    picks a thing) or lets a thing be ("nah, leave that on"); it asks no question; and the
    parse holds no step but one that leaves a thing as it is (:func:`_lets_be`). Empty
    otherwise.
    """
    acts = social_acts(frame.text)
    if acts:
        return acts
    first, *rest = clauses_of(frame.text) or [""]
    opening = clause_acts(first)
    if SocialAct.ACCEPT in opening or not {SocialAct.DECLINE, SocialAct.DISMISSAL} & {*opening}:
        return ()
    if "?" in frame.text or not all(map(_lets_be, frame.steps)):
        return ()
    said = all(clause_acts(part) or _says_why(part) or _letting_be(part) for part in rest)
    return opening if said else ()


REASONS_OPEN: Final = frozenset(["i", "it", "he", "she", "we", "they", "you"])
"""Subjects that open a statement of why beside a no, alone or joined to a verb ("it's")."""

REDIRECTS: Final = frozenset(["meant", "mean", "rather", "prefer", "instead"])
"""Words with which a statement after a no says what is wanted instead ("no, I meant ...")."""


def _says_why(clause: str) -> bool:
    """Whether ``clause`` only says why: a subject, then more, and no want of its own.

    "it's cold enough as it is", "I'll get them myself"; not "I want the striped mug", "I
    meant the other one" (a want or a redirect: the turn asks for something), nor "that one".
    """
    said = words_of(clause)
    if len(said) < 2 or said[0].split("'")[0] not in REASONS_OPEN or REDIRECTS & {*said}:
        return False
    wants = request_words().wants
    return not any(tuple(said[: len(want)]) == want for want in wants)


LETTING_BE: Final = "leave"
"""The verb that, with nowhere said to put the thing, asks for nothing to be done to it."""


def _lets_be(step: Step) -> bool:
    """Whether ``step`` leaves a thing as it is ("leave that on"): no place, nobody to give it."""
    return step.verb == LETTING_BE and step.landmark is None and step.recipient is None


def _letting_be(clause: str) -> bool:
    """Whether ``clause`` opens with the verb that lets a thing be ("leave that on")."""
    return words_of(clause)[:1] == [LETTING_BE]
