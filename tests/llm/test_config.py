from pathlib import Path

import pytest

from cogtree.knowledge.llm.config import DEFAULT_MANIFEST, LLMConfig
from cogtree.knowledge.llm.errors import LLMConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "override.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_packaged_manifest_sets_the_documented_temperatures() -> None:
    config = LLMConfig.load()
    temps = {m: config.settings_for(m).temperature for m in config.module_names}
    assert temps["scope_detection"] == temps["intent"] == temps["query_generation"] == 0.0
    assert temps["inner_speech"] == 0.2
    assert temps["outer_speech"] == 0.4
    assert config.settings_for("intent").backend == "auto"


def test_override_file_merges_per_field(tmp_path: Path) -> None:
    path = write(
        tmp_path, "defaults: {model: llama3.2:3b}\nmodules: {inner_speech: {timeout_s: 3}}"
    )
    config = LLMConfig.load(path)
    inner = config.settings_for("inner_speech")
    assert (inner.model, inner.timeout_s, inner.temperature) == ("llama3.2:3b", 3.0, 0.2)
    assert config.settings_for("outer_speech").temperature == 0.4


def test_new_modules_can_be_declared(tmp_path: Path) -> None:
    config = LLMConfig.load(write(tmp_path, "modules: {grasp_judge: {temperature: 0.1}}"))
    assert config.settings_for("grasp_judge").temperature == 0.1


def test_unknown_module_lists_the_valid_ones() -> None:
    with pytest.raises(LLMConfigError, match="unknown LLM module 'intnet'.*inner_speech.*intent"):
        LLMConfig.load().settings_for("intnet")


def test_unknown_backend_lists_the_valid_ones(tmp_path: Path) -> None:
    with pytest.raises(
        LLMConfigError, match="unknown LLM backend 'olama'.*auto, ollama, llama-cpp"
    ):
        LLMConfig.load().with_backend("olama")
    path = write(tmp_path, "modules: {intent: {backend: gpt}}")
    with pytest.raises(LLMConfigError, match=r"override.yaml: field `modules.intent.backend`"):
        LLMConfig.load(path)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("modules: {intent: {temperature: hot}}", "modules.intent.temperature"),
        ("defaults: {timeout_s: -1}", "defaults.timeout_s"),
        ("modules: {intent: {temprature: 0.1}}", "modules.intent.temprature"),
        ("model: x", "model"),
    ],
)
def test_invalid_config_names_file_and_field(tmp_path: Path, text: str, field: str) -> None:
    with pytest.raises(LLMConfigError) as raised:
        LLMConfig.load(write(tmp_path, text))
    assert "override.yaml" in str(raised.value)
    assert field in str(raised.value)


def test_broken_yaml_names_the_line(tmp_path: Path) -> None:
    with pytest.raises(LLMConfigError, match=r"override.yaml line \d+: not valid YAML"):
        LLMConfig.load(write(tmp_path, "modules:\n  intent: {temperature: [\n"))


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(LLMConfigError, match="cannot read LLM config .*nope.yaml"):
        LLMConfig.load(tmp_path / "nope.yaml")


def test_with_backend_applies_to_every_module() -> None:
    config = LLMConfig.load().with_backend("none")
    assert {config.settings_for(m).backend for m in config.module_names} == {"none"}


def test_manifest_is_packaged_next_to_the_module() -> None:
    assert DEFAULT_MANIFEST.is_file()
