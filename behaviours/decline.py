"""``Decline``: a polite refusal that says why, in plain words."""

from __future__ import annotations

import re
from typing import Any

import py_trees
from py_trees.common import Status

from behaviours import keys
from behaviours.setup_handles import require_handle
from behaviours.turn_state import OUT_OF_SCOPE
from knowledge.domain_registry import DomainRegistry
from knowledge.wording import joined

_MACHINE_PREFIX = re.compile(r"^(?:guard|safe decision|asking|cannot proceed)\s*:\s*", re.I)


def plain_reason(rationale: str) -> str:
    """A gate's rationale as a clause for the user: first sentence, no machinery prefixes."""
    text = rationale.strip()
    while _MACHINE_PREFIX.match(text):
        text = _MACHINE_PREFIX.sub("", text, count=1)
    text = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0].strip().rstrip(".!?")
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


class Decline(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Refuse politely and say why.

    Out of scope (``/turn/domain`` is OutOfScope): say what the robot can help with instead
    (the loaded packs' titles). Reject: give the readiness gate's rationale in plain words
    (read from ``/rationale/<gate>``). Anything else: a short apology.

    Handle: ``domains`` (:class:`~knowledge.domain_registry.DomainRegistry`).

    Reads ``/turn/domain``, ``/turn/control``, ``/rationale/<gate>`` (``gate``: the name of
    the readiness gate node). Writes ``/turn/reply``. SUCCESS always.
    """

    reads = (keys.DOMAIN, keys.CONTROL, keys.RATIONALE)
    writes = (keys.REPLY,)

    def __init__(self, name: str = "Decline", *, gate: str = "TaskReadinessGate") -> None:
        # the rationale read is the gate's, not this node's
        super().__init__(name, reads=(spec.for_node(gate) for spec in Decline.reads))
        self.domains: DomainRegistry | None = None
        self.domain_key = self.key_of(keys.DOMAIN)
        self.control_key = self.key_of(keys.CONTROL)
        self.rationale_key = self.key_of(keys.RATIONALE)
        self.reply_key = self.key_of(keys.REPLY)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``domains`` handle."""
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)

    def update(self) -> Status:
        """Write the refusal."""
        reply = self.refusal()
        self.blackboard.set(self.reply_key, reply)
        self.feedback_message = f"declined: {reply!r}"
        return Status.SUCCESS

    def refusal(self) -> str:
        """The sentence for this turn's refusal."""
        if keys.read_optional(self.blackboard, self.domain_key, str) == OUT_OF_SCOPE:
            titles = [pack.manifest.title for pack in self.domains.packs] if self.domains else []
            offer = f" I can help you as {joined(titles)}." if titles else ""
            return f"Sorry, I can't help with that: it is outside what I do.{offer}"
        why = keys.read_optional(self.blackboard, self.rationale_key, keys.GateRationale)
        reason = plain_reason(why.rationale) if why is not None else ""
        if keys.read_optional(self.blackboard, self.control_key, str) == "Reject" and reason:
            return f"Sorry, I won't do that: {reason}."
        return "Sorry, I can't do that."
