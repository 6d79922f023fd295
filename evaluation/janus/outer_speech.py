"""Outer speech measured as JANUS measures it: claim support, coverage and length.

The set is ``tests/data/eval/outer_speech.jsonl``: per item a request, the knowledge task and
its slots (ids), the query that grounded it, its rows, what the evidence withheld, a reference
explanation written by hand, and the reference's facts (the names and numbers an answer
should state). Each item ticks :class:`~behaviours.actions.dialogue.respond.Respond` with
``templated_first=False`` (so the backend's model words the reply, and the templated answer is
the fallback) on the item's evidence, then scores the reply:

- **claim support**: of the numbers and names the reply states
  (:func:`~knowledge.understanding.faithfulness.stated_numbers`,
  :func:`~knowledge.understanding.faithfulness.stated_names` over the pack's graph lexicons),
  the share found in the evidence (the request and the rows' cells; a number may be rounded, as the
  guard allows). Summed over all items (micro).
- **coverage**: the share of the item's facts the reply states (a number fact when a stated
  number equals it or rounds it; a name fact as whole words, any case). Mean over items.
- **length**: words per reply, next to the references' words per explanation.

Backends: ``none`` says the templated answer; the scripted ORACLE answers with the reference
explanation (so it measures the guard on faithful text, not a model); a model backend words
its own reply, held by the guard.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cogtree.behaviours import keys
from cogtree.behaviours.actions.dialogue.respond import Respond
from cogtree.evaluation import metrics
from cogtree.evaluation.janus.datasets import load_items
from cogtree.evaluation.janus.runner import ModuleRunner, preset_resolutions, select
from cogtree.knowledge.language.entity_names import EntityNames
from cogtree.knowledge.llm.types import CallRecord
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.faithfulness import (
    LexiconNames,
    Support,
    is_supported,
    occurs,
    parse_number,
    stated_names,
    stated_numbers,
    unsupported_entities,
    unsupported_numbers,
)
from cogtree.knowledge.understanding.lexicon_book import LexiconBook
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, EvidenceItem, IntentFrame

OUTER_SPEECH_FILE = "outer_speech.jsonl"
"""The set's file name in the evaluation directory."""

_WORD = re.compile(r"\w+(?:['’-]\w+)*")


class OuterSpeechItem(BaseModel):
    """One grounded request and the explanation a good answer gives."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    request: str = Field(min_length=1)
    domain: str
    task: str
    slots: dict[str, Any] = Field(description="the task's slots, resolved to ids")
    source: str = Field(description="the query template that produced the rows")
    query: str
    rows: list[dict[str, str | None]]
    withheld: list[str] = Field(default_factory=list)
    reference: str = Field(min_length=1, description="the explanation, written by hand")
    facts: list[str] = Field(min_length=1, description="names and numbers it states")
    tag: str = "plain"


def load_outer_speech(path: Path) -> list[OuterSpeechItem]:
    """The items of ``path`` (:class:`~evaluation.janus.datasets.DatasetError` when bad)."""
    return load_items(path, OuterSpeechItem)


@dataclass(frozen=True)
class SpeechResult:
    """One item's reply and its scores."""

    index: int
    reply: str
    claims: int
    supported: int
    coverage: float
    words: int
    source: str | None
    calls: int
    prompt_tokens: int
    completion_tokens: int
    seconds: float = 0.0
    """Wall time of ticking Respond on the item, model calls included."""
    model_seconds: float = 0.0
    """Summed latency of the item's model calls."""
    failed_calls: int = 0
    """The item's model calls that timed out or failed."""


@dataclass(frozen=True)
class OuterSpeechScore:
    """The outer-speech figures of one backend."""

    backend: str
    results: list[SpeechResult]
    reference_words: float | None
    elapsed_s: float

    @property
    def claim_support(self) -> float | None:
        """Supported claims over stated claims, over all replies (None: no claim at all)."""
        claims = sum(result.claims for result in self.results)
        return sum(result.supported for result in self.results) / claims if claims else None

    @property
    def fully_supported(self) -> float | None:
        """Share of replies every claim of which is supported."""
        return metrics.rate([result.supported == result.claims for result in self.results])

    @property
    def coverage(self) -> float | None:
        """Mean share of the reference facts a reply states."""
        return metrics.mean([result.coverage for result in self.results])

    @property
    def words(self) -> float | None:
        """Mean words per reply."""
        return metrics.mean([float(result.words) for result in self.results])

    def share(self, source: str) -> float | None:
        """Share of replies decided by ``source`` (fast_path, model, safe_default)."""
        return metrics.rate([result.source == source for result in self.results])

    def row(self) -> dict[str, str | int | float | None]:
        """The report's row."""
        return {
            "backend": self.backend,
            "items": len(self.results),
            "claim_support": self.claim_support,
            "fully_supported": self.fully_supported,
            "coverage": self.coverage,
            "words": self.words,
            "reference_words": self.reference_words,
            "model": self.share("model"),
            "safe_default": self.share("safe_default"),
            "model_calls": sum(result.calls for result in self.results),
            "prompt_tokens": sum(result.prompt_tokens for result in self.results),
            "completion_tokens": sum(result.completion_tokens for result in self.results),
            "seconds": self.elapsed_s,
        }


