"""The dry run on the shipped scenarios: oracle plans pass, bad and infeasible plans say why."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import list_scenarios, load_scenario
from cogtree.skills.planning.plan_model import PlanError, PlanStep, ToAPlan, ValidationReport
from cogtree.skills.planning.plan_validation import PlanWorld, dry_run, oracle_plan, rehearse

FEASIBLE = [path.stem for path in list_scenarios() if load_scenario(path).tier != "infeasible"]


@contextmanager
def scenario_world(scenario_id: str) -> Iterator[PlanWorld]:
    """The team of a shipped scenario at its start, from the main robot's belief."""
    with SimExecutor.from_scenario(load_scenario(scenario_id)) as sim:
        assert sim.belief is not None
        yield PlanWorld.from_scene(sim.belief)


@pytest.fixture(scope="module")
def world_of() -> Iterator[Callable[[str], PlanWorld]]:
    """``world_of(scenario_id)``: its starting team, built once per module."""
    built: dict[str, PlanWorld] = {}

    def world(scenario_id: str) -> PlanWorld:
        if scenario_id not in built:
            with scenario_world(scenario_id) as team:
                built[scenario_id] = team
        return built[scenario_id]

    yield world


def step(number: int, action: str, after: list[int] | None = None, **args: Any) -> PlanStep:
    """A plan step; ``robot``/``who`` in ``args`` becomes the assignee."""
    assignee = args.pop("who", None)
    return PlanStep.model_validate(
        {
            "id": number,
            "action": action,
            "args": args,
            "depends_on": after if after is not None else ([number - 1] if number > 1 else []),
            "assignee": assignee,
        }
    )


def plan(*steps: PlanStep) -> ToAPlan:
    return ToAPlan(steps=list(steps))


def codes(report: ValidationReport) -> list[tuple[int | None, str]]:
    return [(problem.step, problem.code) for problem in report.problems]


# -- the oracle plans --------------------------------------------------------------------------


@pytest.mark.parametrize("scenario_id", FEASIBLE)
def test_first_oracle_plan_of_every_feasible_scenario_validates(
    scenario_id: str, world_of: Callable[[str], PlanWorld]
) -> None:
    scenario = load_scenario(scenario_id)
    oracle = oracle_plan(scenario.oracle["planner"][0]["steps"])
    report = dry_run(oracle, world_of(scenario_id))
    assert report.ok, report.diagnosis()
    assert report.problems == []
    assert set(report.assignments) == {s.id for s in oracle.steps}
    for s in oracle.steps:
        if s.action == "DELEGATE":
            assert report.assignments[s.id] == s.args["person"]
        else:
            assert report.assignments[s.id] in world_of(scenario_id).robots


def test_a_dry_run_leaves_the_team_unchanged(world_of: Callable[[str], PlanWorld]) -> None:
    world = world_of("thirsty")
    before = dict(world.beliefs)
    run = rehearse(oracle_plan(load_scenario("thirsty").oracle["planner"][0]["steps"]), world)
    assert run.report.ok
    assert run.beliefs["robot1"].things["water_bottle"].support == "alex"
    assert dict(world.beliefs) == before
    assert world.beliefs["robot1"].things["water_bottle"].support == "fridge"


def test_the_delegated_result_is_assumed_for_steps_that_wait_for_it(
    world_of: Callable[[str], PlanWorld],
) -> None:
    scenario = load_scenario("print_agenda")
    run = rehearse(oracle_plan(scenario.oracle["planner"][0]["steps"]), world_of("print_agenda"))
    assert run.report.ok
    (assumption,) = run.assumptions
    assert (assumption.step, assumption.thing, assumption.after) == (4, "agenda", 1)
    assert "print_room" in assumption.reason
    placed = run.beliefs["robot1"].things["agenda"]
    assert (placed.relation, placed.support) == ("on", "meeting_table")


