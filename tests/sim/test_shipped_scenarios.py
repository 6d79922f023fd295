"""The shipped scenarios (sim/scenarios/*.yaml): they load, render, fit their tier, and work.

Beyond validation, each scenario's oracle is checked against the simulator: the ideal
readiness answers fit the tier (Reject for infeasible, Clarify first for ambiguous), and the
ideal plans, run step by step on a fresh world with the scenario's events and people, reach
the goal within the scenario's tick limit. Every plan but the last must end in a failure
(that is why it was re-planned), so a dynamic scenario's disruption really disrupts.

Oracle plan steps are the skill calls of :data:`skills.action_model.specs.SKILL_SPECS` written flat
(``{skill: PICK, object: mug, hand: right}``, optional ``robot`` for the assignee), plus
``{skill: DELEGATE, person, ability}`` (a request to a person) and ``{skill: LOOK}`` (look
around the current room, the perception action).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from cogtree.sim.executor import SimExecutor
from cogtree.sim.humans import DONT_KNOW, DelegatedTask
from cogtree.sim.predicates import SIGNATURES, Predicate
from cogtree.sim.scenario import (
    Scenario,
    ScenarioError,
    Tier,
    list_scenarios,
    load_scenario,
    ontology_types,
)
from cogtree.sim.show import render_scenario
from cogtree.sim.world_spec import WorldSpec
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.commands import Command, Feedback
from cogtree.skills.capabilities.calls import SKILL_SPECS, skill_call
from cogtree.skills.planning.decomposition import SkillDecomposer
from cogtree.skills.planning.plan_validation import ORACLE_KEYS

SHIPPED = list_scenarios()
TIER_MINIMUM: dict[Tier, int] = {
    "simple": 6,
    "moderate": 6,
    "open_ended": 5,
    "dynamic": 5,
    "ambiguous": 5,
    "infeasible": 5,
}
NON_SKILL_STEPS = ("DELEGATE", "LOOK")
MAX_DELEGATION_TICKS = 500


@pytest.fixture(scope="module")
def known_types() -> frozenset[str]:
    return ontology_types()


@pytest.fixture(scope="module")
def scenarios(known_types: frozenset[str]) -> dict[str, Scenario]:
    """The shipped scenarios that load, by id (test_loads_and_validates reports the others)."""
    loaded = {}
    for path in SHIPPED:
        try:
            loaded[path.stem] = load_scenario(path, types=known_types)
        except ScenarioError:
            continue
    return loaded


def shipped(scenarios: dict[str, Scenario], path: Path) -> Scenario:
    if path.stem not in scenarios:
        pytest.fail(f"{path.name} does not load: see test_loads_and_validates[{path.stem}]")
    return scenarios[path.stem]


@pytest.fixture(scope="module")
def decomposer() -> SkillDecomposer:
    return SkillDecomposer()


def by_stem(paths: list[Path]) -> list[Any]:
    return [pytest.param(path, id=path.stem) for path in paths]


def predicates(scenario: Scenario) -> Iterator[tuple[str, Predicate]]:
    """Every predicate of the goal and of the events' conditions, with its field."""
    for position, predicate in enumerate(scenario.goal.all):
        yield f"goal.all[{position}]", predicate
    for position, predicate in enumerate(scenario.goal.never):
        yield f"goal.never[{position}]", predicate
    for position, event in enumerate(scenario.events):
        if event.when is not None:
            yield f"events[{position}].when", event.when


# -- every file --------------------------------------------------------------------------------


def test_there_are_enough_scenarios_in_every_tier(scenarios: dict[str, Scenario]) -> None:
    assert len(scenarios) >= 30
    counts = Counter(scenario.tier for scenario in scenarios.values())
    short = {tier: counts[tier] for tier, least in TIER_MINIMUM.items() if counts[tier] < least}
    assert not short, f"tiers below their minimum {TIER_MINIMUM}: {short}"


def test_ids_are_unique_and_match_the_file_names(scenarios: dict[str, Scenario]) -> None:
    ids = [scenario.id for scenario in scenarios.values()]
    assert [stem for stem, scenario in scenarios.items() if stem != scenario.id] == []
    assert [name for name, count in Counter(ids).items() if count > 1] == []


@pytest.mark.parametrize("path", by_stem(SHIPPED))
def test_loads_and_validates(path: Path, known_types: frozenset[str]) -> None:
    scenario = load_scenario(path, types=known_types)
    assert scenario.id == path.stem
    assert scenario.problems(known_types) == []
    assert scenario.title.strip() and scenario.description.strip()


