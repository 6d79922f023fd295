"""Scope detection on CLINC150 (Larson et al., 2019): the fast path, and a model behind it.

The examples are CLINC150's ``train`` split grouped by domain (``domains.json`` maps each of
the 150 intents to one of 10 domains); the test items are ``val`` (in scope) plus ``oos_val``
(out of scope). The cascade is the one DetectScope runs:
:class:`~knowledge.understanding.scope_matching. ScopeMatcher` decides when it is confident;
otherwise a model chooses among the 10 domains and
``OutOfScope``; with no model (or a failed call) DetectScope's safe decision is taken: the
matcher's guess (its best domain when the score clears ``reject``, else OutOfScope).

Reported: in-scope domain accuracy (over in-scope items), out-of-scope recall (share of
``oos_val`` items called OutOfScope) and precision (share of OutOfScope calls that were right),
and the share decided by the fast path. With a real model only a seeded sample is evaluated.
"""

from __future__ import annotations

import json
import logging
import random
import re
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack, closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from cogtree.behaviours.gates.scope import scope_decision_model
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.errors import LLMError, MalformedOutputError
from cogtree.knowledge.llm.scripted import PromptRule, Script, ScriptedReply
from cogtree.knowledge.llm.types import CallRecord, Message
from cogtree.knowledge.understanding.scope_matching import ScopeGuess, ScopeMatcher
from cogtree.knowledge.understanding.turn_state import OUT_OF_SCOPE, RationaleSource
from cogtree.trees.testing import scripted_llm

log = logging.getLogger(__name__)

DEFAULT_CLINC = Path(__file__).resolve().parents[2] / "data" / "clinc150"
"""The development splits shipped in the repository (``data/clinc150``, CC BY 3.0)."""

MODULE = "scope_detection"
"""The LLM module the model step uses (its settings come from the LLM manifest)."""

PROMPT_EXAMPLES = 3
"""Example utterances per domain shown to the model."""


