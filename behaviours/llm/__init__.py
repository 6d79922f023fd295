"""The LLM client layer: one protocol, several backends, a manifest and a call log.

Backends: ollama, llama-cpp, scripted and none, plus a fault injector that wraps any of them.

Typical use::

    from cogtree.behaviours.llm import LLMClient, LLMConfig
    client = LLMClient(LLMConfig.load())        # `auto` backend: ollama, else llama-cpp
    decision = client.decide("intent", messages, MyDecision)
"""

from cogtree.behaviours.llm.call_log import CallLog
from cogtree.behaviours.llm.client import LLMClient, PendingCall
from cogtree.behaviours.llm.config import LLMConfig
from cogtree.behaviours.llm.errors import (
    LLMCancelledError,
    LLMConfigError,
    LLMError,
    LLMTimeoutError,
    LLMUnavailableError,
    MalformedOutputError,
    ModelMissingError,
)
from cogtree.behaviours.llm.faults import FaultInjectingBackend, FaultPlan
from cogtree.behaviours.llm.scripted import Script, ScriptedBackend, ScriptedReply
from cogtree.behaviours.llm.types import CallRecord, Decision, Message, ModuleSettings

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
