"""The readiness gate's calibrated step: the prediction set decides act, ask which, or ask.

The scores come from a fake letter-scoring backend (these are tests of the gate's logic);
the no-model path uses the fast path's own match scores.
"""

from __future__ import annotations

import logging
import math
import threading
from pathlib import Path

import pytest
from py_trees.common import Status

from cogtree.behaviours.gates.task_readiness import TaskReadinessGate
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.option_scores import LetterScores, LogprobsUnavailableError
from cogtree.knowledge.llm.types import ModuleSettings
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.safety.candidate_readings import candidate_readings
from cogtree.knowledge.safety.conformal import tie_break
from cogtree.knowledge.safety.conformal_threshold import ConformalThreshold, load_threshold
from cogtree.knowledge.safety.match_scores import NO_MODEL
from cogtree.knowledge.understanding.turn_state import IntentFrame, SlotResolution
from cogtree.trees.testing import TreeHarness, parsed_first


class LetterScorer:
    """Scores letters with fixed probabilities; may hold, or fail as a server without logprobs."""

    name = "scripted"

    def __init__(self, probabilities: dict[str, float], *, fail: bool = False) -> None:
        self.logprobs = {letter: math.log(p) for letter, p in probabilities.items() if p > 0}
        self.fail = fail
        self.gate = threading.Event()
        self.gate.set()
        self.prompts: list[str] = []

    def complete(self, request, cancel):  # pragma: no cover - the calibrated step never calls it
        raise AssertionError("the calibrated step scores letters; it does not complete")

    def prepare(self, settings: ModuleSettings) -> None:
        pass

    def model_name(self, settings: ModuleSettings) -> str:
        return "letters-v1"

    def probe(self, settings):  # pragma: no cover - not used here
        raise AssertionError

    def score_letters(self, prompt, settings, cancel: threading.Event) -> LetterScores:
        self.prompts.append(prompt.messages[-1].content)
        self.gate.wait(timeout=30)
        if self.fail:
            raise LogprobsUnavailableError("this server returns no logprobs")
        return LetterScores(self.logprobs, "letters-v1", 40, True)


@pytest.fixture(scope="module")
def domains() -> DomainRegistry:
    return DomainRegistry.discover(only=("household", "office"))


def threshold_file(tmp_path: Path, q_hat: float, backend="scripted", model="letters-v1") -> str:
    """Forty calibration scores at ``q_hat``: an option scoring below it always enters the set
    (p-value 1), one scoring above it never does (p-value 1/41), whatever its tie-break.
    """
    path = tmp_path / "threshold.json"
    ConformalThreshold(
        backend=backend,
        model=model,
        epsilon=0.15,
        scores=[q_hat] * 40,
        data_file="own.jsonl",
        data_sha256="0" * 64,
        created="2026-01-01T00:00:00+00:00",
    ).save(path)
    return str(path)


def client(threshold: str, scorer: LetterScorer | None, timeout_s: float = 20.0) -> LLMClient:
    config = LLMConfig.load().with_backend("none")
    if scorer is None:
        config = config.with_module("inner_speech", calibration=threshold)
        return LLMClient(config)
    config = config.with_module(
        "inner_speech", backend="scripted", calibration=threshold, timeout_s=timeout_s
    )
    return LLMClient(config, backends={"scripted": scorer})


def flasks(*ids: str, matched: dict[str, int] | None = None) -> dict[str, SlotResolution]:
    counts = matched or {}
    reasons = [
        f"'the flask' -> {i}: " + "; ".join(["'flask' is its type"] * counts.get(i, 1)) for i in ids
    ]
    return {
        "object": SlotResolution(
            slot="object", said="the flask", kind="scene", ids=list(ids), reasons=reasons
        )
    }


def start(blackboard, llm: LLMClient, domains, resolved) -> tuple[TaskReadinessGate, TreeHarness]:
    said = "fetch me the flask"
    blackboard.set("/turn/utterance", said)
    blackboard.set("/turn/speaker", "alex")
    blackboard.set("/turn/domain", "household")
    blackboard.set(
        "/turn/intent",
        IntentFrame(
            domain="household",
            task="Fetch",
            slots={"object": "the flask"},
            confidence=0.9,
            said=[said],
        ),
    )
    blackboard.set("/turn/resolved", resolved)
    gate = TaskReadinessGate()
    return gate, TreeHarness(parsed_first(gate), llm=llm, handles={"domains": domains})


def rationale(blackboard):
    return blackboard.get("/rationale/taskreadinessgate")


