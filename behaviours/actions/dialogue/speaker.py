"""``IdentifySpeaker``: learn who is speaking from what they say, when the channel did not tell.

A voice over an intercom, or a robot that cannot tell voices apart, leaves ``/turn/speaker``
unset; "my mug" then means nothing. The readiness gate asks "Who is speaking?" and this node
reads the answer ("it's Jo"), or a self-introduction in any turn ("this is Jo, bring me my
mug"), against the people the scene graph knows. Deterministic: a name counts only when it
names exactly one known person, so a wrong guess never makes "my" someone else's.
"""

from __future__ import annotations

import re
from concurrent.futures import Future
from typing import Any

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.background import BackgroundWork
from cogtree.behaviours.setup_handles import optional_handle, require_handle
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import HumanInfo
from cogtree.knowledge.understanding.turn_state import SPEAKER_SLOT, PendingTask
from cogtree.knowledge.worker_pool import WorkerPool

INTRODUCTION = re.compile(
    r"\b(?:this is|it'?s|it is|i'?m|i am|my name is|here is|here's)\s+([a-z][\w'-]*)",
    re.IGNORECASE,
)
"""A speaker naming themselves; the group is the name."""


def _words(text: str) -> list[str]:
    return [word.lower() for word in re.findall(r"[\w'-]+", text)]


def names_of(person: HumanInfo) -> list[list[str]]:
    """What a person answers to, as lower-case words: their id, their label, its first word.

    "Jo Smith" answers to "jo" and "jo smith"; never to a later word of the label alone, so
    "nadia at reception" does not answer to "at" or "reception".
    """
    label = _words(person.label)
    names = [_words(person.id), label, label[:1]]
    return [name for index, name in enumerate(names) if name and name not in names[:index]]


def named_person(text: str, people: list[HumanInfo]) -> HumanInfo | None:
    """The one person of ``people`` whose name ``text`` says; None when none or several."""
    said = _words(text)

    def says(name: list[str]) -> bool:
        return any(said[i : i + len(name)] == name for i in range(len(said) - len(name) + 1))

    found = [person for person in people if any(says(name) for name in names_of(person))]
    return found[0] if len(found) == 1 else None


class IdentifySpeaker(keys.DeclaredKeys, BackgroundWork[list[HumanInfo]]):
    """Set ``/turn/speaker`` from the utterance when the input channel left it unset.

    It looks only when the robot asked who is speaking (``/session/pending`` lists
    ``speaker``) or the utterance is a self-introduction; the name must match exactly one
    person the scene graph knows.

    Handles: ``scene_graph`` (optional; without it nobody can be identified) and, with it,
    ``workers`` (the people are listed on a worker).
    Reads ``/turn/utterance``, ``/turn/speaker``, ``/session/pending``. Writes
    ``/turn/speaker`` when one person is named. SUCCESS always (identification informs the
    turn, it never stops it; the feedback says what was found); RUNNING while the scene graph
    lists its people.
    """

    first_poll_next_tick = False
    reads = (keys.UTTERANCE, keys.PENDING)
    writes = (keys.SPEAKER,)

    def __init__(self, name: str = "IdentifySpeaker") -> None:
        super().__init__(name)
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.pending_key = self.key_of(keys.PENDING)
        self.scene: SceneGraph | None = None
        self._text = ""

    def setup(self, **kwargs: Any) -> None:
        """Take the optional ``scene_graph`` handle, and ``workers`` with it."""
        super().setup(**kwargs)
        self.scene = optional_handle(self, kwargs, "scene_graph", SceneGraph)
        if self.scene is not None:
            self.workers = require_handle(self, kwargs, "workers", WorkerPool)

    def start(self) -> Future[list[HumanInfo]] | Status:
        """Decide whether to look; if so, ask the scene graph for its people."""
        self._text = self._what_to_read()
        if not self._text:
            self.feedback_message = "speaker known, or nothing says who it is"
            return Status.SUCCESS
        if self.scene is None:
            self.feedback_message = "no scene graph: cannot tell who is speaking"
            return Status.SUCCESS
        return self.submit(self.scene.humans)

    def waiting(self, waited: float) -> str:
        """The people are being listed."""
        return "listing the people the robot knows"

    def on_error(self, error: Exception) -> Status:
        """SUCCESS all the same: identification informs the turn, it never ends it."""
        self.feedback_message = f"could not list people: {error}"
        return Status.SUCCESS

    def finish(self, people: list[HumanInfo]) -> Status:
        """SUCCESS, with ``/turn/speaker`` written when the words name one of ``people``."""
        person = named_person(self._text, people)
        if person is None:
            self.feedback_message = f"{self._text!r} names no single person the robot knows"
            return Status.SUCCESS
        self.blackboard.set(self.speaker_key, person.id)
        self.feedback_message = f"the speaker is {person.id}"
        return Status.SUCCESS

    def _what_to_read(self) -> str:
        """The words that may name the speaker: the answer, or the introduced name."""
        if keys.read_optional(self.blackboard, self.speaker_key, str):
            return ""
        utterance = keys.read_optional(self.blackboard, self.utterance_key, str) or ""
        pending = keys.read_optional(self.blackboard, self.pending_key, PendingTask)
        if pending is not None and SPEAKER_SLOT in pending.missing:
            return utterance
        introduction = INTRODUCTION.search(utterance)
        return introduction.group(1) if introduction else ""
