"""The scripted ORACLE: a scenario's ideal model answers, as a script for the scripted backend.

A scenario's ``oracle`` holds, per LLM module, the answers an ideal model would give, in the
order the modules ask. :func:`oracle_script` turns them into a
:class:`~knowledge.llm.scripted.Script` in the decision schemas the tree's nodes answer in
today:

- ``inner_speech`` entries (``{control, slots, missing, rationale}``) become the
  TaskReadinessGate's decision (``control``, ``missing``, ``domain``, ``rationale``). The
  scenario's ``slots`` are dropped: inner speech never supplies slot values (the gate's slot
  check does).
- ``planner`` entries (``{steps: [flat steps]}``) become Thought-of-Action plans
  (:class:`~skills.planning.plan_model.ToAPlan`), converted by
  :func:`skills.planning.plan_validation.oracle_plan`, for the gated tree's planner. For the ReAct
  tree (whose step node answers for the same module, one action per call) the same steps
  become one :class:`~evaluation.react.model.ReActDecision` each, in order, and a final
  ``FINISH``.

Modules without oracle answers get no scripted answer: route them to the ``none`` backend
(:func:`oracle_modules` names the scripted ones) and their nodes take their fast path or safe
decision.

A ``planner`` step runs after the one before it unless it says ``after`` (the numbers of the
steps it waits for; ``after: []`` for none): independent branches of different agents then
run at the same time.

This is an ORACLE, not a model: it answers with the scenario author's ideal answers, in
order, whatever the prompt says. It stands for an *ideal model with the robot's knowledge*:
the answers may use only what the robot's belief and the conversation hold when the module
is asked, which :mod:`evaluation.scenarios.hindsight` checks for every shipped scenario.
Benchmarks run on it measure the cascade (fast paths, guards, recovery) and its costs, never
a model's quality. Its answers are a queue per module, so a node that asks at a different
moment than the author expected gets the next answer anyway (a re-plan after an unexpected
failure, for example).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from cogtree.evaluation.react.model import FINISH, ReActDecision
from cogtree.knowledge.llm.scripted import PromptRule, Script, ScriptedReply
from cogtree.sim.scenario import Scenario
from cogtree.skills.planning.plan_validation import ORACLE_KEYS, oracle_plan

log = logging.getLogger(__name__)

TreeMode = Literal["gated", "react"]
"""Which turn tree the oracle answers for: the gated assistant tree or the ReAct baseline."""

READINESS_MODULE = "inner_speech"
"""The module of the TaskReadinessGate (JANUS's inner speech)."""

PLANNER_MODULE = "planner"
"""The module of the Thought-of-Action planner."""

REACT_MODULE = "react"
"""The module of the ReAct tree's one-action-at-a-time planner."""

ORACLE_RATIONALE = "oracle: the scenario's ideal answer"
"""The rationale given when an oracle entry has none."""

ORACLE_FINISH = "I have stopped working on this request."
"""The ReAct oracle's reply when it finishes. It claims nothing: the oracle's answers are
written before the run, so it cannot know whether the steps worked (a scripted "Done" was a
false claim whenever the world, not the robot, met the goal)."""


def readiness_answer(entry: Mapping[str, Any]) -> dict[str, Any]:
    """An ``inner_speech`` oracle entry as the TaskReadinessGate's decision (no slots)."""
    answer: dict[str, Any] = {
        "control": entry.get("control", "Clarify"),
        "missing": list(entry.get("missing") or []),
        "rationale": str(entry.get("rationale") or ORACLE_RATIONALE)[:300],
    }
    if entry.get("domain"):
        answer["domain"] = entry["domain"]
    return answer


def plan_answer(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A ``planner`` oracle entry (flat steps) as a Thought-of-Action plan in JSON."""
    rationale = str(entry.get("rationale") or ORACLE_RATIONALE)[:500]
    return oracle_plan(list(entry.get("steps") or []), rationale).model_dump(mode="json")


def react_answers(plans: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every step of ``plans`` as one ReAct decision each, in order, then FINISH."""
    decisions = [
        ReActDecision(
            thought=str(plan.get("rationale") or ORACLE_RATIONALE)[:300],
            action=str(step.get("skill")),
            args={key: value for key, value in step.items() if key not in ORACLE_KEYS},
        )
        for plan in plans
        for step in plan.get("steps") or []
    ]
    decisions.append(
        ReActDecision(thought=ORACLE_RATIONALE, action=FINISH, args={"reply": ORACLE_FINISH})
    )
    return [decision.model_dump(mode="json") for decision in decisions]


def oracle_script(scenario: Scenario, *, tree: TreeMode = "gated") -> Script:
    """The scenario's oracle answers as a script, per module, in order (see the module docs).

    ``tree`` picks the planner's schema: a whole plan per call for the gated tree, one
    action per call for the ReAct tree.
    """
    by_module: dict[str, list[ScriptedReply]] = {}
    readiness = scenario.oracle.get(READINESS_MODULE, [])
    if readiness:
        by_module[READINESS_MODULE] = [
            ScriptedReply(answer=readiness_answer(entry)) for entry in readiness
        ]
    plans = scenario.oracle.get(PLANNER_MODULE, [])
    by_prompt: list[PromptRule] = []
    if plans and tree == "gated":
        answers = [ScriptedReply(answer=plan_answer(entry)) for entry in plans]
        by_prompt = _replanning_rules(answers)
        by_module[PLANNER_MODULE] = answers
    elif plans:
        by_module[REACT_MODULE] = [ScriptedReply(answer=a) for a in react_answers(plans)]
    unused = sorted(set(scenario.oracle) - {READINESS_MODULE, PLANNER_MODULE})
    if unused:
        log.info("oracle of %s: no conversion for %s; left unanswered", scenario.id, unused)
    return Script(by_prompt=by_prompt, by_module=by_module)


MAX_ATTEMPT_RULES = 10
"""Replanning rules cover prompts after this many earlier attempts."""


def _replanning_rules(answers: list[ScriptedReply]) -> list[PromptRule]:
    """The oracle's plan for each attempt: the n-th plan answers the planner's n-th attempt.

    The planner's prompt names the last attempt ("Attempt 2 (failed): ..."), so a replanning
    call gets the plan the scenario wrote for after that failure, even when the earlier
    attempts came from the task-level HTN methods and never asked the model; attempts past
    the oracle's last plan get its last plan.
    """
    return [
        PromptRule(
            match=rf"\bAttempt {number} \(",
            reply=answers[min(number, len(answers) - 1)],
            module=PLANNER_MODULE,
        )
        for number in range(1, MAX_ATTEMPT_RULES + 1)
    ]


def oracle_modules(script: Script) -> list[str]:
    """The modules a script answers: route these to the scripted backend, the rest to none."""
    return sorted(module for module, replies in script.by_module.items() if replies)
