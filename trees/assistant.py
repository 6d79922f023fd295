r"""The assistant turn tree: JANUS's factored controller as one explicit behaviour tree.

Every utterance runs down this tree. Its gates decide whether the robot understood the
request, whether memory holds what the turn needs, whether it may act (inner speech), and
what it may claim (outer speech held to the evidence). Run one turn::

    cogtree ask "How many carbohydrates are in tiramisu?" --explain

The tree is written once, in ``trees/assistant.xml`` (BehaviorTree.CPP v4, which Groot2 opens
and ``cogtree render`` draws); :func:`create_root` loads it. Tree::

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
    │   ├── Acknowledge            ControlIs(Acknowledge) -> AnswerInKind: thanks, a greeting
    │   │                          answered in kind (nothing asked)
    │   ├── Refuse                 ControlIs(Reject) -> AskSomeone (failure is fine:
    │   │                          PlanDelegation -> ValidateDelegation -> ExecuteDelegation,
    │   │                          a person present who can does the step the robot cannot)
    │   │                          -> Decline (what it cannot do, and whom it asked)
    │   └── Apologise              a reply whatever happened above
    └── Consolidate                the turn goes to memory (H, C, A)

Handles (``setup``): ``llm``, ``domains``, ``memory``, ``scene_graph``, ``executor``,
``people`` (delegation), ``experience`` (the explainer), optionally ``lexicons`` and ``clock``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import py_trees

from cogtree.trees.bt_xml.loader import load_xml_tree

ASSISTANT_XML = Path(__file__).with_name("assistant.xml")
"""The assistant turn tree; it includes ``physical_task.xml``."""

APOLOGY = "Sorry, I could not finish that. Could you say it another way?"
"""What the robot says when no branch of Decide could answer."""


def apologise(values: Mapping[str, Any]) -> str:
    """The apology of the last branch of Decide (it reads no blackboard value)."""
    return APOLOGY


def create_root(robot: str = "robot1") -> py_trees.behaviour.Behaviour:
    """Build the assistant turn tree for ``robot`` from :data:`ASSISTANT_XML`.

    A pure factory: handles come in ``setup``. Raises
    :class:`~trees.bt_xml.loader.XmlTreeError` naming the file and line if it was edited wrong.
    """
    return load_xml_tree(ASSISTANT_XML, arguments={"robot": robot})
