"""LLMBehaviour.revise: one regeneration with feedback when a model answer is rejected."""

from __future__ import annotations

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.llm_behaviour import LLMBehaviour, Verdict
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.understanding.turn_state import GateRationale
from cogtree.knowledge.wording import BoundedText
from cogtree.trees.testing import TreeHarness

LIMIT = 10


class CupCount(BoundedText):
    cups: int
    rationale: str = ""


class CupGate(LLMBehaviour[CupCount]):
    """How many cups to bring. Revise and guard both refuse more than LIMIT cups."""

    reads = (keys.UTTERANCE,)
    module = "inner_speech"

    def __init__(self) -> None:
        super().__init__("CupGate", CupCount)
        self.utterance = self.key_of(keys.UTTERANCE)
        self.revised: list[int] = []

    def fast_path(self) -> Verdict[CupCount] | None:
        if self.blackboard.get(self.utterance) == "one cup":
            return Verdict(CupCount(cups=1), "said so")
        return None

    def messages(self) -> list[Message]:
        return [Message(role="user", content=str(self.blackboard.get(self.utterance)))]

    def safe_decision(self, reason: str) -> CupCount:
        return CupCount(cups=0, rationale=reason)

    def revise(self, decision: CupCount) -> str | None:
        self.revised.append(decision.cups)
        return f"{decision.cups} cups is more than {LIMIT}" if decision.cups > LIMIT else None

    def guard(self, decision: CupCount) -> Verdict[CupCount] | None:
        if decision.cups > LIMIT:
            return Verdict(self.safe_decision("too many cups"), "too many cups")
        return None

    def apply(self, decision: CupCount) -> Status:
        return Status.SUCCESS if decision.cups else Status.FAILURE


def cups(n: int) -> dict:
    return {"answer": {"cups": n, "rationale": f"{n} it is"}}


def harness(blackboard, make_llm, replies: list, utterance: str = "cups for the guests"):
    blackboard.set("/turn/utterance", utterance)
    llm = make_llm({"by_module": {"inner_speech": replies}})
    gate = CupGate()
    return TreeHarness(gate, llm=llm.client), gate, llm


def rationale(blackboard) -> GateRationale:
    return blackboard.get("/rationale/cupgate")


def test_a_rejected_answer_is_asked_again_with_the_reason(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, [cups(12), cups(4)])
    h.tick(3)
    assert h.trace.letters("CupGate") == "RRS"
    assert gate.revised == [12]  # the second answer is final: not revised again
    first, second = llm.backend.requests
    assert list(second.messages[: len(first.messages)]) == list(first.messages)
    answer, feedback = second.messages[len(first.messages) :]
    assert answer.role == "assistant" and '"cups": 12' in answer.content
    assert feedback.role == "user" and "12 cups is more than 10" in feedback.content
    why = rationale(blackboard)
    assert why.source == "model" and not why.vetoed and why.decision["cups"] == 4
    assert any("asked the model to revise" in note for note in why.notes)
    assert [call.attempt for call in llm.calls] == [1, 2]


def test_a_second_bad_answer_meets_the_guard(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, [cups(12), cups(30), cups(2)])
    h.tick(3)
    assert h.trace.letters("CupGate") == "RRF"
    assert len(llm.calls) == 2  # one regeneration, never a third call
    why = rationale(blackboard)
    assert why.vetoed and why.decision["cups"] == 0 and "too many cups" in why.rationale


def test_an_accepted_answer_is_not_asked_again(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, [cups(3), cups(4)])
    h.tick(2)
    assert h.trace.letters("CupGate") == "RS"
    assert gate.revised == [3] and len(llm.calls) == 1
    assert rationale(blackboard).decision["cups"] == 3


def test_the_fast_path_is_never_revised(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, [], utterance="one cup")
    h.tick()
    assert h.trace.letters("CupGate") == "S"
    assert gate.revised == [] and llm.calls == []


def test_a_malformed_revision_takes_the_safe_decision(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, [cups(12), {"text": "{not json"}, cups(4)])
    h.tick(3)
    assert h.trace.letters("CupGate") == "RRF"
    assert [call.outcome for call in llm.calls] == ["ok", "malformed"]
    why = rationale(blackboard)
    assert why.source == "safe_default" and "revised model output was malformed" in why.rationale


def test_malformed_retry_and_revision_count_attempts(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, [{"text": "oops"}, cups(12), cups(5)])
    h.tick(4)
    assert h.trace.letters("CupGate") == "RRRS"
    assert [call.attempt for call in llm.calls] == [1, 2, 3]
    assert rationale(blackboard).decision["cups"] == 5


def test_the_feedback_does_not_leak_into_the_next_decision(blackboard, make_llm) -> None:
    h, gate, llm = harness(blackboard, make_llm, [cups(12), cups(4), cups(6)])
    h.tick(5)  # decides over three ticks, then starts again on the fourth
    assert h.trace.letters("CupGate")[:3] == "RRS"
    third = llm.backend.requests[2]
    assert [message.role for message in third.messages] == ["user"]
