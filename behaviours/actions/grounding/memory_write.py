"""Memory writes of a turn: stage what a memory_write task will store, then consolidate.

``StageClaims`` turns the claims of a memory_write task into evidence, so the reply can
confirm what will be remembered; ``Consolidate`` writes the turn to memory (H, C, A) on a
worker, and closes a clarification dialogue once its task ran.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import Any

import py_trees
from py_trees.common import Status
from pydantic import BaseModel

from cogtree.behaviours import keys
from cogtree.behaviours.background import BackgroundWork, Pending
from cogtree.behaviours.setup_handles import optional_handle, require_handle
from cogtree.knowledge.language.grammar.social_acts import drops_the_question
from cogtree.knowledge.language.pronouns import TalkedAbout
from cogtree.knowledge.memory.failures import memory_failure
from cogtree.knowledge.memory.model import Claim, ClaimsError, TurnTrace, task_claims
from cogtree.knowledge.memory.polarity import Stance, inadmissible, request_stance
from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.safety.doubts import explicit_yes
from cogtree.knowledge.scene.scene_models import Candidate
from cogtree.knowledge.understanding.pending_question import (
    instead_offer,
    moves_on,
    offer_after,
    settle_moved_on,
    turn_acts,
)
from cogtree.knowledge.understanding.turn_state import (
    EvidenceBundle,
    EvidenceItem,
    IntentFrame,
    PendingTask,
)
from cogtree.knowledge.worker_pool import WorkerPool

log = logging.getLogger(__name__)

GENERAL_DOMAIN = "general"
"""The domain a turn is recorded under when no domain was detected."""

NOT_REMEMBERED = (
    "I could not remember that: my memory could not be written just now. "
    "Please tell me again later."
)
"""The reply that replaces the confirmation of claims the memory refused to store (the
reason, which names files and fixes, goes to the feedback message and the log)."""


NOT_NOTED: dict[str, str] = {
    "asks": "That sounds like a question, so I have not noted anything.",
    "hedges": "You don't sound sure, so I have not noted it. Tell me once you know.",
    "retracts": "I have not changed what I remember: I change it only once you confirm.",
    "asserts": "I have not noted anything from that.",
}
"""What the robot says, by the request's stance, when the guard kept no claim."""


@dataclass(frozen=True)
class GuardedClaims:
    """The claims a turn may store after the guard, why the others were not, and the stance."""

    kept: list[Claim]
    refused: list[str]
    stance: Stance


def guard_claims(claims: list[Claim], said: list[str], *, confirmed: bool) -> GuardedClaims:
    """The claims of a request said as ``said``, as the user's words allow them to be kept.

    Whatever the task (a model's reading) says: nothing from a question or a doubt; in a
    retraction each positive claim becomes its withdrawal (a name is dropped), never a
    stated fact; ``confirmed`` (the user's explicit yes to the robot's question) makes the
    claims ``confirmed``, which a withdrawal needs. The rest of the guard is
    :func:`knowledge.memory.polarity.inadmissible`, which the memory applies again on write.
    """
    stance = request_stance(said)
    kept: list[Claim] = []
    refused: list[str] = []
    for claim in claims:
        if stance == "retracts" and claim.holds:
            if claim.kind == "identifier":
                refused.append(f"{claim.text!r} is not kept from a retraction")
                continue
            claim = claim.withdrawn()
        if confirmed:
            claim = claim.model_copy(update={"source": "confirmed"})
        why = inadmissible(claim, said)
        if why is None:
            kept.append(claim)
        else:
            refused.append(why)
    return GuardedClaims(kept, list(dict.fromkeys(refused)), stance)


