r"""The assistant turn tree: JANUS's factored controller as one explicit behaviour tree.

Every utterance runs down this tree. Its gates decide whether the robot understood the
request, whether memory holds what the turn needs, whether it may act (inner speech), and
what it may claim (outer speech held to the evidence). Run one turn::

    cogtree ask "How many carbohydrates are in tiramisu?" --explain

Tree (``create_root``)::

    Assistant (Sequence)
    ├── AwaitUtterance             RUNNING until /turn/utterance is set
    ├── IdentifySpeaker            /turn/speaker from "it's Jo" when the channel did not say
    ├── ParseRequest               /turn/frame: the one parse of the utterance every node reads
    ├── DetectScope                /turn/domain; switches the active pack when it changes
    ├── RecognizeIntent            /turn/intent: the pack's task, slots said so far
    ├── PostProcess                normalise, resolve referents -> /turn/resolved
    ├── RecallMemory (Selector)    SufficiencyGate | RetrieveArchive -> /memory/working
    ├── Decide (Selector)
    │   ├── Proceed (Sequence)
    │   │   ├── TaskReadinessGate  inner speech -> /turn/task, /turn/control, /turn/missing
    │   │   ├── Ground (Selector)  its failure is reported, not fatal
    │   │   │   ├── Physical       GroundingIs(physical) -> PhysicalTask: attempts of
    │   │   │   │                  PlanTask -> ValidationGate -> ExecutePlan, Explain on failure
    │   │   │   ├── Inform         GroundingIs(knowledge_query) -> NeedsEvidence (a held
    │   │   │   │                  answer may serve) -> AnswerFromScene (a scene question,
    │   │   │   │                  from the scene index) | GenerateQuery -> RunQuery ->
    │   │   │   │                  HoldAnswer -> /turn/evidence, /session/held_answers
    │   │   │   ├── Remember       GroundingIs(memory_write) -> StageClaims
    │   │   │   └── Reminisce      GroundingIs(memory_query) -> AnswerFromMemory
    │   │   └── Respond            outer speech; faithfulness guard against the evidence
    │   ├── Switch                 ControlIs(SwitchDomain) -> SwitchActiveDomain
    │   ├── Clarify                ControlIs(Clarify) -> AskClarification
    │   ├── Refuse                 ControlIs(Reject) -> Decline
    │   └── Apologise              a reply whatever happened above
    └── Consolidate                the turn goes to memory (H, C, A)

Handles (``setup``): ``llm``, ``domains``, ``memory``, ``scene_graph``, ``executor``,
``people`` (delegation), ``experience`` (the explainer), optionally ``lexicons`` and ``clock``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import py_trees
from py_trees.composites import Selector, Sequence
from py_trees.decorators import FailureIsSuccess

from cogtree.behaviours.actions.dialogue.clarify import AskClarification
from cogtree.behaviours.actions.dialogue.decline import Decline
from cogtree.behaviours.actions.dialogue.dialogue import AwaitUtterance, ControlIs, Say
from cogtree.behaviours.actions.dialogue.parse_request import ParseRequest
from cogtree.behaviours.actions.dialogue.respond import Respond
from cogtree.behaviours.actions.dialogue.speaker import IdentifySpeaker
from cogtree.behaviours.actions.grounding.hold_answer import HoldAnswer
from cogtree.behaviours.actions.grounding.memory_query import AnswerFromMemory
from cogtree.behaviours.actions.grounding.memory_write import Consolidate, StageClaims
from cogtree.behaviours.actions.grounding.post_process import PostProcess
from cogtree.behaviours.actions.grounding.query_generation import GenerateQuery
from cogtree.behaviours.actions.grounding.run_query import RunQuery
from cogtree.behaviours.actions.grounding.scene_answer import AnswerFromScene
from cogtree.behaviours.actions.grounding.switch_domain import SwitchActiveDomain
from cogtree.behaviours.gates.evidence import NeedsEvidence
from cogtree.behaviours.gates.grounding import GroundingIs
from cogtree.behaviours.gates.intent import RecognizeIntent
from cogtree.behaviours.gates.recall import create_recall_memory
from cogtree.behaviours.gates.scope import DetectScope
from cogtree.behaviours.gates.task_readiness import TaskReadinessGate
from cogtree.trees.physical_task import create_physical_task

APOLOGY = "Sorry, I could not finish that. Could you say it another way?"
"""What the robot says when no branch of Decide could answer."""


def _sequence(name: str, *children: py_trees.behaviour.Behaviour) -> Sequence:
    sequence = Sequence(name, memory=True)
    sequence.add_children(list(children))
    return sequence


def _selector(name: str, *children: py_trees.behaviour.Behaviour) -> Selector:
    selector = Selector(name, memory=True)
    selector.add_children(list(children))
    return selector


def apologise(values: Mapping[str, Any]) -> str:
    """The apology of the last branch of Decide (it reads no blackboard value)."""
    return APOLOGY


def create_ground(robot: str = "robot1") -> py_trees.behaviour.Behaviour:
    """The grounding branch: act (physical), look up (knowledge query), remember, or recall.

    Its failure is turned into success so Respond always speaks: the nodes write what went
    wrong into ``/turn/evidence``, and the reply says it.
    """
    ground = _selector(
        "Ground",
        _sequence("Physical", GroundingIs("physical"), create_physical_task(robot)),
        _sequence(
            "Inform",
            GroundingIs("knowledge_query"),
            NeedsEvidence(),
            _selector(
                "Evidence", AnswerFromScene(), _sequence("Query", GenerateQuery(), RunQuery())
            ),
            HoldAnswer(),
        ),
        _sequence("Remember", GroundingIs("memory_write"), StageClaims()),
        _sequence("Reminisce", GroundingIs("memory_query"), AnswerFromMemory()),
    )
    return FailureIsSuccess("GroundReported", ground)


def create_decide(robot: str = "robot1") -> py_trees.behaviour.Behaviour:
    """The decision on the request: proceed, switch domain, clarify, refuse, or apologise."""
    return _selector(
        "Decide",
        _sequence("Proceed", TaskReadinessGate(), create_ground(robot), Respond()),
        _sequence("Switch", ControlIs("SwitchDomain"), SwitchActiveDomain()),
        _sequence("Clarify", ControlIs("Clarify"), AskClarification()),
        _sequence("Refuse", ControlIs("Reject"), Decline()),
        Say("Apologise", apologise),
    )


def create_root(robot: str = "robot1") -> py_trees.behaviour.Behaviour:
    """Build the assistant turn tree for ``robot`` (a pure factory: handles come in setup)."""
    return _sequence(
        "Assistant",
        AwaitUtterance(),
        IdentifySpeaker(),
        ParseRequest(),
        DetectScope(),
        RecognizeIntent(),
        PostProcess(),
        FailureIsSuccess("RecallReported", create_recall_memory()),
        create_decide(robot),
        Consolidate(),
    )