def test_a_set_of_one_reading_acts_on_it_through_the_checks(blackboard, domains, tmp_path):
    scorer = LetterScorer({"A": 0.02, "B": 0.95, "C": 0.03})
    llm = client(threshold_file(tmp_path, q_hat=0.5), scorer)
    gate, harness = start(blackboard, llm, domains, flasks("flask_tin", "flask_glass"))
    harness.tick_until(max_ticks=10)
    assert gate.status == Status.SUCCESS
    assert blackboard.get("/turn/task").object == "flask_glass"
    readings = blackboard.get("/turn/readings")
    assert readings.kept == ["B"] and readings.outcome == "act"
    assert blackboard.get("/turn/resolved")["object"].ids == ["flask_glass"]
    notes = " ".join(rationale(blackboard).notes)
    assert (
        "q_hat=0.500" in notes and "B) fetch: object flask glass p=0.95 (conformal 1.00)" in notes
    )
    assert "A) fetch: object flask tin p=0.02 (conformal 0.02)" in notes  # 1/41: never kept
    assert "C) none of these" in scorer.prompts[0] and scorer.prompts[0].endswith("Answer:")
    llm.close()


def test_several_readings_in_the_set_ask_naming_exactly_them(blackboard, domains, tmp_path):
    scorer = LetterScorer({"A": 0.46, "B": 0.04, "C": 0.46, "D": 0.04})
    llm = client(threshold_file(tmp_path, q_hat=0.6), scorer)
    resolved = flasks("flask_tin", "flask_steel", "flask_glass")
    gate, harness = start(blackboard, llm, domains, resolved)
    harness.tick_until(max_ticks=10)
    assert gate.status == Status.FAILURE
    assert blackboard.get("/turn/control") == "Clarify"
    assert blackboard.get("/turn/missing") == ["object"]
    assert blackboard.get("/turn/resolved")["object"].ids == ["flask_tin", "flask_glass"]
    assert blackboard.get("/turn/readings").kept == ["A", "C"]
    llm.close()


def test_none_of_these_asks_what_the_user_means(blackboard, domains, tmp_path):
    scorer = LetterScorer({"A": 0.05, "B": 0.95})
    llm = client(threshold_file(tmp_path, q_hat=0.3), scorer)
    gate, harness = start(blackboard, llm, domains, flasks("flask_tin"))
    harness.tick_until(max_ticks=10)
    assert blackboard.get("/turn/control") == "Clarify"
    readings = blackboard.get("/turn/readings")
    assert readings.kept == ["B"] and readings.outcome == "ask"
    assert "asking what the user means" in rationale(blackboard).rationale
    llm.close()


def test_an_empty_set_asks(blackboard, domains, tmp_path):
    scorer = LetterScorer({"A": 0.5, "B": 0.5, "C": 1e-9})
    llm = client(threshold_file(tmp_path, q_hat=0.1), scorer)
    gate, harness = start(blackboard, llm, domains, flasks("flask_tin", "flask_glass"))
    harness.tick_until(max_ticks=10)
    assert blackboard.get("/turn/control") == "Clarify"
    assert blackboard.get("/turn/readings").kept == []
    llm.close()


def test_no_logprobs_takes_the_safe_decision_and_says_why(blackboard, domains, tmp_path):
    scorer = LetterScorer({"A": 0.99, "B": 0.01}, fail=True)
    llm = client(threshold_file(tmp_path, q_hat=0.5), scorer)
    # one candidate: uncalibrated this request would proceed
    gate, harness = start(blackboard, llm, domains, flasks("flask_tin"))
    harness.tick_until(max_ticks=10)
    assert blackboard.get("/turn/control") == "Clarify"
    why = rationale(blackboard)
    assert "no scores" in why.rationale and "no logprobs" in why.rationale
    assert why.calls[-1].outcome == "unavailable"
    llm.close()


def test_scoring_never_blocks_a_tick_and_times_out_to_asking(blackboard, domains, tmp_path):
    scorer = LetterScorer({"A": 0.99, "B": 0.01})
    scorer.gate.clear()  # the scorer holds until released
    llm = client(threshold_file(tmp_path, q_hat=0.5), scorer, timeout_s=0.3)
    gate, harness = start(blackboard, llm, domains, flasks("flask_tin"))
    harness.tick(5, settle=False)
    assert harness.trace.letters("TaskReadinessGate") == "RRRRR"
    harness.tick_until(max_ticks=400, settle=False, period_s=0.01)
    assert gate.status == Status.FAILURE
    assert blackboard.get("/turn/control") == "Clarify"
    assert "no answer within 0.3s" in rationale(blackboard).rationale
    scorer.gate.set()
    llm.close()


