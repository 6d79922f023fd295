"""Errors of the LLM layer. Each says what went wrong and what to do about it."""

from __future__ import annotations

from typing import ClassVar

from cogtree.knowledge.llm.types import CallRecord, Outcome
from cogtree.knowledge.validation_errors import first_problem

__all__ = [
    "LLMCancelledError",
    "LLMConfigError",
    "LLMError",
    "LLMTimeoutError",
    "LLMUnavailableError",
    "MalformedOutputError",
    "ModelMissingError",
    "first_problem",
]


class LLMConfigError(ValueError):
    """The LLM configuration is invalid: an unknown backend or module, or a bad manifest."""


class LLMError(Exception):
    """A model call did not produce a usable answer. ``record`` describes the call."""

    outcome: ClassVar[Outcome] = "error"

    def __init__(self, message: str, record: CallRecord | None = None) -> None:
        super().__init__(message)
        self.record = record


class LLMUnavailableError(LLMError):
    """No model can be reached (server down, backend not installed, no backend at all)."""

    outcome: ClassVar[Outcome] = "unavailable"


class ModelMissingError(LLMUnavailableError):
    """The server is up but does not have the requested model."""

    outcome: ClassVar[Outcome] = "model_missing"


class LLMTimeoutError(LLMError):
    """The model did not answer within the module's ``timeout_s``."""

    outcome: ClassVar[Outcome] = "timeout"


class LLMCancelledError(LLMError):
    """The caller cancelled the call before it finished."""

    outcome: ClassVar[Outcome] = "cancelled"


class MalformedOutputError(LLMError):
    """The model answered, but not with JSON that validates against the requested schema."""

    outcome: ClassVar[Outcome] = "malformed"

    def __init__(self, message: str, raw: str, record: CallRecord | None = None) -> None:
        super().__init__(message, record)
        self.raw = raw
