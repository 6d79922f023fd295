"""The `cogtree` command line, in-process (plus one real console-script run)."""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import pytest
import yaml

from cogtree.knowledge.packs.domain_registry import OPTIONAL_PACKS
from cogtree.trees.cli.commands import SUBCOMMANDS
from cogtree.trees.cli.main import build_parser, main
from cogtree.trees.testing import BlackboardView
from tests.cogtree_cli import CLARIFY, EXAMPLE, TAKE_IT, clarify_script, cogtree_script, tick_argv
from tests.llm.test_ollama_option_scores import WITH_LOGPROBS, FakeOllama


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["--help"])
    assert raised.value.code == 0
    out = capsys.readouterr().out
    for command in ("doctor", "render", "tick", "replay", "keys"):
        assert command in out


def test_help_lists_from_the_table_what_the_modules_add() -> None:
    """The light parser (no subcommand imported) lists what the full one does, in table order."""
    full, light = build_parser(), build_parser(full=[])
    assert light.format_help() == full.format_help()
    for parser in (full, light):
        (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        assert list(commands.choices) == list(SUBCOMMANDS)
    for subcommand in SUBCOMMANDS.values():
        assert callable(subcommand.load_runner())


@pytest.mark.parametrize("name", list(SUBCOMMANDS))
def test_a_subcommand_help_shows_its_own_options(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["-v", name, "--help"])
    assert raised.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: cogtree {name} [-h]")


def test_tick_and_ask_help_show_their_full_options(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, options in (
        (["tick", "--help"], ("--packs DIR", "--scenario ID", "--show-ticks", "--max-ticks N")),
        (["ask", "--help"], ("--recall", "--packs DIR", "--llm", "--explain")),
    ):
        with pytest.raises(SystemExit):
            main(argv)
        out = capsys.readouterr().out
        assert [option for option in options if option not in out] == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "the following arguments are required: COMMAND"),
        (["nope"], "argument COMMAND: invalid choice: 'nope'"),
        (["-v", "tick"], "the following arguments are required: tree"),
        (["keys", "--nope"], "unrecognized arguments: --nope"),
    ],
)
def test_a_wrong_command_line_is_told_by_argparse(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    assert message in capsys.readouterr().err


def test_console_script_is_installed() -> None:
    done = subprocess.run([cogtree_script(), "keys"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "/turn/utterance" in done.stdout


def test_keys_lists_lifetimes_and_the_nodes_that_declare_each_key(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["keys"]) == 0
    rows = {line.split(" | ")[0]: line for line in capsys.readouterr().out.splitlines()}
    control = rows["| `/turn/control`"].split(" | ")
    assert control[2:3] == ["turn"]
    assert control[4:6] == [
        "ReadinessGate, ReportOutcome, TaskReadinessGate, ValidationGate",
        "Consolidate, ControlIs, Decline, SwitchActiveDomain",
    ]
    assert rows["| `/session/pending`"].split(" | ")[2] == "session"


def test_tick_fast_path_without_any_model(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "run.jsonl"
    code = main(tick_argv("--llm", "none", "--log", str(log), "--rate", "100"))
    out = capsys.readouterr()
    assert code == 0
    assert "robot says: I will bring the cup to the kitchen." in out.out
    assert "llm calls: 0" in out.out
    assert log.is_file()


def test_tick_with_script_and_show_ticks_then_replay(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = clarify_script(tmp_path)
    log = tmp_path / "run.jsonl"
    options = ("--script", str(script), "--show-ticks", "--log", str(log), "--rate", "100")
    code = main(tick_argv(*options, say=TAKE_IT))
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("--- tick 1: RUNNING")
    assert "ReadinessGate [✕]" in out
    assert "robot says: What should I bring?" in out
    assert "llm calls: 1 (inner_speech:ok)" in out
    last = len(log.read_text().splitlines()) - 1  # the header is not a tick
    assert main(["replay", str(log), "--tick", str(last)]) == 0
    replayed = capsys.readouterr().out
    assert "AskMissing [✓]" in replayed
    assert main(["replay", str(log), "--tick", "99"]) == 2
    assert "the log has ticks 1.." in capsys.readouterr().err
    assert main(["replay", str(log)]) == 0  # compact by default: a line per tick
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("tick 1 RUNNING") and len(lines) <= last + 2
    assert main(["replay", str(log), "--full"]) == 0
    assert capsys.readouterr().out.count("--- tick") == last


def test_tick_with_faults_stays_safe(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "script.yaml"
    script.write_text(yaml.safe_dump({"in_order": [{"answer": CLARIFY}] * 2}))
    faults = ("--faults", "rate=1,kinds=malformed")
    code = main(tick_argv("--script", str(script), *faults, "--rate", "100", say=TAKE_IT))
    out = capsys.readouterr().out
    assert code == 0
    assert "What should I bring?" in out  # the safe decision asks
    assert "inner_speech:malformed" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tick", EXAMPLE, "--config", "/nonexistent.yaml"], "cannot read LLM config"),
        (["tick", "cogtree.trees.examples.ask_before_acting"], "must be MODULE:FUNCTION"),
        (["tick", "cogtree.trees.examples.ask_before_acting:make"], "factories in it: create_root"),
        (["tick", "no.such.module:create_root"], "cannot import 'no.such.module'"),
        (["tick", EXAMPLE, "--llm", "scripted"], "needs a script"),
        (["tick", EXAMPLE, "--set", "/turn/control=Maybe"], "--set /turn/control"),
        (["tick", EXAMPLE, "--set", "/nope=1"], "not in the blackboard catalogue"),
        (["tick", EXAMPLE, "--faults", "rate=2"], "bad fault spec"),
        (["replay", "/nonexistent.jsonl"], "cannot read tick log"),
    ],
)
def test_bad_input_gets_a_clear_error(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_unknown_backend_lists_the_valid_ones(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tick", EXAMPLE, "--llm", "gpt"])
    assert (
        "choose from 'auto', 'ollama', 'llama-cpp', 'scripted', 'none'" in capsys.readouterr().err
    )


def test_render_text_and_dot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["render", EXAMPLE]) == 0
    assert "ReadinessGate" in capsys.readouterr().out
    dot = tmp_path / "tree.dot"
    assert main(["render", EXAMPLE, "--format", "dot", "--output", str(dot)]) == 0
    assert dot.read_text().startswith("digraph")


def test_render_a_tree_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    tree_file = tmp_path / "mytree.py"
    tree_file.write_text(
        "import py_trees\n"
        "def create_root():\n"
        "    return py_trees.behaviours.Success(name='Hello')\n"
    )
    assert main(["render", f"{tree_file}:create_root"]) == 0
    assert "Hello" in capsys.readouterr().out


def test_doctor_says_what_to_run_when_ollama_is_down(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    code = main(["doctor"])
    out = capsys.readouterr().out
    assert code == 0
    assert "[  ok] py_trees" in out
    assert "ollama serve" in out
    assert "auto picks" in out


@pytest.mark.parametrize(("version", "level"), [("0.13.0", "  ok"), ("0.12.6", "warn")])
def test_doctor_says_whether_ollama_can_score_options(
    version: str, level: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = FakeOllama(WITH_LOGPROBS, version=version)
    monkeypatch.setenv("OLLAMA_HOST", server.url)
    try:
        assert main(["doctor"]) == 0
    finally:
        server.close()
    out = capsys.readouterr().out
    assert f"[{level}] option scoring with ollama (log-probabilities): Ollama {version}" in out
    assert server.chats == []  # versions only: no model call


def test_tick_without_an_utterance_says_what_is_missing(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["tick", EXAMPLE, "--llm", "none", "--max-ticks", "3", "--rate", "100"])
    out = capsys.readouterr().out
    assert code == 3
    assert "result: RUNNING after 3 ticks (tick budget of 3 reached)" in out
    assert "--say TEXT" in out


def test_tick_refuses_an_utterance_over_the_turn_s_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["tick", EXAMPLE, "--llm", "none", "--say", "tea " * 250 + "."])
    assert refused.value.code == 2
    error = capsys.readouterr().err
    assert "the utterance is 1,001 characters long; a turn takes at most 1,000" in error


def test_tick_hands_a_scene_graph_to_perception_nodes(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tree_file = tmp_path / "rooms.py"
    tree_file.write_text(
        "from cogtree.behaviours.actions.grounding.perception import GetMapRooms\n"
        "def create_root():\n"
        "    return GetMapRooms()\n"
    )
    scene = Path(__file__).resolve().parents[2] / "knowledge" / "scene" / "scenes" / "home.ttl"
    argv = ["tick", f"{tree_file}:create_root", "--llm", "none", "--rate", "100"]
    assert main([*argv, "--scene", str(scene)]) == 0
    assert "kitchen" in str(blackboard.get("/perception/rooms"))
    assert main(argv) == 2
    assert "--scene FILE.ttl" in capsys.readouterr().err
    bad = tmp_path / "bad.ttl"
    bad.write_text("@prefix x: <http://x/> .\nx:a x:b .\n")
    assert main([*argv, "--scene", str(bad)]) == 2
    assert "bad.ttl line 2: malformed Turtle" in capsys.readouterr().err


def test_sim_show_and_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "show", "robee_bottle"]) == 0
    shown = capsys.readouterr().out
    assert "robee_bottle" in shown and "on(bottle, table_2)" in shown
    assert main(["sim", "list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) >= 30 and any(line.startswith("dynamic") for line in listed)
    assert main(["sim", "show", "no_such_scenario"]) == 2
    assert "no such file or shipped scenario" in capsys.readouterr().err


def test_run_robee_bottle_with_no_model_recovers_by_looking(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's main job: the bottle moved, the explainer's suggestion, a LOOK, success."""
    assert main(["run", "robee_bottle", "--llm", "none"]) == 0
    out = capsys.readouterr().out
    assert "world: tick 0: move bottle on kitchen_counter (by anna)" in out
    assert "-> failed: PICK(bottle, right) failed at grasp: object_not_visible" in out
    assert "explainer (pick-not-visible-look-where-last-seen): " in out
    assert "Look for it in kitchen, where it was last seen (GOTO(kitchen), LOOK())" in out
    assert (
        "attempt 2 (htn): LOOK(), PICK(bottle, right), GOTO(table_2), "
        "PLACE(bottle, table_2, right) -> succeeded"
    ) in out
    assert "goal MET: on(bottle, table_2)" in out and "0 model calls" in out
    assert "robot: I brought the bottle to the bedroom table." in out


def test_tick_runs_a_tree_in_the_simulator(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "robee.jsonl"
    argv = [
        "tick",
        "cogtree.trees.examples.robee_recovery:create_root",
        "--scenario",
        "robee_bottle",
    ]
    assert main([*argv, "--llm", "none", "--rate", "100", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "scenario robee_bottle: goal achieved (on(bottle, table_2))" in out
    assert blackboard.get("/turn/utterance").startswith("go to the table in the kitchen")
    assert blackboard.get("/skill/explanation").code == "object_not_visible"
    with pytest.raises(SystemExit):  # --scene and --scenario exclude each other
        main([*argv, "--scene", "knowledge/scene/scenes/home.ttl"])
    assert "not allowed with argument --scenario" in capsys.readouterr().err


UNDERSTAND = """<root BTCPP_format="4" main_tree_to_execute="Understand">
  <BehaviorTree ID="Understand">
    <Sequence name="Understand">
      <AwaitUtterance/>
      <ParseRequest/>
      <DetectScope/>
      <RecognizeIntent/>
      <PostProcess/>
    </Sequence>
  </BehaviorTree>
</root>
"""
"""An XML tree whose nodes read the domain packs (the ``domains`` handle)."""


def test_tick_hands_the_packs_of_packs_to_an_xml_tree(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tree = tmp_path / "understand.xml"
    tree.write_text(UNDERSTAND)
    argv = ["tick", str(tree), "--llm", "none", "--rate", "0"]
    stock = "how much basmati rice have we got left"
    assert main([*argv, "--say", stock, "--packs", str(OPTIONAL_PACKS)]) == 0
    intent = blackboard.get("/turn/intent")
    assert (blackboard.get("/turn/domain"), intent.task) == ("larder", "StockLevel")
    assert intent.slots["item"] == "basmati rice"
    assert main([*argv, "--say", stock]) == 0  # the shipped packs only: no larder
    assert blackboard.get("/turn/domain") != "larder"
    assert main([*argv, "--say", stock, "--domain", "larder"]) == 2
    assert "cannot start in domain 'larder': no such pack is loaded" in capsys.readouterr().err
    assert main([*argv, "--say", stock, "--packs", str(tmp_path / "none")]) == 0
    assert "warning: skipped a domain pack" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("where is the magazine?", "The magazine is on the coffee table in the living room."),
        ("where is the milk?", "The milk is in the fridge in the kitchen."),
        ("where is the kettle?", "The kettle is on the counter in the kitchen."),
        ("where is the novel?", "The novel is on the nightstand in the bedroom."),
    ],
)
def test_ask_runs_in_an_everyday_home_by_default(
    question: str,
    reply: str,
    blackboard: BlackboardView,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """A kitchen with food, drinks, a kettle, mugs and glasses; a living room; a bedroom."""
    assert main(["ask", question, "--llm", "none", "--memory", str(tmp_path / "m.db")]) == 0
    assert f"robot: {reply}" in capsys.readouterr().out


def test_a_plural_thing_is_said_with_are(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Checked to fail before: "The reading glasses is held by ..."."""
    argv = ["ask", "where are my reading glasses", "--scenario", "hand_over_glasses"]
    assert main([*argv, "--llm", "none", "--memory", str(tmp_path / "m.db")]) == 0
    assert "robot: The reading glasses are " in capsys.readouterr().out
