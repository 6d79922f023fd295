"""The LLM client layer: one protocol, several backends, a manifest and a call log.

Backends: ollama, llama-cpp, scripted and none, plus a fault injector that wraps any of them.

Typical use::

    from behaviours.llm import LLMClient, LLMConfig
    client = LLMClient(LLMConfig.load())        # `auto` backend: ollama, else llama-cpp
    decision = client.decide("intent", messages, MyDecision)
"""

from behaviours.llm.call_log import CallLog
from behaviours.llm.client import LLMClient, PendingCall
from behaviours.llm.config import LLMConfig
from behaviours.llm.errors import (
    LLMCancelledError,
    LLMConfigError,
    LLMError,
    LLMTimeoutError,
    LLMUnavailableError,
    MalformedOutputError,
    ModelMissingError,
)
from behaviours.llm.faults import FaultInjectingBackend, FaultPlan
from behaviours.llm.scripted import Script, ScriptedBackend, ScriptedReply
from behaviours.llm.types import CallRecord, Decision, Message, ModuleSettings

__all__ = [
    "CallLog",
    "CallRecord",
    "Decision",
    "FaultInjectingBackend",
    "FaultPlan",
    "LLMCancelledError",
    "LLMClient",
    "LLMConfig",
    "LLMConfigError",
    "LLMError",
    "LLMTimeoutError",
    "LLMUnavailableError",
    "MalformedOutputError",
    "Message",
    "ModelMissingError",
    "ModuleSettings",
    "PendingCall",
    "Script",
    "ScriptedBackend",
    "ScriptedReply",
]
