"""BT.CPP v4's constant leaves: AlwaysSuccess and AlwaysFailure (``Sleep`` is in timing)."""

from __future__ import annotations

import py_trees
from py_trees.common import Status


class AlwaysSuccess(py_trees.behaviour.Behaviour):
    """Succeed at once (BT.CPP ``AlwaysSuccess``).

    SUCCESS: always.
    """

    def __init__(self, name: str = "AlwaysSuccess") -> None:
        super().__init__(name)

    def update(self) -> Status:
        """SUCCESS."""
        return Status.SUCCESS


class AlwaysFailure(py_trees.behaviour.Behaviour):
    """Fail at once (BT.CPP ``AlwaysFailure``).

    FAILURE: always.
    """

    def __init__(self, name: str = "AlwaysFailure") -> None:
        super().__init__(name)

    def update(self) -> Status:
        """FAILURE."""
        return Status.FAILURE