def test_a_step_that_does_not_wait_for_the_person_gets_no_assumption(
    world_of: Callable[[str], PlanWorld],
) -> None:
    parallel = plan(
        step(1, "DELEGATE", person="priya", ability="print"),
        step(2, "GOTO", after=[], target="printer_tray"),
        step(3, "PICK", object="agenda", hand="right"),
    )
    run = rehearse(parallel, world_of("print_agenda"))
    assert codes(run.report) == [(3, "precondition:object_not_found")]
    assert "held by priya" in run.report.problems[0].reason
    assert run.assumptions == ()


def test_an_object_a_look_may_reveal_needs_the_look_first(
    world_of: Callable[[str], PlanWorld],
) -> None:
    # The shopping was unpacked after the robot last looked: milk and juice are new to it.
    steps = load_scenario("groceries_into_fridge").oracle["planner"][0]["steps"]
    with_look = rehearse(oracle_plan(steps), world_of("groceries_into_fridge"))
    assert with_look.report.ok
    assert [a.thing for a in with_look.assumptions] == ["milk", "juice"]
    without = [flat for flat in steps if flat["skill"] != "LOOK"]
    report = dry_run(oracle_plan(without), world_of("groceries_into_fridge"))
    assert codes(report) == [(4, "unknown_object")]
    assert "milk" in report.problems[0].reason


def test_two_robots_share_the_effects_of_each_others_steps(
    world_of: Callable[[str], PlanWorld],
) -> None:
    steps = load_scenario("parcel_into_base").oracle["planner"][0]["steps"]
    run = rehearse(oracle_plan(steps), world_of("parcel_into_base"))
    assert run.report.ok
    assert run.report.assignments == {1: "robot1", 2: "robot1", 3: "base1", 4: "robot1"} | {
        5: "robot1",
        6: "robot1",
        7: "base1",
    }
    assert run.beliefs["base1"].things["parcel"].support == "base1_locker"
    assert run.beliefs["base1"].robot_room == "reception"
    # the locker (and the parcel in it) go where the base goes, in every robot's belief
    for belief in run.beliefs.values():
        assert belief.things["base1_locker"].room == "reception"
        assert belief.things["parcel"].room == "reception"


# -- infeasible scenarios ----------------------------------------------------------------------


def test_too_heavy_fails_on_payload_for_every_robot(world_of: Callable[[str], PlanWorld]) -> None:
    fetch = plan(
        step(1, "GOTO", target="storeroom_shelf"),
        step(2, "PICK", object="cooler_refill", hand="right"),
    )
    report = dry_run(fetch, world_of("too_heavy"))
    assert not report.ok
    assert codes(report) == [(2, "precondition:payload_exceeded")]
    assert "18.9 kg" in report.problems[0].reason
    assert "no other robot can (base1: capability_missing)" in report.problems[0].reason


def test_top_shelf_is_out_of_reach(world_of: Callable[[str], PlanWorld]) -> None:
    fetch = plan(
        step(1, "GOTO", target="top_shelf"),
        step(2, "PICK", object="wedding_album", hand="right"),
        step(3, "HANDOVER", object="wedding_album", person="helga", hand="right"),
    )
    run = rehearse(fetch, world_of("top_shelf"))
    assert codes(run.report) == [(2, "precondition:out_of_reach")]
    assert "2.3 m" in run.report.problems[0].reason
    assert run.unchecked == (3,)


def test_missing_umbrella_is_an_unknown_object(world_of: Callable[[str], PlanWorld]) -> None:
    fetch = plan(
        step(1, "GOTO", target="coat_rack"),
        step(2, "PICK", object="umbrella", hand="right"),
    )
    report = dry_run(fetch, world_of("missing_umbrella"))
    assert codes(report) == [(2, "unknown_object")]
    assert "raincoat" in report.problems[0].reason


def test_grandpa_away_cannot_be_handed_to_or_asked(world_of: Callable[[str], PlanWorld]) -> None:
    world = world_of("grandpa_away")
    deliver = plan(
        step(1, "GOTO", target="hall_table"),
        step(2, "PICK", object="letter", hand="right"),
        step(3, "HANDOVER", object="letter", person="walter", hand="right"),
    )
    assert codes(dry_run(deliver, world)) == [(3, "precondition:person_unavailable")]
    ask = plan(step(1, "DELEGATE", person="walter", ability="sign"))
    assert codes(dry_run(ask, world)) == [(1, "not_available")]


