"""The cascade of LLMBehaviour, shown on a minimal gate: fast path, model, guard, fallbacks."""

from __future__ import annotations

import pytest
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.llm_behaviour import LLMBehaviour, Verdict
from cogtree.behaviours.setup_handles import MissingHandleError
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.understanding.turn_state import GateRationale
from cogtree.knowledge.wording import BoundedText
from cogtree.trees.testing import TreeHarness


class DoorDecision(BoundedText):
    open_door: bool
    rationale: str = ""


class DoorGate(LLMBehaviour[DoorDecision]):
    """Open the door? Fast path: the utterance says 'open'. Guard: never open for 'stranger'."""

    reads = (keys.UTTERANCE,)
    module = "inner_speech"

    def __init__(self) -> None:
        super().__init__("DoorGate", DoorDecision)
        self.utterance = self.key_of(keys.UTTERANCE)
        self.applied: list[DoorDecision] = []

    def said(self) -> str:
        return str(self.blackboard.get(self.utterance))

    def fast_path(self) -> Verdict[DoorDecision] | None:
        if "please open" in self.said():
            return Verdict(DoorDecision(open_door=True), "explicit request")
        return None

    def messages(self) -> list[Message]:
        return [Message(role="user", content=self.said())]

    def safe_decision(self, reason: str) -> DoorDecision:
        return DoorDecision(open_door=False, rationale=reason)

    def guard(self, decision: DoorDecision) -> Verdict[DoorDecision] | None:
        if decision.open_door and "stranger" in self.said():
            return Verdict(DoorDecision(open_door=False), "never open the door to a stranger")
        return None

    def apply(self, decision: DoorDecision) -> Status:
        self.applied.append(decision)
        return Status.SUCCESS if decision.open_door else Status.FAILURE


OPEN = {"answer": {"open_door": True, "rationale": "they asked"}}
SHUT = {"answer": {"open_door": False, "rationale": "no reason to"}}


def rationale(blackboard) -> GateRationale:
    return blackboard.get("/rationale/doorgate")


def harness(blackboard, make_llm, utterance: str, replies: list, **kwargs) -> tuple:
    blackboard.set("/turn/utterance", utterance)
    llm = make_llm({"by_module": {"inner_speech": replies}}, **kwargs)
    gate = DoorGate()
    return TreeHarness(gate, llm=llm.client), gate, llm


def test_fast_path_decides_without_the_model(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, "please open the door", [OPEN])
    h.tick()
    assert h.trace.letters("DoorGate") == "S"
    assert llm.calls == [] and llm.backend.requests == []
    assert rationale(blackboard).source == "fast_path"


def test_model_decides_over_two_ticks(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, "it is the postman", [OPEN])
    h.tick(2)
    assert h.trace.letters("DoorGate") == "RS"
    why = rationale(blackboard)
    assert (why.source, why.vetoed, why.rationale) == ("model", False, "they asked")
    assert [call.outcome for call in why.calls] == ["ok"]


def test_guard_vetoes_an_unsafe_model_answer(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, "a stranger is knocking", [OPEN])
    h.tick(2)
    assert h.trace.letters("DoorGate") == "RF"
    why = rationale(blackboard)
    assert why.vetoed and why.decision == {"open_door": False, "rationale": ""}
    assert "never open the door to a stranger" in why.rationale
    assert "guard" in gate.feedback_message


def test_guard_also_applies_to_the_fast_path(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, "please open, I am a stranger", [])
    h.tick()
    assert h.trace.letters("DoorGate") == "F"
    assert rationale(blackboard).source == "fast_path" and rationale(blackboard).vetoed


def test_malformed_output_is_retried_once(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, "postman", [{"text": "{oops"}, OPEN])
    h.tick(3)
    assert h.trace.letters("DoorGate") == "RRS"
    assert [c.outcome for c in llm.calls] == ["malformed", "ok"]
    assert [c.attempt for c in llm.calls] == [1, 2]
    assert "retrying" in rationale(blackboard).notes[0]


def test_malformed_twice_takes_the_safe_decision(blackboard, make_llm) -> None:
    bad = {"answer": {"open_door": "yes please"}}
    h, gate, llm = harness(blackboard, make_llm, "postman", [{"text": "not json"}, bad, OPEN])
    h.tick(3)
    assert h.trace.letters("DoorGate") == "RRF"
    why = rationale(blackboard)
    assert why.source == "safe_default"
    assert "malformed twice" in why.rationale
    assert gate.applied == [DoorDecision(open_door=False, rationale=why.rationale[15:])]
    assert len(llm.backend.requests) == 2  # the third scripted answer was never asked for