class ClincError(ValueError):
    """The CLINC150 files are missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class ClincData:
    """CLINC150 for scope detection: examples per domain, and labelled test utterances."""

    examples: dict[str, list[str]]
    test: list[tuple[str, str]]
    """(utterance, domain or OutOfScope), val then oos_val."""

    @property
    def domains(self) -> list[str]:
        """The in-scope domains, in file order."""
        return list(self.examples)


def load_clinc(directory: str | Path = DEFAULT_CLINC) -> ClincData:
    """Read ``clinc150_dev.json`` and ``domains.json`` from ``directory``."""
    folder = Path(directory)
    splits = _read_json(folder / "clinc150_dev.json")
    domains = _read_json(folder / "domains.json")
    try:
        domain_of = {intent: domain for domain, intents in domains.items() for intent in intents}
        examples: dict[str, list[str]] = {domain: [] for domain in domains}
        for utterance, intent in splits["train"]:
            if intent in domain_of:
                examples[domain_of[intent]].append(utterance)
        test = [(u, domain_of.get(i, OUT_OF_SCOPE)) for u, i in splits["val"] + splits["oos_val"]]
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ClincError(
            f"{folder}: expected clinc150_dev.json with train/val/oos_val lists of "
            f"[utterance, intent] and domains.json mapping domains to intents ({error!r})"
        ) from error
    return ClincData(examples=examples, test=test)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ClincError(
            f"{path} not found; pass --clinc DIR with clinc150_dev.json and domains.json"
        ) from None
    except (OSError, json.JSONDecodeError) as error:
        raise ClincError(f"cannot read {path}: {error}") from error


@dataclass(frozen=True)
class ClincResult:
    """CLINC150 scope figures for one backend (``backend``: its name or report label)."""

    backend: str
    items: int
    sampled: bool
    in_scope_accuracy: float | None
    oos_recall: float | None
    oos_precision: float | None
    sources: dict[str, int]
    model_calls: int
    prompt_tokens: int
    completion_tokens: int
    elapsed_s: float

    def share(self, source: RationaleSource) -> float | None:
        """Share of items decided by ``source`` (fast_path, model, safe_default)."""
        return self.sources.get(source, 0) / self.items if self.items else None


def scope_messages(data: ClincData, utterance: str) -> list[Message]:
    """The prompt: each domain with a few examples, then the utterance."""
    lines = [
        f"- {domain}: " + " | ".join(texts[:PROMPT_EXAMPLES])
        for domain, texts in data.examples.items()
    ]
    return [
        Message(
            role="system",
            content="You route a user's request to the one domain that serves it. Answer "
            f"{OUT_OF_SCOPE} when no domain does. Reply with JSON only.",
        ),
        Message(
            role="user",
            content="Domains, with example requests:\n"
            + "\n".join(lines)
            + f"\n\nRequest: <<{utterance}>>\nWhich domain?",
        ),
    ]


def sample_items(
    items: Sequence[tuple[str, str]], size: int | None, seed: int
) -> list[tuple[str, str]]:
    """``size`` items drawn without replacement with ``seed`` (all of them when None)."""
    if size is None or size >= len(items):
        return list(items)
    return random.Random(seed).sample(list(items), size)


def evaluate_clinc(
    data: ClincData,
    *,
    matcher: ScopeMatcher | None = None,
    llm: LLMClient | None = None,
    oracle: bool = False,
    backend: str = "none",
    sample: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> ClincResult:
    """Run the scope cascade over CLINC150's test items and score it.

    ``llm`` answers the items the matcher is not confident about (module ``scope_detection``);
    None means no model. ``oracle`` answers them with their labels instead, through the
    scripted backend (this measures the cascade, not a model). ``sample`` limits the items
    (seeded). ``progress(done, total)`` is called after each item.
    """
    started = time.perf_counter()
    items = sample_items(data.test, sample, seed)
    routed = route_items(data, items, matcher=matcher, llm=llm, oracle=oracle, progress=progress)
    predicted = [item.domain for item in routed]
    sources: dict[str, int] = {}
    for item in routed:
        sources[item.source] = sources.get(item.source, 0) + 1
    records = [call for item in routed for call in item.calls]
    gold = [domain for _, domain in items]
    in_scope = [(p, g) for p, g in zip(predicted, gold, strict=True) if g != OUT_OF_SCOPE]
    out_calls = [g for p, g in zip(predicted, gold, strict=True) if p == OUT_OF_SCOPE]
    oos_gold = [p for p, g in zip(predicted, gold, strict=True) if g == OUT_OF_SCOPE]
    return ClincResult(
        backend=backend,
        items=len(items),
        sampled=len(items) < len(data.test),
        in_scope_accuracy=_share(sum(p == g for p, g in in_scope), len(in_scope)),
        oos_recall=_share(sum(p == OUT_OF_SCOPE for p in oos_gold), len(oos_gold)),
        oos_precision=_share(sum(g == OUT_OF_SCOPE for g in out_calls), len(out_calls)),
        sources=sources,
        model_calls=len(records),
        prompt_tokens=sum(record.prompt_tokens for record in records),
        completion_tokens=sum(record.completion_tokens for record in records),
        elapsed_s=round(time.perf_counter() - started, 3),
    )


@dataclass(frozen=True)
class Routed:
    """One utterance routed by the cascade: the domain, who decided, the model calls made."""

    domain: str
    source: RationaleSource
    calls: list[CallRecord]
    seconds: float = 0.0
    """Wall time of the decision (the matcher's share of its batch is not counted)."""


def route_items(
    data: ClincData,
    items: Sequence[tuple[str, str]],
    *,
    matcher: ScopeMatcher | None = None,
    llm: LLMClient | None = None,
    oracle: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> list[Routed]:
    """Route each ``(utterance, gold domain)`` among ``data``'s domains, one result per item.

    The matcher (default: fitted on ``data.examples`` with the CLINC150 thresholds) decides
    when confident; otherwise ``llm`` (or, with ``oracle``, a scripted client answering with
    the gold domain), else the matcher's guess as the safe default.
    """
    matcher = matcher or ScopeMatcher(data.examples)
    guesses = matcher.match_many(utterance for utterance, _ in items)
    decision_type = scope_decision_model(data.domains)
    routed: list[Routed] = []
    with ExitStack() as stack:
        if oracle:
            uncertain = [
                pair for pair, guess in zip(items, guesses, strict=True) if not guess.confident
            ]
            llm = stack.enter_context(closing(scripted_llm(oracle_script(uncertain)).client))
        for number, ((utterance, _), guess) in enumerate(zip(items, guesses, strict=True), 1):
            cursor = len(llm.call_log) if llm is not None else 0
            started = time.perf_counter()
            domain, source = _decide(data, utterance, guess, llm, decision_type)
            seconds = time.perf_counter() - started
            calls = llm.call_log.since(cursor)[0] if llm is not None else []
            routed.append(Routed(domain, source, calls, seconds))
            if progress is not None:
                progress(number, len(items))
    return routed


def _decide(
    data: ClincData,
    utterance: str,
    guess: ScopeGuess,
    llm: LLMClient | None,
    decision_type: type[BaseModel],
) -> tuple[str, RationaleSource]:
    if guess.confident:
        return guess.domain, "fast_path"
    if llm is None or llm.backend_for(MODULE).name == "none":
        return guess.domain, "safe_default"
    messages = scope_messages(data, utterance)
    for attempt in (1, 2):  # like a gate: a malformed answer is retried once
        try:
            answer = llm.decide(MODULE, messages, decision_type, attempt=attempt)
        except MalformedOutputError as error:
            log.debug("clinc: attempt %d malformed for %r: %s", attempt, utterance, error)
            continue
        except LLMError as error:
            log.debug("clinc: model call failed for %r: %s", utterance, error)
            break
        return str(getattr(answer.value, "domain", OUT_OF_SCOPE)), "model"
    return guess.domain, "safe_default"


def _share(count: int, total: int) -> float | None:
    return count / total if total else None


def oracle_script(items: Sequence[tuple[str, str]]) -> Script:
    """A scripted-backend script answering each item's prompt with its gold domain (oracle)."""
    return Script(
        by_prompt=[
            PromptRule(
                match=re.escape(f"Request: <<{utterance}>>"),
                module=MODULE,
                reply=ScriptedReply(
                    answer={"domain": domain, "confidence": 1.0, "rationale": "oracle: the label"}
                ),
            )
            for utterance, domain in items
        ]
    )
