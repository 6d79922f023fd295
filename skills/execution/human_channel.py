"""Asking people to do things: the channel protocol, the request, and a console channel.

A :class:`HumanChannel` carries a :class:`HumanRequest` (one of a person's abilities, described
in words) to a person and returns a future that resolves with a
:class:`~skills.action_model.commands.Feedback` when the person reports the task done (``ok``) or
could not take it on (``person_refused`` / ``person_unavailable``, with the reason). The simulator's
``People`` satisfies the protocol structurally (it reads the request's ``ability`` and
``description``); :class:`ConsoleChannel` asks on a text stream; a ROS 2 channel will come later.
"""

from __future__ import annotations

import logging
import sys
import threading
from concurrent.futures import Future
from typing import Literal, Protocol, TextIO, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from cogtree.knowledge.memory.experience import ErrorCode
from cogtree.skills.action_model.commands import Feedback

log = logging.getLogger(__name__)

YES_WORDS = frozenset({"y", "yes", "done", "ok", "okay", "sure"})
"""Answers that mean the person did the task."""

NO_WORDS = frozenset({"n", "no", "cannot", "can't", "refuse", "busy"})
"""Answers that mean the person will not or cannot do it."""


class HumanRequest(BaseModel):
    """A task for a person: one of their abilities, described in words."""

    model_config = ConfigDict(frozen=True)

    ability: str = Field(min_length=1, description="the ability asked for, e.g. print, sign")
    description: str = Field("", description="what exactly, e.g. print the agenda for 10:00")


class DelegationOutcome(BaseModel):
    """How a delegation ended: who was asked to do what, and what came of it."""

    model_config = ConfigDict(frozen=True)

    person: str
    ability: str
    status: Literal["done", "failed"]
    code: ErrorCode | None = Field(None, description="why it failed: refused, unavailable, timeout")
    message: str


@runtime_checkable
class HumanChannel(Protocol):
    """Delivers requests to people and reports back (see the module docs)."""

    def delegate(self, person: str, task: HumanRequest) -> Future[Feedback]:
        """Ask ``person`` to do ``task``; the future resolves when they finish or decline."""
        ...

    def cancel(self, future: Future[Feedback]) -> bool:
        """Withdraw the request behind ``future``; False if it was no longer pending."""
        ...


class ConsoleChannel:
    """Ask people on a text console: the question goes to ``output``, the answer from ``input``.

    Every request is asked on a thread of its own (one at a time: questions never interleave)
    and its future resolves from the answer: yes/done -> ok, no -> ``person_refused``, end of
    input -> ``person_unavailable``; anything else asks again. A cancelled request is not asked,
    or, when it already was, its answer is ignored and the console says it was withdrawn.
    """

    def __init__(self, *, input: TextIO | None = None, output: TextIO | None = None) -> None:
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stdout
        self._console = threading.Lock()

    def delegate(self, person: str, task: HumanRequest) -> Future[Feedback]:
        """Ask ``person`` on the console; the future resolves from their answer."""
        future: Future[Feedback] = Future()
        thread = threading.Thread(
            target=self._ask, args=(person, task, future), name=f"ask-{person}", daemon=True
        )
        thread.start()
        return future

    def cancel(self, future: Future[Feedback]) -> bool:
        """Withdraw a request that has no answer yet."""
        return future.cancel()

    def _ask(self, person: str, task: HumanRequest, future: Future[Feedback]) -> None:
        with self._console:
            if future.cancelled():
                return
            what = f"{task.ability}: {task.description}" if task.description else task.ability
            self._write(f"{person}, could you {what}? Answer yes when it is done, or no: ")
            feedback = self._answer(person, task)
            if not future.set_running_or_notify_cancel():
                self._write(f"(the request to {person} to {task.ability} was withdrawn)\n")
                return
            future.set_result(feedback)

    def _answer(self, person: str, task: HumanRequest) -> Feedback:
        while True:
            try:
                line = self.input.readline()
            except (OSError, ValueError) as error:  # a closed stream
                return _failed("person_unavailable", f"{person} could not be asked: {error}")
            if not line:
                return _failed("person_unavailable", f"no answer from {person} (input closed)")
            answer = line.strip().lower()
            if answer in YES_WORDS:
                return Feedback(ok=True, message=f"{person} did {task.ability}")
            if answer in NO_WORDS:
                return _failed("person_refused", f"{person} said no to {task.ability}")
            self._write("Please answer yes (done) or no: ")

    def _write(self, text: str) -> None:
        try:
            self.output.write(text)
            self.output.flush()
        except (OSError, ValueError) as error:
            log.warning("cannot write to the console channel: %s", error)


def _failed(code: ErrorCode, message: str) -> Feedback:
    return Feedback(ok=False, code=code, message=message)
