r"""The ReAct tree (RoBee's planner): one action at a time, each chosen after the last observation.

The baseline the benchmark compares the gated assistant tree against. There is no scope, intent
or readiness gate and no plan to validate: the model reads the request, picks ONE action
(perception, LOOK, a robot skill, DELEGATE to a person, or FINISH with a reply), sees what it
observed, and picks the next, until it finishes or the step budget is spent. The guards still
hold: an unknown action or bad arguments are refused, and a skill whose preconditions fail on
the belief is never sent (see :mod:`evaluation.react.step`).

Tree (``create_root``)::

    ReAct (Sequence)
    ├── AwaitUtterance            RUNNING until /turn/utterance is set
    └── ReActLoop (Retry)         runs ReActStep again after each step that does not end
                                  the episode
        └── ReActStep (Sequence)  one step; SUCCESS when the episode is over and /turn/reply
            │                     holds the model's reply or an honest give-up
            ├── ReActStep.Decide  the gate: one model call picks ONE action, checked
            └── ReActStep.Act     runs the chosen action as its child, records the observation
                └── 3:PICK(object=bottle, hand=right)   inserted at run time, replaced next step

The chosen action (a perception query, LookAround, SkillAction or DelegateToHuman) is a real
node of the tree: the tick log, ``--show-ticks`` and the viewer show it with its own status.

The root succeeds once the robot has something to say (read ``/turn/reply``); whether the task
was done is for the world to tell (the benchmark checks the scenario's goal).

Handles (``setup``): ``llm``, ``scene_graph``, ``workers``, ``executor``, and optionally ``people``.
"""

from __future__ import annotations

import py_trees
from py_trees.composites import Sequence
from py_trees.decorators import Retry

from cogtree.behaviours.actions.dialogue.dialogue import AwaitUtterance
from cogtree.evaluation.react.step import ReActStep


def create_root(robot: str = "robot1", max_steps: int = 20) -> py_trees.behaviour.Behaviour:
    """Build the ReAct tree for ``robot`` with at most ``max_steps`` model calls per request.

    A pure factory: the handles come in ``setup``. ReActStep ends the episode itself when the
    budget is spent, so the loop's count of failed steps never exceeds ``max_steps``.
    """
    step = ReActStep(robot=robot, max_steps=max_steps)
    root = Sequence("ReAct", memory=True)
    root.add_children([AwaitUtterance(), Retry("ReActLoop", step, num_failures=max_steps)])
    return root
