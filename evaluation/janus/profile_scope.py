"""Scope detection at JANUS's scale: 11 domains + OutOfScope, routed over domain profiles.

The domains are the shipped packs' profiles and the profile files of
``knowledge/packs/domain_profiles`` (:func:`~knowledge.packs.domain_profile.load_profiles`); the
items are
``tests/data/eval/scope_profiles.jsonl`` (an utterance and its domain or OutOfScope). Routing
is the scope cascade of :func:`~evaluation.janus.clinc.route_items`: the
:class:`~knowledge.understanding.scope_matching.ScopeMatcher` with the pack thresholds over each
profile's description and examples decides when it is sure; otherwise the backend's model chooses
among the profiles and OutOfScope (the scripted ORACLE answers with the label); with no model the
matcher's guess is the safe default. DetectScope itself is not run: it routes among loaded
packs, and eight of the domains have no pack.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from cogtree.evaluation.janus.clinc import ClincData, route_items
from cogtree.evaluation.janus.datasets import DatasetError, load_items
from cogtree.evaluation.janus.runner import ItemResult, ModuleScore, select
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.packs.domain_profile import DomainProfile
from cogtree.knowledge.understanding.scope_matching import ScopeMatcher
from cogtree.knowledge.understanding.turn_state import OUT_OF_SCOPE

PROFILE_SCOPE_FILE = "scope_profiles.jsonl"
"""The set's file name in the evaluation directory."""


class ProfileScopeItem(BaseModel):
    """An utterance and its domain: a profile's name or OutOfScope (checked at load)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    utterance: str
    domain: str
    tag: str = Field("plain", description="the kind of case: plain, short, indirect, ...")


def load_profile_scope(path: Path, profiles: Sequence[DomainProfile]) -> list[ProfileScopeItem]:
    """The items of ``path``; :class:`DatasetError` for an item whose domain is no profile."""
    known = {profile.name for profile in profiles} | {OUT_OF_SCOPE}

    def check(item: ProfileScopeItem) -> str | None:
        if item.domain in known:
            return None
        return f"field `domain`: {item.domain!r} is no domain profile; use one of " + ", ".join(
            sorted(known)
        )

    return load_items(path, ProfileScopeItem, check=check)


def profile_matcher(profiles: Sequence[DomainProfile]) -> ScopeMatcher:
    """The scope matcher over ``profiles``, with the thresholds chosen for domain packs."""
    return ScopeMatcher.sized_like_packs(
        {profile.name: profile.scope_texts() for profile in profiles}
    )


def score_profile_scope(
    profiles: Sequence[DomainProfile],
    items: Sequence[ProfileScopeItem],
    *,
    backend: str,
    llm: LLMClient | None,
    label: str = "",
    limit: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> ModuleScore:
    """Domain accuracy over ``profiles`` + OutOfScope, as a ``scope`` row of the report.

    Items whose domain is not among ``profiles`` count as OutOfScope (the configurations of
    the similarity study route among three domains).
    """
    if not items:
        raise DatasetError("the profile scope set holds no items")
    started = time.perf_counter()
    names = {profile.name for profile in profiles}
    chosen = select(items, limit)
    pairs = [
        (item.utterance, item.domain if item.domain in names else OUT_OF_SCOPE)
        for _, item in chosen
    ]
    data = ClincData({profile.name: profile.scope_texts() for profile in profiles}, pairs)
    routed = route_items(
        data,
        pairs,
        matcher=profile_matcher(profiles),
        llm=llm,
        oracle=backend == "scripted",
        progress=None if progress is None else lambda done, total: progress("scope", done, total),
    )
    results = [
        ItemResult(
            index, gold, got.domain, got.domain == gold, got.source, got.calls, seconds=got.seconds
        )
        for (index, _), (_, gold), got in zip(chosen, pairs, routed, strict=True)
    ]
    return ModuleScore(
        "scope",
        backend,
        results,
        round(time.perf_counter() - started, 3),
        label=label,
        variant=f"{len(profiles)} domains + {OUT_OF_SCOPE}",
    )
