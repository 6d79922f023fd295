"""``Decline``: a polite refusal that says why, in plain words.

The reason is the readiness gate's, held to the evidence: a rationale the gate took without a
model is the robot's own and is said; one a model wrote is said only when the faithfulness
check finds every number and name in it in the utterance, the evidence or the working context
(a model must not make the robot recite dosages). Otherwise the robot gives a reason of its
own, from what the request itself shows (a word that may hurt, a person to move, an attempt to
override its rules), and records why in ``/rationale/<node>``.
"""

from __future__ import annotations

import re
from typing import Any

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.background import BackgroundWork, Pending
from cogtree.behaviours.setup_handles import optional_handle, require_handle
from cogtree.knowledge.language.missing_steps import left_undone
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.safety.doubts import BLADES, INSTRUCTIONS, PERSON_HANDLING, harm_word
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.faithfulness import held_to, speech_rationale, turn_support
from cogtree.knowledge.understanding.turn_state import OUT_OF_SCOPE, EvidenceBundle, GateRationale
from cogtree.knowledge.wording import joined, lower_first
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.planning.delegation import DELEGATION_SOURCE
from cogtree.skills.planning.handover import offers, undone_said
from cogtree.skills.planning.plan_model import Reflection, ToAPlan

_MACHINE_PREFIX = re.compile(r"^(?:guard|safe decision|asking|cannot proceed)\s*:\s*", re.I)


def plain_reason(rationale: str, *, whole: bool = False) -> str:
    """A gate's rationale as a clause for the user: no machinery prefixes, no final stop.

    Only its first sentence (a model's rationale may ramble), unless ``whole``: the robot's
    own reason, every sentence of it (each hazard of a refusal is one sentence).
    """
    text = rationale.strip()
    while _MACHINE_PREFIX.match(text):
        text = _MACHINE_PREFIX.sub("", text, count=1)
    if not whole:
        text = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    text = text.strip().rstrip(".!?")
    return lower_first(text)


def known_reason(utterance: str) -> str:
    """A reason to refuse that the robot knows from the request itself, as a clause."""
    if PERSON_HANDLING.search(utterance):
        return "I cannot safely move or lift a person"
    if harm_word(utterance) is not None or BLADES.search(utterance):
        return "it could hurt someone"
    if INSTRUCTIONS.search(utterance):
        return "I keep to my safety rules whatever a request says"
    return "it is not something I can do safely"


Said = tuple[dict[str, list[str]], str]
"""Who could do the skills the request lacks, and what the robot says of whom it asked."""


