"""``AskClarification``: a targeted question naming exactly what the task still needs.

The question is composed deterministically from the task schema of the domain pack: the
``description`` of each missing field, the candidates of an ambiguous referent, or the value
that matched nothing. No model writes it, so it always names what is missing and nothing else.
What it quotes (a value said, a candidate) came through recognition, which a model may have
written: the question goes through the faithfulness check like any reply, and one that states
a number or name the utterance, the candidates and the schema lack is replaced by the schema's
own question.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from py_trees.common import Status
from pydantic import BaseModel

from cogtree.behaviours import keys
from cogtree.behaviours.background import BackgroundWork
from cogtree.behaviours.setup_handles import optional_handle, require_handle
from cogtree.knowledge.clarifying_questions import (
    LISTED_CANDIDATES,
    SPEAKER_QUESTION,
    confirmation_question,
    field_question,
    how_many,
    listed,
    said_text,
    slot_question,
    switching_asked,
    task_question,
    unseen_question,
)
from cogtree.knowledge.language.request_frame import RequestFrame
from cogtree.knowledge.packs.domain_pack import DomainPack, TaskSpec
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.packs.task_schema import BELIEVED
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import Candidate
from cogtree.knowledge.scene.scene_questions import describe
from cogtree.knowledge.scene.taxonomy import usual_place
from cogtree.knowledge.understanding.answer_kinds import proposal_declined
from cogtree.knowledge.understanding.faithfulness import (
    Support,
    held_to,
    speech_rationale,
    turn_support,
)
from cogtree.knowledge.understanding.pending_question import dropped_note, moves_on, only_tells
from cogtree.knowledge.understanding.turn_state import (
    MISSING_TASK,
    SPEAKER_SLOT,
    IntentFrame,
    PendingTask,
    SlotResolution,
)
from cogtree.knowledge.wording import (
    id_words,
)
from cogtree.knowledge.worker_pool import WorkerPool

log = logging.getLogger(__name__)


@dataclass
class _Request:
    """What the question is about, read once per run."""

    utterance: str = ""
    intent: IntentFrame | None = None
    pack: DomainPack | None = None
    spec: TaskSpec | None = None
    schema: type[BaseModel] | None = None
    missing: list[str] = field(default_factory=list)
    safety: list[str] = field(default_factory=list)
    resolved: dict[str, SlotResolution] = field(default_factory=dict)
    candidates: list[Candidate] = field(default_factory=list)
    frame: RequestFrame | None = None


@dataclass(frozen=True)
class _Looked:
    """What the scene index said: each candidate described and labelled, each slot's place."""

    described: dict[str, str] = field(default_factory=dict)
    proposed: dict[str, str] = field(default_factory=dict)
    labelled: dict[str, str] = field(default_factory=dict)


