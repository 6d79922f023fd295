"""``cogtree ros`` and ``cogtree view --ros`` without ROS: the install hint; the model override."""

from __future__ import annotations

import sys

import pytest

from cogtree.knowledge.llm.config import LLMConfig
from cogtree.trees.cli.main import main


@pytest.mark.parametrize(
    ("argv", "missing"),
    [
        (["ros", "--llm", "none"], "ROS 2 is not installed here"),
        (["view", "--ros", "--no-browser"], "--ros needs ROS 2's Python client (rclpy is missing)"),
    ],
)
def test_without_rclpy_the_command_says_how_to_install_it(
    argv: list[str],
    missing: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(sys.modules, "rclpy", None)  # import rclpy now raises ImportError
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert missing in err
    assert "pip install 'cogtree[ros]'" in err


def test_with_model_sets_the_model_of_every_module() -> None:
    config = LLMConfig.load().with_model("llama3.2:1b")
    assert config.defaults.model == "llama3.2:1b"
    assert {config.settings_for(name).model for name in config.module_names} == {"llama3.2:1b"}
    assert (
        config.settings_for("intent").temperature
        == LLMConfig.load().settings_for("intent").temperature
    )
