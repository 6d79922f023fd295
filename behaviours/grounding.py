"""``GroundingIs``: the condition that routes a Proceeded task to its grounding branch."""

from __future__ import annotations

from typing import Any

import py_trees
from py_trees.common import Access, Status

from behaviours import keys
from behaviours.setup_handles import require_handle
from behaviours.turn_state import IntentFrame
from knowledge.domain_pack import Grounding
from knowledge.domain_registry import DomainRegistry


class GroundingIs(py_trees.behaviour.Behaviour):
    """Condition: the task of this turn is grounded the way ``expected`` says.

    Handles: ``domains``. Reads ``/turn/domain`` and ``/turn/intent``.
    SUCCESS: the intent's task, in its domain pack, has grounding ``expected`` (physical,
    knowledge_query or memory_write). FAILURE: another grounding, no task, or an unknown
    domain or task (the feedback says which). Never RUNNING.
    """

    def __init__(self, expected: Grounding, name: str | None = None) -> None:
        super().__init__(name or f"GroundingIs_{expected}")
        self.expected = expected
        self.domains: DomainRegistry | None = None
        self.blackboard = self.attach_blackboard_client(name=self.name)
        self.domain_key = keys.register(self.blackboard, keys.DOMAIN, Access.READ)
        self.intent_key = keys.register(self.blackboard, keys.INTENT, Access.READ)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``domains`` handle."""
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)

    def update(self) -> Status:
        """Look the task's grounding up in its pack."""
        assert self.domains is not None
        domain = self.blackboard.get(self.domain_key) if self._has(self.domain_key) else None
        intent = self.blackboard.get(self.intent_key) if self._has(self.intent_key) else None
        if not isinstance(intent, IntentFrame) or intent.task is None:
            self.feedback_message = "no task this turn"
            return Status.FAILURE
        if domain not in self.domains:
            self.feedback_message = f"domain {domain!r} is not loaded"
            return Status.FAILURE
        try:
            grounding = self.domains.get(str(domain)).task(intent.task).grounding
        except KeyError as error:
            self.feedback_message = str(error)
            return Status.FAILURE
        self.feedback_message = f"{intent.task} is grounded by {grounding}"
        return Status.SUCCESS if grounding == self.expected else Status.FAILURE

    def _has(self, key: str) -> bool:
        return self.blackboard.exists(key)
