"""``Respond``: outer speech (JANUS): what the robot says, held to the evidence bundle.

Fast path, the templated answer, when one fits the evidence:

- query rows of the task's template: the task's ``reply`` template, ``{column}`` fields filled
  from the rows (values joined: "flour, eggs and sugar"; a slot's ``every``: each row said in
  turn), ``{slot}`` fields from the task, labels not ids (a ``<column>_label`` column, ...);
- an empty result: "I could not find anything for ..." naming what was asked;
- memory-write evidence: "Noted: ..."; plan evidence: the task's ``reply`` template when the
  robot or its delegates made every goal fact hold and no slot names something the outcome
  does not let it claim (:func:`claimable`), else the outcome read from the belief: what
  holds, who made it hold, what was not done;
- no query evidence for a knowledge task: "I could not look that up (...)".
The model speaks when no template fits. Its reply must be faithful
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
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from py_trees.common import Status
from pydantic import BaseModel, Field

from cogtree.behaviours import keys
from cogtree.behaviours.llm_behaviour import LLMBehaviour, Verdict
from cogtree.behaviours.setup_handles import optional_handle, pack_lexicons, require_handle
from cogtree.knowledge.language.success_claims import success_sentences, unbacked
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.packs.domain_pack import Grounding
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.evidence_needs import TurnTask, find_task, memory_bindings
from cogtree.knowledge.understanding.faithfulness import (
    FaithfulnessReport,
    LexiconNames,
    Support,
    check_reply,
    parse_number,
)
from cogtree.knowledge.understanding.lexicon import Lexicon
from cogtree.knowledge.understanding.turn_state import (
    EvidenceBundle,
    EvidenceItem,
    IntentFrame,
    SlotResolution,
)
from cogtree.knowledge.wording import BoundedText, capitalised, clauses, joined, with_the
from cogtree.skills.safety.state_claims import unbacked_in_index

log = logging.getLogger(__name__)

NOT_GROUNDED: Mapping[Grounding, str] = {
    "knowledge_query": "I could not look that up",
    "physical": "I could not do that",
    "memory_write": "I could not note that",
    "memory_query": "I could not recall that",
}
"""What the robot says when the task's grounding left no evidence at all."""

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

GENERIC_ROWS = 5
"""At most this many rows are listed by the generic templated answer."""

_ID = re.compile(r"(?:[A-Za-z][\w.-]*:|https?://\S+[#/]|urn:\S+:)([A-Za-z_][\w.-]*)")
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


@dataclass(frozen=True)
class Templated:
    """The templated answer for the evidence, and whether a template really fits it."""

    text: str
    fits: bool


@dataclass
class _Turn:
    """What one turn gives Respond to speak from."""

    utterance: str = ""
    task: TurnTask | None = None
    intent: IntentFrame | None = None
    evidence: EvidenceBundle | None = None
    working: WorkingContext | None = None
    slots: dict[str, object] = field(default_factory=dict)
    resolved: dict[str, SlotResolution] = field(default_factory=dict)
    lexicons: Mapping[str, Lexicon] = field(default_factory=dict)
    names: LexiconNames = field(default_factory=lambda: LexiconNames(()))
    speaker: str | None = None
    people: frozenset[str] = frozenset()


