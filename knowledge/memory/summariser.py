"""Summarisers: how the oldest turns of recent history become core facts on consolidation.

A summariser is any callable from turn traces to facts. The default, :func:`extract_facts`,
is extractive and deterministic: it keeps, verbatim, the claims the user stated or confirmed
during those turns. An LLM summariser (built in ``behaviours/``, which ``knowledge/`` never
imports) can be passed to the memory store instead; whatever it returns still goes through
the store's guard, so it cannot put a guess into core memory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cogtree.knowledge.memory.model import Fact, TurnTrace

Summariser = Callable[[Sequence[TurnTrace]], Sequence[Fact]]
"""Traces leaving recent history (oldest first) -> the facts worth keeping from them."""


def extract_facts(traces: Sequence[TurnTrace]) -> list[Fact]:
    """The stated or confirmed claims of ``traces``, as facts, in turn and claim order."""
    return [fact for trace in traces for fact in trace.facts()]
