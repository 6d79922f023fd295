"""cogtree's models to and from the ``cogtree_interfaces`` messages (the ros extra's package).

The interface package (``interfaces/`` in the repository) is built and installed by
``pip install --no-build-isolation ./interfaces`` after the ``ros`` extra. Each function here
converts one way; a message that cannot become a model (an unknown command, a value of no
known type, a failure code outside the vocabulary) raises :class:`MessageError` naming the
field, so a node can refuse it and say why.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, get_args

from builtin_interfaces.msg import Time
from cogtree_interfaces.action import ExecuteSkill
from cogtree_interfaces.msg import Argument, Observation, ObservationBatch, Value
from pydantic import ValidationError

from cogtree.knowledge.memory.experience import ErrorCode
from cogtree.knowledge.scene.scene_models import AttributeValue
from cogtree.knowledge.scene.scene_models import Observation as ObservationModel
from cogtree.knowledge.validation_errors import first_problem
from cogtree.skills.action_model.commands import ArgValue, Command, Feedback

ERROR_CODES: frozenset[str] = frozenset(get_args(ErrorCode))
"""The failure codes a result may carry."""


class MessageError(ValueError):
    """A message that cannot become one of cogtree's models (names the field and why)."""


# -- values ------------------------------------------------------------------------------------


def value_msg(value: AttributeValue) -> Value:
    """``value`` as a typed :class:`Value` (bool before int: ``True`` is an int in Python)."""
    if isinstance(value, bool):
        return Value(type=Value.TYPE_BOOL, bool_value=value)
    if isinstance(value, int):
        return Value(type=Value.TYPE_INTEGER, integer_value=value)
    if isinstance(value, float):
        return Value(type=Value.TYPE_DOUBLE, double_value=value)
    return Value(type=Value.TYPE_STRING, string_value=value)


def value_of(message: Value) -> ArgValue:
    """The Python value a :class:`Value` holds; MessageError for an unknown ``type``."""
    kinds: dict[int, Any] = {
        Value.TYPE_STRING: message.string_value,
        Value.TYPE_INTEGER: message.integer_value,
        Value.TYPE_DOUBLE: message.double_value,
        Value.TYPE_BOOL: message.bool_value,
    }
    if message.type not in kinds:
        raise MessageError(f"value type {message.type} is none of 0..3 (string..bool)")
    value: ArgValue = kinds[message.type]
    return value


def time_msg(moment: datetime) -> Time:
    """``moment`` (timezone-aware) as a ROS time since the epoch."""
    nanoseconds = round(moment.timestamp() * 1e9)
    return Time(sec=nanoseconds // 10**9, nanosec=nanoseconds % 10**9)


def time_of(message: Time) -> datetime:
    """A ROS time as an aware UTC datetime."""
    return datetime.fromtimestamp(message.sec + message.nanosec / 1e9, tz=UTC)


# -- commands ----------------------------------------------------------------------------------


def goal_msg(command: Command) -> ExecuteSkill.Goal:
    """The action goal that runs ``command`` on its robot."""
    return ExecuteSkill.Goal(
        robot=command.robot,
        skill=command.skill,
        command=command.name,
        arguments=[Argument(name=name, value=value_msg(v)) for name, v in command.args.items()],
    )


def command_of(goal: ExecuteSkill.Goal) -> Command:
    """The command a goal asks for; MessageError names what is wrong with it."""
    try:
        args = {argument.name: value_of(argument.value) for argument in goal.arguments}
        return Command(robot=goal.robot, skill=goal.skill, name=goal.command, args=args)
    except ValidationError as error:
        raise MessageError(f"not a command: {first_problem(error)}") from error


def result_msg(feedback: Feedback) -> ExecuteSkill.Result:
    """The action result that reports ``feedback`` (SUCCEEDED or FAILED with its code)."""
    outcome = ExecuteSkill.Result.SUCCEEDED if feedback.ok else ExecuteSkill.Result.FAILED
    return ExecuteSkill.Result(
        outcome=outcome, failure_code=feedback.code or "", message=feedback.message
    )


def failure_code_of(code: str) -> ErrorCode | None:
    """``code`` as a failure code ("" is none); MessageError for one outside the vocabulary."""
    if not code:
        return None
    if code not in ERROR_CODES:
        known = ", ".join(sorted(ERROR_CODES))
        raise MessageError(f"failure code {code!r} is not in cogtree's vocabulary ({known})")
    return code  # type: ignore[return-value]  # checked against the Literal's values above


# -- observations ------------------------------------------------------------------------------


def observation_msg(observation: ObservationModel) -> Observation:
    """One observed fact as a message."""
    return Observation(
        subject=observation.subject,
        predicate=observation.predicate,
        object=value_msg(observation.object),
        source=observation.source,
        time=time_msg(observation.time),
    )


def observation_of(message: Observation) -> ObservationModel:
    """One observed fact from a message; MessageError names the problem."""
    try:
        return ObservationModel(
            subject=message.subject,
            predicate=message.predicate,
            object=value_of(message.object),
            source=message.source,
            time=time_of(message.time),
        )
    except ValidationError as error:
        raise MessageError(f"not an observation: {first_problem(error)}") from error


def batch_msg(
    robot: str,
    sequence: int,
    observations: Iterable[ObservationModel],
    forgotten: Iterable[str],
    stamp: Time,
) -> ObservationBatch:
    """An observation batch of ``robot`` numbered ``sequence``."""
    return ObservationBatch(
        stamp=stamp,
        robot=robot,
        sequence=sequence,
        observations=[observation_msg(o) for o in observations],
        forgotten=list(forgotten),
    )
