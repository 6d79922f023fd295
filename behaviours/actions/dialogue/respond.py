"""``Respond``: outer speech (JANUS): what the robot says, held to the evidence bundle.

Fast path, the templated answer (:mod:`knowledge.templated_reply`), when one fits the
evidence: the task's ``reply`` template filled from the query rows and slots, "I could not
find anything for ...", "Noted: ...", or the outcome read from the belief for a plan. The
templated answer is composed and checked on the ``workers`` pool: its cost grows with the
evidence. The model speaks when no template fits. Its reply must be faithful
(:mod:`knowledge.understanding.faithfulness`): every number and entity it states (forms of the
``query`` and ``scene`` lexicons) must be in the evidence, the working context, the utterance,
the task's slots or the node's own safe phrases; it may not say the task was done when the
plan evidence does not back it, name whom the outcome does not let it claim (Lena when Carlos
signed; :func:`unbacked_claims`), or state a thing's state the scene does not back
(:mod:`skills.safety.state_claims`). An unfaithful reply is sent back once with the claims
named (``revise``); unfaithful again, the templated answer is said and the rationale lists
them. A reply naming what the evidence withheld (a dish the person is allergic to) is refused
the same way, even when the utterance names it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import replace
from typing import Any

from py_trees.common import Status
from pydantic import BaseModel, Field

from cogtree.behaviours import keys
from cogtree.behaviours.llm_behaviour import LLMBehaviour, Verdict
from cogtree.behaviours.setup_handles import optional_handle, pack_lexicons, require_handle
from cogtree.knowledge.language.success_claims import success_sentences, unbacked
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.templated_reply import (
    NOT_GROUNDED,
    ReplyTurn,
    Templated,
    as_list,
    literal_text,
    local_ids,
    slot_said,
    templated_answer,
    value_said,
)
from cogtree.knowledge.understanding.evidence_needs import TurnTask, find_task, memory_bindings
from cogtree.knowledge.understanding.faithfulness import (
    FaithfulnessReport,
    LexiconNames,
    Support,
    check_reply,
)
from cogtree.knowledge.understanding.lexicon import Lexicon
from cogtree.knowledge.understanding.turn_state import (
    EvidenceBundle,
    IntentFrame,
    SlotResolution,
    TaskSequence,
)
from cogtree.knowledge.wording import BoundedText
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.safety.state_claims import unbacked_in_index

log = logging.getLogger(__name__)


SAFE_PHRASES: tuple[str, ...] = (
    *NOT_GROUNDED.values(),
    "per serving",
    "I could not find anything for",
    "Here is what I found",
    "Noted",
)
"""Phrases the node itself says (marked safe defaults): always supported."""

CANNOT_SAY = "Sorry, I cannot answer that reliably."
"""The last resort when even the templated answer would claim something unsupported."""

EVIDENCE_ROWS_IN_PROMPT = 20
"""At most this many evidence rows go into the model's prompt."""


_SYSTEM = (
    "You are the robot's outer speech. Answer the user's request in one to three short "
    "sentences, using only the evidence and the memory given. State no number, name or fact "
    "that is not in them; if the evidence is empty, say you could not find it. Use names, "
    'not ids. Answer in JSON: {"reply": "...", "rationale": "one sentence"}.'
)


class ReplyDecision(BoundedText):
    """What the robot says, and why."""

    reply: str = Field(description="what the robot says: one to three short sentences")
    rationale: str = Field("", max_length=300, description="one sentence: what it is based on")


_Spoken = tuple[ReplyTurn, Templated, Support, dict[str, FaithfulnessReport]]
"""A turn as read, its templated answer, what supports a reply, and the checks made so far."""


