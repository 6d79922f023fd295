"""No pack example may nearly copy a scenario request or an evaluation item.

Pack examples: TF-IDF cosine below 0.8. The JANUS profiles' examples, held more strictly:
cosine below 0.6 and no run of five consecutive words shared with any request.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtree.evaluation.leakage import (
    EXAMPLE_THRESHOLD,
    SHARED_RUN,
    THRESHOLD,
    Text,
    code_sentences,
    configuration_requests,
    evaluation_requests,
    find_example_leaks,
    find_leaks,
    find_sentence_leaks,
    markdown_sentences,
    pack_examples,
    profile_examples,
    scenario_requests,
    sentences,
    shared_run,
    shipped_sentences,
    yaml_sentences,
)

ROOT = Path(__file__).resolve().parents[2]
SHARED_CLARIFY = ROOT.parent / "shared" / "data" / "clarify"
PAPER_SETS = ROOT / "evaluation" / "janus" / "paper_sets"


def test_no_pack_example_copies_a_request() -> None:
    examples = pack_examples(sorted((ROOT / "knowledge" / "packs" / "domains").glob("*/pack.yaml")))
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


def _all_requests() -> tuple[list[Text], list[Text]]:
    """The paper study's labelled requests, and those with every other request after them."""
    paper = configuration_requests(sorted(PAPER_SETS.glob("*.yaml")))
    requests = [*paper, *scenario_requests(sorted((ROOT / "sim" / "scenarios").glob("*.yaml")))]
    requests += evaluation_requests(sorted((ROOT / "tests" / "data" / "eval").glob("*.jsonl")))
    requests += evaluation_requests(sorted(SHARED_CLARIFY.glob("*.jsonl")))
    return paper, requests


def test_no_profile_example_copies_a_request() -> None:
    """Both profile sets, against every request and the paper study's labelled requests."""
    packs = ROOT / "knowledge" / "packs"
    examples = profile_examples(sorted((packs / "domain_profiles").glob("*.yaml")))
    examples += profile_examples(sorted((packs / "janus_profiles").glob("*.yaml")))
    examples += pack_examples([packs / "domains" / "advisor" / "pack.yaml"])
    paper, requests = _all_requests()
    assert len(examples) > 300 and len(paper) == 66 + 5 * 24
    leaks = find_leaks(examples, requests)
    assert not leaks, f"{len(leaks)} profile example(s) copy a request:\n" + (
        "\n".join(map(str, leaks))
    )


def test_no_janus_profile_example_comes_near_a_request() -> None:
    """The JANUS profiles: cosine under 0.6 and no five-word run shared with any request."""
    examples = profile_examples(
        sorted((ROOT / "knowledge" / "packs" / "janus_profiles").glob("*.yaml"))
    )
    paper, requests = _all_requests()
    assert len(examples) > 100 and len(paper) == 66 + 5 * 24
    leaks = find_example_leaks(examples, requests)
    assert not leaks, (
        f"{len(leaks)} JANUS profile example(s) within {EXAMPLE_THRESHOLD} cosine of a request "
        f"or sharing {SHARED_RUN}+ consecutive words with one:\n" + "\n".join(map(str, leaks))
    )


def test_a_shared_run_of_five_words_is_a_leak_even_at_a_low_cosine() -> None:
    long_run = "after the storm my elbow is stiff and sore, said the gardener to the neighbour"
    four_words = "my elbow is stiff when it rains in the garden"
    requests = [Text("Since Monday my Elbow is stiff, and sore; what helps?", "eval")]
    leaks = find_example_leaks([Text(long_run, "profile"), Text(four_words, "profile")], requests)
    assert [(leak.example.text, leak.shared) for leak in leaks] == [
        (long_run, "my elbow is stiff and sore")
    ]
    assert leaks[0].similarity < EXAMPLE_THRESHOLD  # the cosine alone would have let it through
    assert shared_run(four_words, requests[0].text) == "my elbow is stiff"


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


def test_nothing_shipped_copies_a_development_item() -> None:
    """Lexicons, scenario requests, docs and code strings, sentence by sentence (>= 5 words)."""
    items = sorted(SHARED_CLARIFY.glob("*.jsonl"))
    if not items:
        pytest.skip(
            f"no development sets at {SHARED_CLARIFY}: this check needs the shared data next to "
            "the repository (CI clones it there); nothing to compare against here"
        )
    shipped = shipped_sentences(ROOT)
    origins = {text.origin.split(":")[0] for text in shipped}
    assert len(shipped) > 1000 and any(o.endswith(".md") for o in origins)
    assert any(o.endswith(".py") for o in origins) and any(o.endswith(".yaml") for o in origins)
    leaks = find_sentence_leaks(shipped, evaluation_requests(items))
    assert not leaks, f"{len(leaks)} shipped sentence(s) copy a development item:\n" + (
        "\n".join(map(str, leaks))
    )


def test_sentences_keep_only_those_of_five_words_or_more() -> None:
    text = "Apple. Bring the striped towel to the porch please! Soap\n\n- a list item of six words"
    assert sentences(text) == [
        "Bring the striped towel to the porch please!",
        "a list item of six words",
    ]


def test_every_kind_of_shipped_text_is_read(tmp_path: Path) -> None:
    (tmp_path / "words.yaml").write_text(
        "verbs: {carry: [carry the heavy parcel to the shed]}\nsay: [ok]\n", encoding="utf-8"
    )
    (tmp_path / "doc.md").write_text("# Title\n\nThe robot waters the fern every morning.\n")
    (tmp_path / "code.py").write_text(
        '"""Module docstring with enough words in it."""\nX = "polish the brass door knocker now"\n'
    )
    found = [
        *yaml_sentences([tmp_path / "words.yaml"]),
        *markdown_sentences([tmp_path / "doc.md"]),
        *code_sentences([tmp_path / "code.py"]),
    ]
    assert [t.text for t in found] == [
        "carry the heavy parcel to the shed",
        "The robot waters the fern every morning.",
        "Module docstring with enough words in it.",
        "polish the brass door knocker now",
    ]
    items = [Text("First do this. Then polish the brass door knocker now please.", "dev")]
    leaks = find_sentence_leaks(found, items)
    assert [leak.example.text for leak in leaks] == ["polish the brass door knocker now"]
