"""BT.CPP v4's script nodes: Script, ScriptCondition, SetBlackboard and Precondition.

Each runs BT.CPP scripts (:mod:`behaviours.btcpp.scripting`) on the blackboard through a
:class:`~behaviours.btcpp.script_scope.ScriptScope`: a name is an enum value, a catalogue key
by its port name (``reply``), or an entry of the tree. ``keys`` (set by the XML loader) maps
names to the keys they resolved to in a subtree; left out, a name is its catalogue key or
``/name``. A script that cannot run (an entry not set, a value of the wrong type) is a
FAILURE that says why, never an exception out of the tick.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Literal, NewType

import py_trees
from py_trees.behaviour import Behaviour
from py_trees.common import Access, Status

from cogtree.behaviours import keys
from cogtree.behaviours.btcpp.script_scope import BlackboardEntry, ScriptScope
from cogtree.behaviours.btcpp.scripting import ScriptError, parse_script, truth
from cogtree.behaviours.btcpp.steering import (
    SteeredDecorator,
    Ticking,
    halt,
    skip_status,
    tick_child,
)

ScriptCode = NewType("ScriptCode", str)
"""A node parameter holding a BT.CPP script (checked when the tree is loaded)."""


class _ScriptLeaf(py_trees.behaviour.Behaviour):
    """A leaf that runs the script ``code``; named after its class unless told."""

    def __init__(
        self, code: ScriptCode, name: str | None = None, keys: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(name or type(self).__name__)
        self.code = code
        self.program = parse_script(code)
        self.scope = ScriptScope(self, [self.program], keys)


class Script(_ScriptLeaf):
    """Run a script on the blackboard, e.g. ``tries := 0; reply := 'on my way'``.

    BT.CPP ``Script``. SUCCESS: the script ran. FAILURE: it could not run (the feedback says
    why).
    """

    def update(self) -> Status:
        """Run the script."""
        try:
            self.program.run(self.scope)
        except ScriptError as problem:
            self.feedback_message = f"script failed: {problem}"
            return Status.FAILURE
        self.feedback_message = ""
        return Status.SUCCESS


class ScriptCondition(_ScriptLeaf):
    """Condition: evaluate a script, e.g. ``tries < 3 && control == Proceed``.

    BT.CPP ``ScriptCondition``. SUCCESS: its value is true. FAILURE: it is false, or it could
    not be evaluated (the feedback says why).
    """

    def update(self) -> Status:
        """True: SUCCESS; false or an error: FAILURE."""
        try:
            holds = truth(self.program.run(self.scope))
        except ScriptError as problem:
            self.feedback_message = f"condition could not be evaluated: {problem}"
            return Status.FAILURE
        self.feedback_message = "" if holds else f"false: {self.code}"
        return Status.SUCCESS if holds else Status.FAILURE


class SetBlackboard(py_trees.behaviour.Behaviour):
    """Write the text ``value`` at the entry ``output_key`` (BT.CPP ``SetBlackboard``).

    A catalogue key gets the value converted to its type (``behaviours/keys.py``). SUCCESS:
    written. FAILURE: the value does not fit the key's type (the feedback says why).
    """

    def __init__(self, value: str, output_key: BlackboardEntry, name: str = "SetBlackboard"):
        super().__init__(name)
        self.value = value
        self.output_key = output_key
        self.writer = self.attach_blackboard_client(name=name)
        self.writer.register_key(output_key, access=Access.WRITE)

    def update(self) -> Status:
        """Write the value."""
        value: object = self.value
        try:
            value = keys.spec_for(self.output_key).validate(self.value)
        except KeyError:
            pass  # a tree entry holds the text
        except ValueError as problem:
            self.feedback_message = str(problem)
            return Status.FAILURE
        self.writer.set(self.output_key, value)
        return Status.SUCCESS


ElseStatus = Literal["SUCCESS", "FAILURE", "RUNNING", "SKIPPED"]


class Precondition(SteeredDecorator):
    """Run the child only if the script ``if`` is true, else report ``else``.

    BT.CPP ``Precondition``. The script is checked when the child is not running; once
    started the child runs to its end. SUCCESS, FAILURE or RUNNING: the child's, or
    ``else`` when the script is false (default FAILURE; SKIPPED is success, or failure under
    a fallback). FAILURE: the script cannot be evaluated.
    """

    xml_names: ClassVar[Mapping[str, str]] = {"if_": "if", "else_": "else"}
    """XML attribute names that are Python keywords."""

    def __init__(
        self,
        child: Behaviour,
        if_: ScriptCode,
        name: str = "Precondition",
        else_: ElseStatus = "FAILURE",
        keys: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(name=name, child=child)
        self.if_ = if_
        self.else_ = else_
        self.program = parse_script(if_)
        self.scope = ScriptScope(self, [self.program], keys)
        self.skipped = False

    def steer(self) -> Ticking:
        """Check the script unless the child is running; tick the child or report ``else``."""
        self.skipped = False
        if self.decorated.status != Status.RUNNING:
            try:
                holds = truth(self.program.run(self.scope))
            except ScriptError as problem:
                halt([self.decorated])
                self.feedback_message = f"precondition could not be evaluated: {problem}"
                return Status.FAILURE
            if not holds:
                self.feedback_message = f"precondition false: {self.if_}"
                if self.else_ == "SKIPPED":
                    self.skipped = True
                    return skip_status(self)
                return Status[self.else_]
        self.feedback_message = ""
        status = yield from tick_child(self.decorated)
        return status
