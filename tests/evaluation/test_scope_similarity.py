"""The scope-similarity study: similarity matrices, configurations, the table and the heatmap."""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from cogtree.evaluation.janus.datasets import DEFAULT_DATA
from cogtree.evaluation.janus.profile_scope import PROFILE_SCOPE_FILE, load_profile_scope
from cogtree.evaluation.janus.scope_similarity import (
    LEVELS,
    SimilarityMatrix,
    configuration_table,
    embedding_similarity,
    evaluate_configurations,
    spread_configurations,
    tfidf_similarity,
    write_heatmap,
)
from cogtree.knowledge.packs.domain_profile import DomainProfile, ProfileTask, load_profiles
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.trees.cli.eval_command import run_eval


def profile(name: str, description: str) -> DomainProfile:
    task = ProfileTask(name="Do", description=description, examples=["a", "b", "c"])
    return DomainProfile(name=name, title=name, description=description, tasks=[task])


@pytest.fixture(scope="module")
def profiles() -> list[DomainProfile]:
    return load_profiles(DomainRegistry.discover().packs)


def test_tfidf_similarity_is_symmetric_and_ranks_shared_words_higher() -> None:
    matrix = tfidf_similarity(
        [
            profile("tea", "brew green tea and black tea in a teapot"),
            profile("coffee", "brew coffee and espresso in a pot"),
            profile("tyres", "change a flat bicycle tyre"),
        ]
    )
    assert np.allclose(matrix.values, matrix.values.T)
    assert np.allclose(np.diag(matrix.values), 1.0)
    assert matrix.pair("tea", "coffee") > matrix.pair("tea", "tyres")
    assert matrix.pair("coffee", "tyres") == pytest.approx(0.0)


def test_embedding_similarity_uses_the_vectors_it_is_given() -> None:
    vectors = {"x": [1.0, 0.0], "y": [1.0, 1.0], "z": [0.0, 1.0]}
    chosen = [profile(name, name) for name in vectors]
    matrix = embedding_similarity(
        chosen, lambda texts: [vectors[t.split()[0]] for t in texts], "toy"
    )
    assert matrix.pair("x", "z") == pytest.approx(0.0)
    assert matrix.pair("x", "y") == pytest.approx(2**-0.5)
    with pytest.raises(ValueError, match="returned 1 vectors for 3"):
        embedding_similarity(chosen, lambda texts: [[1.0, 0.0]], "broken")


def test_five_configurations_span_the_whole_range_of_overlap(
    profiles: list[DomainProfile],
) -> None:
    matrix = tfidf_similarity(profiles)
    chosen = spread_configurations(matrix)
    means = [matrix.mean(domains) for domains in itertools.combinations(matrix.names, 3)]
    assert [c.level for c in chosen] == list(LEVELS)
    assert all(len(set(c.domains)) == 3 for c in chosen)
    assert chosen[0].similarity == pytest.approx(min(means), abs=1e-4)
    assert chosen[-1].similarity == pytest.approx(max(means), abs=1e-4)
    assert [c.similarity for c in chosen] == sorted(c.similarity for c in chosen)


def test_too_few_domains_for_a_configuration_is_an_error() -> None:
    matrix = SimilarityMatrix("toy", ("a", "b"), np.eye(2))
    with pytest.raises(ValueError, match="2 domains cannot make a configuration of 3"):
        spread_configurations(matrix)


def test_each_configuration_routes_its_domains_and_out_of_scope_items(
    profiles: list[DomainProfile],
) -> None:
    items = load_profile_scope(DEFAULT_DATA / PROFILE_SCOPE_FILE, profiles)
    matrix = tfidf_similarity(profiles)
    configurations = spread_configurations(matrix)[:2]
    results = evaluate_configurations(
        profiles, items, configurations, backend="scripted", llm=None, embedded=matrix
    )
    for result in results:
        kept = [i for i in items if i.domain in (*result.configuration.domains, "OutOfScope")]
        assert result.items == len(kept)
        assert result.accuracy is not None and 0.0 <= result.accuracy <= 1.0
        assert result.embedding_similarity == pytest.approx(result.configuration.similarity)
    table = configuration_table(results)
    assert "| low |" in table and "mean similarity (embedding)" in table


NEEDS_PLOTS = "the heatmap needs the plots extra: pip install 'cogtree[plots]'"


def test_the_heatmap_is_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason=NEEDS_PLOTS)
    matrix = SimilarityMatrix("toy", ("a", "b"), np.array([[1.0, 0.3], [0.3, 1.0]]))
    path = write_heatmap([matrix, matrix], tmp_path / "out" / "heat.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_command_prints_the_table_and_writes_the_heatmap(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    eval_args: Callable[..., argparse.Namespace],
) -> None:
    pytest.importorskip("matplotlib", reason=NEEDS_PLOTS)
    heatmap = tmp_path / "heat.png"
    argv = ["scope-similarity", "--backend", "none", "--embedding", "tfidf", "--heatmap"]
    args = eval_args(*argv, str(heatmap))
    assert run_eval(args) == 0
    out = capsys.readouterr().out
    assert "## Similarity of the 11 domain descriptions" in out
    assert out.count("none (fast paths only)") == 5
    assert "embeddings skipped: --embedding tfidf" in out
    assert heatmap.is_file()


def test_the_command_names_a_bad_scope_file(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    eval_args: Callable[..., argparse.Namespace],
) -> None:
    bad = tmp_path / "scope.jsonl"
    bad.write_text('{"utterance": "x", "domain": "nowhere"}\n')
    args = eval_args("scope-similarity", "--data", str(bad), "--no-heatmap")
    assert run_eval(args) == 2
    assert "'nowhere' is no domain profile" in capsys.readouterr().err
