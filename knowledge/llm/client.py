"""The one way cogtree calls a model: ``LLMClient.decide`` / ``LLMClient.submit``.

The client routes each module to the backend its settings name (resolving ``auto`` once per
distinct setting), validates the raw completion against the caller's pydantic model, records
every attempt in a :class:`CallLog`, and owns the worker pool that keeps ticks non-blocking.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.llm.backend import Backend, BackendStatus
from cogtree.knowledge.llm.call_log import CallLog
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.errors import (
    LLMCancelledError,
    LLMError,
    MalformedOutputError,
    first_problem,
)
from cogtree.knowledge.llm.option_scores import (
    LetterScoringBackend,
    LogprobsUnavailableError,
    OptionPrompt,
    OptionScores,
    letter_probabilities,
)
from cogtree.knowledge.llm.selection import choose_auto_backend, create_backend
from cogtree.knowledge.llm.types import (
    CallRecord,
    Decision,
    LLMRequest,
    Message,
    ModuleSettings,
    Outcome,
)
from cogtree.knowledge.worker_pool import WorkerPool

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")


@dataclass
class PendingCall:
    """A model call running on a worker; poll ``future`` and respect ``deadline``."""

    module: str
    attempt: int
    future: Future[Any]
    """A :class:`Decision` from :meth:`LLMClient.submit`, :class:`OptionScores` from
    :meth:`LLMClient.submit_scores`."""
    cancel_event: threading.Event
    started: float
    deadline: float
    timeout_s: float

    def done(self) -> bool:
        """True once the worker has finished (with a decision or an error)."""
        return self.future.done()

    def expired(self, now: float | None = None) -> bool:
        """True when the call has outlived its module's ``timeout_s``."""
        return (time.monotonic() if now is None else now) >= self.deadline

    def cancel(self) -> None:
        """Ask the backend to stop and drop the result; safe to call more than once."""
        self.cancel_event.set()
        self.future.cancel()


@dataclass
class _Resolution:
    backend: Backend
    status: BackendStatus
    notices: list[str] = field(default_factory=list)


