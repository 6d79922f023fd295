"""Task schemas (the pydantic models of domain-pack tasks): required slots, the partial form.

A task schema's required fields are the slots a gate must know before the robot may act;
the partial form has every field optional, for a task still being filled in.
"""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, Field, create_model


def required_slots(task_schema: type[BaseModel]) -> list[str]:
    """Names of the task schema's required fields, in declaration order."""
    return [name for name, info in task_schema.model_fields.items() if info.is_required()]


def partial_model(task_schema: type[BaseModel]) -> type[BaseModel]:
    """The task schema with every field optional (None = not said yet)."""
    fields: dict[str, Any] = {
        name: (Optional[info.annotation], Field(None, description=info.description))  # noqa: UP045
        for name, info in task_schema.model_fields.items()
    }
    return create_model(f"Partial{task_schema.__name__}", **fields)
