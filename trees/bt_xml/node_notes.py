"""Hand-written notes on node types: only what the code does not say.

The py_trees composites and decorators the shipped trees use (their docstrings do not say
what each status means in cogtree's words), parameter meanings no docstring gives, and the
handles ExecutePlan and ReActAct pass on to the nodes they insert.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import py_trees
from py_trees.behaviour import Behaviour

from cogtree.trees.bt_xml.node_types import Handle


@dataclass(frozen=True)
class BuiltinNote:
    """A py_trees class the shipped trees use, with the words its docstring lacks."""

    cls: type[Behaviour]
    summary: str
    statuses: tuple[str, ...]
    meanings: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)


MEMORY_MEANING = (
    "true: a child left RUNNING is resumed on the next tick; false: every tick starts again "
    "from the first child"
)

PY_TREES_NODES = (
    BuiltinNote(
        py_trees.composites.Sequence,
        "Run the children in order while they succeed.",
        (
            "SUCCESS: every child succeeded.",
            "FAILURE: a child failed; the children after it do not run.",
            "RUNNING: a child is running.",
        ),
        {"memory": MEMORY_MEANING},
        {"memory": True},
    ),
    BuiltinNote(
        py_trees.composites.Selector,
        "Try the children in order until one does not fail (a fallback).",
        (
            "SUCCESS: a child succeeded.",
            "FAILURE: every child failed.",
            "RUNNING: a child is running.",
        ),
        {"memory": MEMORY_MEANING},
        {"memory": True},
    ),
    BuiltinNote(
        py_trees.decorators.FailureIsSuccess,
        "Report the child's failure as success.",
        ("SUCCESS: the child succeeded or failed.", "RUNNING: the child is running."),
    ),
    BuiltinNote(
        py_trees.decorators.SuccessIsFailure,
        "Report the child's success as failure.",
        ("FAILURE: the child succeeded or failed.", "RUNNING: the child is running."),
    ),
    BuiltinNote(
        py_trees.decorators.Inverter,
        "Swap the child's success and failure.",
        (
            "SUCCESS: the child failed.",
            "FAILURE: the child succeeded.",
            "RUNNING: the child is running.",
        ),
    ),
    BuiltinNote(
        py_trees.behaviours.UnsetBlackboardVariable,
        "Remove one key from the blackboard, so an older value is not read as this one.",
        ("SUCCESS: always, whether or not the key was set.",),
        {"key": "the blackboard key to remove, e.g. /skill/outcome"},
    ),
)

PARAMETER_MEANINGS: Mapping[str, str] = {
    "module": "the LLM module of the manifest whose settings this node uses "
    "(empty: the node's own module)",
    "robot": "scene-graph id of the robot this node plans or acts for",
    "ExecutePlan.robot": "scene-graph id of the robot that runs the steps assigned to no one else",
    "AttemptLoop.max_attempts": "how many plan -> validate -> execute rounds to allow",
    "ReportOutcome.max_attempts": "the attempt budget, to say how many rounds were tried",
    "ReportOutcome.succeeded": "true: report what was done; false: report that it gave up",
    "ReportOutcome.robot": "the robot whose belief is read and whose own steps say 'I'",
    "ValidationGate.judge": "true: the LLM judge reviews a plan the dry run accepted; false: "
    "the dry run decides alone; empty: as the LLM manifest says (plan_validation.enabled)",
    "Explain.k": "how many similar failure cases to retrieve",
    "RetrieveArchive.k": "how many archive facts to recall (empty: the store's setting)",
    "ReActStep.max_steps": "the step budget of one episode",
    "DelegateToHuman.person": "scene-graph id of the person asked",
    "DelegateToHuman.ability": "what they are asked to do, e.g. fetch",
    "DelegateToHuman.description": "the request in words, for the person",
    "DelegateToHuman.timeout_s": "seconds to wait for the person before withdrawing the request",
    "PostProcess.timeout_s": "seconds to wait for scene-graph lookups before a slot is left "
    "unresolved",
    "Decline.gate": "the name of the readiness gate node whose rationale explains a refusal",
    "ReadinessGate.purpose": "what the task is for, said to the model",
    "ReadinessGate.task_schema": "the pydantic model of the task whose slots are checked",
    "ReadinessGate.extract": "the deterministic slot extractor: utterance -> slots it is sure of",
    "Say.compose": "the function that composes the sentence from the values read",
    "Say.reads": "the keys read, each under the short name compose receives",
    "SkillAction.call": "the skill to run (leave out to run the one at /skill/call)",
    "delegation_timeout_s": "seconds to wait for a person before the step fails",
    # BehaviorTree.CPP's built-ins (behaviours/btcpp)
    "code": "the BT.CPP script, e.g. tries := tries + 1 (names: catalogue keys by port name, "
    "enum values, the tree's entries)",
    "variable": "the entry whose value picks the case: {name}, a catalogue port name or /a/key",
    **{f"case_{n}": f"the value of the entry that runs child {n}" for n in range(1, 7)},
    "Precondition.if": "the BT.CPP script that must be true for the child to run",
    "Precondition.else": "what to report when the script is false",
    "PrePostConditions.failure_if": "script: true before the child starts is FAILURE (_failureIf)",
    "PrePostConditions.success_if": "script: true before the child starts is SUCCESS (_successIf)",
    "PrePostConditions.skip_if": "script: true before the child starts skips it (_skipIf)",
    "PrePostConditions.while_": "script: false before or while the child runs skips or halts it "
    "(_while)",
    "PrePostConditions.on_success": "script run after the child succeeded (_onSuccess)",
    "PrePostConditions.on_failure": "script run after the child failed (_onFailure)",
    "PrePostConditions.on_halted": "script run when the running child is halted (_onHalted)",
    "PrePostConditions.post": "script run after the child ended, either way (_post)",
    "Parallel.success_count": "how many children must succeed (negative: counted from the "
    "number of children, -1 all)",
    "Parallel.failure_count": "how many failures end it (negative: counted from the number of "
    "children)",
    "ParallelAll.max_failures": "how many failures make it fail once all finished (-1: all)",
    "Repeat.num_cycles": "how many successes to run (-1: forever)",
    "RetryUntilSuccessful.num_attempts": "how many attempts to allow (-1: no limit)",
    "RunOnce.then_skip": "true: skip it after its one run; false: report that run's status",
    "SetBlackboard.value": "the text to write (converted to a catalogue key's type)",
    "SetBlackboard.output_key": "the entry to write: {name}, a catalogue port name or /a/key",
    "Delay.delay_msec": "milliseconds of the tree's clock to wait before ticking the child",
    "Timeout.msec": "milliseconds of the tree's clock the child may run (0: no limit)",
    "Sleep.msec": "milliseconds of the tree's clock to wait",
}

EXPORT_ATTRIBUTES: Mapping[str, str] = {
    "AttemptLoop.max_attempts": "num_failures",
    "Repeat.num_cycles": "limit",
    "RetryUntilSuccessful.num_attempts": "limit",
}
"""``Tag.parameter`` -> the node attribute holding its value, where the names differ (export)."""

HANDLES_PASSED_ON: Mapping[str, tuple[Handle, ...]] = {
    "ExecutePlan": (
        Handle("executor", False, "for the robot steps it compiles"),
        Handle("people", False, "for the steps it delegates to people"),
        Handle("clock", False, "the delegations' time source"),
    ),
    "ReActAct": (
        Handle("people", False, "for the DELEGATE actions it runs"),
        Handle("clock", False, "the delegations' time source"),
    ),
}
