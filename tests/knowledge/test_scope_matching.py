"""ScopeMatcher: kNN scope detection over TF-IDF, with sure / unsure / out-of-scope zones."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.scope_matching import (
    MAX_CHARS,
    OUT_OF_SCOPE,
    PACK_THRESHOLDS,
    NearestExamples,
    ScopeMatcher,
    Thresholds,
    domain_examples,
)

CLINC = Path(__file__).resolve().parents[2] / "data" / "clinc150"

EXAMPLES = {
    "kitchen": [
        "what can I cook with eggs and flour",
        "how long do I boil an egg",
        "give me a recipe for pancakes",
        "how many calories are in a banana",
        "is this pasta sauce vegan",
        "suggest a dessert without nuts",
    ],
    "garden": [
        "when should I water the tomatoes",
        "how do I prune the roses",
        "which plants grow well in shade",
        "the lawn needs mowing",
        "what fertiliser for the vegetable patch",
        "how deep do I plant tulip bulbs",
    ],
}


@pytest.fixture(scope="module")
def matcher() -> ScopeMatcher:
    return ScopeMatcher(EXAMPLES, accept=0.30, reject=0.12, margin=0.08, neighbours=2)


def test_sure_in_scope_guess_names_the_domain(matcher: ScopeMatcher) -> None:
    guess = matcher.match("how do I prune my roses in spring")
    assert guess.domain == "garden" and guess.in_scope and guess.confident
    assert guess.scores["garden"] > guess.scores["kitchen"]
    assert guess.ranked()[0][0] == "garden"
    assert 0.5 <= guess.confidence <= 1.0


def test_unrelated_utterance_is_out_of_scope(matcher: ScopeMatcher) -> None:
    guess = matcher.match("book me a flight to Zurich")
    assert guess.domain == OUT_OF_SCOPE and not guess.in_scope
    sure = matcher.match("qqq xxx")
    assert sure.domain == OUT_OF_SCOPE and sure.confident and sure.confidence == 1.0
    assert "no domain is close" in sure.reason


def test_a_weak_or_close_call_is_not_confident(matcher: ScopeMatcher) -> None:
    # words from both domains: plants and recipes
    guess = matcher.match("recipe for tomato plants")
    assert not guess.confident
    assert guess.domain in EXAMPLES


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_input_is_out_of_scope_with_a_reason(matcher: ScopeMatcher, text: str) -> None:
    guess = matcher.match(text)
    assert guess.domain == OUT_OF_SCOPE and guess.confident and guess.reason == "nothing was said"


@pytest.mark.parametrize(
    "text", ["#$%^&*", "qwxz vbnm plokij", "🙂🙂🙂", "¿Dónde están mis llaves?", "这是什么"]
)
def test_garbled_or_foreign_input_never_crashes(matcher: ScopeMatcher, text: str) -> None:
    guess = matcher.match(text)
    assert set(guess.scores) == set(EXAMPLES)
    assert all(0.0 <= score <= 1.0 for score in guess.scores.values())
    assert 0.0 <= guess.confidence <= 1.0


def test_very_long_input_is_cut_and_still_matched(matcher: ScopeMatcher) -> None:
    long_text = "how do I prune the roses " + "la " * 50_000
    guess = matcher.match(long_text)
    assert len(long_text) > MAX_CHARS
    assert guess.domain == "garden"


def test_match_many_agrees_with_match(matcher: ScopeMatcher) -> None:
    texts = ["give me a pancake recipe", "water the tomatoes", "", "book a flight"] * 100
    batch = matcher.match_many(texts)
    assert [g.domain for g in batch[:4]] == [matcher.match(t).domain for t in texts[:4]]
    assert len(batch) == 400


@pytest.mark.parametrize(
    ("best", "runner_up", "zone", "confident", "confidence"),
    [
        (0.0, 0.0, "none", True, 1.0),
        (0.1, 0.0, "none", True, 0.75),
        (0.25, 0.0, "unlikely", False, 0.25),
        (0.35, 0.0, "weak", False, 0.25),
        (0.45, 0.40, "close_call", False, 0.25),
        (0.4, 0.3, "sure", True, 0.5),
        (0.5, 0.3, "sure", True, 0.75),
        (0.9, 0.0, "sure", True, 1.0),
    ],
)
def test_thresholds_judge_zones_and_confidence(
    best: float, runner_up: float, zone: str, confident: bool, confidence: float
) -> None:
    judged = Thresholds(accept=0.4, reject=0.2, margin=0.1).judge(best, runner_up)
    assert (judged.zone, judged.confident) == (zone, confident)
    assert judged.confidence == pytest.approx(confidence)
    assert judged.keeps_label == (zone in ("sure", "close_call", "weak"))


def test_no_label_can_be_an_unsure_judgement() -> None:
    judged = Thresholds(accept=0.4, reject=0.2, margin=0.1).judge(0.1, 0.0, none_is_sure=False)
    assert judged.zone == "none" and not judged.confident and judged.confidence < 0.5


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"accept": 0.2, "reject": 0.3}, "reject <= accept"),
        ({"accept": 1.5}, "reject <= accept <= 1"),
        ({"margin": -0.1}, "margin must be >= 0"),
        ({"neighbours": 0}, "neighbours must be >= 1"),
    ],
)
def test_bad_thresholds_are_refused(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ScopeMatcher(EXAMPLES, **kwargs)  # type: ignore[arg-type]


def test_bad_examples_are_refused_with_the_domain_named() -> None:
    with pytest.raises(ValueError, match="'garden' has no non-empty example text"):
        ScopeMatcher({"kitchen": ["cook pasta"], "garden": ["", "  "]})
    with pytest.raises(ValueError, match="not one string"):
        ScopeMatcher({"kitchen": "cook pasta"})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="at least one label"):
        ScopeMatcher({})


def test_a_single_domain_and_wordless_examples_still_work() -> None:
    matcher = ScopeMatcher({"emoji": ["🙂 !!", "?? 🙂"]}, accept=0.3, reject=0.1)
    assert matcher.match("🙂 !!").domain == "emoji"
    assert matcher.match("zzz").domain == OUT_OF_SCOPE


def test_nearest_examples_average_the_k_closest() -> None:
    index = NearestExamples({"a": ["red apple", "green apple", "blue sky"]}, neighbours=1)
    assert index.score("red apple")["a"] == pytest.approx(1.0, abs=1e-5)
    wider = NearestExamples({"a": ["red apple", "green apple", "blue sky"]}, neighbours=3)
    assert wider.score("red apple")["a"] < 0.7
    assert index.size == 3 and index.features > 10


def test_registry_matcher_uses_descriptions_and_every_example() -> None:
    registry = DomainRegistry.discover()
    examples = domain_examples(registry)
    for pack in registry.packs:
        texts = examples[pack.name]
        assert texts[0] == pack.manifest.description
        assert set(pack.tasks[0].examples) <= set(texts)
    matcher = ScopeMatcher.from_registry(registry)
    assert matcher.domains == registry.names
    assert matcher.index.size == sum(len(texts) for texts in examples.values())
    assert matcher.thresholds.accept == PACK_THRESHOLDS["accept"]
    tighter = ScopeMatcher.from_registry(registry, accept=0.5)
    assert tighter.thresholds.accept == 0.5
    assert tighter.thresholds.reject == PACK_THRESHOLDS["reject"]


@pytest.mark.parametrize(
    ("utterance", "domain"),
    [
        ("How many carbohydrates are in tiramisu?", "advisor"),
        ("could you tidy up the bedroom please", "household"),
        ("where did I leave my glasses", "household"),
        ("please ask Tom to sign the delivery form", "office"),
        ("what's the weather like in Zurich tomorrow", OUT_OF_SCOPE),
        ("play some jazz music", OUT_OF_SCOPE),
    ],
)
def test_shipped_packs_are_told_apart(utterance: str, domain: str) -> None:
    matcher = ScopeMatcher.from_registry(DomainRegistry.discover())
    assert matcher.match(utterance).domain == domain


def test_clinc150_domains_are_mostly_right_with_the_default_thresholds() -> None:
    data = json.loads((CLINC / "clinc150_dev.json").read_text(encoding="utf-8"))
    domains = json.loads((CLINC / "domains.json").read_text(encoding="utf-8"))
    domain_of = {intent: domain for domain, intents in domains.items() for intent in intents}
    examples: dict[str, list[str]] = defaultdict(list)
    for text, intent in data["train"]:
        examples[domain_of[intent]].append(text)
    matcher = ScopeMatcher(examples)
    val = data["val"][::10]
    guesses = matcher.match_many([text for text, _ in val])
    right = sum(g.domain == domain_of[intent] for g, (_, intent) in zip(guesses, val, strict=True))
    assert right / len(val) > 0.85
    assert sum(g.confident for g in guesses) / len(guesses) > 0.5
    outside = matcher.match_many([text for text, _ in data["oos_val"]])
    assert sum(not g.in_scope for g in outside) / len(outside) > 0.3