# -- hand-made bad plans -----------------------------------------------------------------------


def test_a_person_away_or_without_the_ability_is_rejected_a_busy_one_may_be_asked(
    world_of: Callable[[str], PlanWorld],
) -> None:
    world = world_of("print_agenda")
    busy = dry_run(plan(step(1, "DELEGATE", person="marco", ability="print")), world)
    assert busy.ok, "busy now may be free by then; a refusal is repaired at run time"
    unable = dry_run(plan(step(1, "DELEGATE", person="tom", ability="print")), world)
    assert codes(unable) == [(1, "no_ability")]
    away = world_of("grandpa_away")
    gone = next(p for p in away.people.values() if p.availability in ("away", "asleep"))
    absent = dry_run(plan(step(1, "DELEGATE", person=gone.id, ability="anything")), away)
    assert codes(absent) == [(1, "not_available")]
    assert f"{gone.id} is {gone.availability}" in absent.diagnosis()


def test_unknown_names_are_rejected_with_similar_names(
    world_of: Callable[[str], PlanWorld],
) -> None:
    world = world_of("print_agenda")
    person = dry_run(plan(step(1, "DELEGATE", person="pryia", ability="print")), world)
    assert codes(person) == [(1, "unknown_person")]
    assert "did you mean priya?" in person.problems[0].reason
    thing = dry_run(plan(step(1, "GOTO", target="printer_try")), world)
    assert codes(thing) == [(1, "unknown_object")]
    assert "did you mean printer_tray or print_room?" in thing.problems[0].reason


def test_an_unknown_action_is_rejected(world_of: Callable[[str], PlanWorld]) -> None:
    flying = PlanStep.model_construct(id=1, action="FLY", args={}, depends_on=[], assignee=None)
    report = dry_run(ToAPlan.model_construct(steps=[flying]), world_of("goto_kitchen"))
    assert codes(report) == [(1, "unknown_action")]
    assert "GOTO" in report.problems[0].reason


@pytest.mark.parametrize(
    ("action", "args"),
    [
        ("PICK", {"object": "agenda"}),
        ("GOTO", {"target": "meeting_table", "speed": "fast"}),
        ("DELEGATE", {"person": "priya"}),
        ("DELEGATE", {"person": 3, "ability": "print"}),
        ("LOOK", {"room": "print_room"}),
    ],
)
def test_bad_arguments_are_rejected(
    action: str, args: dict[str, Any], world_of: Callable[[str], PlanWorld]
) -> None:
    report = dry_run(plan(step(1, action, **args)), world_of("print_agenda"))
    assert codes(report) == [(1, "bad_arguments")]


def test_structure_problems_are_reported_not_raised(
    world_of: Callable[[str], PlanWorld],
) -> None:
    world = world_of("goto_kitchen")
    loop = plan(step(1, "GOTO", after=[2], target="kitchen"), step(2, "LOOK", after=[1]))
    assert (None, "cycle") in codes(dry_run(loop, world))
    dangling = plan(step(1, "GOTO", after=[7], target="kitchen"))
    report = dry_run(dangling, world)
    assert codes(report) == [(1, "unknown_step")]
    assert "step 7" in report.problems[0].reason
    itself = dry_run(plan(step(1, "GOTO", after=[1], target="kitchen")), world)
    assert codes(itself) == [(1, "cycle")]
    assert codes(dry_run(plan(), world)) == [(None, "empty_plan")]


def test_a_step_an_agent_cannot_do_names_who_could(
    world_of: Callable[[str], PlanWorld],
) -> None:
    world = world_of("parcel_into_base")
    fetch = plan(step(1, "GOTO", target="tom_desk"), step(2, "PICK", object="parcel", hand="right"))
    report = dry_run(fetch, world, assignments={1: "base1", 2: "base1"})
    assert codes(report) == [(2, "precondition:capability_missing")]
    assert report.assignments == {1: "base1", 2: "base1"}
    assert "robot1 could do it" in report.problems[0].reason


