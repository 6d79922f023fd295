from __future__ import annotations

from concurrent.futures import Future

import pytest

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.commands import Command, Feedback
from cogtree.skills.capabilities.calls import check_preconditions, skill_call
from cogtree.skills.execution.controller import RunStatus, SkillOutcome, SkillRun
from cogtree.skills.planning.decomposition import SkillDecomposer, SkillPlan

OK = Feedback(ok=True)


class FakeExecutor:
    """A test double of the Executor protocol whose futures the test resolves by hand."""

    def __init__(self) -> None:
        self.submitted: list[Command] = []
        self.futures: list[Future[Feedback]] = []
        self.cancelled: list[Command] = []

    def submit(self, command: Command) -> Future[Feedback]:
        future: Future[Feedback] = Future()
        self.submitted.append(command)
        self.futures.append(future)
        return future

    def cancel(self, command: Command) -> None:
        self.cancelled.append(command)

    def finish(self, feedback: Feedback = OK) -> None:
        """Resolve the latest command with ``feedback``."""
        self.futures[-1].set_result(feedback)


class RaisingExecutor(FakeExecutor):
    def submit(self, command: Command) -> Future[Feedback]:
        raise RuntimeError("arm driver offline")

    def cancel(self, command: Command) -> None:
        raise RuntimeError("cannot cancel")


@pytest.fixture
def pick_plan(belief: Belief, decomposer: SkillDecomposer) -> SkillPlan:
    plan = decomposer.decompose(skill_call("PICK", object="bottle", hand="right"), belief)
    assert len(plan.commands) == 5
    return plan


def test_runs_every_command_in_order_one_per_step(pick_plan: SkillPlan) -> None:
    executor = FakeExecutor()
    run = SkillRun(pick_plan, executor)
    assert run.status is RunStatus.RUNNING
    assert executor.submitted == []  # nothing is sent before the first step
    statuses = []
    for index, command in enumerate(pick_plan.commands):
        statuses.append(run.step())
        assert executor.submitted == list(pick_plan.commands[: index + 1])
        assert run.in_flight == command
        statuses.append(run.step())  # the command is still running: nothing new is sent
        assert len(executor.submitted) == index + 1
        executor.finish()
    statuses.append(run.step())
    assert statuses == [RunStatus.RUNNING] * 10 + [RunStatus.SUCCEEDED]
    outcome = run.outcome
    assert outcome is not None
    assert outcome.status is RunStatus.SUCCEEDED
    assert outcome.message == "PICK(bottle, right) succeeded (5 commands)"
    assert [r.command for r in outcome.results] == list(pick_plan.commands)
    assert run.step() is RunStatus.SUCCEEDED
    assert len(executor.submitted) == 5


def test_failure_at_the_third_command_names_skill_command_code_and_reason(
    pick_plan: SkillPlan,
) -> None:
    executor = FakeExecutor()
    run = SkillRun(pick_plan, executor)
    for _ in range(2):
        run.step()
        executor.finish()
    run.step()
    executor.finish(
        Feedback(ok=False, code="object_not_visible", message="bottle is not on table_1")
    )
    assert run.step() is RunStatus.FAILED
    outcome = run.outcome
    assert outcome is not None
    assert outcome.message == (
        "PICK(bottle, right) failed at grasp: object_not_visible — bottle is not on table_1"
    )
    assert outcome.code == "object_not_visible"
    assert outcome.failed_command == pick_plan.commands[2]
    assert len(outcome.results) == 3
    assert run.step() is RunStatus.FAILED
    assert len(executor.submitted) == 3  # nothing after the failed command
    assert SkillOutcome.model_validate_json(outcome.model_dump_json()) == outcome