class LLMClient(Closeable):
    """Routes module calls to backends, validates answers, records calls, runs workers.

    Args:
        config: the manifest; the packaged one when omitted.
        backends: ready-made backends by name (e.g. ``{"scripted": ScriptedBackend(...)}``);
            other names are created on first use.
        wrap: applied to every backend before use (e.g. a fault injector).
        call_log: where records go; a fresh log when omitted.
        max_workers: size of the worker pool for :meth:`submit`.

    """

    def __init__(
        self,
        config: LLMConfig | None = None,
        *,
        backends: Mapping[str, Backend] | None = None,
        wrap: Callable[[Backend], Backend] | None = None,
        call_log: CallLog | None = None,
        max_workers: int = 4,
    ) -> None:
        self.config = config if config is not None else LLMConfig.load()
        self.call_log = call_log if call_log is not None else CallLog()
        self._given = dict(backends or {})
        self._wrap = wrap
        self._created: dict[str, Backend] = {}
        self._auto: dict[tuple[str, str, str | None], _Resolution] = {}
        self._lock = threading.Lock()
        self._pool = WorkerPool(max_workers, "cogtree-llm")

    # -- routing -------------------------------------------------------------------------------

    def settings_for(self, module: str) -> ModuleSettings:
        """Effective settings of ``module`` (raises listing valid modules when unknown)."""
        return self.config.settings_for(module)

    def backend_for(self, module: str) -> Backend:
        """The backend that serves ``module``, resolving ``auto`` on first use."""
        settings = self.settings_for(module)
        if settings.backend == "auto":
            return self._resolve_auto(settings).backend
        return self._named(settings.backend)

    def prepare(self, module: str) -> Backend:
        """Resolve and load the backend of ``module`` now (from ``setup``, never a tick).

        A backend that cannot load is logged, not raised: the first call fails with the same
        reason and the node takes its safe decision.
        """
        backend = self.backend_for(module)
        try:
            backend.prepare(self.settings_for(module))
        except LLMError as error:
            log.warning("%s backend for %s is not ready: %s", backend.name, module, error)
        return backend

    def describe(self) -> dict[str, str]:
        """For each module, the backend that serves it and (for ``auto``) why."""
        described = {}
        for module in self.config.module_names:
            settings = self.settings_for(module)
            if settings.backend == "auto":
                status = self._resolve_auto(settings).status
                described[module] = f"auto -> {status.backend}: {status.detail}"
            else:
                described[module] = settings.backend
        return described

    @property
    def offline(self) -> bool:
        """True when no module has a model: gates run their fast paths alone."""
        return all(self.backend_for(module).name == "none" for module in self.config.module_names)

    def _named(self, name: str) -> Backend:
        with self._lock:
            if name not in self._created:
                backend = self._given.get(name) or create_backend(name)
                self._created[name] = self._wrap(backend) if self._wrap else backend
            return self._created[name]

    def _resolve_auto(self, settings: ModuleSettings) -> _Resolution:
        key = (settings.model, settings.ollama_host or "", settings.gguf_path)
        with self._lock:
            cached = self._auto.get(key)
        if cached is not None:
            return cached
        status = choose_auto_backend(settings)
        resolution = _Resolution(backend=self._named(status.backend), status=status)
        if status.backend == "none":
            log.debug("no LLM backend available (%s); %s", status.detail, status.fix)
        with self._lock:
            return self._auto.setdefault(key, resolution)

    # -- calls ---------------------------------------------------------------------------------

    def _recorder(
        self, module: str, backend: Backend, settings: ModuleSettings, attempt: int
    ) -> Callable[..., CallRecord]:
        """A function that appends one record of this call to :attr:`call_log` and returns it."""
        started_at = time.time()
        clock = time.perf_counter()

        def record(outcome: Outcome, detail: str = "", **counts: Any) -> CallRecord:
            entry = CallRecord.model_validate(
                {
                    "module": module,
                    "backend": backend.name,
                    "model": counts.pop("model", backend.model_name(settings)),
                    "attempt": attempt,
                    "latency_s": round(time.perf_counter() - clock, 6),
                    "outcome": outcome,
                    "detail": detail,
                    "started_at": started_at,
                    **counts,
                }
            )
            self.call_log.append(entry)
            return entry

        return record

    def decide(
        self,
        module: str,
        messages: Sequence[Message],
        schema: type[T],
        *,
        cancel: threading.Event | None = None,
        attempt: int = 1,
    ) -> Decision[T]:
        """Call the model of ``module`` and return a validated ``schema`` instance (blocking).

        Raises an :class:`LLMError` subclass (with ``record`` set) when the call fails or the
        output does not validate. Every attempt is appended to :attr:`call_log`.
        """
        settings = self.settings_for(module)
        backend = self.backend_for(module)
        request = LLMRequest(module, tuple(messages), schema, settings)
        cancel = cancel if cancel is not None else threading.Event()
        record = self._recorder(module, backend, settings, attempt)
        completion, counts = _recorded_call(
            backend.name,
            record,
            cancel,
            lambda: backend.complete(request, cancel),
            lambda done: {
                "model": done.model,
                "prompt_tokens": done.prompt_tokens,
                "completion_tokens": done.completion_tokens,
                "tokens_estimated": done.tokens_estimated,
            },
        )
        try:
            value = schema.model_validate_json(completion.text)
        except ValidationError as error:
            detail = first_problem(error)
            raise MalformedOutputError(
                f"output does not match {schema.__name__}: {detail}",
                completion.text,
                record("malformed", detail, **counts),
            ) from error
        return Decision(value=value, record=record("ok", **counts), raw=completion.text)

    def score_options(
        self,
        module: str,
        prompt: OptionPrompt,
        *,
        cancel: threading.Event | None = None,
        attempt: int = 1,
    ) -> OptionScores:
        """Score ``prompt.letters`` with the next-token log-probabilities of ``module``'s model.

        Blocking, like :meth:`decide`. Raises :class:`LogprobsUnavailableError` when the
        module's backend cannot read log-probabilities, and the other :class:`LLMError`
        subclasses as :meth:`decide` does; every attempt is recorded in :attr:`call_log`.
        """
        settings = self.settings_for(module)
        backend = self.backend_for(module)
        cancel = cancel if cancel is not None else threading.Event()
        record = self._recorder(module, backend, settings, attempt)
        if not isinstance(backend, LetterScoringBackend):
            detail = (
                f"the {backend.name} backend gives no next-token log-probabilities; "
                "use llama-cpp, or an Ollama server that returns logprobs"
            )
            raise LogprobsUnavailableError(detail, record("unavailable", detail))
        scoring = backend
        scores, counts = _recorded_call(
            backend.name,
            record,
            cancel,
            lambda: scoring.score_letters(prompt, settings, cancel),
            lambda done: {
                "model": done.model,
                "prompt_tokens": done.prompt_tokens,
                "completion_tokens": 1,
                "tokens_estimated": done.tokens_estimated,
            },
        )
        return OptionScores(
            probabilities=letter_probabilities(scores.logprobs, prompt.letters),
            backend=backend.name,
            model=scores.model,
            record=record("ok", **counts),
        )

    def submit(
        self,
        module: str,
        messages: Sequence[Message],
        schema: type[T],
        *,
        attempt: int = 1,
        then: Callable[[T], object] | None = None,
    ) -> PendingCall:
        """Start :meth:`decide` on a worker and return at once; never blocks a tick.

        ``then`` runs on the worker with the validated answer before the call is done (checks
        a node must not run on its tick); what it raises is the call's error.
        """

        def call(cancel: threading.Event) -> Decision[T]:
            decision = self.decide(module, messages, schema, cancel=cancel, attempt=attempt)
            if then is not None:
                then(decision.value)
            return decision

        return self._start(module, attempt, call)

    def submit_scores(self, module: str, prompt: OptionPrompt, *, attempt: int = 1) -> PendingCall:
        """Start :meth:`score_options` on a worker and return at once; never blocks a tick."""
        return self._start(
            module,
            attempt,
            lambda cancel: self.score_options(module, prompt, cancel=cancel, attempt=attempt),
        )

    def _start(
        self, module: str, attempt: int, call: Callable[[threading.Event], Any]
    ) -> PendingCall:
        """Run ``call`` (given its cancel event) on a worker, with ``module``'s deadline."""
        settings = self.settings_for(module)
        cancel = threading.Event()
        future = self._pool.submit(call, cancel)
        now = time.monotonic()
        return PendingCall(
            module=module,
            attempt=attempt,
            future=future,
            cancel_event=cancel,
            started=now,
            deadline=now + settings.timeout_s,
            timeout_s=settings.timeout_s,
        )

    def wait_for_calls(self, timeout_s: float) -> bool:
        """Wait until no submitted call is running; False if some still are after ``timeout_s``.

        Tests wait for calls; a scenario run waits before it counts its calls.
        """
        return self._pool.wait_idle(timeout_s)

    def close(self) -> None:
        """Stop accepting calls; running calls finish in the background."""
        self._pool.close()


def _recorded_call(
    backend: str,
    record: Callable[..., CallRecord],
    cancel: threading.Event,
    run: Callable[[], R],
    counts_of: Callable[[R], dict[str, Any]],
) -> tuple[R, dict[str, Any]]:
    """Run one backend call and return its result with its token counts.

    Its failures become recorded :class:`LLMError` s; a result that arrives after ``cancel`` is
    dropped (recorded as cancelled).
    """
    try:
        result = run()
    except LLMError as error:
        error.record = record(error.outcome, str(error))
        raise
    except Exception as error:  # a backend bug must not escape as anything but LLMError
        detail = f"{backend} backend failed: {type(error).__name__}: {error}"
        raise LLMError(detail, record("error", detail)) from error
    counts = counts_of(result)
    if cancel.is_set():
        detail = "result arrived after the caller gave up"
        raise LLMCancelledError(detail, record("cancelled", detail, **counts))
    return result, counts
