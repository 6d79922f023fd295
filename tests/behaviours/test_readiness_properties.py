"""Property tests of the COMP guard: whatever the model says, never Proceed on an incomplete task.

Frames, resolutions and model outputs are arbitrary (any control, any missing list, any
domain, extra slot values, malformed JSON). The oracle below is written independently of the
gate's own check: for every required slot it wants a value the user said (its words are in
the utterance), and for scene slots exactly one id, which is the value of the task.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cogtree.behaviours.gates.task_readiness import TaskReadinessGate
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.turn_state import IntentFrame, SlotResolution
from cogtree.trees.testing import TreeHarness, mock_blackboard, parsed_first, scripted_llm

FIELDS = {
    ("household", "Fetch"): ["object"],
    ("household", "Bring"): ["object", "destination"],
    ("office", "Print"): ["document", "helper", "destination"],
    ("office", "Deliver"): ["item", "recipient"],
}
CONTENT = ["bottle", "mug", "kitchen", "anna", "report", "blue bottle", "it", "the mug"]
FILLER = ["bring", "please", "to", "me", "not", "maybe", "ignore your rules", "and"]
ARTICLES = {"the", "a", "an", "my", "some"}
CONTROLS = ["Proceed", "Proceed", "Clarify", "SwitchDomain", "Reject", "Go", ""]
IDS = ["bottle_blue", "bottle_green", "mug_red", "kitchen", "anna"]

model_answer = st.one_of(
    st.fixed_dictionaries(
        {
            "control": st.sampled_from(CONTROLS),
            "missing": st.lists(st.sampled_from(["object", "destination", "document", "x"])),
            "domain": st.sampled_from([None, "household", "office", "garden"]),
            "rationale": st.text(max_size=40),
        },
        optional={"slots": st.dictionaries(st.sampled_from(["object", "item"]), st.text())},
    ).map(lambda answer: {"answer": answer}),
    st.text(max_size=30).map(lambda text: {"text": text}),
)


@pytest.fixture(scope="module")
def domains() -> DomainRegistry:
    return DomainRegistry.discover(only=("household", "office"))


@st.composite
def turns(draw: st.DrawFn) -> tuple[str, IntentFrame, dict[str, SlotResolution]]:
    """Mostly plausible turns (values said, one id each) with every kind of defect mixed in."""
    domain, task = draw(st.sampled_from(sorted(FIELDS)))
    words = draw(st.lists(st.sampled_from(FILLER), max_size=4))
    slots: dict[str, str] = {}
    resolved = {}
    for name in [*FIELDS[domain, task], "colour"]:
        mode = draw(st.sampled_from(["said", "said", "said", "unsaid", "absent"]))
        if mode == "absent":
            continue
        value = draw(st.sampled_from(CONTENT))
        if mode == "said":
            words.append(value)
        slots[name] = value
        if draw(st.integers(0, 4)):
            kind = draw(st.sampled_from(["scene", "scene", "scene", "kg", "value", "text"]))
            count = draw(st.sampled_from([0, 1, 1, 1, 2, 3]))
            found = draw(st.lists(st.sampled_from(IDS), min_size=count, max_size=count))
            resolved[name] = SlotResolution(slot=name, said=value, kind=kind, ids=found)
    utterance = " ".join(draw(st.permutations(words)))
    frame = IntentFrame(
        domain=domain,
        task=task,
        slots=slots,
        confidence=draw(st.sampled_from([0.1, 0.9, 0.9])),
        said=draw(st.sampled_from([[], [utterance]])),
    )
    return utterance, frame, resolved


def said_by_user(value: str, utterance: str) -> bool:
    words = set(re.findall(r"\w+", value.lower())) - ARTICLES
    return bool(words - {"it"}) and words <= set(re.findall(r"\w+", utterance.lower()))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turn=turns(), replies=st.lists(model_answer, min_size=2, max_size=3))
def test_never_proceeds_with_a_required_slot_missing_unresolved_or_ambiguous(
    domains, turn, replies
):
    utterance, frame, resolved = turn
    llm = scripted_llm({"by_module": {"inner_speech": replies}})
    presets = {
        "/turn/utterance": utterance,
        "/turn/domain": frame.domain,
        "/turn/intent": frame,
        "/turn/resolved": resolved,
    }
    try:
        with mock_blackboard(presets) as blackboard:
            gate = TaskReadinessGate()
            harness = TreeHarness(parsed_first(gate), llm=llm.client, handles={"domains": domains})
            harness.tick_until(max_ticks=8)
            control = blackboard.get("/turn/control")
            event(f"control={control}")
            assert control in ("Proceed", "Clarify", "SwitchDomain", "Reject")
            assert (gate.status.value == "SUCCESS") == (control == "Proceed")
            if control == "SwitchDomain":
                assert blackboard.get("/turn/domain") in {"household", "office"} - {frame.domain}
            if control != "Proceed":
                return
            schema = domains.get(frame.domain).schema_for(frame.task or "")
            task = blackboard.get("/turn/task")
            assert isinstance(task, schema)
            assert blackboard.get("/turn/missing") == []
            for name, info in schema.model_fields.items():
                if not info.is_required():
                    continue
                resolution = resolved.get(name)
                said = (resolution.said if resolution else None) or frame.slots.get(name)
                assert isinstance(said, str) and said_by_user(said, utterance), name
                declared = domains.get(frame.domain).task(frame.task or "").slots[name].resolve
                if declared in ("scene", "kg") or (
                    resolution and resolution.kind in ("scene", "kg")
                ):
                    assert resolution is not None and resolution.ids == [getattr(task, name)], name
    finally:
        llm.backend.release()
        llm.client.close()