@pytest.mark.parametrize("path", by_stem(SHIPPED))
def test_predicates_name_things_that_exist(path: Path, scenarios: dict[str, Scenario]) -> None:
    scenario = shipped(scenarios, path)
    spec: WorldSpec = scenario.world
    found = [problem for where, p in predicates(scenario) for problem in p.problems(spec, where)]
    assert found == []
    named = [
        (str(predicate), arg)
        for _, predicate in predicates(scenario)
        for arg, (_, kinds) in zip(predicate.args, SIGNATURES[predicate.name], strict=True)
        if kinds
    ]
    assert [(text, arg) for text, arg in named if spec.kind_of(arg) is None] == []


@pytest.mark.parametrize("path", by_stem(SHIPPED))
def test_renders_and_builds_the_starting_belief(path: Path, scenarios: dict[str, Scenario]) -> None:
    scenario = shipped(scenarios, path)
    text = render_scenario(scenario)
    assert text.startswith(f"{scenario.id}: {scenario.title}")
    assert f'"{scenario.request.text}"' in text
    for _, predicate in predicates(scenario):
        assert str(predicate) in text
    if scenario.goal.expect == "refuse":
        assert f"goal: refuse ({scenario.goal.reason})" in text
    world = scenario.new_world()
    belief = scenario.new_belief(world)
    try:
        assert Belief.from_scene(belief, scenario.main_robot).robot.id == scenario.main_robot
    finally:
        belief.close()


# -- what each tier promises -------------------------------------------------------------------


def tier_of(path: Path) -> Tier | None:
    """The tier a file declares, for collecting tests (None: it does not load; see above)."""
    try:
        return load_scenario(path).tier
    except ScenarioError:
        return None


TIERS = MappingProxyType({path: tier_of(path) for path in SHIPPED})


def of_tier(*tiers: Tier) -> list[Any]:
    return by_stem([path for path in SHIPPED if TIERS[path] in tiers])


def first_answer(scenario: Scenario, module: str) -> dict[str, Any]:
    answers = scenario.oracle.get(module, [])
    assert answers, f"{scenario.id} has no oracle answer for {module}"
    return answers[0]


@pytest.mark.parametrize("path", by_stem(SHIPPED))
def test_goal_is_not_met_at_the_start_unless_refusing(
    path: Path, scenarios: dict[str, Scenario]
) -> None:
    scenario = shipped(scenarios, path)
    world = scenario.new_world()
    if scenario.goal.expect == "refuse":
        assert scenario.goal.achieved(world), "doing nothing must satisfy a refusal's `never`"
    else:
        assert not scenario.goal.achieved(world), "the goal already holds: nothing to do"


@pytest.mark.parametrize("path", of_tier("infeasible"))
def test_infeasible_scenarios_expect_a_refusal_and_no_plan(
    path: Path, scenarios: dict[str, Scenario]
) -> None:
    scenario = shipped(scenarios, path)
    assert scenario.goal.expect == "refuse" and scenario.goal.reason
    assert first_answer(scenario, "inner_speech")["control"] == "Reject"
    assert "planner" not in scenario.oracle


@pytest.mark.parametrize(
    "path", of_tier("simple", "moderate", "open_ended", "dynamic", "ambiguous")
)
def test_feasible_scenarios_have_a_plan(path: Path, scenarios: dict[str, Scenario]) -> None:
    scenario = shipped(scenarios, path)
    assert scenario.goal.expect == "achieve"
    assert scenario.oracle.get("planner"), "a feasible scenario ships its ideal plan"


@pytest.mark.parametrize("path", of_tier("simple"))
def test_simple_scenarios_are_one_skill(path: Path, scenarios: dict[str, Scenario]) -> None:
    plans = shipped(scenarios, path).oracle["planner"]
    assert len(plans) == 1 and len(plans[0]["steps"]) == 1


@pytest.mark.parametrize("path", of_tier("ambiguous"))
def test_ambiguous_scenarios_have_look_alikes_and_an_answer(
    path: Path, scenarios: dict[str, Scenario]
) -> None:
    scenario = shipped(scenarios, path)
    assert scenario.goal.must_clarify
    assert first_answer(scenario, "inner_speech")["control"] == "Clarify"
    target = scenario.goal.all[0]
    assert any(look_alikes(scenario.world, arg) for arg in target.args), (
        f"nothing in the world is confusable with the arguments of {target}"
    )
    world = scenario.new_world()
    people = scenario.new_people(world)
    speaker = scenario.request.speaker
    assert speaker is not None
    answer = people.ask(speaker, "Which one do you mean?")
    assert answer.reached and answer.text != DONT_KNOW


