"""``ParseRequest``: read the user's request once per turn into its frame."""

from __future__ import annotations

from typing import Any

import py_trees
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.setup_handles import optional_handle
from cogtree.knowledge.language.pronouns import TalkedAbout
from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.language.step_antecedents import with_earlier_request, with_topic
from cogtree.knowledge.language.unknown_verbs import with_unknown_verbs
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.contents import with_contents
from cogtree.knowledge.understanding.purposes import with_purposes
from cogtree.knowledge.understanding.scope_matching import Offered


class ParseRequest(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Parse ``/turn/utterance`` into ``/turn/frame``, the one parse every later node reads.

    The frame (:class:`~knowledge.language.request_frame.RequestFrame`) holds the request's
    steps with their verbs and roles, the skills it asks for that the robot lacks and the
    clauses that only give context; a portion is read as its thing and a container of water
    asked for is filled first (:func:`~knowledge.understanding.contents.with_contents`); "to
    open it" after "I need something" says what the thing is for
    (:func:`~knowledge.understanding.purposes.with_purposes`); a thing named before a request
    that names none is its object ("the crisp packets on the desk - bin them";
    :func:`~knowledge.language.step_antecedents.with_topic`); a request that only adds to the
    last one ("and the pepper too", "same again") is that one's action on what it names now
    (:func:`~knowledge.language.step_antecedents.with_earlier_request`). Scope, intent,
    readiness and refusal read it instead of parsing the text again. The parse reads at most
    :data:`~knowledge.language.request_frame.MAX_PARSE_CHARS` characters, so its cost is
    bounded whatever was said.

    Handle: ``domains`` (:class:`~knowledge.packs.domain_registry.DomainRegistry`), optional.
    With it, a verb the grammar does not know and no task of the loaded packs is asked with
    ("throw the pot", "juggle the oranges") is a skill the robot lacks
    (:func:`~knowledge.language.unknown_verbs.with_unknown_verbs`): the gates then say it
    cannot, instead of reading the request by its nouns.

    Reads ``/turn/utterance``, ``/session/talked_about`` (the last request that ran); writes
    ``/turn/frame``. SUCCESS always: a missing or empty utterance gives a frame with no steps
    (the feedback says so). Never RUNNING or FAILURE.
    """

    reads = (keys.UTTERANCE, keys.TALKED_ABOUT)
    writes = (keys.REQUEST_FRAME,)

    def __init__(self, name: str = "ParseRequest") -> None:
        super().__init__(name)
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.frame_key = self.key_of(keys.REQUEST_FRAME)
        self.talked_key = self.key_of(keys.TALKED_ABOUT)
        self.registry: DomainRegistry | None = None
        self.known: frozenset[str] | None = None
        """The verbs the packs' tasks are asked with, once a step needed them."""

    def setup(self, **kwargs: Any) -> None:
        """Take the optional ``domains`` handle: its packs' tasks are asked with known verbs."""
        super().setup(**kwargs)
        self.registry = optional_handle(self, kwargs, "domains", DomainRegistry)
        self.known = None

    def _known(self) -> frozenset[str]:
        if self.known is None:
            assert self.registry is not None
            self.known = Offered.of(self.registry.packs).verbs
        return self.known

    def update(self) -> Status:
        """Write the frame of this turn's utterance."""
        utterance = keys.read_optional(self.blackboard, self.utterance_key, str)
        talked = keys.read_optional(self.blackboard, self.talked_key, TalkedAbout)
        earlier = talked.request if talked is not None else None
        frame = with_earlier_request(parse_request(utterance or ""), earlier, parse_request)
        frame = with_topic(with_purposes(with_contents(frame)))
        if self.registry is not None:
            frame = with_unknown_verbs(frame, self._known)
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