class Respond(LLMBehaviour[ReplyDecision]):
    """Say the answer to the task from the evidence bundle, and nothing the evidence lacks.

    Handles: ``llm``, ``domains``; ``scene_graph`` (optional: its names join the entities
    the guard checks); ``workers`` (optional: where the templated answer is composed and
    checked). Reads ``/turn/utterance``, ``/turn/domain``, ``/turn/intent``,
    ``/turn/task``, ``/turn/resolved``, ``/turn/evidence``, ``/memory/working``. Writes
    ``/turn/reply`` and ``/rationale/<node>`` (what was unsupported, if anything).
    SUCCESS: a reply is written (templated, or the model's when it is faithful). FAILURE:
    nothing at all can be said (no task and no evidence); the rationale says so. RUNNING:
    composing the templated answer and checking it on the ``workers`` (one tick; without
    them it is done on the tick), or waiting for the model.

    ``templated_first=False``: the model words every reply, the template is only the fallback.
    """

    reads = (
        keys.UTTERANCE,
        keys.SPEAKER,
        keys.DOMAIN,
        keys.INTENT,
        keys.TASK,
        keys.RESOLVED,
        keys.EVIDENCE,
        keys.WORKING,
    )
    writes = (keys.REPLY,)

    module = "outer_speech"
    preparing = "composing the templated answer and checking it against the evidence"
    prepare_polled_next_tick = True

    def __init__(self, name: str = "Respond", *, templated_first: bool = True) -> None:
        super().__init__(name, ReplyDecision)
        self.templated_first = templated_first
        self.domains: DomainRegistry | None = None
        self.scene: SceneGraph | None = None
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.domain_key = self.key_of(keys.DOMAIN)
        self.intent_key = self.key_of(keys.INTENT)
        self.task_key = self.key_of(keys.TASK)
        self.resolved_key = self.key_of(keys.RESOLVED)
        self.evidence_key = self.key_of(keys.EVIDENCE)
        self.working_key = self.key_of(keys.WORKING)
        self.reply_key = self.key_of(keys.REPLY)
        self._lexicons: dict[str, Mapping[str, Lexicon]] = {}
        self._turn = ReplyTurn()
        self._templated = Templated("", fits=False)
        self._support = Support(texts=())
        self._reports: dict[str, FaithfulnessReport] = {}

    # -- py_trees lifecycle -------------------------------------------------------------------

    def setup(self, **kwargs: Any) -> None:
        """Take ``llm``, ``domains`` and the optional ``scene_graph``; build the lexicons."""
        super().setup(**kwargs)
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.scene = optional_handle(self, kwargs, "scene_graph", SceneGraph)
        self.workers = optional_handle(self, kwargs, "workers", WorkerPool)
        self._lexicons = pack_lexicons(self, kwargs, self.domains)

    def prepare(self) -> Future[_Spoken] | None:
        """Read the turn; compose the templated answer and check it, on a worker when given."""
        turn = self._read_turn()
        if self.workers is None:
            self.prepared(self._spoken(turn))
            return None
        return self.workers.submit(self._spoken, turn)

    def prepared(self, result: Any) -> None:
        """Keep the turn, the templated answer, what supports a reply and the answer's check."""
        self._turn, self._templated, self._support, self._reports = result

    def _spoken(self, turn: ReplyTurn) -> _Spoken:
        """The people, the templated answer, the support and the answer checked (a worker's)."""
        turn.people = self._people()
        templated, support = templated_answer(turn), self._supporting(turn)
        checked = {templated.text: _checked(templated.text, turn, support, self.scene)}
        return turn, templated, support, checked if templated.text else {}

    # -- the cascade --------------------------------------------------------------------------

    def fast_path(self) -> Verdict[ReplyDecision] | None:
        """The templated answer when a template fits the evidence (or nothing can be said).

        The templated answer is checked like the model's: one that states something the
        support lacks (a sign lost, a label that names more) is not said; the last-resort
        sentence is, and the rationale names what was unsupported.
        """
        templated = self._templated
        if not templated.text:
            reason = "nothing to say: no task and no evidence this turn"
            return Verdict(ReplyDecision(reply="", rationale=reason), reason)
        if templated.fits and self.templated_first:
            report = self._check(templated.text)
            if not report.faithful:
                reason = f"the templated answer states unsupported {report.describe()}"
                return Verdict(ReplyDecision(reply=CANNOT_SAY, rationale=reason), reason)
            decision = ReplyDecision(reply=templated.text, rationale="templated from evidence")
            return Verdict(decision, "templated answer from the evidence")
        return None

    def messages(self) -> list[Message]:
        """The utterance, the task, the evidence rows, the working context and a draft."""
        turn = self._turn
        lines = [f"The user said: {turn.utterance}"]
        if turn.task is not None:
            slots = {slot: slot_said(turn, slot, value) for slot, value in turn.slots.items()}
            lines.append(f"Task: {turn.task.spec.name} {json.dumps(slots, ensure_ascii=False)}")
        lines.append("Evidence:")
        lines.extend(_evidence_lines(turn.evidence))
        if turn.working is not None and turn.working.text:
            lines.append(f"Memory:\n{turn.working.text}")
        lines.append(f"Draft answer (plain, correct): {self._templated.text}")
        return [
            Message(role="system", content=_SYSTEM),
            Message(role="user", content="\n".join(lines)),
        ]

    def safe_decision(self, reason: str) -> ReplyDecision:
        """The templated answer (or the last-resort sentence if even it claims too much)."""
        return ReplyDecision(reply=self._said_instead(), rationale=reason)

    def revise(self, decision: ReplyDecision) -> str | None:
        """Send an unfaithful reply back once, naming the unsupported claims."""
        report = self._check(decision.reply)
        if report.faithful:
            return None
        return (
            f"the reply states {report.describe()}, which the evidence does not contain; "
            "state only what the evidence says"
        )

    def guard(self, decision: ReplyDecision) -> Verdict[ReplyDecision] | None:
        """Replace an unfaithful or empty reply with the templated answer."""
        if not decision.reply.strip():
            if not self._templated.text:
                return None
            why = "the reply was empty"
        else:
            report = self._check(decision.reply)
            if report.faithful:
                return None
            why = f"unsupported {report.describe()}"
        instead = self._said_instead()
        said = "the templated answer" if instead == self._templated.text else repr(instead)
        reason = f"{why}; said {said} instead"
        return Verdict(ReplyDecision(reply=instead, rationale=reason), reason)

    def apply(self, decision: ReplyDecision) -> Status:
        """Write ``/turn/reply``; FAILURE when there is nothing to say."""
        if not decision.reply.strip():
            return Status.FAILURE
        self.blackboard.set(self.reply_key, decision.reply.strip())
        return Status.SUCCESS

    def summary(self, decision: ReplyDecision) -> str:
        """The reply, quoted (or ``no reply``)."""
        return f"reply {decision.reply.strip()!r}" if decision.reply.strip() else "no reply"

    # -- reading the turn ---------------------------------------------------------------------

    def _read_turn(self) -> ReplyTurn:
        turn = ReplyTurn(
            utterance=str(keys.read(self.blackboard, self.utterance_key) or ""),
            intent=_typed(keys.read(self.blackboard, self.intent_key), IntentFrame),
            evidence=_typed(keys.read(self.blackboard, self.evidence_key), EvidenceBundle),
            working=_typed(keys.read(self.blackboard, self.working_key), WorkingContext),
            speaker=keys.read_optional(self.blackboard, self.speaker_key, str),
        )
        resolved = keys.read(self.blackboard, self.resolved_key)
        if isinstance(resolved, dict):
            turn.resolved = {k: v for k, v in resolved.items() if isinstance(v, SlotResolution)}
        if self.domains is not None:
            try:
                turn.task = find_task(
                    self.domains, keys.read(self.blackboard, self.domain_key), turn.intent
                )
            except LookupError as problem:
                log.debug("%s: %s", self.name, problem)
        turn.names = self._names(None)
        if turn.task is not None:
            pack = turn.task.pack.name
            turn.lexicons = self._lexicons.get(pack, {})
            task = keys.read(self.blackboard, self.task_key)
            turn.slots = _slot_values(task, turn.resolved, turn.task)
            if isinstance(task, TaskSequence):
                turn.steps = _steps(turn.task.pack, task)
                turn.labels = self._labels([v for _, values in turn.steps for v in values.values()])
            turn.names = self._names(pack)
        return turn

    def _labels(self, values: list[object]) -> dict[str, str]:
        """The scene's labels of the ids among ``values`` (one lexicon form names one id)."""
        if self.scene is None:
            return {}
        nodes = {str(i): self.scene.index.node(str(i)) for v in values for i in as_list(v)}
        return {i: node.labels[0] for i, node in nodes.items() if node is not None and node.labels}

    def _names(self, pack: str | None) -> LexiconNames:
        """The names of the things a reply may name: ``pack``'s graph lexicons and the scene's.

        Not ``terms`` lexicons (closed sets of words); held, not read: a check asks about the reply.
        """
        assert self.domains is not None
        chosen = [
            self._lexicons[candidate.name][name]
            for candidate in self.domains.packs
            for name, spec in candidate.manifest.lexicons.items()
            if candidate.name in self._lexicons
            and name in self._lexicons[candidate.name]
            and (spec.scene or (candidate.name == pack and spec.source() != "terms"))
        ]
        return LexiconNames(chosen)

    def _people(self) -> frozenset[str]:
        """Ids of the people the belief knows (named without an article), from its index."""
        if self.scene is None:
            return frozenset()
        return frozenset(self.scene.index.of_class("Human"))

    def _supporting(self, turn: ReplyTurn) -> Support:
        """Everything the reply may draw on, as texts and ids."""
        texts: list[str] = [turn.utterance, *SAFE_PHRASES]
        ids: set[str] = set()
        if turn.evidence is not None:
            for value in turn.evidence.values():
                texts.extend((value, value_said(turn, value)))
                ids.update(local_ids(value))
            columns = {
                column for item in turn.evidence.items for row in item.rows for column in row
            }
            texts.extend(column.replace("_", " ") for column in sorted(columns))
        if turn.working is not None:
            texts.append(turn.working.text)
            for bound in memory_bindings(turn.working).values():
                ids.update(bound)
        if turn.intent is not None:
            texts.extend(turn.intent.said)
        for resolution in turn.resolved.values():
            texts.extend(str(said) for said in as_list(resolution.said))
            ids.update(resolution.ids)
        for slot, slot_value in turn.slots.items():
            texts.extend((slot.replace("_", " "), slot_said(turn, slot, slot_value)))
            ids.update(str(item) for item in as_list(slot_value))
        for task in [turn.task, *(step_task for step_task, _ in turn.steps)]:
            if task is not None and task.spec.reply:
                texts.extend(literal_text(task.spec.reply))
        for _, step_slots in turn.steps:
            for slot, slot_value in step_slots.items():
                texts.append(slot_said(turn, slot, slot_value))
                ids.update(str(item) for item in as_list(slot_value))
        return Support(texts=tuple(text for text in texts if text.strip()), ids=frozenset(ids))

    # -- checks -------------------------------------------------------------------------------

    def screen(self, decision: ReplyDecision) -> None:
        """On the model's worker: the reply checked, kept for ``revise`` and ``guard``."""
        self._reports[decision.reply] = self._check(decision.reply)

    def _check(self, reply: str) -> FaithfulnessReport:
        known = self._reports.get(reply)
        return (
            known if known is not None else _checked(reply, self._turn, self._support, self.scene)
        )

    def _said_instead(self) -> str:
        text = self._templated.text
        if text and not self._check(text).faithful:
            log.warning("%s: the templated answer %r is not faithful; said less", self.name, text)
            return CANNOT_SAY
        return text