def test_a_threshold_of_another_model_is_refused_and_the_gate_decides_uncalibrated(
    blackboard, domains, tmp_path, caplog
):
    scorer = LetterScorer({"A": 0.01, "B": 0.99})
    llm = client(threshold_file(tmp_path, q_hat=0.5, model="another-model"), scorer)
    gate, harness = start(blackboard, llm, domains, flasks("flask_tin"))
    with caplog.at_level(logging.WARNING):
        harness.tick_until(max_ticks=10)
    # uncalibrated: one candidate and nothing in doubt proceeds, whatever the scores said
    assert gate.status == Status.SUCCESS
    assert blackboard.get("/turn/readings").outcome == "uncalibrated"
    message = "calibrated with backend 'scripted', model 'another-model'"
    assert message in " ".join(rationale(blackboard).notes)
    assert message in caplog.text
    llm.close()


def test_ties_are_broken_by_the_request_and_each_option_as_the_evaluation_breaks_them(
    blackboard, domains, tmp_path
):
    threshold = threshold_file(tmp_path, q_hat=0.5, backend="none", model=NO_MODEL)
    llm = client(threshold, None)
    gate, harness = start(blackboard, llm, domains, flasks("flask_tin", "flask_glass"))
    harness.tick_until(max_ticks=10)
    readings = blackboard.get("/turn/readings")
    assert readings.probabilities["A"] == pytest.approx(0.5)  # tied with B: the tie-break decides
    # `cogtree eval clarify --calibrated` gives each item's options these same tie-breaks
    # (Readings.tie_breaks of the item's task, the utterance the tree hears)
    offered = candidate_readings(blackboard.get("/turn/intent"), flasks("flask_tin", "flask_glass"))
    assert offered is not None
    ties = {o.letter: tie_break("fetch me the flask", o.description) for o in offered.options}
    assert offered.tie_breaks("Fetch me  the flask") == ties
    assert readings.p_values == load_threshold(Path(threshold)).p_values(
        readings.probabilities, ties
    )
    llm.close()


def test_with_no_model_the_match_scores_decide(blackboard, domains, tmp_path):
    threshold = threshold_file(tmp_path, q_hat=0.4, backend="none", model=NO_MODEL)
    llm = client(threshold, None)
    resolved = flasks("flask_tin", "flask_glass", matched={"flask_glass": 2})
    gate, harness = start(blackboard, llm, domains, resolved)
    harness.tick_until(max_ticks=10)
    readings = blackboard.get("/turn/readings")
    assert readings.probabilities["A"] == pytest.approx(2 / 3)
    assert readings.options[0].ids == {"object": "flask_glass"}
    assert gate.status == Status.SUCCESS
    assert blackboard.get("/turn/task").object == "flask_glass"
    llm.close()


def test_without_a_threshold_the_gate_is_unchanged(blackboard, domains, make_llm):
    llm = make_llm()
    gate, harness = start(blackboard, llm.client, domains, flasks("flask_tin", "flask_glass"))
    harness.tick_until(max_ticks=10)
    assert blackboard.get("/turn/control") == "Clarify"
    assert blackboard.get("/turn/readings") is None


def ollama_client(url: str, threshold: str) -> LLMClient:
    from tests.llm.test_ollama_option_scores import MODEL

    defaults = {"backend": "none"}
    inner = {"backend": "ollama", "ollama_host": url, "model": MODEL, "calibration": threshold}
    return LLMClient(
        LLMConfig.from_mapping({"defaults": defaults, "modules": {"inner_speech": inner}})
    )


def test_an_ollama_server_s_logprobs_reach_the_gate(blackboard, domains, tmp_path):
    from tests.llm.test_ollama_option_scores import MODEL, WITH_LOGPROBS, FakeOllama

    server = FakeOllama(WITH_LOGPROBS)  # recorded: " B" is the likeliest first token
    llm = ollama_client(server.url, threshold_file(tmp_path, 0.5, backend="ollama", model=MODEL))
    try:
        gate, harness = start(blackboard, llm, domains, flasks("flask_tin", "flask_glass"))
        harness.tick_until(max_ticks=20)
        assert gate.status == Status.SUCCESS
        assert blackboard.get("/turn/task").object == "flask_glass"
        assert blackboard.get("/turn/readings").backend == "ollama"
        (chat,) = server.chats
        assert chat["messages"][-1]["content"].endswith("Answer:")
    finally:
        llm.close()
        server.close()


def test_an_ollama_server_without_logprobs_gives_the_safe_decision(blackboard, domains, tmp_path):
    from tests.llm.test_ollama_option_scores import MODEL, WITHOUT_LOGPROBS, FakeOllama

    server = FakeOllama(WITHOUT_LOGPROBS, version="0.12.6")
    llm = ollama_client(server.url, threshold_file(tmp_path, 0.5, backend="ollama", model=MODEL))
    try:
        gate, harness = start(blackboard, llm, domains, flasks("flask_tin"))
        harness.tick_until(max_ticks=20)
        assert blackboard.get("/turn/control") == "Clarify"
        assert "no scores" in rationale(blackboard).rationale
    finally:
        llm.close()
        server.close()
