"""The physical-task subtree: plan, validate, execute; on failure explain and plan again.

RoBee's planner / controller / explainer loop and InteractGen's plan / validate / reflect
loop as one subtree, bounded by ``max_attempts``, written once in ``trees/physical_task.xml``
(:func:`create_physical_task` loads it)::

    PhysicalTask (Selector)
    ├── Done (Sequence)
    │   ├── Attempts (AttemptLoop)                 retry a failed attempt while worth it
    │   │   └── Attempt (Sequence)
    │   │       ├── ClearSkillOutcome              an older attempt's failure is not this one's
    │   │       ├── ClearExplanation
    │   │       └── TryOrRecover (Selector)
    │   │           ├── PlanValidateExecute (Sequence)
    │   │           │   ├── PlanTask               HTN (template) or planner model -> /plan/current
    │   │           │   ├── ValidationGate         dry run (+ judge) -> /plan/validation
    │   │           │   └── ExecutePlan            the plan compiled into a subtree, run
    │   │           └── Recover (SuccessIsFailure) the attempt still fails, once recorded
    │   │               └── Explain then record (Sequence)
    │   │                   ├── ExplainReported    Explain (experience store), failure is fine
    │   │                   └── ExplainFailure     failure + suggestion -> /plan/attempts
    │   ├── LearnRecovery                          what fixed a failure -> experience store
    │   └── ReportDone                             /turn/evidence: the facts after execution,
    │                                              who made them hold, the steps run
    └── ReportGaveUp                               /turn/evidence: what was and was not done

A rejected plan goes back to the planner with its diagnosis, a failed skill with the
controller's message and the explainer's suggestion (both through ``/plan/attempts``); when
an attempt succeeds after a failed skill, what worked is learnt (``LearnRecovery``). The
loop stops early when another attempt cannot change anything: the planner found no plan (the
HTN methods' reason, or no usable model answer), or the HTN plan itself was rejected.

The reports read the belief after execution (:mod:`skills.execution.outcome`): a fact the plan was
for is said to be done by the robot or a person only when the belief holds it and one of their
steps achieved it; a fact someone else made hold is said as such.

Handles (``setup``): ``llm``, ``domains``, ``scene_graph``, ``executor``, ``experience``,
``workers``, and ``people`` when plans delegate to people.
"""

from __future__ import annotations

from pathlib import Path

import py_trees

from cogtree.trees.bt_xml.loader import load_xml_tree

PHYSICAL_TASK_XML = Path(__file__).with_name("physical_task.xml")
"""The physical-task subtree (arguments ``robot``, ``max_attempts``, ``judge``)."""


def create_physical_task(
    robot: str = "robot1", max_attempts: int = 3, judge: bool | None = None
) -> py_trees.behaviour.Behaviour:
    """Build the recovery loop for ``robot`` from :data:`PHYSICAL_TASK_XML` (handles: ``setup``).

    ``max_attempts`` bounds plan -> validate -> execute rounds; ``judge`` switches the LLM
    judge of the validation gate on or off (None: as the LLM manifest says, see
    :class:`~behaviours.gates.validation_gate.ValidationGate`). The subtree ends in SUCCESS or
    FAILURE with ``/turn/evidence`` written either way.
    """
    arguments = {"robot": robot, "max_attempts": max_attempts, "judge": judge}
    return load_xml_tree(PHYSICAL_TASK_XML, arguments=arguments)
