import math
import threading

import pytest

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.option_scores import (
    LetterScores,
    LogprobsUnavailableError,
    OptionPrompt,
    letter_probabilities,
)
from cogtree.knowledge.llm.types import Message, ModuleSettings

PROMPT = OptionPrompt(
    messages=(Message(role="user", content="Which cup? A) red B) blue C) none\nAnswer:"),),
    letters=("A", "B", "C"),
)


class RecordedLogprobs:
    """A scoring backend that returns fixed log-probabilities (tests of the client's logic)."""

    name = "scripted"

    def __init__(self, logprobs: dict[str, float]) -> None:
        self.logprobs = logprobs

    def complete(self, request, cancel):  # pragma: no cover - not used by these tests
        raise AssertionError("score_options must not call complete")

    def prepare(self, settings: ModuleSettings) -> None:
        pass

    def model_name(self, settings: ModuleSettings) -> str:
        return "recorded"

    def probe(self, settings):  # pragma: no cover - not used by these tests
        raise AssertionError

    def score_letters(self, prompt, settings, cancel: threading.Event) -> LetterScores:
        return LetterScores(self.logprobs, "recorded", 12, True)


def client_with(backend) -> LLMClient:
    config = LLMConfig.load().with_backend("scripted")
    return LLMClient(config, backends={"scripted": backend})


def test_probabilities_are_a_softmax_over_the_offered_letters_only() -> None:
    probabilities = letter_probabilities({"A": math.log(0.6), "B": math.log(0.2), "Z": 0.0}, "ABC")
    assert probabilities["A"] == pytest.approx(0.75)
    assert probabilities["B"] == pytest.approx(0.25)
    assert probabilities["C"] == 0.0


def test_no_offered_letter_seen_spreads_the_probability_evenly() -> None:
    assert letter_probabilities({"Z": -0.1}, "AB") == {"A": 0.5, "B": 0.5}


def test_repeated_letters_are_refused() -> None:
    with pytest.raises(ValueError, match="distinct letters"):
        OptionPrompt(messages=(), letters=("A", "A"))


def test_score_options_normalises_and_records_the_call() -> None:
    client = client_with(RecordedLogprobs({"A": math.log(0.5), "B": math.log(0.5)}))
    scores = client.score_options("inner_speech", PROMPT)
    assert scores.probabilities == pytest.approx({"A": 0.5, "B": 0.5, "C": 0.0})
    assert (scores.backend, scores.model, scores.record.outcome) == ("scripted", "recorded", "ok")
    assert client.call_log.records() == [scores.record]


def test_a_backend_without_logprobs_raises_a_clear_error_with_a_record() -> None:
    client = LLMClient(LLMConfig.load().with_backend("none"))
    with pytest.raises(LogprobsUnavailableError, match="no next-token log-probabilities") as raised:
        client.score_options("inner_speech", PROMPT)
    assert raised.value.record is not None and raised.value.record.outcome == "unavailable"


def test_submit_scores_runs_on_a_worker() -> None:
    client = client_with(RecordedLogprobs({"B": -0.01}))
    pending = client.submit_scores("inner_speech", PROMPT)
    scores = pending.future.result(timeout=10)
    assert max(scores.probabilities, key=scores.probabilities.get) == "B"
    client.close()