def test_agents_of_the_wrong_kind_or_unknown_agents_are_rejected(
    world_of: Callable[[str], PlanWorld],
) -> None:
    world = world_of("print_agenda")
    look = plan(step(1, "LOOK"))
    assert codes(dry_run(look, world, assignments={1: "tom"})) == [(1, "cannot_do")]
    ask = plan(step(1, "DELEGATE", person="priya", ability="print"))
    assert codes(dry_run(ask, world, assignments={1: "robot1"})) == [(1, "cannot_do")]
    carry = plan(step(1, "GOTO", target="meeting_table"))
    assert codes(dry_run(carry, world, assignments={1: "tom"})) == [(1, "cannot_do")]
    unknown = dry_run(carry, world, assignments={1: "robot9"})
    assert codes(unknown) == [(1, "unknown_agent")]
    assert "robot1" in unknown.problems[0].reason


def test_independent_steps_are_still_checked_after_a_failure(
    world_of: Callable[[str], PlanWorld],
) -> None:
    branches = plan(
        step(1, "DELEGATE", person="tom", ability="print"),
        step(2, "GOTO", after=[1], target="printer_tray"),
        step(3, "GOTO", after=[], target="meeting_tabel"),
    )
    run = rehearse(branches, world_of("print_agenda"))
    assert codes(run.report) == [(1, "no_ability"), (3, "unknown_object")]
    assert run.unchecked == (2,)


# -- oracle_plan -------------------------------------------------------------------------------


def test_oracle_plan_chains_the_flat_steps() -> None:
    converted = oracle_plan(
        [
            {"skill": "DELEGATE", "person": "priya", "ability": "print"},
            {"skill": "GOTO", "target": "reception", "robot": "base1"},
            {"skill": "LOOK"},
        ],
        rationale="print, then go",
    )
    assert converted.source == "oracle" and converted.rationale == "print, then go"
    assert [(s.id, s.action, s.depends_on, s.assignee) for s in converted.steps] == [
        (1, "DELEGATE", [], "priya"),
        (2, "GOTO", [1], "base1"),
        (3, "LOOK", [2], None),
    ]
    assert converted.steps[1].args == {"target": "reception"}


@pytest.mark.parametrize(
    "steps",
    [[{"object": "mug"}], [{"skill": "FLY"}], ["GOTO"], [{"skill": "GOTO", "robot": 7}]],
)
def test_oracle_plan_names_the_malformed_step(steps: list[Any]) -> None:
    with pytest.raises(PlanError, match="oracle step 1"):
        oracle_plan(steps)


def test_a_pick_after_a_look_may_find_a_known_object_elsewhere(
    world_of: Callable[[str], PlanWorld],
) -> None:
    # The belief still puts the keys on the hall table; the recovery plan looks in the kitchen.
    steps = load_scenario("keys_moved").oracle["planner"][1]["steps"]
    looked = rehearse(oracle_plan(steps), world_of("keys_moved"))
    assert looked.report.ok
    assert [(a.step, a.thing) for a in looked.assumptions] == [(3, "car_keys")]
    without = [flat for flat in steps if flat["skill"] != "LOOK"]
    report = dry_run(oracle_plan(without), world_of("keys_moved"))
    assert [code for _, code in codes(report)] == ["precondition:out_of_reach"]


def test_a_hot_pan_is_never_picked(world_of: Callable[[str], PlanWorld]) -> None:
    plan = oracle_plan(
        [
            {"skill": "GOTO", "target": "stove"},
            {"skill": "PICK", "object": "frying_pan", "hand": "right"},
            {"skill": "GOTO", "target": "sink"},
            {"skill": "PLACE", "object": "frying_pan", "target": "sink", "hand": "right"},
        ]
    )
    report = dry_run(plan, world_of("hot_pan"))
    # the hazard rule asks first, and the precondition refuses the grasp whatever the answer
    assert codes(report)[:2] == [(2, "ask_first:taken_off_heat"), (2, "precondition:unsafe_object")]
    assert "hot" in report.problems[1].reason