def test_cancel_stops_the_command_in_flight_and_sends_nothing_more(
    pick_plan: SkillPlan,
) -> None:
    executor = FakeExecutor()
    run = SkillRun(pick_plan, executor)
    run.step()
    executor.finish()
    run.step()
    run.cancel()
    assert executor.cancelled == [pick_plan.commands[1]]
    assert run.status is RunStatus.CANCELLED
    assert run.outcome is not None
    assert run.outcome.message == "PICK(bottle, right) cancelled at open_gripper"
    executor.finish()  # the executor finishes anyway: the run stays cancelled
    assert run.step() is RunStatus.CANCELLED
    assert len(executor.submitted) == 2
    run.cancel()
    assert executor.cancelled == [pick_plan.commands[1]]


def test_cancel_before_the_first_step(pick_plan: SkillPlan) -> None:
    executor = FakeExecutor()
    run = SkillRun(pick_plan, executor)
    run.cancel()
    assert run.outcome is not None
    assert run.outcome.message == "PICK(bottle, right) cancelled before its first command"
    assert run.step() is RunStatus.CANCELLED
    assert executor.submitted == [] and executor.cancelled == []


def test_failed_preconditions_fail_at_once_and_send_no_command(
    belief: Belief, decomposer: SkillDecomposer
) -> None:
    plan = decomposer.decompose(skill_call("PICK", object="vase", hand="right"), belief)
    executor = FakeExecutor()
    run = SkillRun(plan, executor)
    assert run.status is RunStatus.FAILED
    assert run.step() is RunStatus.FAILED
    assert executor.submitted == []
    outcome = run.outcome
    assert outcome is not None
    assert outcome.code == "out_of_reach"
    assert outcome.failed_precondition is not None
    assert outcome.failed_precondition.name == "reachable"
    assert outcome.message.startswith("PICK(vase, right) failed precondition reachable:")


def test_a_skill_without_commands_succeeds_at_the_first_step(belief: Belief) -> None:
    call = skill_call("SAY", text="hello")
    plan = SkillPlan(call=call, preconditions=check_preconditions(call, belief))
    run = SkillRun(plan, FakeExecutor())
    assert run.step() is RunStatus.SUCCEEDED


def test_an_executor_that_raises_on_submit_fails_the_skill(
    pick_plan: SkillPlan, caplog: pytest.LogCaptureFixture
) -> None:
    run = SkillRun(pick_plan, RaisingExecutor())
    assert run.step() is RunStatus.RUNNING
    assert run.step() is RunStatus.FAILED
    assert run.outcome is not None
    assert run.outcome.message == (
        "PICK(bottle, right) failed at approach: error — the executor refused the command: "
        "arm driver offline"
    )


def test_an_executor_that_cannot_cancel_still_ends_the_run(
    pick_plan: SkillPlan, caplog: pytest.LogCaptureFixture
) -> None:
    executor = RaisingExecutor()
    run = SkillRun(pick_plan, executor)
    run.step()
    run.cancel()
    assert run.status is RunStatus.CANCELLED
    assert "executor failed to cancel approach(target=table_1)" in caplog.text


@pytest.mark.parametrize(
    ("resolve", "reason"),
    [
        (lambda f: f.set_exception(TimeoutError("no answer")), "raised TimeoutError: no answer"),
        (lambda f: f.cancel(), "the executor cancelled the command"),
        (lambda f: f.set_result("done"), "the executor answered 'done', not Feedback"),
    ],
)
def test_a_future_that_does_not_bring_feedback_fails_the_skill(
    pick_plan: SkillPlan, resolve: object, reason: str
) -> None:
    executor = FakeExecutor()
    run = SkillRun(pick_plan, executor)
    run.step()
    resolve(executor.futures[-1])  # type: ignore[operator]
    assert run.step() is RunStatus.FAILED
    assert run.outcome is not None
    assert run.outcome.message.startswith("PICK(bottle, right) failed at approach: error — ")
    assert reason in run.outcome.message


def test_failure_without_a_code_or_reason_still_reads(pick_plan: SkillPlan) -> None:
    executor = FakeExecutor()
    run = SkillRun(pick_plan, executor)
    run.step()
    executor.finish(Feedback(ok=False))
    run.step()
    assert run.outcome is not None
    assert run.outcome.message == (
        "PICK(bottle, right) failed at approach: error — no reason given"
    )
