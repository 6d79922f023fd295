"""``cogtree eval card`` against a fake Ollama server: the two reports and the gate's threshold.

The server is the fake of tests/llm/test_ollama_option_scores.py: a real HTTP server on the
loopback answering ``/api/chat`` (one token with its log-probabilities), ``/api/version`` and
``/api/tags`` the way Ollama does. Every structured answer of the modules is then malformed
(the gates take their safe decisions), which is what a card shows for a model that cannot
follow the schemas; the option scores are real log-probabilities, so the threshold is fitted.
The calibration items are the tests' own (tests/evaluation/test_calibrated.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.safety.conformal_threshold import load_threshold
from cogtree.trees.cli.llm_options import use_default_calibration
from cogtree.trees.cli.main import main
from cogtree.trees.cli.user_data import calibration_path
from tests.evaluation.test_calibrated import write
from tests.llm.test_ollama_option_scores import MODEL, WITH_LOGPROBS, FakeOllama


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    server = FakeOllama(WITH_LOGPROBS)
    yield server
    server.close()


@dataclass(frozen=True)
class CardRun:
    """How a card run went: exit code, stderr, the manifest layer and the reports' directory."""

    code: int
    err: str
    layer: Path
    out: Path


@pytest.fixture
def run_card(
    tmp_path: Path,
    fake_ollama: FakeOllama,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Callable[..., CardRun]:
    """Run the card on the fake server and the tests' four calibration items (own data dir)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    layer = tmp_path / "llm.yaml"
    layer.write_text(f"defaults:\n  ollama_host: {fake_ollama.url}\n  timeout_s: 5\n")
    out = tmp_path / "cards"

    def run(*extra: str) -> CardRun:
        code = main(
            [
                "eval", "card", "--llm", "ollama", "--model", MODEL, "--config", str(layer),
                "--output-dir", str(out), "--clarify", str(write(tmp_path)),
                "--module-items", "1", "--clarify-items", "4", "--scenarios", "goto_kitchen",
                "--epsilon", "0.3", *extra,
            ]
        )  # fmt: skip
        return CardRun(code, capsys.readouterr().err, layer, out)

    return run


def test_the_card_writes_both_reports_and_the_threshold_the_gate_then_uses(
    run_card: Callable[..., CardRun], fake_ollama: FakeOllama
) -> None:
    run = run_card("--min-fit-items", "4")
    err, layer, out = run.err, run.layer, run.out
    assert run.code == 0, err
    assert "[card] modules: scope 1/1" in err and "[card] bench:" in err  # progress shown
    card = json.loads((out / "card_ollama_qwen2.5_3b.json").read_text())
    assert card["model"] == {"backend": "ollama", "name": MODEL}
    assert card["hardware"]["cores"] and len(card["commit"]["id"]) == 40  # this checkout's
    assert {row["module"] for row in card["modules"]} == {
        "scope", "intent", "readiness", "query", "grounding", "sufficiency"
    }  # fmt: skip
    assert set(card["sections"]) >= {"Short bench (gated tree)"}
    assert fake_ollama.chats  # the model was asked
    markdown = (out / "card_ollama_qwen2.5_3b.md").read_text()
    assert markdown.startswith(f"# Report card: ollama {MODEL}")
    assert "Per-module latency and tokens" in markdown

    # the threshold is where the gate looks for this model, and a client of it is calibrated
    where = calibration_path("ollama", MODEL)
    assert card["calibration"]["file"] == str(where)
    threshold = load_threshold(where)
    assert (threshold.backend, threshold.model) == ("ollama", MODEL)
    config = LLMConfig.load(str(layer)).with_backend("ollama")
    with LLMClient(config) as client:
        assert use_default_calibration(client) == where
        assert client.settings_for("inner_speech").calibration == str(where)


def test_a_threshold_fitted_on_too_few_items_is_reported_and_not_written(
    run_card: Callable[..., CardRun],
) -> None:
    """Four items, under the default minimum: the figure is in the card, no file for the gate."""
    run = run_card()
    err, layer, out = run.err, run.layer, run.out
    assert run.code == 0, err
    assert not calibration_path("ollama", MODEL).exists()
    calibration = json.loads((out / "card_ollama_qwen2.5_3b.json").read_text())["calibration"]
    assert calibration["threshold"].endswith("on 4 items") and calibration["file"] == "not written"
    assert "stays uncalibrated" in calibration["in use"] and "--clarify-items 50" in err
    assert "stays uncalibrated" in (out / "card_ollama_qwen2.5_3b.md").read_text()
    with LLMClient(LLMConfig.load(str(layer)).with_backend("ollama")) as client:
        assert use_default_calibration(client) is None


def test_no_threshold_file_leaves_the_gate_uncalibrated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with LLMClient(LLMConfig.load().with_backend("llama-cpp")) as client:
        assert use_default_calibration(client) is None
        assert client.settings_for("inner_speech").calibration is None


def test_a_model_chosen_after_the_manifest_gets_its_own_threshold(
    tmp_path: Path, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`cogtree ros` names its model as a parameter: the threshold found is that model's.

    Checked to fail before: the model was set after the client looked up the manifest's.
    """
    import argparse

    from cogtree.trees.cli.llm_options import add_llm_arguments, client_from_args

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    where = calibration_path("ollama", MODEL)
    where.parent.mkdir(parents=True)
    where.write_text("{}")
    layer = tmp_path / "llm.yaml"  # its own model is not the one the robot runs
    layer.write_text(
        f"defaults:\n  ollama_host: {fake_ollama.url}\n  timeout_s: 5\n  model: small:1b\n"
    )
    parser = argparse.ArgumentParser()
    add_llm_arguments(parser)
    args = parser.parse_args(["--llm", "ollama", "--config", str(layer)])
    with client_from_args(args, MODEL) as client:
        assert client.settings_for("inner_speech").calibration == str(where)