class AskClarification(keys.DeclaredKeys, BackgroundWork[_Looked]):
    """Ask the user for exactly what the task still needs, and remember the task meanwhile.

    Deterministic, no model: the question names every slot of ``/turn/missing`` from the
    schema's field descriptions ("Which dish do you mean?"), lists the candidates of an
    ambiguous referent with where they are ("Which bottle do you mean: the blue bottle on the
    kitchen table or the green bottle in the bedroom?"; of more than
    :data:`LISTED_CANDIDATES`, how many there are, a few of them, and where it is), names a
    value that matched nothing ("I don't know a dish called 'zebra cake'. Which dish do you
    mean?"), asks for the task when none was recognised, names the step a question is about
    when the request is a sequence of tasks ('About "switch it on": Which kettle do you mean:
    ...?'), and asks to confirm when nothing is missing but the gate was unsure (naming the
    safety doubts of ``/turn/safety``: an explicit yes to that question, in the next turn, is
    the confirmation the gate needs).

    Handles: ``domains`` (:class:`~knowledge.packs.domain_registry.DomainRegistry`);
    ``scene_graph`` (:class:`~knowledge.scene.scene_graph.SceneGraph`) optional: it says where the
    candidates of an ambiguous scene referent are (read from its index on the ``workers``
    pool, a handle required with it).

    Reads ``/turn/utterance``, ``/turn/domain``, ``/turn/intent``, ``/turn/missing``,
    ``/turn/safety``, ``/turn/resolved``, ``/turn/candidates``, ``/session/pending``,
    ``/turn/frame`` (the things a question about the task names; all optional). Writes
    ``/turn/reply`` and, when a task is known and the turn asked for something (a statement
    that only tells, :func:`~knowledge.understanding.pending_question.only_tells`, leaves no
    task that acts waiting), ``/session/pending``
    (:class:`~knowledge.understanding.turn_state.PendingTask`: the slots said, the missing ones,
    what was said, the question, the doubts it confirms, the things it offers and which are
    only guesses, the one guess it proposes ("Do you mean the stock pot ...?": a no asks where
    the thing is), and for a home place the belief lacks the one the taxonomy says such things
    have); a pending question of
    another request that this one replaces is dropped, and the reply says so first
    (:func:`~knowledge.understanding.pending_question.dropped_note`); ``/rationale/<node>`` when
    the question failed the faithfulness check (why). SUCCESS once the question is written
    (always); RUNNING while the candidates are located.
    """

    reads = (
        keys.UTTERANCE,
        keys.DOMAIN,
        keys.INTENT,
        keys.MISSING,
        keys.SAFETY,
        keys.RESOLVED,
        keys.CANDIDATES,
        keys.PENDING,
        keys.REQUEST_FRAME,
    )
    writes = (keys.REPLY, keys.PENDING, keys.RATIONALE)

    def __init__(self, name: str = "AskClarification") -> None:
        super().__init__(name)
        self.domains: DomainRegistry | None = None
        self.scene_graph: SceneGraph | None = None
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.domain_key = self.key_of(keys.DOMAIN)
        self.intent_key = self.key_of(keys.INTENT)
        self.missing_key = self.key_of(keys.MISSING)
        self.safety_key = self.key_of(keys.SAFETY)
        self.resolved_key = self.key_of(keys.RESOLVED)
        self.candidates_key = self.key_of(keys.CANDIDATES)
        self.reply_key = self.key_of(keys.REPLY)
        self.pending_key = self.key_of(keys.PENDING)
        self.rationale_key = self.key_of(keys.RATIONALE)
        self._request = _Request()
        self._proposed: dict[str, str] = {}
        self._declined: frozenset[str] = frozenset()
        """The slots whose one guessed thing the user just said no to ("Do you mean ...?")."""

    def setup(self, **kwargs: Any) -> None:
        """Take the ``domains`` handle, and ``scene_graph`` (with ``workers``) when given."""
        super().setup(**kwargs)
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.scene_graph = optional_handle(self, kwargs, "scene_graph", SceneGraph)
        if self.scene_graph is not None:
            self.workers = require_handle(self, kwargs, "workers", WorkerPool)

    def start(self) -> Future[_Looked] | Status:
        """Read the request; start locating the candidates of ambiguous scene referents.

        And the usual place of the thing a missing destination is for. With nothing to look
        up (or no scene graph), the question is written at once.
        """
        self._request = self._read()
        to_place = [
            found
            for slot in self._request.missing
            if (resolution := self._request.resolved.get(slot)) is not None
            and resolution.kind == "scene"
            for found in listed(resolution)
        ]
        earlier = keys.read_optional(self.blackboard, self.pending_key, PendingTask)
        declined = earlier is not None and proposal_declined(self._request.utterance, earlier)
        self._declined = frozenset(_guessed_one(self._request) if declined else ())
        homing = {} if declined else _homing(self._request)  # a no asks the question open
        if (to_place or homing) and self.scene_graph is not None:
            return self.submit(_look_up, self.scene_graph, to_place, homing)
        return self.finish(_Looked())

    def waiting(self, waited: float) -> str:
        """The candidates are being located."""
        return "looking up where the candidates are"

    def on_error(self, error: Exception) -> Status:
        """Ask without saying where the candidates are (the lookup failed; logged)."""
        log.warning("%s: locating candidates failed: %s", self.name, error)
        return self.finish(_Looked())

    def finish(self, looked: _Looked) -> Status:
        """Write the question and the pending task; SUCCESS."""
        request = self._request
        described, self._proposed = looked.described, looked.proposed
        support = self._support({**described, **self._proposed})
        question, unsaid = held_to(self._question(described), support, self._safe_question())
        if unsaid is not None:
            rationale = speech_rationale(self.name, "clarification", question, unsaid)
            self.blackboard.set(self.rationale_key, rationale)
        reply = question
        pack, spec, intent = request.pack, request.spec, request.intent
        if pack is not None and spec is not None and intent is not None:
            earlier = keys.read_optional(self.blackboard, self.pending_key, PendingTask)
            moved = earlier is None or moves_on(earlier, intent)
            acts = spec.grounding == "physical"  # what a statement says is a memory task's own
            if not (moved and acts and only_tells(request.frame)):  # it asks no act: none waits
                if earlier is not None and moved:
                    reply = f"{dropped_note(earlier)} {question}"
                pending = self._pending(question, unsaid is None, looked.labelled)
                self.blackboard.set(self.pending_key, pending)
        self.blackboard.set(self.reply_key, reply)
        self.feedback_message = f"asked: {reply!r}"
        return Status.SUCCESS

    def _read(self) -> _Request:
        bb = self.blackboard
        intent = keys.read_optional(bb, self.intent_key, IntentFrame)
        domain = keys.read_optional(bb, self.domain_key, str) or (intent.domain if intent else "")
        request = _Request(
            utterance=keys.read_optional(bb, self.utterance_key, str) or "",
            intent=intent,
            frame=keys.read_request_frame(bb),
            missing=[
                m
                for m in keys.read_optional(bb, self.missing_key, list) or []
                if isinstance(m, str)
            ],
            safety=[
                doubt
                for doubt in keys.read_optional(bb, self.safety_key, list) or []
                if isinstance(doubt, str)
            ],
            resolved={
                slot: value
                for slot, value in (keys.read_optional(bb, self.resolved_key, dict) or {}).items()
                if isinstance(value, SlotResolution)
            },
            candidates=[
                c
                for c in keys.read_optional(bb, self.candidates_key, list) or []
                if isinstance(c, Candidate)
            ],
        )
        if self.domains is not None and domain in self.domains:
            request.pack = self.domains.get(domain)
            if intent is not None and intent.task is not None:
                try:
                    request.spec = request.pack.task(intent.task)
                    request.schema = request.pack.schema_for(intent.task)
                except KeyError:
                    request.spec = None
        return request

    def _question(self, described: dict[str, str]) -> str:
        request = self._request
        if request.spec is None or MISSING_TASK in request.missing:
            return task_question(request.frame)
        if not request.missing:
            return confirmation_question(request.utterance, request.safety)
        questions: list[str] = []
        for slot in request.missing:
            resolution = request.resolved.get(slot)
            question = slot_question(
                slot, request.schema, resolution, request.candidates, described
            )
            if resolution is not None and slot in self._declined:
                question = unseen_question(said_text(resolution.said))  # "no": not that one
            if slot in self._proposed:  # "Where should I put it: in the fridge?"
                question = f"{question.split(':')[0].rstrip('?')}: {self._proposed[slot]}?"
            if question not in questions:
                questions.append(question)
        return self._about_step(" ".join(questions))

    def _about_step(self, question: str) -> str:
        """``question`` naming the step it is about, for a request of several tasks."""
        intent = self._request.intent
        step = intent.step_named() if intent is not None else ""
        return f'About "{step}": {question}' if step else question

    def _safe_question(self) -> str:
        """The question from the pack's schema alone (no value said, no candidate named)."""
        request = self._request
        if request.spec is None or MISSING_TASK in request.missing:
            return task_question(request.frame)
        if not request.missing:
            return "Sorry, I did not get that. Could you say it another way?"
        asked = (
            SPEAKER_QUESTION if slot == SPEAKER_SLOT else field_question(slot, request.schema)
            for slot in request.missing
        )
        return self._about_step(" ".join(dict.fromkeys(asked)))

    def _support(self, described: dict[str, str]) -> Support:
        """What the question may state: the utterance, the schema's questions, and more.

        The candidates it names (their labels, ids and places) and how many there are.
        """
        request = self._request
        shown = [found for r in request.resolved.values() for found in r.ids[:LISTED_CANDIDATES]]
        labels = {candidate.id: candidate.label for candidate in request.candidates}
        named = [labels[found] for found in shown if found in labels]
        named.extend(id_words(found) for found in shown)
        counts = {str(how_many(r, request.candidates)) for r in request.resolved.values()}
        return turn_support(
            request.utterance, self._safe_question(), *described.values(), *named, *counts
        )

    def _pending(self, question: str, as_written: bool, labelled: dict[str, str]) -> PendingTask:
        """The task waiting for the answer to ``question``.

        It confirms the safety doubts only when nothing is missing and the question was asked
        as written (naming them).
        """
        request = self._request
        assert request.pack is not None and request.spec is not None and request.intent
        said = list(request.intent.said)
        if request.utterance.strip() and request.utterance not in said:
            said.append(request.utterance)
        return PendingTask(
            domain=request.pack.name,
            task=request.spec.name,
            slots={k: v for k, v in request.intent.slots.items() if k not in self._open()},
            missing=[slot for slot in request.missing if slot != MISSING_TASK],
            said=said,
            question=question,
            confirm=list(request.safety) if as_written and not request.missing else [],
            steps=list(request.intent.steps),
            focus=request.intent.focus,
            unseen=self._unseen(request.missing[0]) if request.missing else "",
            options=(options := self._options(labelled)),
            guessed=[
                slot for slot in options if (found := request.resolved.get(slot)) and found.guessed
            ],
            proposed={
                **{slot: _place_said(place) for slot, place in self._proposed.items()},
                **{
                    slot: options[slot][0]
                    for slot in _guessed_one(request)
                    if slot in options and slot not in self._declined
                },
            },
            ways=switching_asked(request.frame) if MISSING_TASK in request.missing else {},
        )

    def _unseen(self, slot: str) -> str:
        """The thing a scene slot names as said, when it matches nothing the robot has seen.

        Or only a guess the user said no to ("Do you mean the stock pot?" - "no").
        """
        found = self._request.resolved.get(slot)
        if found is None or found.kind != "scene":
            return ""
        return said_text(found.said) if found.unresolved or slot in self._declined else ""

    def _open(self) -> list[str]:
        """The missing slots the answer must give: an ambiguous one keeps what was said."""
        resolved = self._request.resolved
        return [m for m in self._request.missing if m not in resolved or not resolved[m].ambiguous]

    def _options(self, labelled: dict[str, str]) -> dict[str, list[str]]:
        """Each missing slot's offered things, by their labels (those the question names)."""
        request = self._request
        labels = {**labelled, **{candidate.id: candidate.label for candidate in request.candidates}}
        offered = {
            slot: [labels.get(found) or id_words(found) for found in listed(resolution)]
            for slot in request.missing
            if (resolution := request.resolved.get(slot)) is not None
        }
        return {slot: names for slot, names in offered.items() if names}