def test_dead_server_takes_the_safe_decision(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, "postman", [])  # nothing scripted: call fails
    h.tick(2)
    assert h.trace.letters("DoorGate") == "RF"
    assert rationale(blackboard).source == "safe_default"
    assert "model call failed" in gate.feedback_message


def test_running_on_every_tick_while_a_slow_call_is_in_flight(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, "postman", [OPEN])
    llm.backend.hold()
    h.tick(25, settle=False)
    assert h.trace.letters("DoorGate") == "R" * 25
    assert "waiting for inner_speech model" in gate.feedback_message
    llm.backend.release()
    h.tick()
    assert h.trace.letters("DoorGate")[-1] == "S"


def test_timeout_takes_the_safe_decision(blackboard, make_llm) -> None:
    h, gate, llm = harness(
        blackboard, make_llm, "postman", [OPEN], modules={"inner_speech": {"timeout_s": 0.2}}
    )
    llm.backend.hold()
    h.tick_until(max_ticks=500, settle=False, period_s=0.01)
    letters = h.trace.letters("DoorGate")
    assert letters.endswith("F") and set(letters[:-1]) == {"R"}
    why = rationale(blackboard)
    assert why.source == "safe_default" and "did not answer within 0.2s" in why.rationale
    assert why.calls[-1].outcome == "timeout"


def test_interrupting_a_running_gate_cancels_its_call(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, "postman", [OPEN])
    llm.backend.hold()
    h.tick(settle=False)
    pending = gate._pending
    assert pending is not None
    h.tree.root.stop(Status.INVALID)
    assert gate.status == Status.INVALID
    assert pending.cancel_event.is_set()
    assert "cancelled" in gate.feedback_message
    assert llm.client.wait_for_calls(5)
    assert llm.calls[-1].outcome == "cancelled"


def test_setup_without_llm_handle_names_the_fix(blackboard) -> None:
    with pytest.raises(MissingHandleError, match=r"DoorGate .*needs the `llm` handle.*setup\(llm="):
        DoorGate().setup()


def test_setup_rejects_a_module_missing_from_the_manifest(blackboard, make_llm) -> None:
    gate = DoorGate()
    gate.module_name = "door_opening"
    with pytest.raises(Exception, match="unknown LLM module 'door_opening'; valid modules"):
        gate.setup(llm=make_llm().client)


def test_no_backend_runs_the_fast_path_alone(blackboard) -> None:
    from cogtree.knowledge.llm.client import LLMClient
    from cogtree.knowledge.llm.config import LLMConfig

    blackboard.set("/turn/utterance", "postman")
    client = LLMClient(LLMConfig.load().with_backend("none"))
    h = TreeHarness(DoorGate(), llm=client)
    h.tick()
    assert h.trace.letters("DoorGate") == "F"
    assert client.call_log.records() == []
    assert "no LLM backend" in rationale(blackboard).rationale


class TwoStageDoorGate(DoorGate):
    """Prepares in two stages (each a future the test settles) before its fast path."""

    def __init__(self) -> None:
        super().__init__()
        from concurrent.futures import Future

        self.stages: list[Future[str]] = [Future(), Future()]
        self.taken: list[str] = []

    def prepare(self):
        return self.stages[0]

    def prepared(self, result):
        self.taken.append(result)
        return self.stages[1] if len(self.taken) == 1 else None


def test_a_preparation_may_start_a_second_stage_and_the_gate_waits_for_it(
    blackboard, make_llm
) -> None:
    blackboard.set("/turn/utterance", "please open the door")
    llm = make_llm({"by_module": {"inner_speech": [OPEN]}})
    gate = TwoStageDoorGate()
    h = TreeHarness(gate, llm=llm.client)
    h.tick()
    gate.stages[0].set_result("first")
    h.tick()  # takes the first stage, starts waiting for the second
    h.tick()
    assert gate.taken == ["first"] and gate.applied == []
    gate.stages[1].set_result("second")
    h.tick()
    assert gate.taken == ["first", "second"]
    assert h.trace.letters("DoorGate").endswith("S") and set(h.trace.letters("DoorGate")[:-1]) == {
        "R"
    }