class Decline(keys.DeclaredKeys, BackgroundWork[Said]):
    """Refuse politely and say why.

    Out of scope (``/turn/domain`` is OutOfScope): name the skill the request asks for that
    the robot lacks ("I can't cut things yet"), when its frame names one, and say what the
    robot can help with instead (the loaded packs' titles). Reject: give the readiness gate's
    rationale in plain words (read from ``/rationale/<gate>``) when the robot decided it or
    the faithfulness check backs it, else a reason of the robot's own (:func:`known_reason`);
    a skill the gate found missing is said as "Sorry, I can't cut things yet.", then whom the
    robot asked to do it and whether it was done, when a delegation plan ran this turn
    (``/plan/current`` from ``PlanDelegation``, ``/plan/reflections``), else an offer to ask
    someone in the house who can (:mod:`skills.planning.handover`: their abilities are read
    from the belief on the ``workers``). Anything else: a short apology.

    Handles: ``domains`` (:class:`~knowledge.packs.domain_registry.DomainRegistry`), optional
    ``scene_graph`` (the people to offer; without it no offer) and, with it, ``workers``.

    Reads ``/turn/domain``, ``/turn/control``, ``/rationale/<gate>`` (``gate``: the name of
    the readiness gate node), ``/turn/utterance``, ``/turn/frame``, ``/turn/speaker`` (never
    offered), ``/turn/evidence``, ``/memory/working``. Writes ``/turn/reply``, and
    ``/rationale/<node>`` when the gate's reason was not said. SUCCESS always (RUNNING while
    the people who could help are looked up).
    """

    reads = (
        keys.DOMAIN,
        keys.CONTROL,
        keys.RATIONALE,
        keys.UTTERANCE,
        keys.REQUEST_FRAME,
        keys.SPEAKER,
        keys.EVIDENCE,
        keys.WORKING,
        keys.PLAN,
        keys.REFLECTIONS,
    )
    writes = (keys.REPLY, keys.RATIONALE)

    def __init__(self, name: str = "Decline", *, gate: str = "TaskReadinessGate") -> None:
        # the rationale read is the gate's, not this node's
        super().__init__(name, reads=(spec.for_node(gate) for spec in Decline.reads))
        self.domains: DomainRegistry | None = None
        self.domain_key = self.key_of(keys.DOMAIN)
        self.control_key = self.key_of(keys.CONTROL)
        self.rationale_key = self.key_of(keys.RATIONALE)
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.evidence_key = self.key_of(keys.EVIDENCE)
        self.working_key = self.key_of(keys.WORKING)
        self.reply_key = self.key_of(keys.REPLY)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.plan_key = self.key_of(keys.PLAN)
        self.reflections_key = self.key_of(keys.REFLECTIONS)
        self.own_rationale_key = keys.RATIONALE.for_node(name).name
        self.scene: SceneGraph | None = None

    def setup(self, **kwargs: Any) -> None:
        """Take the ``domains`` handle, and the optional ``scene_graph`` with ``workers``."""
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.scene = optional_handle(self, kwargs, "scene_graph", SceneGraph)
        if self.scene is not None:
            self.workers = require_handle(self, kwargs, "workers", WorkerPool)
        super().setup(**kwargs)

    def start(self) -> Pending[Said] | Status:
        """Look up whom the robot asked, or who could do what it lacks (on the workers)."""
        request = keys.read_request_frame(self.blackboard)
        undone = left_undone(request) if request is not None else ()
        if self.scene is None or not undone:
            return self.finish(({}, ""))
        speaker = keys.read_optional(self.blackboard, self.speaker_key, str)
        plan = keys.read_optional(self.blackboard, self.plan_key, ToAPlan)
        reflections = keys.read_optional(self.blackboard, self.reflections_key, list) or []
        ran = {item.step: item.achieved for item in reflections if isinstance(item, Reflection)}
        # asked only when the plan ran: a delegation the dry run rejected asked nobody
        delegated = plan if plan is not None and plan.source == DELEGATION_SOURCE else None
        asked = delegated if delegated and any(step.id in ran for step in delegated.steps) else None
        done = {step for step, achieved in ran.items() if achieved}
        return self.submit(undone_said, self.scene, undone, speaker, asked, done)

    def on_error(self, error: Exception) -> Status:
        """The people could not be read: refuse without an offer."""
        return self.finish(({}, ""))

    def finish(self, result: Said) -> Status:
        """Write the refusal (and why the gate's reason was not said, if it was not)."""
        reply, why = self.refusal()
        helpers, asked = result
        if reply.startswith("Sorry, I can't") and (asked or helpers):
            request = keys.read_request_frame(self.blackboard)
            undone = left_undone(request) if request is not None else ()
            reply = " ".join([reply, asked] if asked else [reply, *offers(undone, helpers)])
        self.blackboard.set(self.reply_key, reply)
        if why is not None:
            self.blackboard.set(
                self.own_rationale_key, speech_rationale(self.name, "outer_speech", reply, why)
            )
        self.feedback_message = f"declined: {reply!r}" + (f" ({why})" if why else "")
        return Status.SUCCESS

    def refusal(self) -> tuple[str, str | None]:
        """The sentence for this turn's refusal, and why the gate's reason was not said."""
        utterance = keys.read_optional(self.blackboard, self.utterance_key, str) or ""
        if keys.read_optional(self.blackboard, self.domain_key, str) == OUT_OF_SCOPE:
            titles = [pack.manifest.title for pack in self.domains.packs] if self.domains else []
            offer = f" I can help you as {joined(titles)}." if titles else ""
            request = keys.read_request_frame(self.blackboard)
            lacking = request.missing_skills if request is not None else []
            if lacking:
                return f"Sorry, I can't {joined(lacking, 'or')} yet.{offer}", None
            return f"Sorry, I can't help with that: it is outside what I do.{offer}", None
        why = keys.read_optional(self.blackboard, self.rationale_key, GateRationale)
        own = why is not None and why.source == "fast_path" and not why.vetoed
        reason = plain_reason(why.rationale, whole=own) if why is not None else ""
        if keys.read_optional(self.blackboard, self.control_key, str) != "Reject" or not reason:
            return "Sorry, I can't do that.", None
        assert why is not None
        sentence = f"Sorry, I won't do that: {reason}."
        if own:
            if reason.startswith("I can't"):  # a skill the robot lacks, named by the gate
                sentence = f"Sorry, {reason}."
            return sentence, None  # the robot's own reason, decided without a model
        support = turn_support(
            utterance,
            evidence=keys.read_optional(self.blackboard, self.evidence_key, EvidenceBundle),
            working=keys.read_optional(self.blackboard, self.working_key, WorkingContext),
        )
        return held_to(sentence, support, f"Sorry, I won't do that: {known_reason(utterance)}.")
