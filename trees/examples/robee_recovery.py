r"""RoBee's bottle example as a tree: act, fail, explain, look again, recover.

The request: "go to the table in the kitchen, pick up the bottle and place it on the table in
the bedroom". The plan is written out here (the planner arrives in a later release); what
runs below it is real: the skill library checks each skill's preconditions on the belief and
decomposes it with HTN into commands, the executor runs them (the simulator here, a robot
over ROS 2 later), and when PICK fails the explainer retrieves what worked for similar
failures. What a tree author can take from it:

- ``SkillAction`` nodes in a memory Sequence run a plan one skill at a time, never blocking;
- a Selector with a recovery branch catches the first failure;
- ``Explain`` writes suggestions to ``/skill/explanation`` for the next plan (and the log).

Run it in the simulator, where Anna moves the bottle to the kitchen counter right after the
robot starts::

    cogtree tick cogtree.trees.examples.robee_recovery:create_root --scenario robee_bottle \\
        --show-ticks

Looking around the kitchen, where the bottle was last seen (the explainer's suggestion),
puts it on the counter in the belief, so the second PICK approaches the counter. The full
controller plans that recovery itself (``cogtree run robee_bottle``).

Tree::

    RoBee (Selector)
    ├── Plan (Sequence): GOTO(table_1) -> PICK(bottle) -> GOTO(table_2) -> PLACE(bottle, table_2)
    └── Recover (Sequence): Explain -> LookAround -> PICK(bottle) -> GOTO(table_2) -> PLACE
"""

from __future__ import annotations

import py_trees

from cogtree.behaviours.actions.dialogue.explain import Explain
from cogtree.behaviours.actions.planning.look_around import LookAround
from cogtree.behaviours.actions.planning.skill_action import SkillAction
from cogtree.skills.capabilities.calls import skill_call


def create_root(robot: str = "robot1") -> py_trees.behaviour.Behaviour:
    """Build the RoBee tree for ``robot`` (a pure factory: handles come in setup)."""
    plan = py_trees.composites.Sequence("Plan", memory=True)
    plan.add_children(
        [
            SkillAction("GotoKitchenTable", skill_call("GOTO", target="table_1"), robot=robot),
            *_carry_bottle(robot, "PickBottle", "GotoBedroomTable", "PlaceBottle"),
        ]
    )
    recover = py_trees.composites.Sequence("Recover", memory=True)
    recover.add_children(
        [
            Explain(),
            LookAround("LookAgain", robot=robot),
            *_carry_bottle(robot, "PickBottleAgain", "GoToBedroomTable", "PlaceBottleThere"),
        ]
    )
    root = py_trees.composites.Selector("RoBee", memory=True)
    root.add_children([plan, recover])
    return root


def _carry_bottle(robot: str, pick: str, go: str, place: str) -> list[SkillAction]:
    """PICK the bottle where the belief puts it, GOTO table_2, PLACE it there (node names)."""
    return [
        SkillAction(pick, skill_call("PICK", object="bottle", hand="right"), robot=robot),
        SkillAction(go, skill_call("GOTO", target="table_2"), robot=robot),
        SkillAction(
            place,
            skill_call("PLACE", object="bottle", target="table_2", hand="right"),
            robot=robot,
        ),
    ]
