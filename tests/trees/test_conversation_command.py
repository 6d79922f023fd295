"""`cogtree ask` and `cogtree chat`, in-process, with no model."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.packs.domains.advisor.knowledge_graph import AdvisorKG
from cogtree.trees.cli.main import main


def test_ask_answers_figure_4_and_explains_each_gate(blackboard, capsys, tmp_path) -> None:
    memory = tmp_path / "memory.sqlite"
    question = "How many carbohydrates are in tiramisu?"
    code = main(["ask", question, "--llm", "none", "--memory", str(memory), "--explain"])
    out = capsys.readouterr().out
    assert code == 0
    value = AdvisorKG().nutrition_of("tiramisu").carbohydrate_g
    assert f"robot: Tiramisu has {value:g} g of carbohydrate per serving." in out
    for gate in ("DetectScope", "RecognizeIntent", "TaskReadinessGate", "GenerateQuery"):
        assert gate in out
    assert "domain advisor, control Proceed" in out


def test_chat_keeps_memory_across_runs(blackboard, capsys, monkeypatch, tmp_path) -> None:
    memory = tmp_path / "memory.sqlite"
    monkeypatch.setattr("sys.stdin", io.StringIO("I'm vegetarian\n\nquit\n"))
    assert main(["chat", "--llm", "none", "--memory", str(memory)]) == 0
    assert "robot: Noted." in capsys.readouterr().out
    with MemoryStore(memory) as store:
        assert any(fact.slot == "diet.vegetarian" for fact in store.read("diet").facts)
    monkeypatch.setattr("sys.stdin", io.StringIO("What can I eat instead of spaghetti bolognese?"))
    assert main(["chat", "--llm", "none", "--memory", str(memory)]) == 0
    reply = capsys.readouterr().out
    assert "robot: Instead of spaghetti bolognese" in reply
    assert "bolognese, you could have lasagne" not in reply.lower()


def test_a_broken_pack_is_skipped_with_a_warning(blackboard, capsys, tmp_path: Path) -> None:
    broken = tmp_path / "packs" / "broken"
    broken.mkdir(parents=True)
    (broken / "pack.yaml").write_text("name: broken\ntitle: [unclosed\n", encoding="utf-8")
    options = ["--llm", "none", "--memory", str(tmp_path / "m.db")]
    code = main(["ask", "where is the magazine?", *options, "--packs", str(tmp_path / "packs")])
    captured = capsys.readouterr()
    assert code == 0
    assert "skipped a domain pack" in captured.err and "pack.yaml" in captured.err
    assert "robot: The magazine is on the coffee table" in captured.out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["ask", "hi", "--scenario", "no_such_world"], "no_such_world"),
        (["ask", "hi", "--domain", "astronomy"], "astronomy"),
    ],
)
def test_bad_options_name_the_problem(blackboard, capsys, tmp_path, argv, message) -> None:
    code = main([*argv, "--llm", "none", "--memory", str(tmp_path / "m.db")])
    assert code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("option", [["--llm", "ollama"], ["--recall", "ollama"]])
def test_ollama_by_name_without_a_server_fails_at_start_with_the_fix(
    blackboard, capsys, monkeypatch, tmp_path, option: list[str]
) -> None:
    from cogtree.knowledge.llm import ollama_backend
    from cogtree.knowledge.llm.backend import BackendStatus

    monkeypatch.setattr(
        ollama_backend.OllamaBackend,
        "probe",
        lambda self, settings: BackendStatus(
            "ollama", False, "not reachable", "run `ollama serve`"
        ),
    )
    memory = tmp_path / "memory.sqlite"
    code = main(["ask", "where is the magazine?", "--memory", str(memory), *option])
    captured = capsys.readouterr()
    assert code == 2
    assert "run `ollama serve`" in captured.err
    assert "robot:" not in captured.out  # nothing was said to the user


def test_every_ask_says_which_backend_and_recall_it_uses(blackboard, capsys, tmp_path) -> None:
    memory = tmp_path / "memory.sqlite"
    assert main(["ask", "where is the magazine?", "--llm", "none", "--memory", str(memory)]) == 0
    captured = capsys.readouterr()
    assert "cogtree: LLM: no model" in captured.err
    assert "cogtree: memory recall: " in captured.err
    assert "magazine" in captured.out
