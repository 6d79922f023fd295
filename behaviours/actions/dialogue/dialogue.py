"""Dialogue leaves: wait for what the user says, and say something back."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import py_trees
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.knowledge.language.grammar.social_acts import answer_in_kind
from cogtree.knowledge.safety.said_prohibitions import only_prohibits
from cogtree.knowledge.understanding.pending_question import turn_acts


class AwaitUtterance(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Wait until the user has said something.

    Reads ``/turn/utterance``. RUNNING while it is unset or blank; SUCCESS once it holds text.
    Never FAILURE.
    """

    reads = (keys.UTTERANCE,)

    def __init__(self, name: str = "AwaitUtterance") -> None:
        super().__init__(name)
        self.utterance_key = self.key_of(keys.UTTERANCE)

    def update(self) -> Status:
        """SUCCESS when an utterance is waiting, RUNNING otherwise."""
        utterance = (
            self.blackboard.get(self.utterance_key)
            if self.blackboard.exists(self.utterance_key)
            else None
        )
        if isinstance(utterance, str) and utterance.strip():
            self.feedback_message = f"heard: {utterance.strip()!r}"
            return Status.SUCCESS
        self.feedback_message = "waiting for the user to speak"
        return Status.RUNNING


class Say(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Say a sentence composed from blackboard values.

    Reads the keys given in ``reads`` (their short names are the arguments of ``compose``);
    writes ``/turn/reply``. SUCCESS when the sentence was written; FAILURE when a key it
    reads is not on the blackboard (the feedback message names it).
    """

    writes = (keys.REPLY,)

    def __init__(
        self,
        name: str,
        compose: Callable[[Mapping[str, Any]], str],
        reads: Mapping[str, keys.KeySpec] | None = None,
    ) -> None:
        super().__init__(name, reads=(reads or {}).values())
        self.compose = compose
        self.inputs = {short: self.key_of(spec) for short, spec in (reads or {}).items()}
        self.reply_key = self.key_of(keys.REPLY)

    def update(self) -> Status:
        """Compose and write the reply."""
        missing = [key for key in self.inputs.values() if not self.blackboard.exists(key)]
        if missing:
            self.feedback_message = f"cannot speak: {', '.join(missing)} not on the blackboard"
            return Status.FAILURE
        values = {short: self.blackboard.get(key) for short, key in self.inputs.items()}
        sentence = self.compose(values)
        self.blackboard.set(self.reply_key, sentence)
        self.feedback_message = f"said: {sentence!r}"
        return Status.SUCCESS


class AnswerInKind(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Answer a social turn in kind: "You're welcome.", "Hello! What can I do for you?".

    A prohibition alone ("don't give Leo the knife":
    :func:`~knowledge.safety.said_prohibitions.only_prohibits`) is answered "All right, I
    won't."; the hazard check keeps to it for the rest of the conversation.
    Reads ``/turn/frame`` (:func:`~knowledge.understanding.pending_question.turn_acts`); writes
    ``/turn/reply``. SUCCESS when the answer was written; FAILURE when the turn has no parse
    or is no social turn. Never RUNNING.
    """

    reads = (keys.REQUEST_FRAME,)
    writes = (keys.REPLY,)

    def __init__(self, name: str = "AnswerInKind") -> None:
        super().__init__(name)
        self.reply_key = self.key_of(keys.REPLY)

    def update(self) -> Status:
        """Write the answer to the turn's social acts."""
        frame = keys.read_request_frame(self.blackboard)
        acts = turn_acts(frame) if frame is not None else ()
        if frame is not None and not acts and only_prohibits(frame.text):
            reply = "All right, I won't."  # "don't give Leo the knife": kept for the conversation
        elif not acts:
            self.feedback_message = "no social turn to answer"
            return Status.FAILURE
        else:
            reply = answer_in_kind(acts)
        self.blackboard.set(self.reply_key, reply)
        self.feedback_message = f"said: {reply!r} ({', '.join(acts)})"
        return Status.SUCCESS


class ControlIs(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Condition: the readiness decision equals ``expected``.

    Reads ``/turn/control``. SUCCESS when it equals ``expected``; FAILURE when it differs or is
    unset. Never RUNNING.
    """

    reads = (keys.CONTROL,)

    def __init__(self, expected: keys.Control, name: str | None = None) -> None:
        super().__init__(name or f"ControlIs{expected}")
        self.expected = expected
        self.control_key = self.key_of(keys.CONTROL)

    def update(self) -> Status:
        """Compare the decision with ``expected``."""
        control = (
            self.blackboard.get(self.control_key)
            if self.blackboard.exists(self.control_key)
            else None
        )
        self.feedback_message = f"control is {control}, expected {self.expected}"
        return Status.SUCCESS if control == self.expected else Status.FAILURE