OUTER_SPEECH_COLUMNS = (
    "backend",
    "items",
    "claim_support",
    "fully_supported",
    "coverage",
    "words",
    "reference_words",
    "model",
    "safe_default",
    "model_calls",
    "prompt_tokens",
    "completion_tokens",
    "seconds",
)
"""Columns of an outer-speech row, in table order."""


def evidence_support(item: OuterSpeechItem) -> Support:
    """What a reply may claim: the request and every cell of the rows."""
    cells = [cell for row in item.rows for cell in row.values() if cell is not None]
    return Support(texts=(item.request, *cells))


def claim_counts(reply: str, support: Support, names: EntityNames) -> tuple[int, int]:
    """(claims stated, claims supported): numbers and names of ``reply``."""
    numbers = len({number.written for number in stated_numbers(reply)})
    stated = len(stated_names(reply, names))
    unsupported = len(unsupported_numbers(reply, support))
    unsupported += len(unsupported_entities(reply, support, names))
    claims = numbers + stated
    return claims, max(0, claims - unsupported)


def fact_coverage(reply: str, facts: Sequence[str]) -> float:
    """Share of ``facts`` ``reply`` states (numbers by value, rounding allowed; names as words)."""
    if not facts:
        return 1.0
    stated = stated_numbers(reply)
    found = 0
    for fact in facts:
        value = parse_number(fact)
        if value is not None:
            found += any(is_supported(number, [value]) for number in stated)
        else:
            found += occurs(fact, reply)
    return found / len(facts)


def word_count(text: str) -> int:
    """Words of ``text`` (numbers count as words)."""
    return len(_WORD.findall(text))


def pack_names(book: LexiconBook, registry: DomainRegistry, pack: str) -> LexiconNames:
    """The names of the things ``pack``'s graph lexicons know (its ``terms`` lexicons are words)."""
    specs = registry.get(pack).manifest.lexicons
    lexicons = book.current(pack)
    return LexiconNames(
        [
            lexicon
            for name, lexicon in lexicons.items()
            if name in specs and specs[name].source() != "terms"
        ]
    )


def score_outer_speech(
    runner: ModuleRunner,
    items: Sequence[OuterSpeechItem],
    *,
    limit: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> OuterSpeechScore:
    """Tick Respond on every item on ``runner``'s backend and score the replies."""
    started = time.perf_counter()
    book = LexiconBook(runner.domains)
    forms: dict[str, LexiconNames] = {}
    chosen = select(items, limit)
    results = []
    for done, (index, item) in enumerate(chosen, start=1):
        if item.domain not in forms:
            forms[item.domain] = pack_names(book, runner.domains, item.domain)
        item_started = time.perf_counter()
        reply, source, calls = _spoken(runner, book, item)
        seconds = time.perf_counter() - item_started
        claims, supported = claim_counts(reply, evidence_support(item), forms[item.domain])
        results.append(
            SpeechResult(
                index,
                reply,
                claims,
                supported,
                fact_coverage(reply, item.facts),
                word_count(reply),
                source,
                len(calls),
                sum(call.prompt_tokens for call in calls),
                sum(call.completion_tokens for call in calls),
                seconds,
                sum(call.latency_s for call in calls),
                sum(1 for call in calls if call.outcome != "ok"),
            )
        )
        if progress is not None:
            progress("outer speech", done, len(chosen))
    reference_words = metrics.mean([float(word_count(item.reference)) for _, item in chosen])
    return OuterSpeechScore(
        runner.label, results, reference_words, round(time.perf_counter() - started, 3)
    )


def _spoken(
    runner: ModuleRunner, book: LexiconBook, item: OuterSpeechItem
) -> tuple[str, str | None, list[CallRecord]]:
    """Respond's reply to the item, who decided it, and the model calls."""
    pack = runner.domains.get(item.domain)
    spec = pack.task(item.task)
    presets: dict[str, Any] = {
        keys.UTTERANCE.name: item.request,
        keys.DOMAIN.name: item.domain,
        keys.INTENT.name: IntentFrame(
            domain=item.domain, task=item.task, slots=dict(item.slots), confidence=1.0
        ),
        keys.RESOLVED.name: preset_resolutions(
            spec, {slot: value for slot, value in item.slots.items() if value}
        ),
        keys.EVIDENCE.name: EvidenceBundle(
            items=[
                EvidenceItem(
                    source=item.source, query=item.query, rows=item.rows, withheld=item.withheld
                )
            ]
        ),
    }
    with suppress(ValidationError):  # without a task instance Respond reads the resolved slots
        presets[keys.TASK.name] = pack.schema_for(item.task).model_validate(item.slots)
    oracle = {"outer_speech": {"reply": item.reference, "rationale": "oracle: the reference"}}
    node = Respond(templated_first=False)
    with runner.run_node(node, presets, oracle, extra_handles={"lexicons": book}) as run:
        reply = str(run.board.get(keys.REPLY.name) or "")
        return reply, run.source, run.calls
