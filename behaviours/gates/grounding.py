"""``GroundingIs``: the condition that routes a Proceeded task to its grounding branch."""

from __future__ import annotations

from typing import Any

import py_trees
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.answer_node import task_on_blackboard
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.packs.domain_pack import Grounding
from cogtree.knowledge.packs.domain_registry import DomainRegistry


class GroundingIs(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Condition: the task of this turn is grounded the way ``expected`` says.

    Handles: ``domains``. Reads ``/turn/domain`` and ``/turn/intent``.
    SUCCESS: the intent's task, in its domain pack, has grounding ``expected`` (physical,
    knowledge_query or memory_write). FAILURE: another grounding, no task, or an unknown
    domain or task (the feedback says which). Never RUNNING.
    """

    reads = (keys.DOMAIN, keys.INTENT)

    def __init__(self, expected: Grounding, name: str | None = None) -> None:
        super().__init__(name or f"GroundingIs_{expected}")
        self.expected = expected
        self.domains: DomainRegistry | None = None
        self.domain_key = self.key_of(keys.DOMAIN)
        self.intent_key = self.key_of(keys.INTENT)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``domains`` handle."""
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)

    def update(self) -> Status:
        """Look the task's grounding up in its pack."""
        try:
            task = task_on_blackboard(
                self.domains, self.blackboard, self.domain_key, self.intent_key
            )
        except LookupError as problem:
            self.feedback_message = str(problem)
            return Status.FAILURE
        grounding = task.spec.grounding
        self.feedback_message = f"{task.spec.name} is grounded by {grounding}"
        return Status.SUCCESS if grounding == self.expected else Status.FAILURE