def request_claims(node: keys.DeclaredKeys, task: BaseModel) -> GuardedClaims:
    """:func:`guard_claims` of ``task`` for the request on the blackboard of ``node``.

    The node declares reads of ``/turn/utterance``, ``/turn/intent`` (the utterances of the
    request) and ``/session/pending`` (the user confirms when the pending question asked to
    confirm and this utterance is an explicit yes; an answer that became another task is
    judged on its own words, not on the question it answers: :func:`answered_apart`). Raises
    :class:`ClaimsError` like :func:`task_claims`.
    """
    board = node.blackboard
    utterance = keys.read_optional(board, node.key_of(keys.UTTERANCE), str) or ""
    intent = keys.read_optional(board, node.key_of(keys.INTENT), IntentFrame)
    said = list(intent.said) if intent is not None else []
    if utterance.strip() and utterance not in said:
        said.append(utterance)
    pending = keys.read_optional(board, node.key_of(keys.PENDING), PendingTask)
    confirmed = pending is not None and bool(pending.confirm) and explicit_yes(utterance)
    if answered_apart(pending, intent):
        assert pending is not None
        said = said[len(pending.said) :]  # the answer states; the request it answers asked
    return guard_claims(task_claims(task), said, confirmed=confirmed)


def answered_apart(pending: PendingTask | None, intent: IntentFrame | None) -> bool:
    """Whether ``intent`` is an answer to ``pending``'s question that became another task.

    "Where is the honey?" -> "Can you tell me where it is?" -> "on the counter": a note of
    where the honey is, merged with the question it answers (its words name the honey).
    """
    if pending is None or intent is None or intent.task == pending.task:
        return False
    return intent.answers and intent.said[: len(pending.said)] == pending.said


def claims_text(claims: list[Claim]) -> str:
    """The claims' texts as sentences: ``Anna is allergic to peanuts. Anna is vegan.``."""
    return " ".join(claim.text if claim.text[-1] in ".!?" else f"{claim.text}." for claim in claims)


