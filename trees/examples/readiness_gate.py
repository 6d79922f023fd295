"""``ReadinessGate``: JANUS's inner speech over one task schema, with the COMP guard.

The example gate of :mod:`trees.examples.ask_before_acting`: it decides whether the robot
may act on the user's request now (Proceed), must ask for something (Clarify), or must refuse
(Reject). It is a condition: SUCCESS only on Proceed. The assistant's gate, which reads the
task from the active domain pack, is :class:`~behaviours.gates.task_readiness.TaskReadinessGate`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from py_trees.common import Status
from pydantic import BaseModel, Field, ValidationError, create_model

from cogtree.behaviours import keys
from cogtree.behaviours.llm_behaviour import LLMBehaviour, Verdict
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.packs.task_schema import partial_model, required_slots
from cogtree.knowledge.understanding.slot_filling import is_grounded
from cogtree.knowledge.wording import BoundedText

SlotExtractor = Callable[[str], dict[str, Any]]
"""Deterministic slot filler: utterance -> {field: value} for the slots it is sure of."""


def slot_problems(task_schema: type[BaseModel], slots: dict[str, Any]) -> tuple[list[str], str]:
    """What stops ``slots`` from being a task: required slots missing, else invalid fields.

    Returns the slot names and, for invalid values, a sentence naming them; ``([], "")``
    when ``slots`` validate against ``task_schema``.
    """
    missing = [name for name in required_slots(task_schema) if slots.get(name) in (None, "", [])]
    if missing:
        return missing, ""
    try:
        task_schema.model_validate(slots)
    except ValidationError as error:
        bad = sorted({str(e["loc"][0]) for e in error.errors() if e["loc"]}) or ["task"]
        return bad, f"slot value(s) invalid for the task: {', '.join(bad)}"
    return [], ""


class ReadinessDecision(BoundedText):
    """What inner speech decides; specialised per task schema by ``readiness_decision_model``."""

    control: Literal["Proceed", "Clarify", "Reject"] = Field(description="the decision")
    slots: BaseModel = Field(description="slot values the user said")
    missing: list[str] = Field(description="required slots not yet known")
    rationale: str = Field(max_length=300, description="one sentence of inner speech")


def readiness_decision_model(task_schema: type[BaseModel]) -> type[ReadinessDecision]:
    """The JSON schema the inner-speech model answers in, specialised to ``task_schema``."""
    required = required_slots(task_schema)
    slot_name: Any = Literal.__getitem__(tuple(required)) if required else str
    fields: dict[str, Any] = {
        "slots": (partial_model(task_schema), Field(description="slot values the user said")),
        "missing": (list[slot_name], Field(description="required slots not yet known")),
    }
    return create_model(f"{task_schema.__name__}Readiness", __base__=ReadinessDecision, **fields)


def _slots_model(decision_type: type[ReadinessDecision]) -> type[BaseModel]:
    annotation = decision_type.model_fields["slots"].annotation
    assert isinstance(annotation, type) and issubclass(annotation, BaseModel)
    return annotation


class ReadinessGate(LLMBehaviour[ReadinessDecision]):
    """Inner speech: decide whether the robot may act on the request now.

    Fast path: the deterministic ``extract`` fills every required slot -> Proceed, no model.
    Model (module ``inner_speech``): fills slots the extractor missed and decides.
    Guard (COMP): a slot value must name, in whole words, something the user said (a pronoun
    such as "it" names nothing), and the task must validate against its schema; Proceed with
    a required slot missing becomes Clarify.
    Safe decision when the model fails: Clarify, asking for the missing slots.

    Reads ``/turn/utterance``. Writes ``/turn/task`` (partial schema instance; the full schema
    on Proceed), ``/turn/control``, ``/turn/missing``, ``/rationale/<node>``.
    SUCCESS: Proceed. FAILURE: Clarify or Reject. RUNNING: waiting for the model.
    """

    reads = (keys.UTTERANCE,)
    writes = (keys.TASK, keys.CONTROL, keys.MISSING)

    module = "inner_speech"

    def __init__(
        self,
        name: str,
        task_schema: type[BaseModel],
        extract: SlotExtractor,
        *,
        purpose: str = "",
        module: str | None = None,
    ) -> None:
        super().__init__(name, readiness_decision_model(task_schema), module=module)
        self.task_schema = task_schema
        self.partial_schema = _slots_model(self.decision_type)
        self.required = required_slots(task_schema)
        self.extract = extract
        self.purpose = purpose or (task_schema.__doc__ or task_schema.__name__).strip()
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.task_key = self.key_of(keys.TASK)
        self.control_key = self.key_of(keys.CONTROL)
        self.missing_key = self.key_of(keys.MISSING)

    # -- cascade hooks --------------------------------------------------------------------------

    def fast_path(self) -> Verdict[ReadinessDecision] | None:
        """Proceed without the model when the extractor fills every required slot validly."""
        slots = self._extracted()
        missing, problem = self._check(slots)
        if missing or problem:
            return None
        decision = self._decision("Proceed", slots, [], "every required slot was said")
        return Verdict(decision, "all required slots present and valid")

    def messages(self) -> list[Message]:
        """Schema, utterance and what the extractor already found."""
        schema = json.dumps(self.task_schema.model_json_schema(), indent=None)
        system = (
            "You are the inner speech of an assistive robot. Decide whether the robot can act "
            f"on the user's request now. The task: {self.purpose}. Task schema: {schema}. "
            "Fill a slot only with words the user actually said. Answer Proceed only when "
            "every required slot is filled; Clarify and list the missing required slots "
            "otherwise; Reject when the request is unsafe or impossible. Reply in JSON."
        )
        user = (
            f"User said: {self._utterance()!r}\n"
            f"Slots found so far: {json.dumps(self._extracted())}\n"
            f"Required slots: {', '.join(self.required) or 'none'}"
        )
        return [Message(role="system", content=system), Message(role="user", content=user)]

    def safe_decision(self, reason: str) -> ReadinessDecision:
        """Clarify, asking for whatever is still missing."""
        slots = self._extracted()
        missing, _ = self._check(slots)
        return self._decision("Clarify", slots, missing, f"asking instead: {reason}")

    def guard(self, decision: ReadinessDecision) -> Verdict[ReadinessDecision] | None:
        """COMP: drop ungrounded slot values; never Proceed with a missing or invalid slot."""
        slots, dropped = self._grounded(decision)
        missing, problem = self._check(slots)
        control = decision.control
        if control == "Proceed" and (missing or problem):
            why = f"required slot(s) missing: {', '.join(missing)}" if missing else problem
            if dropped:
                why += f" (ignored values the user never said: {', '.join(dropped)})"
            return Verdict(self._decision("Clarify", slots, missing, why), why)
        if dropped or sorted(decision.missing) != sorted(missing):
            why = "corrected slots to what the user said" if dropped else "recomputed missing"
            return Verdict(self._decision(control, slots, missing, decision.rationale), why)
        return None

    def apply(self, decision: ReadinessDecision) -> Status:
        """Write task, control and missing; SUCCESS only on Proceed."""
        control = decision.control
        slots = decision.slots.model_dump()
        task = self.task_schema(**slots) if control == "Proceed" else self.partial_schema(**slots)
        self.blackboard.set(self.task_key, task)
        self.blackboard.set(self.control_key, control)
        self.blackboard.set(self.missing_key, list(decision.missing))
        return Status.SUCCESS if control == "Proceed" else Status.FAILURE

    def summary(self, decision: ReadinessDecision) -> str:
        """``Proceed`` or ``Clarify(missing: item)``."""
        missing = decision.missing
        control = decision.control
        return f"{control}(missing: {', '.join(missing)})" if missing else str(control)

    # -- helpers ------------------------------------------------------------------------------

    def _utterance(self) -> str:
        if not self.blackboard.exists(self.utterance_key):
            return ""
        return str(self.blackboard.get(self.utterance_key) or "")

    def _extracted(self) -> dict[str, Any]:
        found = self.extract(self._utterance())
        fields = self.partial_schema.model_fields
        return {name: value for name, value in found.items() if name in fields}

    def _check(self, slots: dict[str, Any]) -> tuple[list[str], str]:
        return slot_problems(self.task_schema, slots)

    def _grounded(self, decision: ReadinessDecision) -> tuple[dict[str, Any], list[str]]:
        said = self._utterance()
        slots = dict(self._extracted())
        dropped = []
        for name, value in decision.slots.model_dump().items():
            if value in (None, "") or name in slots:
                continue
            if is_grounded(value, said):
                slots[name] = value
            else:
                dropped.append(f"{name}={value!r}")
        return slots, dropped

    def _decision(
        self, control: str, slots: dict[str, Any], missing: list[str], rationale: str
    ) -> ReadinessDecision:
        return self.decision_type(
            control=control,
            slots=self.partial_schema(**slots),
            missing=missing,
            rationale=rationale[:300],
        )
