"""Echo and confirm: a spoken request that would move the robot waits for an explicit yes.

PocketSphinx's confidence hardly tells a right transcript from a wrong one (docs/voice.md),
so a request heard above the threshold may still be another request than the one said. When
acting on it may move the robot or change what it remembers, the robot first says back what
it heard (:data:`ECHO`) and keeps it pending; the next thing heard decides (:func:`settle`):

- an explicit yes (:data:`YES`) runs the pending request;
- a no, a clip that holds no request (silence, noise, a transcript below the threshold) or
  anything else that is no request to act discards it and asks for the request again;
- a new request that would act replaces the pending one, and is itself echoed.

A bare yes or no with nothing pending goes to the tree (it may answer the tree's own
question), but for one case: when the tree's question (``/session/pending``, passed to
:func:`settle` as ``question``) confirms safety doubts (its ``confirm``: "Before I do that: the
pan is hot. Shall I still do it?"), a yes heard by ear is itself echoed
(:data:`SAFETY_ECHO`) and reaches the tree only after a second yes. No confidence makes a
spoken yes sure enough here (docs/voice.md: the confidence hardly tells right from wrong);
a typed yes (no audio to mishear) runs at once, and a no always does. A yes heard by an
engine that gives no confidence (Moonshine) is echoed so to any question of the tree: its
answer may make the tree act, and no threshold stood before it.

Whether a request may move the robot is read from its one parse (the request frame: the
tree has no dry run of a whole turn) and its form: everything is echoed but a question whose
only clear action is finding, that names no missing skill and no one to bring anything to
(:func:`needs_confirmation`: "where is the magazine" is answered at once, "where is the mug
bring it to me", heard with no comma, is echoed), and a bare yes or no (it may answer the
tree's own question). A statement ("my name is Sam") is echoed too: it writes memory.

The pending request is the caller's state (:class:`Pending`, held by the conversation or the
speech node), never a global: :func:`settle` is a pure decider.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from cogtree.knowledge.language.question_form import asks_whether
from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.understanding.turn_state import PendingTask
from cogtree.trees.voice.hearing import Hearing
from cogtree.trees.voice.recognizer import Transcript

ECHO = "Did you say: {text}? Please say yes or no."
"""What the robot says back before acting on a spoken request that would move it."""
SAFETY_ECHO = (
    'You said yes: I will go ahead with "{request}" all the same. Is that right? '
    "Please say yes or no."
)
"""What the robot says back before a spoken yes confirms the tree's safety question."""

OFFER_ECHO = 'You said yes to: "{offer}". Is that right? Please say yes or no.'
"""What the robot says back before a spoken yes takes its offer (it would move the robot)."""
DISCARDED = "OK, I will not do that. Please say your request again."
"""The reply when a pending request is discarded by a no or by anything but a yes."""
NOT_HEARD = "I did not hear a yes, so I will not do that: {why}. Please say your request again."
"""The reply when the clip after the echo held no request (silence, noise, not sure)."""

YES: frozenset[str] = frozenset(
    ["yes", "yeah", "yep", "yes please", "yes do it", "yes that's right", "that's right",
     "correct", "right", "sure", "okay", "ok", "go ahead", "do it", "please do"]
)  # fmt: skip
"""Whole answers that confirm (their words, lower case): nothing else counts as a yes."""
NO: frozenset[str] = frozenset(
    ["no", "nope", "no thanks", "no thank you", "wrong", "that's wrong", "cancel", "stop",
     "no that's wrong", "don't", "don't do it"]
)  # fmt: skip
"""Whole answers that decline (their words, lower case)."""
ANSWER_SENTENCES: tuple[str, ...] = tuple(sorted(YES | NO))
"""The answers as sentences of the robot's language model, so the recogniser can hear them."""
ANSWERS_ONLY: frozenset[str] = frozenset(["find"])
"""Capabilities a question may name and still only ask ("where is the mug": answered)."""

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")

Outcome = Literal["not needed", "asked", "confirmed", "declined", "not heard", "replaced"]
"""What became of a clip at the confirmation step (written to the tick log when it ran)."""


@dataclass(frozen=True)
class Pending:
    """A spoken request echoed and waiting for its yes."""

    transcript: Transcript


@dataclass(frozen=True)
class Settled:
    """What one clip decided: the text to run (if any), the robot's reply, the new pending."""

    outcome: Outcome
    run: str | None
    """The request to run as the turn's utterance now (None: nothing reaches the tree)."""
    reply: str | None
    """What the robot says instead of running a turn (None when ``run`` is set)."""
    pending: Pending | None
    """The request waiting for a yes after this clip."""
    request: Transcript | None = None
    """The transcript of the request that runs (the pending one after a yes)."""


def needs_confirmation(text: str) -> bool:
    """Whether ``text`` must be echoed before it runs: all but questions and bare answers."""
    if answer_of(text) is not None:
        return False
    frame = parse_request(text)
    if frame.missing_skills or not asks_whether(text):
        return True
    only_finds = set(frame.clear_actions) <= ANSWERS_ONLY
    return not only_finds or any(step.recipient is not None for step in frame.steps)


def answer_of(text: str) -> Literal["yes", "no"] | None:
    """Whether ``text`` is a whole :data:`YES` ("yes") or :data:`NO` ("no"); else None."""
    said = " ".join(_WORD.findall(text.lower().replace("\u2019", "'")))
    if said in YES:
        return "yes"
    if said in NO:
        return "no"
    return None


def settle(
    pending: Pending | None, hearing: Hearing, question: PendingTask | None = None
) -> Settled:
    """Decide one clip given the request waiting for a yes and the tree's ``question``.

    See the module docstring.
    """
    heard = hearing.transcript
    if pending is not None:
        if hearing.request is None:
            why = (hearing.reply or "").removeprefix("Sorry, I did not catch that: ")
            why = why.removesuffix(". Could you say it again?")
            return Settled("not heard", None, NOT_HEARD.format(why=why), None)
        answer = answer_of(hearing.request)
        if answer == "yes":
            request = pending.transcript
            return Settled("confirmed", request.text, None, None, request)
        if answer is None and needs_confirmation(hearing.request) and heard is not None:
            return Settled("replaced", None, _echo(heard), Pending(heard))
        return Settled("declined", None, DISCARDED, None)
    if hearing.request is None or heard is None:
        return Settled("not heard", None, hearing.reply, None)
    if needs_confirmation(hearing.request):
        return Settled("asked", None, _echo(heard), Pending(heard))
    by_ear = heard.audio_seconds > 0  # typed text has no audio to mishear
    unscored = heard.confidence is None  # no threshold stood before this yes
    doubted = question is not None and (question.confirm or question.offered or unscored)
    if doubted and question is not None and by_ear and answer_of(hearing.request) == "yes":
        asked_for = question.said[0] if question.said else question.task
        echo = SAFETY_ECHO.format(request=asked_for)
        if question.offered:  # "I can bring the remote to you": a yes heard is said back too
            echo = OFFER_ECHO.format(offer=question.question.rstrip(" ."))
        return Settled("asked", None, echo, Pending(heard))
    return Settled("not needed", hearing.request, None, None, heard)


def _echo(heard: Transcript) -> str:
    """:data:`ECHO` of what was heard, its own closing mark dropped ("the fridge." -> "...?")."""
    return ECHO.format(text=heard.text.rstrip(" .?!"))
