"""``SwitchActiveDomain``: make the pack the readiness gate chose the active one."""

from __future__ import annotations

from typing import Any

import py_trees
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.wording import lower_first, with_the


def spoken_title(title: str) -> str:
    """A pack title inside a sentence: ``Dietary advisor`` -> ``the dietary advisor``."""
    return with_the(lower_first(" ".join(title.split())))


class SwitchActiveDomain(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """On SwitchDomain, switch the registry to the pack in ``/turn/domain`` and say so.

    The session then runs the turn once more in the new domain (the tree owner's job).

    Handle: ``domains`` (:class:`~knowledge.packs.domain_registry.DomainRegistry`).

    Reads ``/turn/control``, ``/turn/domain``. Writes ``/turn/reply`` ("Switching to the
    dietary advisor."). SUCCESS: switched. FAILURE: the decision is not SwitchDomain, or the
    domain is unset or not a loaded pack (nothing changes; the message says which).
    """

    reads = (keys.CONTROL, keys.DOMAIN)
    writes = (keys.REPLY,)

    def __init__(self, name: str = "SwitchActiveDomain") -> None:
        super().__init__(name)
        self.domains: DomainRegistry | None = None
        self.control_key = self.key_of(keys.CONTROL)
        self.domain_key = self.key_of(keys.DOMAIN)
        self.reply_key = self.key_of(keys.REPLY)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``domains`` handle."""
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)

    def update(self) -> Status:
        """Switch and announce, or fail saying why not."""
        assert self.domains is not None, "setup(domains=...) was not called before ticking"
        control = keys.read_optional(self.blackboard, self.control_key, str)
        target = keys.read_optional(self.blackboard, self.domain_key, str)
        if control != "SwitchDomain":
            self.feedback_message = f"the decision is {control}, not SwitchDomain: no switch"
            return Status.FAILURE
        if target is None or target not in self.domains:
            self.feedback_message = (
                f"cannot switch to {target!r}: loaded packs are {', '.join(self.domains.names)}"
            )
            return Status.FAILURE
        previous = self.domains.switch(target)
        reply = f"Switching to {spoken_title(self.domains.get(target).manifest.title)}."
        self.blackboard.set(self.reply_key, reply)
        self.feedback_message = f"active domain {previous} -> {target}"
        return Status.SUCCESS
