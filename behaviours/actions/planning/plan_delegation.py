"""``PlanDelegation``: a plan that asks a person to do the steps of a refused request.

A request refused because one of its steps needs a skill the robot lacks ("slice the bread")
is not left there: this node plans a ``DELEGATE`` step to someone present who can do it
(:mod:`skills.planning.delegation`: who may be asked, never a child, others before the
speaker), which the validation gate checks and ``ExecutePlan`` runs; ``Decline`` then says what
the robot cannot do and whom it asked.
"""

from __future__ import annotations

from typing import Any

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.background import BackgroundWork, Pending
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.language.missing_steps import left_undone
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import GateRationale
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.planning.delegation import plan_for_undone, refused_for_want_of_skill
from cogtree.skills.planning.plan_model import ToAPlan


class PlanDelegation(keys.DeclaredKeys, BackgroundWork[ToAPlan]):
    """Plan asking someone in the house to do the steps of the request the robot cannot do.

    Reads ``/turn/frame`` (the steps left undone for want of a skill), ``/turn/speaker``
    (never asked), ``/memory/working`` (the earlier turns: "Bob's only twelve" said before
    keeps Bob from being asked to cut, as for the hazard check) and ``/rationale/<gate>``
    (``gate``: the readiness gate's name; only a
    request it refused for want of a skill alone is passed on:
    :func:`~skills.planning.delegation.refused_for_want_of_skill`). Reads the belief's people
    on the ``workers`` pool (handles ``scene_graph``, ``workers``). Writes ``/plan/current``:
    one ``DELEGATE`` step per missing skill someone may do
    (:func:`~skills.planning.delegation.plan_for_undone`).

    SUCCESS: the plan asks at least one person. FAILURE: the request lacks no skill or was
    refused for another reason, or nobody present may do what it lacks (the refusal then only
    says what the robot cannot do), or the people could not be read. RUNNING: the people are
    being read.
    """

    reads = (keys.REQUEST_FRAME, keys.SPEAKER, keys.RATIONALE, keys.WORKING)
    writes = (keys.PLAN,)

    def __init__(self, name: str = "PlanDelegation", *, gate: str = "TaskReadinessGate") -> None:
        # the rationale read is the gate's, not this node's
        super().__init__(name, reads=(spec.for_node(gate) for spec in PlanDelegation.reads))
        self.scene: SceneGraph | None = None
        self.rationale_key = self.key_of(keys.RATIONALE)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.plan_key = self.key_of(keys.PLAN)
        self.working_key = self.key_of(keys.WORKING)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``scene_graph`` and ``workers`` handles."""
        self.scene = require_handle(self, kwargs, "scene_graph", SceneGraph)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)
        super().setup(**kwargs)

    def start(self) -> Pending[ToAPlan] | Status:
        """Read the steps left undone; look for who may do them on the workers."""
        frame = keys.read_request_frame(self.blackboard)
        why = keys.read_optional(self.blackboard, self.rationale_key, GateRationale)
        if frame is None or not refused_for_want_of_skill(why, frame):
            self.feedback_message = "not refused for want of a skill alone: nobody to ask"
            return Status.FAILURE
        undone = left_undone(frame)
        assert self.scene is not None
        speaker = keys.read_optional(self.blackboard, self.speaker_key, str)
        working = keys.read_optional(self.blackboard, self.working_key, WorkingContext)
        said = [*(turn.user for turn in working.history), frame.text] if working else [frame.text]
        return self.submit(plan_for_undone, self.scene, undone, speaker, said)

    def finish(self, result: ToAPlan) -> Status:
        """Write the plan when it asks someone; FAILURE when nobody may be asked."""
        if not result.steps:
            self.feedback_message = "nobody here may do what the robot cannot"
            return Status.FAILURE
        self.blackboard.set(self.plan_key, result)
        self.feedback_message = result.rationale
        return Status.SUCCESS
