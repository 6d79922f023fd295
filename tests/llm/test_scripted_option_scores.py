"""Scripted letter log-probabilities, and the faults injected into option scoring."""

from __future__ import annotations

import math
import threading

import pytest

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.errors import LLMError, LLMTimeoutError, LLMUnavailableError
from cogtree.knowledge.llm.faults import FaultInjectingBackend, FaultPlan
from cogtree.knowledge.llm.option_scores import LogprobsUnavailableError, OptionPrompt
from cogtree.knowledge.llm.scripted import Script, ScriptedBackend
from cogtree.knowledge.llm.selection import NoModelBackend
from cogtree.knowledge.llm.types import Message, ModuleSettings

PROMPT = OptionPrompt(
    messages=(Message(role="user", content="Which cup? A) the green cup B) the tall cup"),),
    letters=("A", "B", "C"),
)
FAVOURS_B = {"letter_logprobs": {"A": math.log(0.2), "B": math.log(0.7), "C": math.log(0.1)}}


def client_with(backend: ScriptedBackend | FaultInjectingBackend, **module: object) -> LLMClient:
    config = LLMConfig.from_mapping({"modules": {"intent": module}})
    return LLMClient(config.with_backend("scripted"), backends={"scripted": backend})


def test_a_prompt_rule_gives_letter_logprobs() -> None:
    script = {"by_prompt": [{"match": "green cup", "reply": FAVOURS_B}]}
    scripted = ScriptedBackend(script)
    with client_with(scripted) as client:
        scores = client.score_options("intent", PROMPT)
    assert scores.probabilities == pytest.approx({"A": 0.2, "B": 0.7, "C": 0.1})
    assert scripted.scored == [PROMPT] and scripted.requests == []


def test_the_in_order_queue_serves_scoring_calls_and_an_empty_reply_names_no_letter() -> None:
    with client_with(ScriptedBackend({"in_order": [{"letter_logprobs": {}}]})) as client:
        scores = client.score_options("intent", PROMPT)
    assert scores.probabilities == pytest.approx({"A": 1 / 3, "B": 1 / 3, "C": 1 / 3})


def test_a_module_rule_does_not_answer_a_scoring_call() -> None:
    script = {"by_prompt": [{"match": "cup", "module": "intent", "reply": FAVOURS_B}]}
    with pytest.raises(LLMError, match="no answer left for an option-scoring call"):
        ScriptedBackend(script).score_letters(PROMPT, ModuleSettings(), threading.Event())


def test_a_reply_of_the_other_form_is_an_error_naming_it() -> None:
    backend = ScriptedBackend({"in_order": [{"answer": {"ok": True}}]})
    with pytest.raises(LLMError, match="no `letter_logprobs`"):
        backend.score_letters(PROMPT, ModuleSettings(), threading.Event())


def test_a_reply_has_exactly_one_form() -> None:
    with pytest.raises(ValueError, match="exactly one of `answer`, `text` or `letter_logprobs`"):
        Script.model_validate({"in_order": [{"text": "A", **FAVOURS_B}]})


def test_a_slow_scripted_score_times_out() -> None:
    reply = {**FAVOURS_B, "delay_s": 5.0}
    backend = ScriptedBackend({"in_order": [reply]})
    with pytest.raises(LLMTimeoutError):
        backend.score_letters(PROMPT, ModuleSettings(timeout_s=0.05), threading.Event())


# -- faults ---------------------------------------------------------------------------------------


def faulty(kind: str) -> tuple[LLMClient, FaultInjectingBackend]:
    plan = FaultPlan(rate=1.0, seed=1, kinds=(kind,))
    injector = FaultInjectingBackend(ScriptedBackend({"in_order": [FAVOURS_B]}), plan)
    return client_with(injector, timeout_s=0.05), injector


def test_malformed_scores_name_no_offered_letter() -> None:
    client, injector = faulty("malformed")
    scores = client.score_options("intent", PROMPT)
    assert scores.probabilities == pytest.approx({"A": 1 / 3, "B": 1 / 3, "C": 1 / 3})
    assert injector.injected == [("option scoring", "malformed")]


def test_wrong_scores_move_each_letter_s_score_to_the_one_before() -> None:
    client, _ = faulty("wrong")
    scores = client.score_options("intent", PROMPT)
    assert scores.probabilities == pytest.approx({"A": 0.7, "B": 0.1, "C": 0.2})


def test_timeout_and_connection_faults_reach_the_caller_as_llm_errors() -> None:
    client, _ = faulty("timeout")
    error = client.submit_scores("intent", PROMPT).future.exception(timeout=10)
    assert isinstance(error, LLMTimeoutError) and error.record is not None
    client, _ = faulty("connection")
    error = client.submit_scores("intent", PROMPT).future.exception(timeout=10)
    assert isinstance(error, LLMUnavailableError) and "connection refused" in str(error)


def test_a_wrapped_backend_without_logprobs_still_says_so() -> None:
    injector = FaultInjectingBackend(NoModelBackend(), FaultPlan(rate=0.0))
    with pytest.raises(LogprobsUnavailableError, match="no next-token log-probabilities"):
        injector.score_letters(PROMPT, ModuleSettings(), threading.Event())
