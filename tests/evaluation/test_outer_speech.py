"""The outer-speech set and its metrics: claim support, coverage, length, per backend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogtree.evaluation.janus.datasets import DEFAULT_DATA, DatasetError
from cogtree.evaluation.janus.outer_speech import (
    OUTER_SPEECH_FILE,
    OuterSpeechItem,
    claim_counts,
    evidence_support,
    fact_coverage,
    load_outer_speech,
    pack_names,
    score_outer_speech,
    word_count,
)
from cogtree.evaluation.janus.runner import ModuleRunner
from cogtree.evaluation.metrics import row_key
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.packs.domains.advisor.knowledge_graph import load_advisor_graph
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner
from cogtree.knowledge.understanding.faithfulness import LexiconNames
from cogtree.knowledge.understanding.lexicon_book import LexiconBook


@pytest.fixture(scope="module")
def items() -> list[OuterSpeechItem]:
    return load_outer_speech(DEFAULT_DATA / OUTER_SPEECH_FILE)


@pytest.fixture(scope="module")
def forms() -> LexiconNames:
    registry = DomainRegistry.discover()
    return pack_names(LexiconBook(registry), registry, "advisor")


def test_the_set_exceeds_janus_31_items_over_both_knowledge_tasks(
    items: list[OuterSpeechItem],
) -> None:
    assert len(items) >= 31
    assert {item.task for item in items} == {"DishInfo", "SubstituteDish"}
    assert all(item.rows for item in items)
    questions = {
        json.loads(line)["question"].casefold()
        for line in (DEFAULT_DATA / "query.jsonl").read_text().splitlines()
    }
    assert not [item.request for item in items if item.request.casefold() in questions]


def test_every_reference_is_supported_by_its_evidence_and_states_its_facts(
    items: list[OuterSpeechItem], forms: LexiconNames
) -> None:
    for item in items:
        claims, supported = claim_counts(item.reference, evidence_support(item), forms)
        assert claims > 0 and supported == claims, item.request
        assert fact_coverage(item.reference, item.facts) == 1.0, item.request


def test_the_stored_rows_are_what_the_stored_query_returns(items: list[OuterSpeechItem]) -> None:
    graph = load_advisor_graph()
    for item in items:
        with ReadOnlyQueryRunner(graph, {"adv": "https://cogtree.dev/advisor#"}) as runner:
            returned = {row_key(row) for row in runner.run(item.query, template=True).rows}
        # rows naming what the person must not be offered were dropped from the evidence
        assert {row_key(row) for row in item.rows} <= returned, item.request


def test_claim_support_counts_invented_numbers_and_names(
    items: list[OuterSpeechItem], forms: LexiconNames
) -> None:
    porridge = next(item for item in items if "porridge" in item.request)
    support = evidence_support(porridge)
    assert claim_counts("It has 471.4 kcal.", support, forms) == (1, 1)
    assert claim_counts("It has about 471 kcal.", support, forms) == (1, 1)
    assert claim_counts("It has 472 kcal and 9 g of fibre.", support, forms) == (2, 0)
    invented = "The mushroom risotto has 471.4 kcal, take it with Ibuprofen."
    assert claim_counts(invented, support, forms) == (3, 1)
    assert claim_counts("pad Thai with prawns", support, forms) == (1, 0)  # one name, not two


def test_coverage_matches_numbers_by_value_and_names_as_words() -> None:
    facts = ["Greek salad", "419.1", "13.3"]
    assert fact_coverage("The Greek salad has 419.1 kcal and 13.3 g of protein.", facts) == 1.0
    assert fact_coverage("The greek salads have about 419 kcal.", facts) == pytest.approx(2 / 3)
    assert fact_coverage("It has 420 kcal.", facts) == 0.0
    assert fact_coverage("anything", []) == 1.0
    assert word_count("Pad Thai has 106 g of carbohydrate.") == 7


def test_a_bad_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "speech.jsonl"
    path.write_text('{"request": "x", "domain": "advisor"}\n')
    with pytest.raises(DatasetError, match=r"speech\.jsonl:1: field `task`"):
        load_outer_speech(path)


def test_no_model_says_the_template_and_the_oracle_says_the_reference(
    items: list[OuterSpeechItem],
) -> None:
    chosen = items[:2] + items[-2:]
    with ModuleRunner("none") as runner:
        alone = score_outer_speech(runner, chosen)
    with ModuleRunner("scripted") as runner:
        oracle = score_outer_speech(runner, chosen)
    assert {result.source for result in alone.results} == {"safe_default"}
    assert [result.reply for result in oracle.results] == [item.reference for item in chosen]
    assert oracle.share("model") == 1.0 and oracle.coverage == 1.0
    assert alone.claim_support == oracle.claim_support == 1.0
    assert oracle.words == pytest.approx(oracle.reference_words)


def test_an_unfaithful_answer_is_replaced_and_never_scored_as_said(
    items: list[OuterSpeechItem],
) -> None:
    porridge = next(item for item in items if "porridge" in item.request)
    lying = porridge.model_copy(update={"reference": "It has 250 kcal and lots of Ibuprofen."})
    with ModuleRunner("scripted") as runner:
        score = score_outer_speech(runner, [lying])
    (result,) = score.results
    assert result.reply != lying.reference and "471.4" in result.reply
    assert result.supported == result.claims
