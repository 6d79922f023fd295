"""BT.CPP v4's constant leaves: AlwaysSuccess and AlwaysFailure (``Sleep`` is in timing)."""

from __future__ import annotations

from typing import ClassVar

import py_trees
from py_trees.common import Status


class _Constant(py_trees.behaviour.Behaviour):
    """A leaf that returns ``outcome`` at once; named after its class unless told."""

    outcome: ClassVar[Status]

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name or type(self).__name__)

    def update(self) -> Status:
        """``outcome``."""
        return self.outcome


class AlwaysSuccess(_Constant):
    """Succeed at once (BT.CPP ``AlwaysSuccess``).

    SUCCESS: always.
    """

    outcome = Status.SUCCESS


class AlwaysFailure(_Constant):
    """Fail at once (BT.CPP ``AlwaysFailure``).

    FAILURE: always.
    """

    outcome = Status.FAILURE
