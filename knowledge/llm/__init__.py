"""The LLM client layer: one protocol, several backends, a manifest and a call log.

Backends: ollama, llama-cpp, scripted and none, plus a fault injector that wraps any of them.

Typical use::

    from cogtree.knowledge.llm import LLMClient, LLMConfig
    client = LLMClient(LLMConfig.load())        # `auto` backend: ollama, else llama-cpp
    decision = client.decide("intent", messages, MyDecision)
"""

from cogtree.knowledge.llm.call_log import CallLog
from cogtree.knowledge.llm.client import LLMClient, PendingCall
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.errors import (
    LLMCancelledError,
    LLMConfigError,
    LLMError,
    LLMTimeoutError,
    LLMUnavailableError,
    MalformedOutputError,
    ModelMissingError,
)
from cogtree.knowledge.llm.faults import FaultInjectingBackend, FaultPlan
from cogtree.knowledge.llm.scripted import Script, ScriptedBackend, ScriptedReply
from cogtree.knowledge.llm.types import CallRecord, Decision, Message, ModuleSettings

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