def look_alikes(spec: WorldSpec, thing: str) -> list[str]:
    """Other things a description of ``thing`` could match: same type, or same first name."""
    if thing in spec.objects:
        kind = spec.objects[thing].type
        return [o for o, item in spec.objects.items() if o != thing and item.type == kind]
    if thing in spec.furniture:
        kind = spec.furniture[thing].type
        return [f for f, item in spec.furniture.items() if f != thing and item.type == kind]
    if thing in spec.people:
        first = spec.label(thing).split()[0]
        return [p for p in spec.people if p != thing and spec.label(p).split()[0] == first]
    return []


# -- the oracle plans run in the simulator -----------------------------------------------------


@dataclass
class OracleRun:
    """How the oracle's plans went: the failure that ended each plan (None: it completed)."""

    endings: list[Feedback | None] = field(default_factory=list)
    ticks: int = 0
    unmet: list[str] = field(default_factory=list)
    fired: list[str] = field(default_factory=list)


def run_step(
    sim: SimExecutor, scenario: Scenario, decomposer: SkillDecomposer, step: dict[str, Any]
) -> Feedback:
    """Run one plan step to its end: a skill's commands, a delegation, or a look around."""
    args = {key: value for key, value in step.items() if key not in ORACLE_KEYS}
    name, robot = step["skill"], step.get("robot", scenario.main_robot)
    if name == "DELEGATE":
        future = sim.people.delegate(args["person"], DelegatedTask(ability=args["ability"]))
        for _ in range(MAX_DELEGATION_TICKS):
            if future.done():
                break
            sim.step()
        return future.result(timeout=0)
    if name == "LOOK":
        return sim.run(Command(robot=robot, skill="LOOK", name="observe"))
    assert sim.belief is not None
    plan = decomposer.decompose(skill_call(name, args), Belief.from_scene(sim.belief, robot))
    if not plan.ok:
        return Feedback(ok=False, code=plan.preconditions.checks[-1].code, message=plan.message)
    for command in plan.commands:
        feedback = sim.run(command)
        if not feedback.ok:
            return feedback
    return Feedback(ok=True, message=str(plan.call))


def run_oracle(scenario: Scenario, decomposer: SkillDecomposer) -> OracleRun:
    """Run the oracle's plans in order; a failed step ends its plan and the next one starts."""
    run = OracleRun()
    with SimExecutor.from_scenario(scenario) as sim:
        for plan in scenario.oracle["planner"]:
            ending: Feedback | None = None
            for step in plan["steps"]:
                feedback = run_step(sim, scenario, decomposer, step)
                if not feedback.ok:
                    ending = feedback
                    break
            run.endings.append(ending)
        run.ticks = sim.world.tick
        run.unmet = [str(predicate) for predicate in scenario.goal.unmet(sim.world)]
        run.fired = [fired.event for fired in sim.events.fired]
    return run


@pytest.mark.parametrize("path", by_stem(SHIPPED))
def test_oracle_steps_are_well_formed(path: Path, scenarios: dict[str, Scenario]) -> None:
    scenario = shipped(scenarios, path)
    spec = scenario.world
    for plan in scenario.oracle.get("planner", []):
        for step in plan["steps"]:
            name = step["skill"]
            assert name in SKILL_SPECS or name in NON_SKILL_STEPS, f"unknown step {step}"
            assert spec.kind_of(step.get("robot", scenario.main_robot)) == "robot"
            if name == "DELEGATE":
                assert step["ability"] in spec.people[step["person"]].abilities
            elif name in SKILL_SPECS:
                args = {k: v for k, v in step.items() if k not in ORACLE_KEYS}
                call = skill_call(name, args)
                things = [v for k, v in args.items() if k in ("target", "object", "container")]
                things += [args["person"]] if "person" in args else []
                assert [t for t in things if spec.kind_of(t) is None] == [], str(call)


@pytest.mark.parametrize(
    "path", of_tier("simple", "moderate", "open_ended", "dynamic", "ambiguous")
)
def test_oracle_plans_reach_the_goal_in_the_simulator(
    path: Path, scenarios: dict[str, Scenario], decomposer: SkillDecomposer
) -> None:
    scenario = shipped(scenarios, path)
    run = run_oracle(scenario, decomposer)
    *replanned, last = run.endings
    assert last is None, f"the last plan failed: {last}"
    assert all(ending is not None for ending in replanned), "a plan was replaced but had worked"
    assert run.unmet == []
    assert run.ticks <= scenario.limits.max_ticks
    if scenario.tier == "dynamic":
        assert run.fired, "no event fired"
        assert replanned, "the disruption did not make the first plan fail"
