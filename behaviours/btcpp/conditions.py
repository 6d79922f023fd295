"""BT.CPP v4's pre- and post-conditions of a node (``_skipIf``, ``_onSuccess``, ...).

In BT.CPP any node may carry them as attributes; here :class:`PrePostConditions` carries them
as a decorator around the node (the XML loader puts it there for the attributes). Before the
node starts: ``_failureIf``, ``_successIf``, ``_skipIf`` (true: FAILURE, SUCCESS, skip,
without ticking it), then ``_while`` (false: skip). While it runs, ``_while`` turning false
halts it (skip). After it ends: ``_onSuccess`` or ``_onFailure``, then ``_post``; when it is
halted (by its parent or by ``_while``): ``_onHalted``. A skipped node reports SUCCESS
(FAILURE under a fallback), the way a sequence or fallback passes over BT.CPP's SKIPPED.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from py_trees.behaviour import Behaviour
from py_trees.common import Status

from cogtree.behaviours.btcpp.script_scope import ScriptScope
from cogtree.behaviours.btcpp.scripting import ScriptError, ScriptProgram, parse_script, truth
from cogtree.behaviours.btcpp.steering import (
    SteeredDecorator,
    Ticking,
    halt,
    skip_status,
    tick_child,
)

ATTRIBUTES: Final = {
    "_failureIf": "failure_if",
    "_successIf": "success_if",
    "_skipIf": "skip_if",
    "_while": "while_",
    "_onSuccess": "on_success",
    "_onFailure": "on_failure",
    "_onHalted": "on_halted",
    "_post": "post",
}
"""BT.CPP's condition attributes and the parameters of :class:`PrePostConditions` they set."""

_SKIP: Final = "skip"


class PrePostConditions(SteeredDecorator):
    """Run the child under BT.CPP pre- and post-condition scripts (its ``_skipIf`` and others).

    SUCCESS, FAILURE or RUNNING: the child's, unless a pre-condition decides first:
    ``failure_if`` true is FAILURE, ``success_if`` true is SUCCESS, ``skip_if`` true or
    ``while_`` false is a skip (SUCCESS, or FAILURE under a fallback). A script that cannot
    be evaluated is FAILURE, with the reason as feedback.
    """

    def __init__(
        self,
        child: Behaviour,
        name: str = "PrePostConditions",
        failure_if: str = "",
        success_if: str = "",
        skip_if: str = "",
        while_: str = "",
        on_success: str = "",
        on_failure: str = "",
        on_halted: str = "",
        post: str = "",
        keys: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(name=name, child=child)
        self.scripts = {
            parameter: text
            for parameter, text in (
                ("failure_if", failure_if),
                ("success_if", success_if),
                ("skip_if", skip_if),
                ("while_", while_),
                ("on_success", on_success),
                ("on_failure", on_failure),
                ("on_halted", on_halted),
                ("post", post),
            )
            if text.strip()
        }
        self.programs = {parameter: parse_script(t) for parameter, t in self.scripts.items()}
        self.scope = ScriptScope(self, self.programs.values(), keys)
        self.skipped = False

    def steer(self) -> Ticking:
        """Pre-conditions, then the child, then post-conditions."""
        self.skipped = False
        try:
            decided = self._before()
        except ScriptError as problem:
            halt([self.decorated])
            self.feedback_message = f"pre-condition could not be evaluated: {problem}"
            return Status.FAILURE
        if decided == _SKIP:
            self.skipped = True
            return skip_status(self)
        if decided is not None:
            return Status[decided]
        status = yield from tick_child(self.decorated)
        if status == Status.RUNNING:
            return status
        after = ("on_success",) if status == Status.SUCCESS else ("on_failure",)
        try:
            self._run(*after, "post")
        except ScriptError as problem:
            self.feedback_message = f"post-condition failed: {problem}"
            return Status.FAILURE
        return status

    def terminate(self, new_status: Status) -> None:
        """A halt of the running child runs ``on_halted``."""
        if new_status == Status.INVALID and self.decorated.status == Status.RUNNING:
            try:
                self._run("on_halted")
            except ScriptError as problem:
                self.feedback_message = f"on_halted failed: {problem}"

    def _before(self) -> str | None:
        """FAILURE, SUCCESS, skip or None (tick the child), per the pre-conditions."""
        running = self.decorated.status == Status.RUNNING
        if not running:
            for parameter, outcome in (
                ("failure_if", "FAILURE"),
                ("success_if", "SUCCESS"),
                ("skip_if", _SKIP),
            ):
                if self._holds(parameter, default=False):
                    self.feedback_message = f"{parameter}: {self.scripts[parameter]}"
                    return outcome
        if not self._holds("while_", default=True):
            if running:
                halt([self.decorated])
                self._run("on_halted")
            self.feedback_message = f"while_ is false: {self.scripts['while_']}"
            return _SKIP
        return None

    def _holds(self, parameter: str, *, default: bool) -> bool:
        program: ScriptProgram | None = self.programs.get(parameter)
        return default if program is None else truth(program.run(self.scope))

    def _run(self, *parameters: str) -> None:
        for parameter in parameters:
            program = self.programs.get(parameter)
            if program is not None:
                program.run(self.scope)