def _guessed_one(request: _Request) -> list[str]:
    """The missing slots whose one candidate is only a guess: "Do you mean ...?" proposes it."""
    return [
        slot
        for slot in request.missing
        if (found := request.resolved.get(slot)) is not None and found.guess is not None
    ]


def _homing(request: _Request) -> dict[str, str]:
    """Each missing slot the belief supplies from a thing's home place -> that one thing.

    The schema's ``believed_slots`` (``{"destination": ("object", "homePlace")}``): a slot
    the belief could not fill is proposed from where such things usually are.
    """
    believed: dict[str, tuple[str, str]] = getattr(request.schema, BELIEVED, {})
    homing = {}
    for slot in request.missing:
        about, _ = believed.get(slot, ("", ""))
        found = request.resolved.get(about)
        if slot not in request.resolved and found and found.kind == "scene" and len(found.ids) == 1:
            homing[slot] = found.ids[0]
    return homing


def _look_up(scene_graph: SceneGraph, things: list[str], homing: dict[str, str]) -> _Looked:
    """Each thing as the user would pick it and its label, where each homed thing goes."""
    index = scene_graph.index
    with index.reading():
        described = {thing: describe(index, thing) for thing in things}
        places = {slot: usual_place(index, thing) for slot, thing in homing.items()}
        labelled = {t: n.labels[0] for t in things if (n := index.node(t)) and n.labels}
    return _Looked(described, {slot: place for slot, place in places.items() if place}, labelled)


def _place_said(proposal: str) -> str:
    """The place a proposal names, as a slot value: "in the fridge" -> "the fridge"."""
    return proposal.split(" ", 1)[-1]
