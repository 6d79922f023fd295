"""The names of the skills a robot runs, and of the other steps a plan or a failure may hold.

The skill specs (:mod:`skills.action_model.specs`) give each robot skill its arguments; the failure
experience (:mod:`knowledge.memory.experience`) files what failed under these names.
"""

from __future__ import annotations

from typing import Literal

RobotSkill = Literal[
    "GOTO",
    "PICK",
    "PLACE",
    "OPEN",
    "CLOSE",
    "HANDOVER",
    "DISPOSE",
    "SWITCH_ON",
    "SWITCH_OFF",
    "FILL",
    "POUR",
    "WIPE",
    "SAY",
    "WAIT",
]
"""The skills a robot runs."""

BUILT_IN_SKILLS: frozenset[RobotSkill] = frozenset({"SAY", "WAIT"})
"""Skills every robot has: the ontology lists no skill individual for them."""

Skill = Literal[RobotSkill, "LOOK", "DELEGATE"]
"""What a plan step or a failure can belong to: a robot skill, looking around (perception)
or human delegation."""
