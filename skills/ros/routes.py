"""Which action each low-level command goes to on a ROS 2 robot, and how long it may take.

By default every command goes to the robot's ``execute_skill`` action
(``cogtree_interfaces/action/ExecuteSkill``) with the executor's timeout. A real robot whose
bridge serves navigation under another action name gets a routes file::

    # routes.yaml: action names are relative to each robot's namespace
    default: execute_skill           # or {action: execute_skill, timeout_s: 30}
    commands:
      navigate: {action: navigate_skill, timeout_s: 120}
      grasp: manipulation            # no timeout_s: the executor's command_timeout_s

Every route's action has the ``ExecuteSkill`` type (its goal names the command and carries
typed arguments, so a new command needs no new type). ``cogtree sim-ros --routes FILE``
serves the same file, so the simulated robot answers where the real one would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from cogtree.knowledge.validation_errors import first_problem
from cogtree.skills.action_model.commands import CommandName
from cogtree.skills.ros.protocol import (
    EXECUTE_ACTION,
    OBSERVATIONS_TOPIC,
    STATE_TOPIC,
    check_relative_name,
)

RESERVED_NAMES = frozenset({OBSERVATIONS_TOPIC, STATE_TOPIC})
"""Names of a robot's namespace that carry something else than commands."""


class RoutesError(ValueError):
    """A routes file that cannot be used (names the file and the field)."""


def _action_shorthand(value: Any) -> Any:
    return {"action": value} if isinstance(value, str) else value


class CommandRoute(BaseModel):
    """Where one kind of command goes, and its time limit (None: the executor's default)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: str = Field(description="action name, relative to the robot's namespace")
    timeout_s: float | None = Field(None, gt=0, description="seconds from acceptance to result")

    @field_validator("action")
    @classmethod
    def _relative_name(cls, action: str) -> str:
        check_relative_name(action)
        if action in RESERVED_NAMES:
            raise ValueError(f"{action!r} is a topic of the robot: choose another action name")
        return action


Route = Annotated[CommandRoute, BeforeValidator(_action_shorthand)]


class CommandRoutes(BaseModel):
    """The route of every command: its own when listed under ``commands``, else ``default``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    default: Route = CommandRoute(action=EXECUTE_ACTION)
    commands: dict[CommandName, Route] = Field(default_factory=dict)

    def route(self, command: CommandName) -> CommandRoute:
        """The route of the command named ``command``."""
        return self.commands.get(command, self.default)

    def actions(self) -> list[str]:
        """Every action a robot must serve, default first, without repeats."""
        names = [self.default.action, *(route.action for route in self.commands.values())]
        return list(dict.fromkeys(names))


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
