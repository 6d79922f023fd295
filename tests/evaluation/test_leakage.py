"""No pack example may nearly copy a scenario request or an evaluation item (TF-IDF >= 0.8)."""

from __future__ import annotations

from pathlib import Path

from trees.evaluation.leakage import (
    THRESHOLD,
    Text,
    evaluation_requests,
    find_leaks,
    pack_examples,
    scenario_requests,
)

ROOT = Path(__file__).resolve().parents[2]
SHARED_CLARIFY = ROOT.parent / "shared" / "data" / "clarify"


def test_no_pack_example_copies_a_request() -> None:
    examples = pack_examples(sorted((ROOT / "knowledge" / "domains").glob("*/pack.yaml")))
    requests = scenario_requests(sorted((ROOT / "sim" / "scenarios").glob("*.yaml")))
    requests += evaluation_requests(sorted((ROOT / "tests" / "data" / "eval").glob("*.jsonl")))
    requests += evaluation_requests(sorted(SHARED_CLARIFY.glob("*.jsonl")))
    assert len(examples) > 100 and len(requests) > 200  # the files were found and read
    leaks = find_leaks(examples, requests)
    for leak in leaks:
        print(leak)
    assert not leaks, f"{len(leaks)} pack example(s) copy a request (cosine >= {THRESHOLD}):\n" + (
        "\n".join(map(str, leaks))
    )


def test_a_reworded_copy_is_found_and_a_new_sentence_is_not() -> None:
    examples = [
        Text("bring me the blue bottle please", "pack"),
        Text("what is on my calendar for tomorrow", "pack"),
    ]
    requests = [Text("please bring me the blue bottle", "eval"), Text("fetch a towel", "eval")]
    leaks = find_leaks(examples, requests)
    assert [(leak.example.text, leak.request.text) for leak in leaks] == [
        ("bring me the blue bottle please", "please bring me the blue bottle")
    ]
    assert leaks[0].similarity >= THRESHOLD
