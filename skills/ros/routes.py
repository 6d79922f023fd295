"""Which topic each low-level command goes to on a ROS 2 robot, and how long it may take.

By default every command goes to the robot's ``command`` topic (statuses on
``command/status``, cancels on ``command/cancel``) with the executor's timeout. A real robot
whose bridge takes navigation elsewhere gets a routes file::

    # routes.yaml: topics are relative to each robot's namespace
    default: command                 # or {topic: command, timeout_s: 30}
    commands:
      navigate: {topic: navigate_to_pose, timeout_s: 120}
      grasp: manipulation            # no timeout_s: the executor's command_timeout_s

A route's topic ``T`` carries :class:`~skills.ros.protocol.CommandGoal` s; the robot answers
on ``T/status`` and takes cancels on ``T/cancel``. ``cogtree sim-ros --routes FILE`` serves
the same file, so the simulated robot listens where the real one would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from knowledge.validation_errors import first_problem
from skills.commands import CommandName
from skills.ros.protocol import (
    COMMAND_TOPIC,
    OBSERVATIONS_TOPIC,
    STATE_TOPIC,
    check_relative_name,
)

RESERVED_TOPICS = frozenset({OBSERVATIONS_TOPIC, STATE_TOPIC})
"""Topics of a robot's namespace that carry something else than goals."""


class RoutesError(ValueError):
    """A routes file that cannot be used (names the file and the field)."""


def _topic_shorthand(value: Any) -> Any:
    return {"topic": value} if isinstance(value, str) else value


class CommandRoute(BaseModel):
    """Where one kind of command goes, and its time limit (None: the executor's default)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    topic: str = Field(description="goal topic, relative to the robot's namespace")
    timeout_s: float | None = Field(None, gt=0, description="seconds from acceptance to result")

    @field_validator("topic")
    @classmethod
    def _relative_topic(cls, topic: str) -> str:
        check_relative_name(topic)
        if topic in RESERVED_TOPICS or topic.endswith(("/status", "/cancel")):
            raise ValueError(f"{topic!r} is taken by the protocol: choose another topic name")
        return topic


Route = Annotated[CommandRoute, BeforeValidator(_topic_shorthand)]


class CommandRoutes(BaseModel):
    """The route of every command: its own when listed under ``commands``, else ``default``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    default: Route = CommandRoute(topic=COMMAND_TOPIC)
    commands: dict[CommandName, Route] = Field(default_factory=dict)

    def route(self, command: CommandName) -> CommandRoute:
        """The route of the command named ``command``."""
        return self.commands.get(command, self.default)

    def goal_topics(self) -> list[str]:
        """Every goal topic a robot must serve, default first, without repeats."""
        topics = [self.default.topic, *(route.topic for route in self.commands.values())]
        return list(dict.fromkeys(topics))


def load_routes(path: str | Path) -> CommandRoutes:
    """Read a routes file (see the module docs); RoutesError names the file and the problem."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise RoutesError(f"{path}: cannot read it: {error.strerror}") from error
    except yaml.YAMLError as error:
        raise RoutesError(f"{path}: malformed YAML: {error}") from error
    try:
        return CommandRoutes.model_validate(data or {})
    except ValidationError as error:
        raise RoutesError(f"{path}: {first_problem(error)}") from error
