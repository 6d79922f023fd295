"""``PostProcess``: normalise the intent's slot values and resolve what each one refers to.

JANUS's intent post-processing, deterministic and without a model. Values are tidied
(whitespace, case, numbers with units converted to grams or kcal for numeric slots); then
every slot is looked up where its pack says (:attr:`~knowledge.packs.domain_pack.SlotSpec.resolve`):

- ``scene``: referent resolution (:meth:`~knowledge.scene.scene_graph.SceneGraph.resolve_referent`,
  on the ``workers`` pool so the tick never blocks), 0, 1 or several candidates with reasons;
- ``kg`` and ``value``: the mentions of the slot's lexicon in the value (their canonical ids;
  a word the lexicon does not know gives no id);
- ``text``: kept as said.

Ambiguity and unresolved slots are results, not failures: the readiness gate decides what
to do with them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any, Final, Literal

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.background import AllDone, BackgroundWork, Pending
from cogtree.behaviours.setup_handles import optional_handle, pack_lexicons, require_handle
from cogtree.knowledge.language.grammar.number import names_every, without_count
from cogtree.knowledge.language.pronouns import people_meant
from cogtree.knowledge.packs.domain_pack import SPEAKER_ARGUMENT, DomainPack, TaskSpec
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.packs.slot_values import is_number, normalised
from cogtree.knowledge.packs.task_schema import required_slots
from cogtree.knowledge.safety.hazard_rules import HazardRules, shipped_hazard_rules
from cogtree.knowledge.safety.placed_candidates import Placed, placed_referents
from cogtree.knowledge.scene.fit_for_use import (
    any_one_will_do,
    any_will_do,
    fit_for_use,
    named_in_rules,
)
from cogtree.knowledge.scene.referents.description import PLACE_PREPOSITIONS
from cogtree.knowledge.scene.referents.preferences import label_guess
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import Candidate
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.understanding.lexicon import TYPE_PREFIX, Lexicon
from cogtree.knowledge.understanding.told_apart import (
    asks_for_any,
    count_asked,
    describing_words,
    said_alone,
    told_apart_for_use,
)
from cogtree.knowledge.understanding.turn_state import (
    IntentFrame,
    IntentStep,
    SlotResolution,
    SlotValue,
)
from cogtree.knowledge.wording import DETERMINERS, PLACE_WORDS, join_at
from cogtree.knowledge.worker_pool import WorkerPool

log = logging.getLogger(__name__)

EACH_LIMIT: Final = 6
"""The most things a request that means every one of them is done for, one step each; with
more, the user is asked which."""

ONE_TASK: Final = -1
"""The step key of a request of one task (its slots are the frame's own)."""


@dataclass
class _SceneLookup:
    """Referent resolutions of one scene slot in flight: one future per item said.

    ``step`` is the index of the sequence step the slot belongs to, or :data:`ONE_TASK`;
    ``for_use``: the slot holds what is brought to the speaker, so of several things that fit,
    the one fit for use is taken (:func:`~knowledge.scene.fit_for_use.fit_for_use`).
    """

    slot: str
    said: str | list[str]
    items: list[str]
    step: int = ONE_TASK
    lexicon: Lexicon | None = None
    people: Lexicon | None = None
    for_use: bool = False
    futures: list[Future[Placed]] = field(default_factory=list)
    any_one: list[bool] = field(default_factory=list)
    """Per item: asks for any one (:func:`~knowledge.understanding.told_apart.asks_for_any`)."""
    counts: list[int] = field(default_factory=list)
    """Per item: how many things the count said with it asks for (0: no count)."""
    alone: list[bool] = field(default_factory=list)
    """Per item: nothing more said of it in its sentence (``said_alone``, no describing words)."""
    moves: bool = False
    """The task acts on things (physical grounding): words that match only a label are no
    referent."""


class PostProcess(keys.DeclaredKeys, BackgroundWork[None]):
    """Normalise ``/turn/intent`` and resolve each slot to scene-graph or knowledge ids.

    Handles: ``domains`` (:class:`~knowledge.packs.domain_registry.DomainRegistry`), optional
    ``scene_graph`` (:class:`~knowledge.scene.scene_graph.SceneGraph`; without it scene slots stay
    unresolved and say why) and, with it, ``workers`` (the lookups run there).

    Of several things that fit a slot whose thing is brought to the speaker (a plan acting
    for ``$speaker``), those whose names hold the words said after it are kept ("the crackers
    made of whole grain": the wholegrain ones,
    :func:`~knowledge.understanding.told_apart.told_apart`); then the one fit for use is kept
    when exactly one is: "pass me the dish brush"
    with a clean and a dirty brush resolves to the clean one
    (:func:`~knowledge.scene.fit_for_use.fit_for_use`); of several usable ones side by side in
    the room the speaker is in and alike in what they are (type, safety kinds, materials, none
    unfit), the first, since any would do and a swap is at hand
    (:func:`~knowledge.scene.fit_for_use.any_will_do`; their places are looked up on the
    workers with the referents). Of any slot the user filled with "a", "some", "one of" or
    "something" (:func:`~knowledge.understanding.told_apart.asks_for_any`), one thing is kept
    when the things that fit differ only in which member of their shared category they are
    (:func:`~knowledge.scene.fit_for_use.any_one_will_do`: "a piece of fruit", an apple and a
    satsuma; never a beer for a cola, nor someone else's).

    A request of several tasks (the frame's ``steps``) has every step's slots normalised
    and resolved (each step's ``resolved``); the frame's task and slots, ``/turn/resolved``
    and ``/turn/candidates`` are then those of the first step that needs the user (a slot
    missing, or matching nothing or several things), else of the first step (``focus``).

    Reads ``/turn/intent``, ``/turn/domain``, ``/turn/speaker``. Writes ``/turn/intent``
    (normalised), ``/turn/resolved`` (slot ->
    :class:`~knowledge.understanding.turn_state.SlotResolution`) and, when the task has a scene
    slot, ``/turn/candidates`` (the first scene slot's candidates). SUCCESS: done, whatever was
    found (0, 1 or several ids per slot; no intent or no task resolves nothing). FAILURE: never.
    RUNNING: scene-graph lookups in flight (given up after ``timeout_s``, the slot then unresolved
    with the reason).
    """

    first_poll_next_tick = False
    reads = (keys.DOMAIN, keys.SPEAKER)
    writes = (keys.INTENT, keys.RESOLVED, keys.CANDIDATES)

    def __init__(self, name: str = "PostProcess", *, timeout_s: float = 5.0) -> None:
        super().__init__(name, timeout_s=timeout_s)
        self.intent_key = self.key_of(keys.INTENT)
        self.domain_key = self.key_of(keys.DOMAIN)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.resolved_key = self.key_of(keys.RESOLVED)
        self.candidates_key = self.key_of(keys.CANDIDATES)
        self.registry: DomainRegistry | None = None
        self.scene: SceneGraph | None = None
        self._lexicons: dict[str, Mapping[str, Lexicon]] = {}
        self._resolved: dict[int, dict[str, SlotResolution]] = {}
        self._lookups: list[_SceneLookup] = []
        self._first_scene_slot: dict[int, str] = {}
        self._candidates: dict[int, list[Candidate]] = {}
        self._sequence: IntentFrame | None = None
        self._pack_of_turn: DomainPack | None = None
        self._said: list[str] = []

    def setup(self, **kwargs: Any) -> None:
        """Take ``domains``, the optional ``scene_graph`` (and ``workers``); build the lexicons."""
        super().setup(**kwargs)
        _ruled_types(shipped_hazard_rules())  # read here, not on the first tick that needs them
        self.registry = require_handle(self, kwargs, "domains", DomainRegistry)
        self.scene = optional_handle(self, kwargs, "scene_graph", SceneGraph)
        if self.scene is not None:
            self.workers = require_handle(self, kwargs, "workers", WorkerPool)
        self._lexicons = pack_lexicons(self, kwargs, self.registry)

    def start(self) -> AllDone | Status:
        """Normalise the frame, resolve lexicon and text slots, start the scene lookups.

        Without scene lookups to wait for, the resolutions are written at once.
        """
        self._resolved, self._lookups, self._first_scene_slot = {}, [], {}
        self._candidates, self._sequence, self._pack_of_turn = {}, None, None
        self._normalise()
        futures = [future for lookup in self._lookups for future in lookup.futures]
        return AllDone(futures) if futures else self.finish(None)

    def waiting(self, waited: float) -> str:
        """How many lookups are still running."""
        running = sum(not f.done() for lookup in self._lookups for f in lookup.futures)
        return f"resolving {running} referent(s) in the scene graph"

    def finish(self, result: None) -> Status:
        """Write the resolutions (and the first scene slot's candidates); SUCCESS."""
        for lookup in self._lookups:
            resolution, first = self._finish(lookup)
            self._resolved.setdefault(lookup.step, {})[lookup.slot] = resolution
            if lookup.slot == self._first_scene_slot.get(lookup.step):
                self._candidates[lookup.step] = first
        self._lookups = []
        if self._sequence is None:
            self._each_of_several()
        shown = self._write_sequence() if self._sequence is not None else ONE_TASK
        self.blackboard.set(self.resolved_key, dict(self._resolved.get(shown, {})))
        if shown in self._first_scene_slot:
            self.blackboard.set(self.candidates_key, list(self._candidates.get(shown, [])))
        self.feedback_message = _described(self._resolved.get(shown, {}))
        return Status.SUCCESS

    def _each_of_several(self) -> None:
        """One step per thing when the one task means every thing its words fit."""
        frame = keys.read_optional(self.blackboard, self.intent_key, IntentFrame)
        slot = self._first_scene_slot.get(ONE_TASK, "")
        things, resolved = self._candidates.get(ONE_TASK, []), self._resolved.get(ONE_TASK, {})
        said = resolved[slot].said if slot in resolved else ""
        count = count_asked(self._said, said) if isinstance(said, str) else 0
        steps = each_of_several(frame, slot, resolved, things, count)
        if frame is None or not steps:
            return
        for index, (_, resolved) in enumerate(steps):
            self._resolved[index], self._candidates[index] = resolved, [things[index]]
            self._first_scene_slot[index] = slot
        self._sequence = frame.model_copy(update={"steps": [step for step, _ in steps]})
        self._pack_of_turn = self._pack(frame)

    def _write_sequence(self) -> int:
        """Write the sequence with each step's resolutions; return the step it shows."""
        frame, pack = self._sequence, self._pack_of_turn
        assert frame is not None and pack is not None
        steps = [
            step.model_copy(update={"resolved": self._resolved.get(index, {})})
            for index, step in enumerate(frame.steps)
        ]
        focus = next((index for index, step in enumerate(steps) if _needs_the_user(pack, step)), 0)
        shown = steps[focus]
        update = {"steps": steps, "focus": focus, "task": shown.task, "slots": shown.slots}
        self.blackboard.set(self.intent_key, frame.model_copy(update=update))
        return focus

    def on_timeout(self, work: Pending[None], waited: float) -> Status:
        """SUCCESS all the same: the lookups not done are cancelled and say so."""
        return self.finish(None)

    def on_cancel(self, work: Pending[None]) -> None:
        """Cancel the lookups that have not started (interrupted)."""
        work.cancel()
        self._lookups = []
        self.feedback_message = "interrupted while resolving referents"

    # -- helpers ------------------------------------------------------------------------------

    def _normalise(self) -> None:
        """Normalise the frame's slots and write it back, resolving or starting each slot."""
        frame = keys.read_optional(self.blackboard, self.intent_key, IntentFrame)
        pack = self._pack(frame)
        if frame is None or frame.task is None or pack is None:
            return
        self._said = list(frame.said)
        if frame.sequence:
            known = {task.name for task in pack.tasks}
            if any(step.task not in known for step in frame.steps):
                return
            steps = [
                step.model_copy(update={"slots": self._normalised(pack, step.task, step.slots, i)})
                for i, step in enumerate(frame.steps)
            ]
            self._sequence = frame.model_copy(update={"steps": steps})
            self._pack_of_turn = pack
            return
        if frame.task not in {task.name for task in pack.tasks}:
            return
        slots = self._normalised(pack, frame.task, frame.slots, ONE_TASK)
        self.blackboard.set(self.intent_key, frame.model_copy(update={"slots": slots}))

    def _normalised(
        self, pack: DomainPack, task_name: str, said: Mapping[str, SlotValue], step: int
    ) -> dict[str, SlotValue]:
        """The slots of one task normalised, each resolved now or its lookups started."""
        task = pack.task(task_name)
        schema_fields = pack.schema_for(task.name).model_fields
        slots: dict[str, SlotValue] = {}
        for slot, value in said.items():
            spec = task.slots.get(slot)
            kind = spec.resolve if spec is not None else "text"
            info = schema_fields.get(slot)
            numeric = info is not None and is_number(info.annotation)
            slots[slot] = normalised(value, keep_case=kind == "text", numeric=numeric)
            others = [
                item for name, other in said.items() if name != slot for item in _items(other)
            ]
            self._start(pack, task, slot, slots[slot], step, others)
        return slots

    def _pack(self, frame: IntentFrame | None) -> DomainPack | None:
        assert self.registry is not None
        domain = frame.domain if frame is not None else None
        domain = domain or keys.read_optional(self.blackboard, self.domain_key, str)
        return self.registry.get(domain) if domain and domain in self.registry else None

    def _start(
        self,
        pack: DomainPack,
        task: TaskSpec,
        slot: str,
        value: SlotValue,
        step: int,
        others: Sequence[str] = (),
    ) -> None:
        """Resolve one slot of ``step`` now (lexicon, text) or start its scene lookups.

        ``others``: what the task's other slots hold ("a towel on the ledge": not the towel's).
        """
        spec = task.slots.get(slot)
        items = _items(value)
        said: str | list[str] = items if isinstance(value, list) else " ".join(items)
        kind = spec.resolve if spec is not None else "text"
        resolved = self._resolved.setdefault(step, {})
        if kind == "scene":
            self._first_scene_slot.setdefault(step, slot)
            if self.scene is None:
                resolved[slot] = SlotResolution(
                    slot=slot, said=said, kind="scene", reasons=["no scene graph to resolve in"]
                )
                return
            speaker = keys.read_optional(self.blackboard, self.speaker_key, str)
            lexicon = self._lexicons.get(pack.name, {}).get(spec.lexicon or "") if spec else None
            people = _people(pack, self._lexicons.get(pack.name, {}))
            for_use, moves = _for_speaker(task, slot), task.grounding == "physical"
            lookup = _SceneLookup(slot, said, items, step, lexicon, people, for_use, moves=moves)
            for item in items:
                lookup.any_one.append(asks_for_any(self._said, item, others))
                lookup.counts.append(count_asked(self._said, item))
                more = describing_words(self._said, item)  # "that fruit, the red one"
                lookup.alone.append(not more and said_alone(self._said, item, others))
                resolve = partial(
                    placed_referents, self.scene, placed=for_use or lookup.any_one[-1]
                )
                lookup.futures.append(self.submit(resolve, without_count(item), speaker))
            self._lookups.append(lookup)
        elif kind in ("kg", "value"):
            lexicon = self._lexicons.get(pack.name, {}).get(spec.lexicon or "") if spec else None
            resolved[slot] = _from_lexicon(slot, said, items, kind, lexicon)
        else:
            resolved[slot] = SlotResolution(slot=slot, said=said, kind="text")

    def _finish(self, lookup: _SceneLookup) -> tuple[SlotResolution, list[Candidate]]:
        """The slot's resolution, and the candidates of its first item."""
        ids: list[str] = []
        reasons: list[str] = []
        first: list[Candidate] | None = None
        guessed = False
        for item, future, any_one, count, alone in zip(
            lookup.items, lookup.futures, lookup.any_one, lookup.counts, lookup.alone, strict=True
        ):
            if not future.done():
                future.cancel()
                reasons.append(f"'{item}': not resolved within {self.timeout_s:g}s")
                continue
            try:
                candidates, places, readings = future.result()
            except Exception as error:  # a failed lookup leaves the slot unresolved, never crashes
                log.warning("%s: resolving %r failed: %s", self.name, item, error)
                reasons.append(f"'{item}': resolution failed: {type(error).__name__}: {error}")
                continue
            if lookup.lexicon is not None and len(lookup.lexicon):
                # only things of the slot's kind: Mr Okafor the recipient, not his pill organiser
                candidates = [c for c in candidates if c.id in lookup.lexicon]
            if lookup.moves and (guess := label_guess(candidates, item)):
                reasons.append(guess)  # a label's words answer "where is it?"; a move asks
                named = _named_nodes(item, lookup.lexicon)  # unless a name is said (below)
                candidates, guessed = ([], guessed) if named else (candidates, True)
            placed = (candidates, places, readings)
            candidates = _narrowed(placed, item, self._said, lookup.for_use, any_one, count, alone)
            first = candidates if first is None else first
            if not candidates:
                named = _named_nodes(item, lookup.lexicon)
                heads = [] if named else _named_nodes(item, lookup.people, head=True)
                people = heads or ([] if named else self._meant(item, lookup.people))
                if people:  # "pick up grandma": the words name a person, whom the plan's
                    ids.extend(people)  # hazard rules then refuse to treat as an object
                    reasons.extend(f"'{item}' names {node}, a person" for node in people)
                    continue
                if named:
                    ids.extend(named)
                    reasons.extend(f"'{item}' names {node} in the scene graph" for node in named)
                    continue
                reasons.append(f"'{item}': nothing in the scene graph matches")
            for candidate in candidates:
                ids.append(candidate.id)
                reasons.append(f"'{item}' -> {candidate.id}: " + "; ".join(candidate.reasons))
        resolution = SlotResolution(
            slot=lookup.slot,
            said=lookup.said,
            kind="scene",
            ids=ids,
            reasons=reasons,
            guessed=guessed and bool(ids),
        )
        return resolution, first or []

    def _meant(self, item: str, people: Lexicon | None) -> list[str]:
        """Whom a person pronoun may be: the one named, or everyone here but the speaker."""
        if people is None:
            return []
        named = [mention.id for said in self._said for mention in people.find(said)]
        speaker = keys.read_optional(self.blackboard, self.speaker_key, str) or ""
        return people_meant(item, named, people.ids, speaker)


def _narrowed(
    placed: Placed,
    item: str,
    said: list[str],
    for_use: bool,
    any_one: bool,
    count: int,
    alone: bool,
) -> list[Candidate]:
    """The candidates of ``item`` left to choose from (each rule of :mod:`.fit_for_use`).

    ``for_use``: brought for the speaker (told apart and fit for use, and any one of those side
    by side before them, "that fruit", when the words name none alone); ``any_one``: asked for
    as any one of a kind ("a piece of fruit": the apple or the satsuma); ``count``: how many
    were asked for ("a couple of biscuits": the first two of things alike side by side, else
    every one, to ask which).
    """
    candidates, places, readings = placed
    if count > 1:
        alike = len(candidates) >= count and len(any_will_do(candidates, places, readings)) == 1
        return candidates[:count] if alike else candidates
    if for_use:
        candidates = fit_for_use(told_apart_for_use(candidates, said, item), item)
    ruled = _ruled_types(shipped_hazard_rules()) if any_one or alone else None
    if any_one:
        candidates = any_one_will_do(candidates, places, readings, ruled)
    if for_use and not names_every(item, [candidate.label for candidate in candidates]):
        candidates = any_will_do(candidates, places, readings, ruled if alone else None)
    return candidates


@lru_cache(maxsize=1)
def _ruled_types(rules: HazardRules) -> frozenset[str] | None:
    """What the hazard rules quote: the types they name (None while they cannot be read)."""
    if rules.unreadable:
        return None
    return named_in_rules(rule.query for rule in rules.rules)


def _for_speaker(task: TaskSpec, slot: str) -> bool:
    """Whether ``slot`` holds what the task's plan brings to the person speaking."""
    args = task.plan.args.values() if task.plan is not None else ()
    return SPEAKER_ARGUMENT in args and slot in args


def _needs_the_user(pack: DomainPack, step: IntentStep) -> bool:
    """A required slot of the step's task unsaid, or a referent matching nothing or several."""
    said = [name for name, value in step.slots.items() if value not in (None, "", [])]
    if set(required_slots(pack.schema_for(step.task))) - set(said):
        return True
    many = {name for name, spec in pack.task(step.task).slots.items() if spec.many or spec.every}
    return any(
        resolution.unresolved or (resolution.ambiguous and name not in many)
        for name, resolution in step.resolved.items()
    )


def _items(value: SlotValue) -> list[str]:
    """The value's items as text; a number as the user would say it (``1900.0`` -> ``1900``)."""
    if value is None:
        return []
    if isinstance(value, list):
        return [str(item) for item in value if str(item).strip()]
    if isinstance(value, float) and not isinstance(value, bool):
        return [f"{value:g}"]
    return [str(value)] if str(value).strip() else []


WHERE_WORDS: Final = PLACE_PREPOSITIONS | PLACE_WORDS
"""Words that open where a thing is or comes from after its name ("... on the saucer")."""


def _named_nodes(item: str, lexicon: Lexicon | None, *, head: bool = False) -> list[str]:
    """Scene nodes ``item`` names by label or synonym (people by name: "Priya", "Dr Weber").

    ``head``: not by a word before another that names a type of thing ("the Wimpy Kid book"
    is a book, "the baby monitor" a monitor; "the baby boy" and "the baby asleep" are the
    baby).

    Every node with the name counts: "Alex" for two people named Alex is ambiguous. A name
    said as an owner ("Jordan's") names whose the thing is, not the thing.

    The fallback when referent resolution finds nothing: it matches descriptions of things
    (type, colour, owner), not the names of people or of single pieces of furniture. Only the
    words before those that say where the thing is, or where it comes from, are read: "the
    teabags on the saucer" names no saucer, "the juice out of the glass" no glass. When they
    name nothing (a type's word names no one thing), a label said whole, place words and all,
    still counts ("the window by the bed").
    """
    if lexicon is None:
        return []
    named: list[str] = []
    spans = [word.span() for word in re.finditer(r"\S+", item)]
    cut = join_at([item[start:end].lower() for start, end in spans], WHERE_WORDS)
    thing = item[: spans[cut][0]] if cut is not None else item  # "the teabags on the saucer"
    whole = [m for m in lexicon.find(item) if _said_whole(item, m.start, m.end)]
    for mentions in (lexicon.find(thing), whole):  # else a label said whole, place words in it
        for mention in mentions:
            if item[mention.end : mention.end + 2].replace("\u2019", "'") == "'s":
                continue  # "not Jordan's": the owner of the thing meant, not the thing
            if head and household_taxonomy().type_named(thing[mention.end :]) is not None:
                continue  # a word that describes the thing named after it ("the kid book")
            for node in lexicon.claimants(mention.text) or [mention.id]:
                if not node.startswith(TYPE_PREFIX) and node not in named:
                    named.append(node)
        if named:
            break
    return named


def _said_whole(item: str, start: int, end: int) -> bool:
    """Whether ``item`` is only the words from ``start`` to ``end`` and a determiner before."""
    before = item[:start].lower().split()
    return not item[end:].strip() and set(before) <= DETERMINERS and len(before) < 2


def _from_lexicon(
    slot: str,
    said: str | list[str],
    items: Sequence[str],
    kind: str,
    lexicon: Lexicon | None,
) -> SlotResolution:
    """The ids the lexicon's mentions in each item give (none for unknown words)."""
    resolved_kind: Literal["kg", "value"] = "kg" if kind == "kg" else "value"
    if lexicon is None:
        return SlotResolution(
            slot=slot, said=said, kind=resolved_kind, reasons=["the slot has no lexicon"]
        )
    ids: list[str] = []
    reasons: list[str] = []
    for item in items:
        mentions = lexicon.find(item)
        if not mentions:
            reasons.append(f"'{item}' is not in the {lexicon.name} lexicon")
        for mention in mentions:
            if mention.id not in ids:
                ids.append(mention.id)
                reasons.append(f"'{mention.text}': {lexicon.name} {mention.id}")
    return SlotResolution(slot=slot, said=said, kind=resolved_kind, ids=ids, reasons=reasons)


def each_of_several(
    frame: IntentFrame | None,
    slot: str,
    resolved: Mapping[str, SlotResolution],
    things: Sequence[Candidate],
    count: int = 0,
) -> list[tuple[IntentStep, dict[str, SlotResolution]]]:
    """The steps of a one-task ``frame`` whose ``slot`` means every thing its words fit.

    "Put the mugs in the sink" with two mugs (:func:`names_every`), or as many things as
    ``count`` ("two mugs": the count said with it): the task once for each of ``things`` (the
    slot's candidates, at most :data:`EACH_LIMIT`, every one that matched listed), each step
    with that thing resolved and the other slots as they were. Empty when the words mean one
    thing, or the candidates are not the slot's every match.
    """
    found = resolved.get(slot)
    if frame is None or frame.task is None or found is None or not isinstance(found.said, str):
        return []
    listed = all(thing.among is None or thing.among <= len(things) for thing in things)
    if not 1 < len(things) <= EACH_LIMIT or {t.id for t in things} != set(found.ids):
        return []
    counted = count == len(things)  # "two plates": the two kept of more alike
    if not (counted or (listed and names_every(found.said, [t.label for t in things]))):
        return []
    return [
        (
            IntentStep(task=frame.task, slots=frame.slots, said=thing.label),
            {**resolved, slot: found.model_copy(update={"ids": [thing.id]})},
        )
        for thing in things
    ]


def _people(pack: DomainPack, lexicons: Mapping[str, Lexicon]) -> Lexicon | None:
    """The pack's lexicon of the scene's people, if it has one (``lexicons``: the pack's)."""
    for name, spec in pack.manifest.lexicons.items():
        if spec.scene == ["people"] and name in lexicons:
            return lexicons[name]
    return None


def _described(resolved: Mapping[str, SlotResolution]) -> str:
    """How many ids each slot resolved to, for the node's feedback."""
    if not resolved:
        return "nothing to resolve"
    return "; ".join(
        f"{slot}: text" if found.kind == "text" else f"{slot}: {len(found.ids)} id(s)"
        for slot, found in resolved.items()
    )
