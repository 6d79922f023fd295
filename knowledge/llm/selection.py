"""Creating backends by name, and what ``auto`` picks: Ollama, else none.

llama-cpp (SmolLM2-135M in process) is never picked by ``auto``: it is slow on a CPU and too
small to decide well, so it serves integration tests and runs only when asked for by name
(``--llm llama-cpp``).
"""

from __future__ import annotations

import threading

from cogtree.knowledge.llm.backend import Backend, BackendStatus
from cogtree.knowledge.llm.config import check_backend_name
from cogtree.knowledge.llm.errors import LLMConfigError, LLMUnavailableError
from cogtree.knowledge.llm.types import Completion, LLMRequest, ModuleSettings


class NoModelBackend:
    """The backend of last resort: every call fails at once, so gates take their safe path."""

    name = "none"

    def __init__(self, reason: str = "the `none` backend was chosen") -> None:
        self.reason = reason

    def complete(self, request: LLMRequest, cancel: threading.Event) -> Completion:
        """Always raises :class:`LLMUnavailableError` naming why there is no model."""
        raise LLMUnavailableError(f"no LLM backend: {self.reason}")

    def prepare(self, settings: ModuleSettings) -> None:
        """Nothing to load."""

    def model_name(self, settings: ModuleSettings) -> str:
        """There is no model."""
        return "-"

    def probe(self, settings: ModuleSettings) -> BackendStatus:
        """Never ready."""
        return BackendStatus(self.name, False, f"no model: {self.reason}")


def create_backend(name: str) -> Backend:
    """Instantiate the backend called ``name`` (``scripted`` needs a script, so it is given)."""
    check_backend_name(name)
    if name == "ollama":
        from cogtree.knowledge.llm.ollama_backend import OllamaBackend

        return OllamaBackend()
    if name == "llama-cpp":
        from cogtree.knowledge.llm.llama_cpp_backend import LlamaCppBackend

        return LlamaCppBackend()
    if name == "none":
        return NoModelBackend()
    if name == "scripted":
        raise LLMConfigError(
            "the scripted backend needs a script: pass `--script FILE` to the CLI, or "
            "`LLMClient(backends={'scripted': ScriptedBackend(...)})` in code"
        )
    raise LLMConfigError(f"backend {name!r} cannot be created directly; it is resolved first")


def choose_auto_backend(settings: ModuleSettings) -> BackendStatus:
    """What ``auto`` picks for these settings, with the reason.

    Ollama when its server answers and has ``settings.model``; else ``none`` (gates run their
    fast paths alone). Never llama-cpp (module docstring).
    """
    from cogtree.knowledge.llm.ollama_backend import OllamaBackend

    ollama = OllamaBackend().probe(settings)
    if ollama.ready:
        return ollama
    return BackendStatus(
        "none",
        False,
        f"ollama: {ollama.detail}",
        fix=f"{ollama.fix or 'start Ollama'} (llama-cpp runs only when asked for by name)",
    )
