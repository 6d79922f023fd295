"""The protocol every LLM backend implements."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from cogtree.knowledge.llm.types import Completion, LLMRequest, ModuleSettings


@dataclass(frozen=True)
class BackendStatus:
    """Whether a backend can serve a given module's settings, and why (or why not)."""

    backend: str
    ready: bool
    detail: str
    fix: str = ""


@runtime_checkable
class Backend(Protocol):
    """Turns a schema-constrained request into raw text.

    ``complete`` blocks (it runs on a worker thread, never in a tick) and raises the errors
    of :mod:`knowledge.llm.errors`: ``LLMUnavailableError`` / ``ModelMissingError`` when it
    cannot be reached, ``LLMTimeoutError`` past ``settings.timeout_s``, ``LLMCancelledError``
    when ``cancel`` is set. Validation of the text against the schema is the client's job.
    """

    name: str

    def complete(self, request: LLMRequest, cancel: threading.Event) -> Completion:
        """Run one call and return the raw completion."""
        ...

    def prepare(self, settings: ModuleSettings) -> None:
        """Load what calls with these settings need, now, on the caller's thread.

        Called from behaviours' ``setup``, never from a tick. May raise the errors above; the
        client logs them and the first call reports them again.
        """
        ...

    def model_name(self, settings: ModuleSettings) -> str:
        """The model these settings select on this backend, for call records."""
        ...

    def probe(self, settings: ModuleSettings) -> BackendStatus:
        """Check, cheaply, whether ``complete`` could succeed with these settings."""
        ...


class WrappedBackend:
    """A backend around another one: subclasses change :meth:`complete`; the rest passes on."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.name = inner.name

    def complete(self, request: LLMRequest, cancel: threading.Event) -> Completion:
        """The inner backend's completion."""
        return self.inner.complete(request, cancel)

    def prepare(self, settings: ModuleSettings) -> None:
        """Prepare the inner backend."""
        self.inner.prepare(settings)

    def model_name(self, settings: ModuleSettings) -> str:
        """The inner backend's model."""
        return self.inner.model_name(settings)

    def probe(self, settings: ModuleSettings) -> BackendStatus:
        """The inner backend's status."""
        return self.inner.probe(settings)
