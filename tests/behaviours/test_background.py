"""The one way to wait: BackgroundWork's lifecycle on minimal nodes, and LLMBehaviour.prepare().

Work runs on a real pool; each test waits for the pool (``wait_idle``) or holds the work on an
event, and timeouts are measured on a clock the test moves, so no assertion depends on timing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import py_trees
import pytest
from py_trees.common import Status

from cogtree.behaviours.background import AllDone, BackgroundWork, Pending
from cogtree.behaviours.llm_behaviour import LLMBehaviour, Verdict
from cogtree.behaviours.setup_handles import MissingHandleError, require_handle
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.wording import BoundedText
from cogtree.knowledge.worker_pool import WorkerPool


class Square(BackgroundWork[int]):
    """Runs ``work`` on a worker; SUCCESS for an even result, FAILURE for an odd one."""

    def __init__(self, work: Callable[[], int], *, timeout_s: float | None = None) -> None:
        super().__init__("Square", timeout_s=timeout_s)
        self.work = work
        self.cancelled: list[Pending[int]] = []
        self.finished: list[int] = []

    def setup(self, **kwargs: Any) -> None:
        super().setup(**kwargs)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)

    def start(self) -> Future[int]:
        return self.submit(self.work)

    def finish(self, result: int) -> Status:
        self.finished.append(result)
        self.feedback_message = f"got {result}"
        return Status.SUCCESS if result % 2 == 0 else Status.FAILURE

    def on_cancel(self, work: Pending[int]) -> None:
        self.cancelled.append(work)
        super().on_cancel(work)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def settled(node: py_trees.behaviour.Behaviour, workers: WorkerPool, ticks: int) -> str:
    """Tick ``ticks`` times, waiting for the pool before each tick; the statuses as letters."""
    letters = ""
    for _ in range(ticks):
        assert workers.wait_idle(10.0)
        node.tick_once()
        letters += node.status.value[0]
    return letters


def test_work_that_succeeds_is_polled_from_the_next_tick(workers) -> None:
    node = Square(lambda: 4)
    node.setup(workers=workers)
    assert settled(node, workers, 2) == "RS"
    assert node.finished == [4] and node.feedback_message == "got 4"


def test_finish_decides_failure(workers) -> None:
    node = Square(lambda: 9)
    node.setup(workers=workers)
    assert settled(node, workers, 2) == "RF"
    assert node.feedback_message == "got 9"


def test_an_exception_in_the_worker_is_a_failure_with_the_reason(workers) -> None:
    def broken() -> int:
        raise OSError("the disk is gone")

    node = Square(broken)
    node.setup(workers=workers)
    assert settled(node, workers, 2) == "RF"
    assert node.finished == []
    assert node.feedback_message == "Square failed: OSError: the disk is gone"


def test_the_timeout_cancels_the_work_and_fails(workers) -> None:
    release = threading.Event()
    clock = Clock()
    node = Square(lambda: 2 if release.wait(10) else 0, timeout_s=5.0)
    node.clock = clock
    node.setup(workers=workers)
    node.tick_once()
    node.tick_once()
    assert node.status == Status.RUNNING
    assert node.feedback_message == "waiting for Square (0.0s)"
    clock.now += 5.0
    node.tick_once()
    release.set()
    assert node.status == Status.FAILURE
    assert len(node.cancelled) == 1
    assert node.feedback_message == "Square gave up after 5.0s (limit 5s)"
    assert node.finished == []


def test_interrupting_cancels_work_not_yet_started() -> None:
    with WorkerPool(1, "test-one-worker") as one:
        release = threading.Event()
        one.submit(release.wait, 10.0)  # the only worker is busy: the node's work waits
        ran: list[str] = []
        node = Square(lambda: ran.append("ran") or 2)
        node.setup(workers=one)
        root = py_trees.composites.Selector("Root", memory=False, children=[node])
        root.tick_once()
        assert node.status == Status.RUNNING
        root.stop(Status.INVALID)
        release.set()
        assert one.wait_idle(10.0)
    assert ran == []
    assert len(node.cancelled) == 1 and node.cancelled[0].cancelled()  # type: ignore[attr-defined]
    assert node.feedback_message == "cancelled while waiting for Square"


def test_ticking_before_setup_is_an_error_that_says_so() -> None:
    node = Square(lambda: 2)
    with pytest.raises(RuntimeError, match=r"Square \(Square\) was ticked before setup"):
        node.tick_once()


def test_submitting_without_workers_names_the_handle() -> None:
    class Unwired(Square):
        def setup(self, **kwargs: Any) -> None:
            BackgroundWork.setup(self, **kwargs)

    node = Unwired(lambda: 2)
    node.setup()
    with pytest.raises(MissingHandleError, match=r"needs the `workers` handle"):
        node.tick_once()


class Echo(BackgroundWork[str]):
    """Decides at once when there is nothing to do; otherwise echoes ``text`` on a worker."""

    first_poll_next_tick = False

    def __init__(self, text: str) -> None:
        super().__init__("Echo")
        self.text = text

    def setup(self, **kwargs: Any) -> None:
        super().setup(**kwargs)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)

    def start(self) -> Future[str] | Status:
        if not self.text:
            self.feedback_message = "nothing to echo"
            return Status.SUCCESS
        return self.submit(str.upper, self.text)

    def finish(self, result: str) -> Status:
        self.feedback_message = result
        return Status.SUCCESS


def test_start_may_decide_at_once_without_work(workers) -> None:
    node = Echo("")
    node.setup(workers=workers)
    node.tick_once()
    assert node.status == Status.SUCCESS and node.feedback_message == "nothing to echo"


def test_work_done_before_the_first_update_finishes_in_one_tick(workers) -> None:
    done: Future[str] = Future()
    done.set_result("READY")

    class Immediate(Echo):
        def start(self) -> Future[str] | Status:
            return done

    node = Immediate("ready")
    node.setup(workers=workers)
    node.tick_once()
    assert node.status == Status.SUCCESS and node.feedback_message == "READY"


@pytest.mark.parametrize("method", ["initialise", "update", "terminate"])
def test_overriding_the_lifecycle_is_refused(method: str) -> None:
    with pytest.raises(TypeError, match=rf"overrides BackgroundWork.{method}\(\), which is final"):
        type("Sneaky", (Echo,), {method: lambda self, *args: None})


@pytest.mark.parametrize("method", ["initialise", "update", "terminate"])
def test_an_llm_behaviour_cannot_override_the_lifecycle(method: str) -> None:
    with pytest.raises(TypeError, match=rf"overrides LLMBehaviour.{method}\(\), which is final"):
        type("Sneaky", (Lookup,), {method: lambda self, *args: None})


def test_all_done_waits_for_every_future_and_cancels_them() -> None:
    first: Future[int] = Future()
    second: Future[int] = Future()
    both = AllDone([first, second])
    first.set_result(1)
    assert not both.done()
    second.set_result(2)
    assert both.done() and both.result() is None
    waiting: list[Future[int]] = [Future(), Future()]
    assert AllDone(waiting).cancel() and all(future.cancelled() for future in waiting)


# -- LLMBehaviour.prepare() -----------------------------------------------------------------------


class Answer(BoundedText):
    found: bool
    rationale: str = ""


class Lookup(LLMBehaviour[Answer]):
    """Looks ``thing`` up on a worker in ``prepare()``; the fast path decides on what it found."""

    module = "inner_speech"
    preparing = "looking it up"

    def __init__(self, lookup: Callable[[], set[str]], thing: str) -> None:
        super().__init__("Lookup", Answer)
        self.lookup = lookup
        self.thing = thing
        self.known: set[str] | None = None
        self.problem = ""

    def setup(self, **kwargs: Any) -> None:
        super().setup(**kwargs)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)

    def prepare(self) -> Future[set[str]]:
        assert self.workers is not None
        self.known, self.problem = None, ""
        return self.workers.submit(self.lookup)

    def prepared(self, result: Any) -> None:
        self.known = result

    def preparation_failed(self, error: Exception) -> None:
        self.problem = str(error)

    def fast_path(self) -> Verdict[Answer] | None:
        if self.known is None:
            return Verdict(Answer(found=False), f"could not look: {self.problem}")
        return Verdict(Answer(found=self.thing in self.known), "looked it up")

    def messages(self) -> list[Message]:
        return [Message(role="user", content=self.thing)]

    def safe_decision(self, reason: str) -> Answer:
        return Answer(found=False, rationale=reason)

    def apply(self, decision: Answer) -> Status:
        return Status.SUCCESS if decision.found else Status.FAILURE


def test_prepare_runs_before_the_cascade_and_the_node_waits_for_it(blackboard, make_llm) -> None:
    release = threading.Event()
    with WorkerPool(1, "test-one-worker") as one:
        node = Lookup(lambda: {"mug"} if release.wait(10) else set(), "mug")
        node.setup(llm=make_llm().client, workers=one)
        node.tick_once()
        node.tick_once()
        assert node.status == Status.RUNNING and node.feedback_message == "looking it up"
        release.set()
        assert one.wait_idle(10.0)
        node.tick_once()
    assert node.status == Status.SUCCESS
    assert node.known == {"mug"}
    assert blackboard.get("/rationale/lookup").source == "fast_path"


def test_a_failed_preparation_is_handed_to_the_node(blackboard, make_llm, workers) -> None:
    def broken() -> set[str]:
        raise LookupError("no such shelf")

    node = Lookup(broken, "mug")
    node.setup(llm=make_llm().client, workers=workers)
    node.tick_once()
    assert workers.wait_idle(10.0)
    if node.status == Status.RUNNING:  # the lookup had not failed yet when first polled
        node.tick_once()
    assert node.status == Status.FAILURE
    assert node.problem == "no such shelf"
    assert blackboard.get("/rationale/lookup").rationale == "could not look: no such shelf"