class StageClaims(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Stage what a memory_write task will store as evidence, for Respond to confirm.

    Reads ``/turn/task`` (a schema with ``claims()``), ``/turn/utterance``, ``/turn/intent``
    and ``/session/pending`` (what the user said and confirmed: :func:`guard_claims` keeps
    only what the words allow), and ``/turn/evidence`` (kept, appended to). Writes
    ``/turn/evidence`` with one :class:`~knowledge.understanding.turn_state.EvidenceItem`: source
    ``memory`` with the kept claims' texts, or, when the guard kept none, source
    ``memory_guard`` with what the robot says instead (:data:`NOT_NOTED`). SUCCESS: claims
    staged. FAILURE: no task, a task without ``claims()``, a failing ``claims()``, no claim at
    all, or none the guard kept (the message says which). Never RUNNING. Consolidate writes
    the claims to memory at the end of the turn.
    """

    reads = (keys.TASK, keys.UTTERANCE, keys.INTENT, keys.PENDING)
    writes = (keys.EVIDENCE,)

    def __init__(self, name: str = "StageClaims") -> None:
        super().__init__(name)
        self.task_key = self.key_of(keys.TASK)
        self.evidence_key = self.key_of(keys.EVIDENCE)

    def update(self) -> Status:
        """Read the claims and stage them."""
        task = keys.read_optional(self.blackboard, self.task_key, BaseModel)
        if task is None:
            self.feedback_message = "no task on /turn/task: nothing to remember"
            return Status.FAILURE
        try:
            guarded = request_claims(self, task)
        except ClaimsError as error:
            self.feedback_message = str(error)
            return Status.FAILURE
        if not guarded.kept and not guarded.refused:
            self.feedback_message = f"{type(task).__name__} states nothing to remember"
            return Status.FAILURE
        if not guarded.kept:
            self._add_evidence(EvidenceItem(source="memory_guard", text=NOT_NOTED[guarded.stance]))
            self.feedback_message = f"nothing to remember: {'; '.join(guarded.refused)}"
            return Status.FAILURE
        text = claims_text(guarded.kept)
        self._add_evidence(EvidenceItem(source="memory", text=text))
        refused = f" (not kept: {'; '.join(guarded.refused)})" if guarded.refused else ""
        self.feedback_message = f"will remember: {text}{refused}"
        return Status.SUCCESS

    def _add_evidence(self, item: EvidenceItem) -> None:
        held = keys.read_optional(self.blackboard, self.evidence_key, EvidenceBundle)
        items = [*(held.items if held is not None else []), item]
        self.blackboard.set(self.evidence_key, EvidenceBundle(items=items))


class Consolidate(keys.DeclaredKeys, BackgroundWork[TurnTrace]):
    """Write the turn to memory, and close the clarification dialogue once its task ran.

    Writes one :class:`~knowledge.memory.model.TurnTrace` (what the user said, the reply, the
    domain, and the claims of a Proceeded memory_write task; no other turn carries claims)
    on a worker: the store consolidates H into C and C into A within that write. A turn that
    asked for something else than the pending task and was answered or refused (Proceed,
    Reject) settles it as :mod:`knowledge.understanding.pending_question` says: kept and asked
    again after the reply once, else dropped, and the reply says which. Otherwise, on Proceed it
    clears
    ``/session/pending`` (the task the robot asked about has run); on Clarify, Reject or
    SwitchDomain it keeps it (on Acknowledge too, unless the turn dismissed it: "never mind"),
    but a confirmation it asks for (``confirm``) holds for the next
    turn only: a turn whose reply does not end with its question drops it. The turn's request
    is kept for a follow-up that adds to it ("and the pepper too") only when it was let through
    (Proceed: it still meets every gate again when carried on);
    any other decision forgets the last one, so a request declined or asked about is never
    carried on. An answer that found one thing to carry offers to bring it (the question after
    the reply, the offer pending: :func:`~knowledge.understanding.pending_question.offer_after`);
    an offer holds for the next turn only, taken by a yes, dropped by anything else.

    Handles: ``memory`` (:class:`~knowledge.memory.store.MemoryStore`), ``workers``, optional
    ``domains`` (without it nothing is offered).

    Reads ``/turn/utterance``, ``/turn/reply``, ``/turn/domain``, ``/turn/control``,
    ``/turn/task``, ``/turn/intent``, ``/turn/frame``, ``/session/pending`` (the claims pass
    :func:`guard_claims`, as in StageClaims), ``/turn/candidates`` (what an answer found),
    ``/turn/speaker`` (unset: nobody identified the
    speaker, and the turn's facts hold for this conversation only, never for whoever speaks
    next: :meth:`~knowledge.memory.store.MemoryStore.write`). Writes
    ``/session/talked_about`` (its last request) and ``/session/pending``
    (cleared on Proceed, its ``confirm`` dropped after the turn that asked; kept, asked again
    or dropped after a new request) and ``/turn/reply``: the pending question asked again, or
    that it was dropped, after the reply; when a write carrying claims fails, the
    confirmation Respond gave ("Noted: ...") is replaced by :data:`NOT_REMEMBERED` with the
    reason, so the robot never says it noted what it lost.
    SUCCESS: the turn is stored. FAILURE: no utterance this turn, or the memory refused the
    write (the reason is the feedback message and the log holds the whole trace: nothing is
    lost silently). RUNNING: writing.
    """

    reads = (
        keys.UTTERANCE,
        keys.REPLY,
        keys.DOMAIN,
        keys.CONTROL,
        keys.TASK,
        keys.INTENT,
        keys.SPEAKER,
        keys.REQUEST_FRAME,
        keys.TALKED_ABOUT,
        keys.CANDIDATES,
    )
    writes = (keys.PENDING, keys.REPLY, keys.TALKED_ABOUT)

    def __init__(self, name: str = "Consolidate") -> None:
        super().__init__(name)
        self.memory: MemoryStore | None = None
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.reply_key = self.key_of(keys.REPLY)
        self.domain_key = self.key_of(keys.DOMAIN)
        self.control_key = self.key_of(keys.CONTROL)
        self.task_key = self.key_of(keys.TASK)
        self.pending_key = self.key_of(keys.PENDING)
        self.intent_key = self.key_of(keys.INTENT)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.talked_key = self.key_of(keys.TALKED_ABOUT)
        self.candidates_key = self.key_of(keys.CANDIDATES)
        self.domains: DomainRegistry | None = None
        self._trace: TurnTrace | None = None
        self._notes: list[str] = []
        self._settled: list[str] = []

    def setup(self, **kwargs: Any) -> None:
        """Take the ``memory`` and ``workers`` handles, and the optional ``domains``."""
        super().setup(**kwargs)
        self.memory = require_handle(self, kwargs, "memory", MemoryStore)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)
        self.domains = optional_handle(self, kwargs, "domains", DomainRegistry)

    def start(self) -> Future[TurnTrace] | Status:
        """Build the turn's trace and start writing it; FAILURE at once without an utterance."""
        assert self.memory is not None
        self._trace, self._notes, self._settled = None, [], []
        utterance = keys.read_optional(self.blackboard, self.utterance_key, str) or ""
        if not utterance.strip():
            self.feedback_message = "no utterance this turn: nothing to remember"
            return Status.FAILURE
        claims = tuple(self._claims())  # before settling: a confirmation reads the pending task
        replied = keys.read_optional(self.blackboard, self.reply_key, str) or ""
        self._settled = self._settle_pending()
        self._offer(replied)
        self._remember_request()
        self._trace = TurnTrace(
            user=utterance,
            robot=keys.read_optional(self.blackboard, self.reply_key, str) or "",
            domain=keys.read_optional(self.blackboard, self.domain_key, str) or GENERAL_DOMAIN,
            claims=claims,
        )
        known = bool(keys.read_optional(self.blackboard, self.speaker_key, str))
        return self.submit(partial(self.memory.write, speaker_known=known), self._trace)

    def waiting(self, waited: float) -> str:
        """The write runs."""
        return "writing the turn to memory"

    def on_error(self, error: Exception) -> Status:
        """FAILURE: the memory refused the write (the whole turn goes to the log).

        A refused turn with claims takes back the reply's confirmation (:data:`NOT_REMEMBERED`).
        """
        assert self._trace is not None
        reason = memory_failure(self.name, error)
        log.warning(
            "%s: memory refused the turn (%s); the turn was: %s",
            self.name,
            reason,
            self._trace.model_dump_json(),
        )
        self.feedback_message = f"turn not stored: {reason}"
        if self._trace.claims:
            self.blackboard.set(self.reply_key, NOT_REMEMBERED)
            self.feedback_message += "; the reply's confirmation is taken back"
        return Status.FAILURE

    def on_cancel(self, work: Pending[TurnTrace]) -> None:
        """Stop waiting (a write already running still commits)."""
        work.cancel()
        self.feedback_message = "interrupted while writing the turn to memory"

    def finish(self, stored: TurnTrace) -> Status:
        """Settle the pending task; SUCCESS with what was stored."""
        said = f"turn {stored.turn} stored with {len(stored.claims)} claim(s)"
        self.feedback_message = "; ".join([said, *self._settled, *self._notes])
        return Status.SUCCESS

    def _claims(self) -> list[Claim]:
        """The claims of a Proceeded memory_write task; none for any other turn."""
        if keys.read_optional(self.blackboard, self.control_key, str) != "Proceed":
            return []
        task = keys.read_optional(self.blackboard, self.task_key, BaseModel)
        if task is None or not hasattr(task, "claims"):
            return []
        try:
            guarded = request_claims(self, task)
        except ClaimsError as error:
            log.warning("%s: storing the turn without claims: %s", self.name, error)
            self._notes.append(f"no claims stored: {error}")
            return []
        self._notes += [f"not kept: {why}" for why in guarded.refused]
        return guarded.kept

    def _remember_request(self) -> None:
        """Keep the turn's request if it ran and asked for an action; forget it if not run."""
        talked = keys.read_optional(self.blackboard, self.talked_key, TalkedAbout)
        if talked is None:
            return
        ran = keys.read_optional(self.blackboard, self.control_key, str) == "Proceed"
        frame = keys.read_request_frame(self.blackboard)
        request = frame if ran and frame is not None and frame.actions else None
        kept = request or (talked.request if ran else None)  # an answer that ran: kept
        self.blackboard.set(self.talked_key, talked.model_copy(update={"request": kept}))

    def _offer(self, replied: str) -> None:
        """After an answer that found one thing to carry, offer to bring it (pending_question.py).

        After a task that took any one of several things, the others wait as its options.

        Not while a question waits, nor after ``replied`` (the reply the turn gave) was added
        to when an earlier question was settled: one question at a time.
        """
        board, domain = self.blackboard, keys.read_optional(self.blackboard, self.domain_key, str)
        intent = keys.read_optional(board, self.intent_key, IntentFrame)
        answered = keys.read_optional(board, self.control_key, str) == "Proceed"
        reply = keys.read_optional(board, self.reply_key, str) or ""
        waiting = keys.read_optional(board, self.pending_key, PendingTask) is not None
        if intent is None or intent.task is None or intent.steps or not answered:
            return  # one answer per thing ("where are the apples?") offers none
        if waiting or reply != replied:
            return
        if self.domains is None or domain is None or domain not in self.domains:
            return
        found = keys.read_optional(board, self.candidates_key, list) or []
        said = keys.read_optional(board, self.utterance_key, str) or ""
        things = [thing for thing in found if isinstance(thing, Candidate)]
        pack = self.domains.get(domain)
        offer = offer_after(pack, intent.task, things, reply, said)
        if offer is not None:
            board.set(self.pending_key, offer)
            board.set(self.reply_key, f"{reply} {offer.question}")
            self._settled.append(f"offered {offer.task}")
        elif (instead := instead_offer(pack, intent, things, said)) is not None:
            board.set(self.pending_key, instead)  # the reply named the others already
            self._settled.append(f"offered {instead.task} with another one instead")

    def _settle_pending(self) -> list[str]:
        """Settle the pending task after the turn (class docstring); notes on what happened."""
        pending = keys.read_optional(self.blackboard, self.pending_key, PendingTask)
        if pending is None:
            return []
        control = keys.read_optional(self.blackboard, self.control_key, str)
        intent = keys.read_optional(self.blackboard, self.intent_key, IntentFrame)
        frame = keys.read_request_frame(self.blackboard)
        acknowledged = control == "Acknowledge" and frame is not None
        acts = turn_acts(frame) if acknowledged and frame is not None else ()
        if pending.offered and (control != "Proceed" or moves_on(pending, intent)):
            self.blackboard.unset(self.pending_key)  # an offer holds for the next turn only
            return [f"the offer of {pending.task} lapsed"]
        if drops_the_question(acts, confirming=pending.asks_to_confirm):
            self.blackboard.unset(self.pending_key)
            return [f"pending {pending.task} dismissed"]
        if control in ("Proceed", "Reject") and moves_on(pending, intent):
            reply = keys.read_optional(self.blackboard, self.reply_key, str) or ""
            settled = settle_moved_on(pending, reply)
            self.blackboard.set(self.reply_key, settled.reply)
            if settled.pending is None:
                self.blackboard.unset(self.pending_key)
            else:
                self.blackboard.set(self.pending_key, settled.pending)
            return [settled.note]
        if control == "Proceed":
            self.blackboard.unset(self.pending_key)
            return [f"pending {pending.task} closed"]
        reply = keys.read_optional(self.blackboard, self.reply_key, str) or ""
        if pending.confirm and not reply.endswith(pending.question):
            self.blackboard.set(self.pending_key, pending.model_copy(update={"confirm": []}))
            return [f"the confirmation asked for {pending.task} expired"]
        return []
