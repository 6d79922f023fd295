"""``ParseRequest``: read the user's request once per turn into its frame."""

from __future__ import annotations

import py_trees
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.knowledge.language.request_frame import parse_request


class ParseRequest(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Parse ``/turn/utterance`` into ``/turn/frame``, the one parse every later node reads.

    The frame (:class:`~knowledge.language.request_frame.RequestFrame`) holds the request's
    steps with their verbs and roles, the skills it asks for that the robot lacks and the
    clauses that only give context. Scope, intent, readiness and refusal read it instead of
    parsing the text again. The parse reads at most
    :data:`~knowledge.language.request_frame.MAX_PARSE_CHARS` characters, so its cost is
    bounded whatever was said.

    Reads ``/turn/utterance``; writes ``/turn/frame``. SUCCESS always: a missing or empty
    utterance gives a frame with no steps (the feedback says so). Never RUNNING or FAILURE.
    """

    reads = (keys.UTTERANCE,)
    writes = (keys.REQUEST_FRAME,)

    def __init__(self, name: str = "ParseRequest") -> None:
        super().__init__(name)
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.frame_key = self.key_of(keys.REQUEST_FRAME)

    def update(self) -> Status:
        """Write the frame of this turn's utterance."""
        utterance = keys.read_optional(self.blackboard, self.utterance_key, str)
        frame = parse_request(utterance or "")
        if utterance is None:
            self.blackboard.set(self.frame_key, frame)
            self.feedback_message = "no /turn/utterance: an empty frame"
            return Status.SUCCESS
        self.blackboard.set(self.frame_key, frame)
        verbs = [step.verb or step.action for step in frame.steps]
        self.feedback_message = (
            f"{len(frame.steps)} step(s): {', '.join(v for v in verbs if v) or 'no verb'}"
            + (f"; lacks {', '.join(frame.missing_skills)}" if frame.missing_skills else "")
        )
        return Status.SUCCESS