def _checked(
    reply: str, turn: ReplyTurn, support: Support, scene: SceneGraph | None
) -> FaithfulnessReport:
    """What ``reply`` states that ``support``, the turn's plan evidence or the ``scene`` lacks."""
    evidence = turn.evidence
    withheld = [name for item in evidence.items for name in item.withheld] if evidence else []
    report = check_reply(reply, support, turn.names, withheld)
    unbacked = unbacked_claims(reply, turn, scene)
    return replace(report, claims=tuple(unbacked)) if unbacked else report


def unbacked_claims(reply: str, turn: ReplyTurn, scene: SceneGraph | None = None) -> list[str]:
    """The sentences of ``reply`` claiming what the plan evidence or the ``scene`` lacks.

    Success not all ``ok`` or naming an ``unclaimed`` id or label; a thing's state the scene lacks.
    """
    plans = [item for item in turn.evidence.items if item.source == "plan"] if turn.evidence else []
    claims = success_sentences(reply) if plans else []
    forms = {
        form
        for item in plans
        for name in item.unclaimed
        for form in (name, name.replace("_", " "), value_said(turn, name))
    }
    topic = {str(value) for slot in turn.slots.values() for value in as_list(slot)}
    index = scene.index if scene is not None else None
    return unbacked(claims, done=all(item.ok for item in plans), unclaimed=forms) + (
        unbacked_in_index(reply, turn.names, index, topic)
    )