class Respond(LLMBehaviour[ReplyDecision]):
    """Say the answer to the task from the evidence bundle, and nothing the evidence lacks.

    Handles: ``llm``, ``domains``; ``scene_graph`` (optional: its names join the entities
    the guard checks). Reads ``/turn/utterance``, ``/turn/domain``, ``/turn/intent``,
    ``/turn/task``, ``/turn/resolved``, ``/turn/evidence``, ``/memory/working``. Writes
    ``/turn/reply`` and ``/rationale/<node>`` (what was unsupported, if anything).
    SUCCESS: a reply is written (templated, or the model's when it is faithful). FAILURE:
    nothing at all can be said (no task and no evidence); the rationale says so. RUNNING:
    waiting for the model.

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
        self._turn = _Turn()
        self._templated = Templated("", fits=False)
        self._support = Support(texts=())

    # -- py_trees lifecycle -------------------------------------------------------------------

    def setup(self, **kwargs: Any) -> None:
        """Take ``llm``, ``domains`` and the optional ``scene_graph``; build the lexicons."""
        super().setup(**kwargs)
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.scene = optional_handle(self, kwargs, "scene_graph", SceneGraph)
        self._lexicons = pack_lexicons(self, kwargs, self.domains)

    def prepare(self) -> None:
        """Read the turn, compose the templated answer, then decide."""
        self._turn = self._read_turn()
        self._templated = _compose(self._turn)
        self._support = self._supporting(self._turn)

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
            slots = {slot: _label_of(turn, slot, value) for slot, value in turn.slots.items()}
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

    def _read_turn(self) -> _Turn:
        turn = _Turn(
            utterance=str(keys.read(self.blackboard, self.utterance_key) or ""),
            intent=_typed(keys.read(self.blackboard, self.intent_key), IntentFrame),
            evidence=_typed(keys.read(self.blackboard, self.evidence_key), EvidenceBundle),
            working=_typed(keys.read(self.blackboard, self.working_key), WorkingContext),
            speaker=keys.read_optional(self.blackboard, self.speaker_key, str),
            people=self._people(),
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
            turn.slots = _slot_values(
                keys.read(self.blackboard, self.task_key), turn.resolved, turn.task
            )
            turn.names = self._names(pack)
        return turn

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

    def _supporting(self, turn: _Turn) -> Support:
        """Everything the reply may draw on, as texts and ids."""
        texts: list[str] = [turn.utterance, *SAFE_PHRASES]
        ids: set[str] = set()
        if turn.evidence is not None:
            for value in turn.evidence.values():
                texts.extend((value, _label(turn, value)))
                ids.update(_local_ids(value))
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
            texts.extend(str(said) for said in _as_list(resolution.said))
            ids.update(resolution.ids)
        for slot, slot_value in turn.slots.items():
            texts.extend((slot.replace("_", " "), _label_of(turn, slot, slot_value)))
            ids.update(str(item) for item in _as_list(slot_value))
        if turn.task is not None and turn.task.spec.reply:
            texts.extend(_literal_text(turn.task.spec.reply))
        return Support(texts=tuple(text for text in texts if text.strip()), ids=frozenset(ids))

    # -- checks -------------------------------------------------------------------------------

    def _check(self, reply: str) -> FaithfulnessReport:
        evidence = self._turn.evidence
        withheld = [name for item in evidence.items for name in item.withheld] if evidence else []
        report = check_reply(reply, self._support, self._turn.names, withheld)
        unbacked = unbacked_claims(reply, self._turn, self.scene)
        return replace(report, claims=tuple(unbacked)) if unbacked else report

    def _said_instead(self) -> str:
        text = self._templated.text
        if text and not self._check(text).faithful:
            log.warning("%s: the templated answer %r is not faithful; said less", self.name, text)
            return CANNOT_SAY
        return text


# -- composing the templated answer -------------------------------------------------------------


def _compose(turn: _Turn) -> Templated:
    """The templated answer for the turn's evidence (text "" when nothing can be said)."""
    items = turn.evidence.items if turn.evidence is not None else []
    parts: list[str] = []
    fits = True
    for item in items:
        text, item_fits = _speak(turn, item)
        fits = fits and item_fits
        if text:
            parts.append(capitalised(text))
    if parts:
        return Templated(" ".join(parts), fits=fits)
    if turn.task is None:
        return Templated("", fits=True)
    failed = NOT_GROUNDED[turn.task.spec.grounding]
    return Templated(f"{failed} ({_asked(turn)}).", fits=True)


