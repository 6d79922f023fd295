"""``LLMBehaviour``: the base of every LLM-backed node, a cascade that never blocks a tick.

0. ``prepare()`` reads the turn once per run and may start work the cascade needs on the
   ``workers`` pool (a scene summary, a dry run, a memory read); the node is RUNNING until it
   is done, and ``prepared()`` (or ``preparation_failed()``) receives its result and may start
   one more stage of preparation the same way (its future is waited for in turn).
1. ``fast_path()`` may decide on its own (no model call) when a deterministic check is sure.
2. Otherwise the base submits a schema-constrained call to a worker; ``update()``
   polls it and returns RUNNING until it is done. Malformed output is retried once; a
   timeout, a failed call or a second malformed answer falls back to ``safe_decision()``.
   Each model answer first meets ``screen()`` on that worker, before a tick sees it: the
   costly checks of an answer run there, and the later hooks only look their findings up.
3. ``revise()`` may reject a model answer once: the prompt is sent again with the rejected
   answer and the reason appended as feedback, and the second answer is final.
4. ``guard()`` sees every decision (fast path, model or fallback) and may veto it in the
   safe direction; the model cannot get around it.
5. ``apply()`` writes the node's outputs and picks the status. The rationale, the notes and
   the call records go to ``/rationale/<node>`` and every return path sets
   ``feedback_message``.

Subclasses set ``module`` (a module of the LLM manifest), pass ``decision_type`` (a
:class:`~knowledge.wording.BoundedText` model: the JSON schema the model must answer in) and
implement the hooks. The base takes only bounded decisions, so a rationale (the model's, or a
safe decision quoting a long error) is cut to its field's limit, never a validation error out
of a tick. ``initialise``, ``update`` and ``terminate`` are final, as in
:class:`~behaviours.background.BackgroundWork`.

Why it is not built on ``BackgroundWork``: that base waits for one piece of work and hands its
one result to ``finish``. A model-backed decision is a cascade: an optional preparation, then
possibly several model calls (a retry of malformed output, a revision asked for by
``revise()``), each with its own deadline, call record and fallback, decided between ticks. It
shares the base's rules (final lifecycle, work polled and cancelled, never blocking a tick)
and keeps the cascade's state machine here, in one place.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, final

import py_trees
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.background import LIFECYCLE, refuse_overrides
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.llm.client import LLMClient, PendingCall
from cogtree.knowledge.llm.errors import LLMError, LLMTimeoutError, MalformedOutputError
from cogtree.knowledge.llm.types import CallRecord, Message
from cogtree.knowledge.understanding.turn_state import GateRationale, RationaleSource
from cogtree.knowledge.wording import BoundedText
from cogtree.knowledge.worker_pool import WorkerPool

log = logging.getLogger(__name__)

D = TypeVar("D", bound=BoundedText)

REVISION_REQUEST = (
    "That answer was not accepted: {reason}. Answer again in the same JSON format, "
    "and correct what was wrong."
)
"""The feedback appended to the prompt when ``revise()`` rejects a model answer."""


@dataclass(frozen=True)
class Verdict(Generic[D]):
    """A decision together with the reason it was taken."""

    decision: D
    reason: str


class LLMBehaviour(keys.DeclaredKeys, py_trees.behaviour.Behaviour, ABC, Generic[D]):
    """Base class of LLM-backed gates and nodes (see the module docstring for the cascade).

    Handles (``setup`` keyword arguments): ``llm`` (:class:`LLMClient`), required; a subclass
    whose ``prepare()`` starts work takes ``workers`` (:attr:`workers`) as well.

    Blackboard: writes ``/rationale/<node>`` (:class:`~behaviours.GateRationale`);
    subclasses declare the rest (their ``reads`` and ``writes`` add to this class's).

    Status: RUNNING while the preparation or the model call is in flight; otherwise what
    ``apply()`` returns.
    """

    writes: tuple[keys.KeySpec, ...] = (keys.RATIONALE,)

    module: ClassVar[str]
    max_attempts: ClassVar[int] = 2
    preparing: ClassVar[str] = "preparing"
    """The ``feedback_message`` while the work ``prepare()`` started runs."""
    prepare_polled_next_tick: ClassVar[bool] = False
    """Whether the preparation is first polled on the next tick (else in the same tick)."""
    preparation_timeout_s: ClassVar[float | None] = None
    """How long one stage of preparation on the workers may run; past it, it is cancelled and
    handed to ``preparation_failed`` as a ``TimeoutError`` (None: no limit). A stage that is a
    model call (:class:`PendingCall`) keeps its own module's deadline instead."""

    def __init__(self, name: str, decision_type: type[D], *, module: str | None = None) -> None:
        super().__init__(name)
        self.decision_type = decision_type
        self.module_name = module or type(self).module
        self.llm: LLMClient | None = None
        self.workers: WorkerPool | None = None
        self.rationale_key = self.key_of(keys.RATIONALE)
        self._preparing: Future[Any] | None = None
        self._preparing_call: PendingCall | None = None
        self._preparing_until: float | None = None
        self._prepared_this_tick = False
        self._pending: PendingCall | None = None
        self._submitted_this_tick = False
        self._verdict: tuple[Verdict[D], RationaleSource] | None = None
        self._applied: Status | None = None
        self._notes: list[str] = []
        self._calls: list[CallRecord] = []
        self._feedback: list[Message] = []

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        hooks = "prepare(), fast_path(), messages() and apply() (behaviours/llm_behaviour.py)"
        refuse_overrides(cls, LLMBehaviour, LIFECYCLE, hooks)

    # -- hooks for subclasses ----------------------------------------------------------------

    def prepare(self) -> Future[Any] | PendingCall | None:
        """Work done once per run before the cascade (read the turn here, on the tick thread).

        Return the future of work started on the ``workers`` pool that the cascade needs, or
        a model call's :class:`PendingCall` (the node is RUNNING until it is done), or None
        when nothing runs in the background.
        """
        return None

    def prepared(self, result: Any) -> Future[Any] | PendingCall | None:
        """Take the result of the work ``prepare()`` started.

        Return the future of a next stage of preparation (waited for like the first), or None
        when the cascade may start.
        """
        return None

    def preparation_failed(self, error: Exception) -> Future[Any] | PendingCall | None:
        """The preparation raised ``error``; return a next stage's future, or None to go on.

        The cascade runs all the same: a node whose preparation matters for safety records the
        failure here and its guard refuses on it.
        """
        log.error("%s: the preparation failed", self.name, exc_info=error)
        self._notes.append(f"preparation failed: {type(error).__name__}: {error}")
        return None

    def fast_path(self) -> Verdict[D] | None:
        """Decide without the model when a deterministic check is confident; else None."""
        return None

    @abstractmethod
    def messages(self) -> list[Message]:
        """The prompt for the model (read the blackboard here, not in ``__init__``)."""

    @abstractmethod
    def safe_decision(self, reason: str) -> D:
        """The decision taken when the model cannot give a usable one."""

    def revise(self, decision: D) -> str | None:
        """Why a model answer should be asked for again, or None to accept it.

        Called for model answers only (never the fast path or the safe decision), at most once
        per decision: a reason sends the prompt again with the rejected answer and the reason
        appended; that second answer is not revised again and meets ``guard()`` as usual.
        """
        return None

    def screen(self, decision: D) -> None:
        """Check a model answer on the worker as soon as the model gives it, never on a tick.

        Called on the worker thread for each model answer, before any tick sees it: the place
        for checks whose cost grows with the answer; ``revise()`` and ``guard()`` then only look
        their findings up. What it raises fails the call (the safe decision follows).
        """

    def guard(self, decision: D) -> Verdict[D] | None:
        """Return a safer replacement and why, or None to let ``decision`` stand."""
        return None

    @abstractmethod
    def apply(self, decision: D) -> Status:
        """Write the node's outputs for the final ``decision`` and return SUCCESS or FAILURE."""

    def summary(self, decision: D) -> str:
        """A short text for ``feedback_message``."""
        return ", ".join(f"{k}={v}" for k, v in decision.model_dump(mode="json").items())

    # -- py_trees lifecycle -------------------------------------------------------------------

    def setup(self, **kwargs: Any) -> None:
        """Take the ``llm`` handle, check the module is in its manifest, prepare its backend.

        Resolving ``auto`` (probing Ollama) and loading an in-process model happen here, so
        that I/O stays out of the ticks.
        """
        self.llm = require_handle(self, kwargs, "llm", LLMClient)
        self.llm.prepare(self.module_name)

    @final
    def initialise(self) -> None:
        """Prepare; then (now, or once the preparation is done) start the cascade."""
        self._pending = None
        self._verdict = None
        self._applied = None
        self._notes = []
        self._calls = []
        self._feedback = []
        self._begin_stage(self.prepare())
        self._prepared_this_tick = self.prepare_polled_next_tick
        if self._preparing is None:
            self._start_cascade()

    def _begin_stage(self, stage: Future[Any] | PendingCall | None) -> None:
        """Wait for ``stage`` next: its future, and its deadline (a call's own, else ours)."""
        self._preparing_call = stage if isinstance(stage, PendingCall) else None
        if isinstance(stage, PendingCall):
            self._preparing, self._preparing_until = stage.future, stage.deadline
            return
        self._preparing = stage
        limit = self.preparation_timeout_s
        self._preparing_until = None if limit is None else time.monotonic() + limit

    def _overdue(self) -> bool:
        until = self._preparing_until
        return until is not None and time.monotonic() >= until

    def _cancel_stage(self) -> None:
        if self._preparing_call is not None:
            self._preparing_call.cancel()
        elif self._preparing is not None:
            self._preparing.cancel()

    def _next_stage(self, done: Future[Any]) -> Future[Any] | PendingCall | None:
        """Hand a finished (or overdue) stage to ``prepared`` / ``preparation_failed``.

        Nothing escapes the tick: an overdue stage is cancelled and fails with a
        ``TimeoutError``, and an error raised by ``prepared`` itself goes to
        ``preparation_failed``.
        """
        try:
            if not done.done():
                self._cancel_stage()
                call = self._preparing_call
                if call is not None:
                    raise LLMTimeoutError(
                        f"the {call.module} model gave no answer within {call.timeout_s:g}s"
                    )
                raise TimeoutError(
                    f"the preparation took longer than {self.preparation_timeout_s:g} s"
                )
            result = done.result(timeout=0)
        except Exception as error:  # a preparation's failure must not escape the tick
            return self.preparation_failed(error)
        try:
            return self.prepared(result)
        except Exception as error:
            return self.preparation_failed(error)

    def _start_cascade(self) -> None:
        """Decide by the fast path, or send the request to a worker."""
        verdict = self.fast_path()
        if verdict is not None:
            self._verdict = (verdict, "fast_path")
        elif self.llm is not None and self.llm.backend_for(self.module_name).name == "none":
            self._verdict = self._fallback("no LLM backend, and the fast path could not decide")
        else:
            self._submit(attempt=1)

    @final
    def update(self) -> Status:
        """Wait for the preparation; poll the model call; guard, apply and report the decision.

        A call submitted in this tick is first polled on the next tick, so a model-backed
        decision always spans at least two ticks, whatever the model's speed.
        """
        if self._applied is not None:
            return self._applied
        if self._preparing is not None:
            if self._prepared_this_tick or not (self._preparing.done() or self._overdue()):
                self._prepared_this_tick = False
                self.feedback_message = self.preparing
                return Status.RUNNING
            self._begin_stage(self._next_stage(self._preparing))
            if self._preparing is not None:  # a next stage: first polled on the next tick
                self.feedback_message = self.preparing
                return Status.RUNNING
            self._start_cascade()
        if self._verdict is None and not self._submitted_this_tick:
            self._verdict = self._poll()
        self._submitted_this_tick = False
        if self._verdict is None:
            assert self._pending is not None
            waited = time.monotonic() - self._pending.started
            self.feedback_message = (
                f"waiting for {self.module_name} model (attempt {self._pending.attempt}, "
                f"{waited:.1f}s of {self._pending.timeout_s:.0f}s)"
            )
            return Status.RUNNING
        verdict, source = self._verdict
        self._applied = self._finish(verdict, source)
        return self._applied

    @final
    def terminate(self, new_status: Status) -> None:
        """Cancel the preparation or the in-flight call when interrupted (RUNNING -> INVALID)."""
        if self._preparing is not None and new_status == Status.INVALID:
            self._cancel_stage()
            self._begin_stage(None)
        interrupted = self.status == Status.RUNNING and new_status == Status.INVALID
        if interrupted and self._pending:
            self._pending.cancel()
            self._pending = None
            self.feedback_message = f"cancelled while waiting for the {self.module_name} model"

    # -- internals ----------------------------------------------------------------------------

    def _submit(self, attempt: int) -> None:
        if self.llm is None:
            raise RuntimeError(f"{self.name}: setup(llm=...) was not called before ticking")
        self._pending = self.llm.submit(
            self.module_name,
            [*self.messages(), *self._feedback],
            self.decision_type,
            attempt=attempt,
            then=self.screen,
        )
        self._submitted_this_tick = True

    def _poll(self) -> tuple[Verdict[D], RationaleSource] | None:
        pending = self._pending
        assert pending is not None
        if not pending.done():
            if not pending.expired():
                return None
            pending.cancel()
            self._pending = None
            reason = f"the {self.module_name} model did not answer within {pending.timeout_s}s"
            self._calls.append(_timeout_record(self.llm, self.module_name, pending))
            return self._fallback(reason)
        self._pending = None
        try:
            answer = pending.future.result()
        except MalformedOutputError as error:
            self._record(error)
            if pending.attempt < self.max_attempts:
                self._notes.append(f"attempt {pending.attempt} malformed ({error}); retrying")
                self._submit(attempt=pending.attempt + 1)
                return None
            if self._feedback:
                return self._fallback(f"the revised model output was malformed ({error})")
            return self._fallback(f"model output malformed twice ({error})")
        except LLMTimeoutError as error:
            self._record(error)
            reason = f"the {self.module_name} model did not answer within {pending.timeout_s}s"
            return self._fallback(f"{reason} ({error})")
        except LLMError as error:
            self._record(error)
            return self._fallback(f"model call failed: {error}")
        except Exception as error:  # never let a backend bug escape a tick
            log.exception("%s: unexpected error from the model call", self.name)
            return self._fallback(f"model call crashed: {type(error).__name__}: {error}")
        self._calls.append(answer.record)
        decision = answer.value
        if self._ask_again(decision, answer.raw, pending.attempt):
            return None
        rationale = str(getattr(decision, "rationale", "") or "the model decided")
        return Verdict(decision, rationale), "model"

    def _ask_again(self, decision: D, raw: str, attempt: int) -> bool:
        """Resubmit with feedback when ``revise()`` rejects a first answer; say whether."""
        if self._feedback:
            return False
        reason = self.revise(decision)
        if not reason:
            return False
        self._notes.append(f"attempt {attempt} rejected ({reason}); asked the model to revise")
        self._feedback = [
            Message(role="assistant", content=raw or decision.model_dump_json()),
            Message(role="user", content=REVISION_REQUEST.format(reason=reason)),
        ]
        self._submit(attempt=attempt + 1)
        return True

    def _record(self, error: LLMError) -> None:
        if error.record is not None:
            self._calls.append(error.record)

    def _fallback(self, reason: str) -> tuple[Verdict[D], RationaleSource]:
        self._notes.append(reason)
        return Verdict(self.safe_decision(reason), f"safe decision: {reason}"), "safe_default"

    def _finish(self, verdict: Verdict[D], source: RationaleSource) -> Status:
        decision, reason = verdict.decision, verdict.reason
        veto = self.guard(decision)
        if veto is not None:
            self._notes.append(f"guard vetoed {self.summary(decision)}: {veto.reason}")
            decision, reason = veto.decision, f"guard: {veto.reason}"
        status = self.apply(decision)
        self.blackboard.set(
            self.rationale_key,
            GateRationale(
                node=self.name,
                module=self.module_name,
                source=source,
                vetoed=veto is not None,
                decision=decision.model_dump(mode="json"),
                rationale=reason,
                notes=list(self._notes),
                calls=list(self._calls),
            ),
        )
        self.feedback_message = f"{self.summary(decision)} [{source}] {reason}"
        return status


def _timeout_record(llm: LLMClient | None, module: str, pending: PendingCall) -> CallRecord:
    """The record of a call the tick stopped waiting for at its deadline."""
    assert llm is not None
    backend = llm.backend_for(module)
    return CallRecord(
        module=module,
        backend=backend.name,
        model=backend.model_name(llm.settings_for(module)),
        attempt=pending.attempt,
        latency_s=round(time.monotonic() - pending.started, 6),
        outcome="timeout",
        detail="the tick gave up waiting; the worker's late result is discarded",
    )
