"""What the grounding (ρ) and sufficiency items remember: held answers, profiles, memory files.

A ρ item's earlier answers become the ``/session/held_answers`` the tree would have kept, and
its profile facts the working context; a sufficiency item's facts are written into a real
:class:`~knowledge.memory.store.MemoryStore` (SQLite in a temporary folder) so that its core facts
stay in core memory, its archived facts are in the archive and its recent turns are the
history, as a long conversation would have left them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from cogtree.evaluation.janus.datasets import ClaimItem, GroundingItem, SufficiencyItem
from cogtree.knowledge.memory.model import Claim, Fact, TurnTrace, WorkingContext
from cogtree.knowledge.memory.store import MemoryConfig, MemoryStore
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.evidence_needs import answer_key
from cogtree.knowledge.understanding.turn_state import EvidenceItem, HeldAnswer

EVAL_NOW = 1_800_000_000.0
"""The clock of every ρ item (seconds): held answers are this minus their age."""

ROOMY_CORE_CHARS = 4000
"""A core budget no item's core facts exceed."""


def held_answers(
    domains: DomainRegistry, item: GroundingItem, speaker: str | None, now: float
) -> list[HeldAnswer]:
    """The answers ``item``'s earlier turns fetched, held as the tree holds them."""
    pack = domains.get(item.domain)
    answers = []
    for earlier in item.held:
        spec = pack.task(earlier.task)
        parameters = list(pack.query(spec.query).parameters) if spec.query else []
        key = answer_key(
            spec, parameters, earlier.slots, earlier.profile, earlier.speaker or speaker
        )
        answers.append(
            HeldAnswer(
                domain=pack.name,
                task=spec.name,
                key=key,
                item=EvidenceItem(source=spec.query or "model-query", rows=earlier.rows),
                at=now - earlier.age_s,
                utterance=earlier.utterance,
            )
        )
    return answers


def working_context(facts: Sequence[ClaimItem]) -> WorkingContext:
    """The working context of a turn whose memory holds ``facts``."""
    held = tuple(
        Fact(**_claim(fact).model_dump(), turn=number, timestamp=0.0, domain="advisor")
        for number, fact in enumerate(facts, start=1)
    )
    text = "Known facts: " + "; ".join(fact.text for fact in held) if held else ""
    return WorkingContext(text=text, budget_chars=2000, facts=held)


@contextmanager
def remembering(folder: Path, item: SufficiencyItem) -> Iterator[MemoryStore]:
    """A memory store holding ``item``'s archive, core facts and recent turns.

    First the archived facts are written with no room in core memory (each is archived as
    soon as it is consolidated); the store is reopened with a roomy core, then the core facts
    and the recent turns are written, so the core facts are consolidated into core memory and
    the recent turns are the history.
    """
    path = folder / "memory.sqlite"
    if item.archive:
        with MemoryStore(path, config=MemoryConfig(history_capacity=1, core_budget_chars=1)) as old:
            for fact in item.archive:
                _tell(old, _claim(fact), item.domain)
            old.write(TurnTrace(user="thanks", robot="You're welcome.", domain=item.domain))
    config = MemoryConfig(
        history_capacity=max(1, len(item.recent)), core_budget_chars=ROOMY_CORE_CHARS
    )
    with MemoryStore(path, config=config) as memory:
        for fact in item.core:
            _tell(memory, _claim(fact), item.domain)
        for line in item.recent:
            memory.write(TurnTrace(user=line, robot="Sure.", domain=item.domain))
        yield memory


def _claim(fact: ClaimItem) -> Claim:
    return Claim(text=fact.text, kind=fact.kind, slot=fact.slot, source="stated")


def _tell(memory: MemoryStore, claim: Claim, domain: str) -> None:
    memory.write(TurnTrace(user=claim.text, robot="Noted.", domain=domain, claims=(claim,)))
