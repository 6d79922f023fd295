"""Oracles without hindsight: each shipped scenario's oracle answers, checked at call time.

The checks themselves are tested first on hand-made answers against parcel_into_base's
starting belief (it knows the parcel, not Priya's envelope), so each one can fail; then
every shipped scenario runs on its oracle with :class:`OracleWitness` recording the belief
and the conversation at each call, and no answer may use anything else.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cogtree.evaluation.scenarios.hindsight import (
    OracleCall,
    hindsight_problems,
    run_witnessed,
    team_belief,
)
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import Scenario, list_scenarios, load_scenario
from cogtree.skills.planning.assignment import PlanWorld
from cogtree.skills.planning.plan_validation import oracle_plan

REQUEST = (
    "put the parcel from my desk into the delivery robot's locker and send the robot to reception"
)
WHOLE_PLAN = [
    {"skill": "GOTO", "target": "tom_desk"},
    {"skill": "PICK", "object": "parcel", "hand": "right"},
    {"skill": "GOTO", "target": "open_office", "robot": "base1", "after": []},
    {"skill": "OPEN", "container": "base1_locker", "after": [2, 3]},
    {"skill": "PLACE", "object": "parcel", "target": "base1_locker", "hand": "right"},
    {"skill": "CLOSE", "container": "base1_locker"},
    {"skill": "GOTO", "target": "reception", "robot": "base1"},
]


@pytest.fixture(scope="module")
def parcel() -> Scenario:
    return load_scenario("parcel_into_base")


@pytest.fixture(scope="module")
def start(parcel: Scenario) -> Iterator[PlanWorld]:
    simulator = SimExecutor.from_scenario(parcel)
    assert simulator.belief is not None
    yield team_belief(simulator.belief, parcel.main_robot)
    simulator.close()


def planned(
    team: PlanWorld,
    steps: list[dict[str, Any]],
    rationale: str = "",
    *,
    said: tuple[str, ...] = (REQUEST,),
    prompt: str = "",
) -> OracleCall:
    answer = oracle_plan(steps, rationale).model_dump(mode="json")
    return OracleCall("planner", prompt or " ".join(said), answer, team, said)


def test_the_ideal_plan_uses_only_the_belief(parcel: Scenario, start: PlanWorld) -> None:
    assert hindsight_problems(parcel, [planned(start, WHOLE_PLAN, "the base comes over")]) == []


def test_an_entity_outside_the_belief_is_hindsight_unless_said(
    parcel: Scenario, start: PlanWorld
) -> None:
    assert "envelope" not in start.beliefs["robot1"].things
    steps = [*WHOLE_PLAN, {"skill": "GOTO", "target": "priya_desk", "robot": "robot1"}]
    mention = "also bring the envelope along"
    problems = hindsight_problems(parcel, [planned(start, steps, mention)])
    assert problems == [
        "parcel_into_base: oracle call 1 (planner): names envelope, which is not in the "
        "robot's belief at the call, nor said"
    ]
    told = (REQUEST, "and the envelope on priya's desk too")
    assert hindsight_problems(parcel, [planned(start, steps, mention, said=told)]) == []


def test_a_step_on_a_thing_the_belief_does_not_hold_is_hindsight(
    parcel: Scenario, start: PlanWorld
) -> None:
    steps = [
        {"skill": "GOTO", "target": "priya_desk"},
        {"skill": "PICK", "object": "envelope", "hand": "right"},
    ]
    told = (REQUEST, "the envelope too")
    (problem,) = hindsight_problems(parcel, [planned(start, steps, said=told)])
    assert "fails the dry run on the robot's belief at the call" in problem
    assert ": step 2: PICK names envelope" in problem
    assert "envelope" in problem


def test_predicting_an_outcome_needs_evidence_in_what_the_model_was_sent(
    parcel: Scenario, start: PlanWorld
) -> None:
    note = "Tom will refuse the first time"
    (problem,) = hindsight_problems(parcel, [planned(start, WHOLE_PLAN, note)])
    assert "predicts a refusal ('refuse'" in problem
    failed = "Attempt 1 (failed): step 1: tom refused (person_refused)"
    assert hindsight_problems(parcel, [planned(start, WHOLE_PLAN, note, prompt=failed)]) == []
    moved = "the parcel was moved"
    (problem,) = hindsight_problems(parcel, [planned(start, WHOLE_PLAN, moved)])
    assert "predicts a thing moved" in problem


def test_quoting_what_nobody_said_is_hindsight(parcel: Scenario, start: PlanWorld) -> None:
    quote = "Tom said Nadia takes it at reception"
    (problem,) = hindsight_problems(parcel, [planned(start, WHOLE_PLAN, quote)])
    assert "quotes the user about nadia" in problem
    told = (REQUEST, "nadia takes it at reception")
    assert hindsight_problems(parcel, [planned(start, WHOLE_PLAN, quote, said=told)]) == []


def test_a_plan_that_stops_short_of_the_goal_knew_the_world_would_finish_it(
    parcel: Scenario, start: PlanWorld
) -> None:
    steps = [{"skill": "GOTO", "target": "reception", "robot": "base1"}]
    (problem,) = hindsight_problems(parcel, [planned(start, steps)])
    assert "stops short of the goal" in problem and "in(parcel, base1_locker)" in problem
    searching = [{"skill": "GOTO", "target": "tom_desk"}, {"skill": "LOOK"}]
    assert hindsight_problems(parcel, [planned(start, searching)]) == []


@pytest.mark.parametrize("scenario_id", [path.stem for path in list_scenarios()])
def test_no_shipped_oracle_answer_uses_hindsight(
    scenario_id: str, shipped_domains: DomainRegistry
) -> None:
    scenario = load_scenario(scenario_id)
    if not scenario.oracle:
        pytest.skip("no oracle answers")
    _, calls = run_witnessed(scenario, domains=shipped_domains)
    assert all(call.team is not None for call in calls)
    assert hindsight_problems(scenario, calls) == []
