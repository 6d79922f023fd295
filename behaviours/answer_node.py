"""``TurnAnswerNode``: the base of the nodes that decide on and keep a knowledge task's answer."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from typing import Any

import py_trees
from py_trees.common import Status
from pydantic import BaseModel

from cogtree.behaviours import keys
from cogtree.behaviours.background import Clock
from cogtree.behaviours.btcpp.steering import take_clock
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.evidence_needs import (
    TurnTask,
    answer_key,
    find_task,
    memory_bindings,
)
from cogtree.knowledge.understanding.turn_state import HeldAnswer


def task_on_blackboard(
    domains: DomainRegistry | None,
    client: py_trees.blackboard.Client,
    domain_key: str,
    intent_key: str,
) -> TurnTask:
    """:func:`find_task` for the ``/turn/domain`` and ``/turn/intent`` that ``client`` reads.

    RuntimeError when ``domains`` is None (the node's ``setup`` was not called).
    """
    if domains is None:
        raise RuntimeError("setup(domains=...) was not called before ticking")
    return find_task(domains, keys.read(client, domain_key), keys.read(client, intent_key))


class TurnAnswerNode(keys.DeclaredKeys, py_trees.behaviour.Behaviour, ABC):
    """What ``NeedsEvidence`` and ``HoldAnswer`` share: the turn's task, its answer key, a clock.

    Handles: ``domains``; ``clock`` optional (seconds; default the monotonic clock).
    """

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.domains: DomainRegistry | None = None
        self.clock: Clock = time.monotonic
        self.domain_key = self.key_of(keys.DOMAIN)
        self.intent_key = self.key_of(keys.INTENT)
        self.task_key = self.key_of(keys.TASK)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.evidence_key = self.key_of(keys.EVIDENCE)
        self.working_key = self.key_of(keys.WORKING)
        self.held_key = self.key_of(keys.HELD)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``domains`` handle and the optional ``clock``."""
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.clock = take_clock(self, kwargs)

    @abstractmethod
    def update(self) -> Status:
        """Decide (``NeedsEvidence``) or hold (``HoldAnswer``)."""

    def turn_task(self) -> TurnTask:
        """The pack and task of this turn; LookupError says what lacks."""
        return task_on_blackboard(self.domains, self.blackboard, self.domain_key, self.intent_key)

    def key_now(self, task: TurnTask) -> dict[str, list[str]] | None:
        """What an answer to this turn depends on; None without a task instance."""
        instance = keys.read(self.blackboard, self.task_key)
        if not isinstance(instance, BaseModel):
            return None
        parameters = list(task.pack.query(task.spec.query).parameters) if task.spec.query else []
        return answer_key(
            task.spec,
            parameters,
            dict(instance),
            memory_bindings(self.working()),
            keys.read_optional(self.blackboard, self.speaker_key, str),
        )

    def working(self) -> WorkingContext | None:
        """``/memory/working``, when it is set."""
        working = keys.read(self.blackboard, self.working_key)
        return working if isinstance(working, WorkingContext) else None

    def held(self) -> list[HeldAnswer]:
        """``/session/held_answers`` (empty when unset)."""
        held = keys.read(self.blackboard, self.held_key)
        return held if isinstance(held, list) else []
