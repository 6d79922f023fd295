"""The evaluation sets: loaders with line-numbered errors, and the shipped sets themselves."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from cogtree.evaluation.janus.datasets import (
    DEFAULT_DATA,
    DatasetError,
    EvalData,
    IntentItem,
    ReadinessItem,
    ScopeItem,
    load_items,
)
from cogtree.evaluation.metrics import result_overlap
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.packs.domains.advisor.knowledge_graph import load_advisor_graph
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import list_scenarios, load_scenario


@pytest.fixture(scope="module")
def data() -> EvalData:
    return EvalData.load()


@pytest.fixture(scope="module")
def registry() -> DomainRegistry:
    return DomainRegistry.discover()


def write(path: Path, *lines: str) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_line_that_is_not_json_is_named_with_its_number(tmp_path: Path) -> None:
    path = write(
        tmp_path / "scope.jsonl",
        '{"utterance": "hi", "domain": "OutOfScope"}',
        "",
        '{"utterance": "bring me", "domain": household}',
    )
    with pytest.raises(DatasetError, match=r"scope\.jsonl:3: not a JSON object"):
        load_items(path, ScopeItem)


def test_a_bad_field_is_named_with_file_line_and_field(tmp_path: Path) -> None:
    path = write(
        tmp_path / "scope.jsonl",
        '{"utterance": "hi", "domain": "OutOfScope"}',
        '{"utterance": "hello", "domain": "garden"}',
    )
    with pytest.raises(DatasetError, match=r"scope\.jsonl:2: field `domain`: .*unknown domain"):
        load_items(path, ScopeItem)


def test_unknown_fields_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "scope.jsonl", '{"utterance": "hi", "domian": "advisor"}')
    with pytest.raises(DatasetError, match=r":1: field `domain`: Field required"):
        load_items(path, ScopeItem)


def test_scene_domains_must_name_a_scenario(tmp_path: Path) -> None:
    for name in ("scope", "readiness", "query"):
        (tmp_path / f"{name}.jsonl").write_text((DEFAULT_DATA / f"{name}.jsonl").read_text())
    write(
        tmp_path / "intent.jsonl",
        '{"utterance": "where is the milk", "domain": "household", "task": "WhereIs", '
        '"slots": {"object": "milk"}}',
    )
    with pytest.raises(DatasetError, match=r"intent\.jsonl:1: field `scenario`"):
        EvalData.load(tmp_path)


def test_missing_and_empty_files_say_what_to_pass(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="pass --data DIR"):
        load_items(tmp_path / "intent.jsonl", IntentItem)
    with pytest.raises(DatasetError, match="holds no items"):
        load_items(write(tmp_path / "intent.jsonl", ""), IntentItem)
    with pytest.raises(DatasetError, match="not a directory"):
        EvalData.load(tmp_path / "nowhere")


def test_readiness_turns_may_be_out_of_scope_but_intent_items_may_not(tmp_path: Path) -> None:
    line = '{"utterance": "sing a song", "domain": "OutOfScope", "task": null, "control": "Reject"}'
    assert load_items(write(tmp_path / "r.jsonl", line), ReadinessItem)[0].control == "Reject"
    with pytest.raises(DatasetError, match="unknown domain 'OutOfScope'"):
        load_items(
            write(tmp_path / "i.jsonl", line.replace(', "control": "Reject"', "")), IntentItem
        )


def test_the_shipped_sets_exceed_janus_item_counts(data: EvalData) -> None:
    assert data.count("scope") >= 80
    assert data.count("intent") >= 60
    assert data.count("readiness") >= 50
    assert data.count("query") >= 36


def test_scope_set_is_balanced_and_holds_the_hard_cases(data: EvalData) -> None:
    domains = Counter(item.domain for item in data.scope)
    assert set(domains) == {"household", "advisor", "office", "OutOfScope"}
    assert max(domains.values()) - min(domains.values()) <= 5
    tags = {item.tag for item in data.scope}
    assert {"short", "indirect", "mixed", "injection", "non_english", "garbled"} <= tags
    assert {"chitchat", "banking", "weather"} <= tags


def test_readiness_set_covers_every_decision_and_case(data: EvalData) -> None:
    assert {item.control for item in data.readiness} == {"Proceed", "Clarify", "Reject"}
    tags = {item.tag for item in data.readiness}
    assert {"complete", "missing", "pronoun", "ambiguous", "out_of_scope", "injection"} <= tags
    for item in data.readiness:
        assert (item.control == "Clarify") == bool(item.missing), item.utterance


def test_tasks_and_slots_are_the_packs(data: EvalData, registry: DomainRegistry) -> None:
    scenarios = {path.stem for path in list_scenarios()}
    for item in [*data.intent, *data.readiness, *data.query]:
        if item.domain == "OutOfScope":
            continue
        pack = registry.get(item.domain)
        if item.task is None:
            continue
        fields = pack.schema_for(item.task).model_fields
        assert set(item.slots) <= set(fields), (item.task, item.slots)
        assert item.scenario is None or item.scenario in scenarios


def test_query_references_are_what_their_reference_queries_return(data: EvalData) -> None:
    advisor = load_advisor_graph()
    worlds: dict[str, SimExecutor] = {}
    # one runner per graph: a runner starts its sandbox process once and reuses it
    runners: dict[str, ReadOnlyQueryRunner] = {}
    scene = {"cog": "https://cogtree.dev/ontology#", "scene": "https://cogtree.dev/scene#"}
    try:
        for item in data.query:
            if item.domain == "advisor":
                graph, prefixes, key = advisor, {"adv": "https://cogtree.dev/advisor#"}, ""
            else:
                assert item.scenario is not None
                if item.scenario not in worlds:
                    worlds[item.scenario] = SimExecutor.from_scenario(load_scenario(item.scenario))
                belief = worlds[item.scenario].belief
                assert belief is not None
                graph, prefixes, key = belief.graph, scene, item.scenario
            if key not in runners:
                runners[key] = ReadOnlyQueryRunner(graph, prefixes, timeout_s=10.0)
            rows = runners[key].run(item.reference_query).rows
            assert result_overlap(rows, item.rows) == 1.0, item.question
    finally:
        for runner in runners.values():
            runner.close()
        for world in worlds.values():
            world.close()


def test_every_line_is_one_json_object() -> None:
    for name in ("scope", "intent", "readiness", "query"):
        for line in (DEFAULT_DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            assert isinstance(json.loads(line), dict)