def _speak(turn: _Turn, item: EvidenceItem) -> tuple[str, bool]:
    """One evidence item in words, and whether a template fits it."""
    if item.source == "memory":
        text = item.text.strip().rstrip(".")
        task = turn.task
        if task is not None and task.spec.grounding == "memory_write" and task.spec.reply:
            rendered = _render(turn, task.spec.reply, [{"text": text}])
            if rendered is not None:
                return rendered, True
        return (f"Noted: {text}." if text else "Noted."), True
    task = turn.task
    if item.source == "plan":
        if item.ok and task is not None and task.spec.reply and claimable(turn.slots, item):
            rendered = _render(turn, task.spec.reply, [])
            if rendered is not None:
                return rendered, True
        return item.text.strip() or f"{NOT_GROUNDED['physical']} ({_asked(turn)}).", True
    if not item.rows:
        if item.text:
            return item.text.strip(), True
        return f"I could not find anything for {_asked(turn)}.", True
    if not any(value is not None for row in item.rows for value in row.values()):
        return f"I could not find anything for {_asked(turn)}.", True
    if task is not None and task.spec.reply and item.source == task.spec.answer_source:
        rendered = _render(turn, task.spec.reply, item.rows)
        if rendered is not None:
            return rendered, True
    return _generic(turn, item.rows), False


def unbacked_claims(reply: str, turn: _Turn, scene: SceneGraph | None = None) -> list[str]:
    """The sentences of ``reply`` claiming what the plan evidence or the ``scene`` lacks.

    Success not all ``ok`` or naming an ``unclaimed`` id or label; a thing's state the scene lacks.
    """
    plans = [item for item in turn.evidence.items if item.source == "plan"] if turn.evidence else []
    claims = success_sentences(reply) if plans else []
    forms = {
        form
        for item in plans
        for name in item.unclaimed
        for form in (name, name.replace("_", " "), _label(turn, name))
    }
    topic = {str(value) for slot in turn.slots.values() for value in _as_list(slot)}
    index = scene.index if scene is not None else None
    return unbacked(claims, done=all(item.ok for item in plans), unclaimed=forms) + (
        unbacked_in_index(reply, turn.names, index, topic)
    )


def claimable(slots: Mapping[str, object], item: EvidenceItem) -> bool:
    """Whether the task's reply template may be said for the plan evidence ``item``.

    Not when a slot names something the outcome does not let the robot claim as done
    (``item.unclaimed``: "signed by lena" when Carlos signed, "I brought the bottle" when
    someone else carried it), nor when nothing needed doing (``item.nothing_needed``).
    """
    if item.nothing_needed:
        return False
    named = {str(value) for slot in slots.values() for value in _as_list(slot)}
    return not named & set(item.unclaimed)


def _render(turn: _Turn, template: str, rows: Sequence[Mapping[str, str | None]]) -> str | None:
    """``template`` with its fields filled from the rows and the slots; None if one is missing."""
    if len(rows) > 1 and turn.task and any(s.every for s in turn.task.spec.slots.values()):
        each = [_render(turn, template, [row]) for row in rows[:GENERIC_ROWS]]
        return " ".join(text for text in each if text is not None) if all(each) else None
    values: dict[str, str] = {}
    try:
        fields = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
    except ValueError:
        return None
    for name in fields:
        column = _column_values(turn, rows, name)
        if column:
            values[name] = clauses(column)
        elif turn.slots.get(name) not in (None, [], ""):
            values[name] = _label_of(turn, name, turn.slots[name])
        else:
            return None
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return None


def _generic(turn: _Turn, rows: Sequence[Mapping[str, str | None]]) -> str:
    """Rows listed as "column value" pairs, labels instead of ids."""
    listed = []
    for row in rows[:GENERIC_ROWS]:
        pairs = [
            f"{column.replace('_', ' ')} {_cell(turn, row, column)}"
            for column, value in row.items()
            if value is not None and not _labels_another(column, row)
        ]
        if pairs:
            listed.append(", ".join(pairs))
    more = "; and others" if len(rows) > GENERIC_ROWS else ""
    return f"Here is what I found: {'; '.join(listed)}{more}."