def _evidence_lines(evidence: EvidenceBundle | None) -> list[str]:
    if evidence is None or not evidence.items:
        return ["(none: nothing was found)"]
    lines = []
    for item in evidence.items:
        if item.text:
            lines.append(f"- {item.source}: {item.text}")
        for row in item.rows[:EVIDENCE_ROWS_IN_PROMPT]:
            cells = {column: value for column, value in row.items() if value is not None}
            lines.append(f"- {item.source}: {json.dumps(cells, ensure_ascii=False)}")
        if not item.rows and not item.text:
            lines.append(f"- {item.source}: no rows (nothing found)")
    return lines


def _slot_values(
    task: object, resolved: Mapping[str, SlotResolution], turn_task: TurnTask
) -> dict[str, object]:
    """The task's slot values: ``/turn/task``'s fields, else the resolutions' ids."""
    declared = turn_task.spec.slots
    if isinstance(task, BaseModel):
        return {slot: value for slot, value in task if not declared or slot in declared}
    values: dict[str, object] = {}
    for slot, resolution in resolved.items():
        if resolution.kind == "text":
            values[slot] = resolution.said
        elif resolution.ids:
            values[slot] = resolution.ids if len(resolution.ids) > 1 else resolution.ids[0]
    return {slot: value for slot, value in values.items() if not declared or slot in declared}


def _steps(pack: DomainPack, sequence: TaskSequence) -> list[tuple[TurnTask, dict[str, object]]]:
    """Each task of ``sequence`` in ``pack``, with its slot values."""
    steps = []
    for step in sequence.steps:
        task = TurnTask(pack=pack, spec=pack.task(step.task))
        steps.append((task, _slot_values(step.values, {}, task)))
    return steps


def _typed(value: object, kind: type[Any]) -> Any:
    return value if isinstance(value, kind) else None
