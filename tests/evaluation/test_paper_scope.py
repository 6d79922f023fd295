"""JANUS's own scope study: Table 2's domains, Table 3's triads and ALL, beside the paper."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import pytest

from cogtree.evaluation.janus.datasets import DatasetError
from cogtree.evaluation.janus.paper_scope import (
    ALL,
    PAPER_CONFIGURATIONS,
    TABLE_2,
    load_paper_requests,
    paper_profiles,
    paper_rows,
    paper_table,
)
from cogtree.evaluation.janus.scope_similarity import tfidf_similarity
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.turn_state import OUT_OF_SCOPE
from cogtree.trees.cli.eval_command import run_eval


def test_the_configurations_are_table_3s() -> None:
    codes = {paper.code: paper for paper in PAPER_CONFIGURATIONS}
    assert list(codes) == ["MHS", "HSR", "ATT", "TEF", "TER", ALL]
    assert codes["TER"].domains == ("Travel", "Events", "Restaurants")
    assert codes["HSR"].accuracy == pytest.approx(0.958)
    similarities = [paper.similarity or 0.0 for paper in PAPER_CONFIGURATIONS[:5]]
    assert similarities == sorted(similarities)  # lowest overlap first, as the paper lists them
    assert codes[ALL].domains == tuple(TABLE_2)


def test_the_paper_domains_are_loaded_in_table_2s_order() -> None:
    profiles = paper_profiles(DomainRegistry.discover())
    assert [profile.name for profile in profiles] == list(TABLE_2.values())
    assert profiles[1].pack == "advisor"


def test_the_shipped_requests_load_with_profile_names_as_labels() -> None:
    sets = load_paper_requests()
    assert {code: len(items) for code, items in sets.items()} == {
        ALL: 66,
        **{paper.code: 24 for paper in PAPER_CONFIGURATIONS[:5]},
    }
    assert {item.domain for item in sets[ALL]} == {*TABLE_2.values(), OUT_OF_SCOPE}
    assert {item.domain for item in sets["MHS"]} == {
        "movies",
        "health_symptoms",
        "shopping",
        OUT_OF_SCOPE,
    }


def test_a_bad_request_file_names_the_configuration_and_field(tmp_path: Path) -> None:
    path = tmp_path / "requests.yaml"
    path.write_text(
        "MHS:\n  domains: [Movies, HealthSymptoms, Shopping, OutOfScope]\n"
        "  items:\n    - {text: book a table, domain: Restaurants, task: TableBooking}\n"
    )
    with pytest.raises(DatasetError, match=r"MHS item 1: field `domain` 'Restaurants'"):
        load_paper_requests(path)
    path.write_text("XYZ:\n  domains: []\n  items: []\n")
    with pytest.raises(DatasetError, match="XYZ: no configuration of Table 3"):
        load_paper_requests(path)
    path.write_text(
        "TER:\n  domains: [Travel, Events, OutOfScope]\n  items:\n    - {text: a, domain: Travel}\n"
    )
    with pytest.raises(DatasetError, match="TER: field `domains` should be"):
        load_paper_requests(path)


def test_each_configuration_is_routed_among_its_own_candidates() -> None:
    profiles = paper_profiles(DomainRegistry.discover())
    sets = load_paper_requests()
    rows = paper_rows(profiles, sets, [tfidf_similarity(profiles)], backend="scripted", llm=None)
    assert [row.paper.code for row in rows] == [paper.code for paper in PAPER_CONFIGURATIONS]
    assert all(row.accuracy is not None and 0.0 <= row.accuracy <= 1.0 for row in rows)
    by_code = {row.paper.code: row for row in rows}
    assert by_code[ALL].items == 66 and by_code["TEF"].items == 24
    assert set(by_code["TER"].similarity) == {"TF-IDF"}
    table = paper_table(rows)
    assert "| HSR | HealthSymptoms, Shopping, Restaurants | 0.557 |" in table
    assert "0.985" in table


def test_the_command_prints_the_paper_table_and_writes_the_heatmap(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    eval_args: Callable[..., argparse.Namespace],
) -> None:
    pytest.importorskip("matplotlib")
    heatmap = tmp_path / "janus.png"
    argv = ["scope-similarity", "--paper", "--backend", "none", "--embedding", "tfidf"]
    code = run_eval(eval_args(*argv, "--heatmap", str(heatmap)))
    out = capsys.readouterr().out
    assert code == 0
    assert "Similarity of Table 2's domain descriptions" in out
    assert "| TER | Travel, Events, Restaurants | 0.715 |" in out
    assert heatmap.read_bytes()[:4] == b"\x89PNG"
