"""``StagedChildren``: nodes built at run time become a composite's real children.

A composite that decides its children while it runs (``ExecutePlan`` compiles a plan,
``ReActAct`` inserts the action the model chose) builds the nodes, has them set up off the tick
(a ``SkillAction`` builds its HTN planner in ``setup``, tens of milliseconds), and adopts them
as its children once they are ready. From then on the tree ticks them like any other node, so
the tick log, ``--show-ticks`` and the viewer show them, and stopping the composite stops them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from typing import Any

import py_trees
from py_trees.common import Status

from cogtree.behaviours.background import InFlight
from cogtree.behaviours.setup_handles import MissingHandleError

Submit = Callable[..., Future[None]]
"""Runs a call on a worker and returns its future (``WorkerPool.submit``)."""


class StagedChildren:
    """The children of ``parent`` that are built at run time and set up on a worker.

    ``what`` names the nodes in the problem reported when their setup fails (``the steps``).
    """

    def __init__(self, parent: py_trees.composites.Composite, what: str) -> None:
        self.parent = parent
        self.what = what
        self._staged: list[py_trees.behaviour.Behaviour] = []
        self._preparing: InFlight[None] | None = None

    def replace(
        self,
        nodes: Sequence[py_trees.behaviour.Behaviour],
        handles: Mapping[str, Any],
        submit: Submit,
    ) -> None:
        """Stop and remove the current children; start setting ``nodes`` up with ``handles``."""
        self.clear()
        self._staged = list(nodes)
        if self._staged:
            work = submit(_set_up, list(self._staged), dict(handles))
            self._preparing = InFlight(work, poll_next_tick=False)

    def clear(self) -> None:
        """Stop the children still active, remove them all and drop nodes still being set up."""
        self.cancel()
        for child in self.parent.children:
            if child.status != Status.INVALID:
                child.stop(Status.INVALID)
        self.parent.remove_all_children()

    @property
    def staged(self) -> bool:
        """Nodes are waiting to be adopted (being set up, or set up and not adopted yet)."""
        return self._preparing is not None

    @property
    def preparing(self) -> bool:
        """Nodes are still being set up on the worker."""
        return self._preparing is not None and not self._preparing.ended()

    def adopt(self) -> str | None:
        """Make the set-up nodes the children (first child current); else say why they are not.

        Call once :attr:`preparing` is False. Returns None when adopted, or the problem: a
        missing or bad handle, or another error raised by a node's ``setup``.
        """
        preparing, self._preparing = self._preparing, None
        staged, self._staged = self._staged, []
        problem: str | None = None
        if preparing is not None:
            try:
                preparing.result()
            except (MissingHandleError, ValueError) as error:
                problem = str(error)
            except Exception as error:  # a node whose setup broke on its handles
                problem = f"could not prepare {self.what}: {type(error).__name__}: {error}"
        if problem is None:
            self.parent.add_children(staged)
        self.parent.current_child = self.parent.children[0] if self.parent.children else None
        return problem

    def cancel(self) -> None:
        """Drop nodes still being set up (they never become children)."""
        if self._preparing is not None:
            self._preparing.cancel()
        self._staged, self._preparing = [], None


def _set_up(nodes: list[py_trees.behaviour.Behaviour], handles: dict[str, Any]) -> None:
    for top in nodes:
        for node in top.iterate():
            node.setup(**handles)
