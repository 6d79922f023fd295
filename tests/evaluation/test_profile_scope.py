"""Scope over the 11 domain profiles + OutOfScope: the set, and routing on each backend."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cogtree.evaluation.janus.datasets import DEFAULT_DATA, DatasetError
from cogtree.evaluation.janus.profile_scope import (
    PROFILE_SCOPE_FILE,
    ProfileScopeItem,
    load_profile_scope,
    score_profile_scope,
)
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.packs.domain_profile import DomainProfile, load_profiles
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.turn_state import OUT_OF_SCOPE


@pytest.fixture(scope="module")
def profiles() -> list[DomainProfile]:
    return load_profiles(DomainRegistry.discover().packs)


@pytest.fixture(scope="module")
def items(profiles: list[DomainProfile]) -> list[ProfileScopeItem]:
    return load_profile_scope(DEFAULT_DATA / PROFILE_SCOPE_FILE, profiles)


def test_the_set_covers_every_domain_and_out_of_scope(
    profiles: list[DomainProfile], items: list[ProfileScopeItem]
) -> None:
    counts = Counter(item.domain for item in items)
    assert len(items) >= 66
    assert set(counts) == {profile.name for profile in profiles} | {OUT_OF_SCOPE}
    assert min(counts.values()) >= 6


def test_scope_items_are_no_profile_or_pack_example(
    profiles: list[DomainProfile], items: list[ProfileScopeItem]
) -> None:
    examples = {text.casefold() for profile in profiles for text in profile.scope_texts()}
    assert not [item.utterance for item in items if item.utterance.casefold() in examples]


def test_an_item_of_an_unknown_domain_is_named(
    tmp_path: Path, profiles: list[DomainProfile]
) -> None:
    path = tmp_path / "scope.jsonl"
    path.write_text('{"utterance": "play chess", "domain": "games"}\n')
    with pytest.raises(DatasetError, match=r"scope\.jsonl:1: field `domain`: 'games' is no"):
        load_profile_scope(path, profiles)


def test_no_model_decides_by_the_matcher_and_the_oracle_fixes_its_doubts(
    profiles: list[DomainProfile], items: list[ProfileScopeItem]
) -> None:
    with LLMClient(LLMConfig.load().with_backend("none")) as none:
        alone = score_profile_scope(profiles, items, backend="none", llm=none)
    oracle = score_profile_scope(profiles, items, backend="scripted", llm=None)
    assert alone.variant == oracle.variant == "11 domains + OutOfScope"
    assert alone.share("model") == 0.0 and not alone.calls
    assert alone.accuracy is not None and oracle.accuracy is not None
    # the oracle answers exactly the items the matcher doubts; sure guesses stay as they were
    assert alone.share("fast_path") == oracle.share("fast_path")
    assert len(oracle.calls) == sum(result.source == "model" for result in oracle.items) > 0
    assert all(r.correct for r in oracle.items if r.source == "model")
    assert oracle.accuracy > alone.accuracy


def test_items_of_domains_left_out_count_as_out_of_scope(
    profiles: list[DomainProfile], items: list[ProfileScopeItem]
) -> None:
    weather = [profile for profile in profiles if profile.name == "weather"]
    score = score_profile_scope(weather, items, backend="scripted", llm=None)
    expected = Counter(result.expected for result in score.items)
    assert set(expected) == {"weather", OUT_OF_SCOPE}
    assert expected["weather"] == sum(item.domain == "weather" for item in items)