def _labels_another(column: str, row: Mapping[str, str | None]) -> bool:
    """Whether ``column`` is the ``_label`` column of another column of the row."""
    return column.endswith("_label") and row.get(column.removesuffix("_label")) is not None


def _column_values(turn: _Turn, rows: Sequence[Mapping[str, str | None]], name: str) -> list[str]:
    """The distinct labelled values of column ``name`` across rows, in order."""
    found: list[str] = []
    for row in rows:
        if row.get(name) is None:
            continue
        value = _cell(turn, row, name)
        if value not in found:
            found.append(value)
    return found


def _cell(turn: _Turn, row: Mapping[str, str | None], column: str) -> str:
    """A cell as said: its ``<column>_label``, else the value's label or number."""
    label = row.get(f"{column}_label")
    if label:
        return label
    return _label(turn, str(row[column]))


def _label(turn: _Turn, value: str) -> str:
    """An id's label (lexicon, else its local name in words); a number rounded sensibly."""
    number = parse_number(value, signed=True)
    if number is not None:
        return _spoken_number(number)
    match = _ID.fullmatch(value.strip())
    if match is None:
        return value
    local = match.group(1)
    for lexicon in turn.lexicons.values():
        if local in lexicon:
            return lexicon.label(local)
    return local.replace("_", " ")


def _label_of(turn: _Turn, slot: str, value: object) -> str:
    """A slot value as said: lexicon labels of its ids, joined naturally.

    Things of the scene get "the" ("the white mug"); people are named; the speaker is "you".
    """
    task = turn.task
    spec = task.spec.slots.get(slot) if task is not None else None
    lexicon = turn.lexicons.get(spec.lexicon) if spec is not None and spec.lexicon else None
    labels = []
    for item in _as_list(value):
        text = str(item)
        if lexicon is not None and text in lexicon:
            label = lexicon.label(text)
        else:
            label = _label(turn, text).replace("_", " ")
        if spec is not None and spec.resolve == "scene":
            if text == turn.speaker:
                label = "you"
            elif text not in turn.people:
                label = with_the(label)
        labels.append(label)
    return joined(labels)


def _asked(turn: _Turn) -> str:
    """What was asked, from the slots: "dish: tiramisu, aspect: carbohydrate" (no flags)."""
    said = [
        f"{slot.replace('_', ' ')}: {_label_of(turn, slot, value)}"
        for slot, value in turn.slots.items()
        if value not in (None, [], "") and not isinstance(value, bool)
    ]
    return ", ".join(said) if said else "that request"


def _spoken_number(number: Decimal) -> str:
    """One decimal from 10 up, two below; trailing zeros dropped: 41.2345 -> 41.2."""
    places = Decimal("0.1") if abs(number) >= 10 else Decimal("0.01")
    try:
        text = format(number.quantize(places), "f")
    except ArithmeticError:
        return format(number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _literal_text(template: str) -> list[str]:
    """The fixed words of a reply template (the pack author's, so safe to say)."""
    try:
        return [literal for literal, _, _, _ in string.Formatter().parse(template) if literal]
    except ValueError:
        return []


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


def _local_ids(value: str) -> list[str]:
    """The local names of the ids in a cell ("adv:tiramisu" -> "tiramisu"), and the cell."""
    match = _ID.fullmatch(value.strip())
    return [match.group(1), value] if match else [value]


def _as_list(value: object) -> list[object]:
    if value is None:
        return []
    if isinstance(value, list | tuple | set | frozenset):
        return list(value)
    return [value]


def _typed(value: object, kind: type[Any]) -> Any:
    return value if isinstance(value, kind) else None
