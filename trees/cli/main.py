"""The ``cogtree`` command line: doctor, render, tick, replay, keys, sim, chat, ask, calibrate."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import py_trees

from cogtree.behaviours import keys
from cogtree.behaviours.setup_handles import MissingHandleError
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.errors import LLMConfigError
from cogtree.knowledge.memory.db import MemoryStoreError
from cogtree.knowledge.packs.domain_pack import PackError
from cogtree.knowledge.scene.rdf_store import TurtleError
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import Scenario, ScenarioError, list_scenarios, load_scenario
from cogtree.sim.show import render_scenario
from cogtree.trees.bt_xml.export import export_tree
from cogtree.trees.bt_xml.loader import load_tree_reference
from cogtree.trees.bt_xml.node_registry import default_registry
from cogtree.trees.cli.calibrate_command import add_calibrate_parser, run_calibrate
from cogtree.trees.cli.catalogue_command import add_catalogue_parser, run_catalogue
from cogtree.trees.cli.conversation_command import add_conversation_parsers, run_ask, run_chat
from cogtree.trees.cli.errors import CLIError
from cogtree.trees.cli.eval_command import add_eval_parser, run_eval
from cogtree.trees.cli.llm_options import add_llm_arguments, client_from_args
from cogtree.trees.cli.ros_command import add_ros_parser, run_ros
from cogtree.trees.cli.run_command import add_run_parsers, run_bench_command, run_run
from cogtree.trees.cli.sim_ros_command import add_sim_ros_parser, run_sim_ros
from cogtree.trees.cli.user_data import add_experience_argument, experience_path
from cogtree.trees.cli.view_command import add_view_parser, run_view
from cogtree.trees.cli.watch_options import add_watch_arguments, linger, watch_from_args
from cogtree.trees.handles import Handles
from cogtree.trees.loading import TreeLoadError
from cogtree.trees.recording.compact_ticks import CompactTicks
from cogtree.trees.recording.display import render_dot, render_text
from cogtree.trees.recording.replay import Replay
from cogtree.trees.recording.tick_log import TickLogError
from cogtree.trees.runner import RunResult, TreeRunner
from cogtree.trees.viewer.errors import ViewerError
from cogtree.trees.viewer.tick_watch import TickWatch

EXAMPLE_TREE = "cogtree.trees.examples.ask_before_acting:create_root"
EXIT_CODES = {"SUCCESS": 0, "FAILURE": 1, "RUNNING": 3, "INVALID": 3}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``cogtree`` and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="cogtree",
        description="Behaviour-tree controller for assistive robots, with LLM-backed gates "
        "on local models.",
        epilog=f"example: cogtree tick {EXAMPLE_TREE} --say 'bring the cup to the kitchen' "
        "--show-ticks",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log at DEBUG level")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    doctor = commands.add_parser("doctor", help="check packages, Ollama and which backend runs")
    doctor.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="FILE",
        help="LLM manifest layered on the packaged one (repeatable)",
    )

    render = commands.add_parser(
        "render", help="print a tree as text, Graphviz dot or BT.CPP v4 XML (Groot2)"
    )
    render.add_argument(
        "tree", help="MODULE:FUNCTION, FILE.py:FUNCTION, or an XML tree FILE.xml[:TREE_ID]"
    )
    render.add_argument(
        "--format",
        choices=("text", "dot", "xml"),
        default="text",
        help="xml: BehaviorTree.CPP v4 with its Groot2 models, checked to rebuild the same tree",
    )
    render.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")

    tick = commands.add_parser("tick", help="run a tree until it finishes")
    tick.add_argument(
        "tree", help="MODULE:FUNCTION, FILE.py:FUNCTION, or an XML tree FILE.xml[:TREE_ID]"
    )
    add_llm_arguments(tick)
    tick.add_argument("--say", metavar="TEXT", help="the user's utterance (/turn/utterance)")
    world = tick.add_mutually_exclusive_group()
    world.add_argument(
        "--scene",
        metavar="TTL",
        help="scene-graph belief (Turtle) handed to perception nodes, "
        "e.g. knowledge/scene/scenes/home.ttl",
    )
    world.add_argument(
        "--scenario",
        metavar="ID",
        help="run in the simulator: a shipped scenario id (`cogtree sim list`) or a path; "
        "hands the belief, the executor and the experience store to the tree; the request "
        "is the utterance unless --say is given",
    )
    tick.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="preset a blackboard key (repeatable)",
    )
    add_experience_argument(tick, persist_by_default=False)
    add_watch_arguments(tick)
    tick.add_argument("--log", metavar="FILE", help="write the tick log (JSON Lines) here")
    tick.add_argument("--max-ticks", type=int, default=200, metavar="N")
    tick.add_argument(
        "--rate",
        type=float,
        default=10.0,
        metavar="HZ",
        help="tick rate (default 10 Hz; 0 ticks back to back)",
    )

    replay = commands.add_parser("replay", help="re-render a tick log tick by tick")
    replay.add_argument("log", help="a tick log written by `cogtree tick --log`")
    replay.add_argument("--tick", type=int, metavar="N", help="show only tick N (the full tree)")
    replay.add_argument(
        "--full",
        action="store_true",
        help="print the whole tree at every tick (default: one compact line per tick, "
        "identical waiting ticks folded)",
    )

    commands.add_parser("keys", help="print the blackboard contract (behaviours/keys.py)")

    sim = commands.add_parser("sim", help="the symbolic simulator's scenarios")
    sim_commands = sim.add_subparsers(dest="sim_command", required=True, metavar="SIM_COMMAND")
    show = sim_commands.add_parser("show", help="print a scenario's world, request and goal")
    show.add_argument("scenario", help="a shipped scenario id (see `cogtree sim list`) or a path")
    sim_commands.add_parser("list", help="list the shipped scenarios by tier")
    add_conversation_parsers(commands)
    add_eval_parser(commands)
    add_run_parsers(commands)
    add_view_parser(commands)
    add_sim_ros_parser(commands)
    add_ros_parser(commands)
    add_catalogue_parser(commands)
    add_calibrate_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cogtree`` console script; returns the exit code."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    handlers = {
        "doctor": _doctor,
        "render": _render,
        "tick": _tick,
        "replay": _replay,
        "keys": _keys,
        "sim": _sim,
        "chat": run_chat,
        "ask": run_ask,
        "eval": run_eval,
        "run": run_run,
        "bench": run_bench_command,
        "view": run_view,
        "sim-ros": run_sim_ros,
        "ros": run_ros,
        "catalogue": run_catalogue,
        "calibrate": run_calibrate,
    }
    try:
        return handlers[args.command](args)
    except (
        CLIError,
        LLMConfigError,
        TreeLoadError,
        TickLogError,
        MissingHandleError,
        TurtleError,
        ScenarioError,
        PackError,
        MemoryStoreError,
        ViewerError,
    ) as error:
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cogtree: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `cogtree ... | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _doctor(args: argparse.Namespace) -> int:
    from cogtree.trees.cli.doctor import run_checks

    checks = run_checks(LLMConfig.load(*args.config))
    for check in checks:
        print(check)
    return 1 if any(check.level == "fail" for check in checks) else 0


def _render(args: argparse.Namespace) -> int:
    root = load_tree_reference(args.tree)
    renderers = {"dot": render_dot, "text": render_text, "xml": export_tree}
    text = renderers[args.format](root).rstrip("\n")
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {args.output}")
    else:
        print(text)
    return 0


def _tick(args: argparse.Namespace) -> int:
    client = client_from_args(args)
    root = load_tree_reference(args.tree)
    scenario = load_scenario(args.scenario) if args.scenario else None
    if scenario is not None and args.say is None:
        args.say = scenario.request.text
    for key, value in _presets(args).items():
        keys.preset(key, value)
    with watch_from_args(args, tree_name=args.tree) as watch:
        result = _run_tree(args, client, root, scenario, watch)
        _summarise(result.status.value, result.ticks, result.stopped_because, client, args.log)
        linger(watch)
    return EXIT_CODES[result.status.value]


def _run_tree(
    args: argparse.Namespace,
    client: LLMClient,
    root: py_trees.behaviour.Behaviour,
    scenario: Scenario | None,
    watch: TickWatch,
) -> RunResult:
    """Set the tree up with its handles and run it (``cogtree tick``)."""
    with ExitStack() as resources:
        resources.enter_context(client)
        handles = resources.enter_context(Handles())
        simulator: SimExecutor | None = None
        if args.scene:
            handles.load_scene(args.scene)
        if scenario is not None:
            simulator = SimExecutor.from_scenario(scenario)
            resources.callback(simulator.close)
            handles.open_experience(
                experience_path(args, persist_by_default=False), scenario=scenario.id
            )
            handles.attach_simulator(simulator)
        else:
            handles.open_workers()
        runner = resources.enter_context(
            TreeRunner(
                root,
                llm=client,
                handles=handles.as_kwargs(),
                log_path=args.log,
                tree_name=args.tree,
                on_tick=watch.on_tick,
                before_tick=simulator.step if simulator is not None else None,
            )
        )
        runner.setup()  # logs a warning, once, when no model is available
        result = runner.run(max_ticks=args.max_ticks, rate_hz=args.rate or None)
        if scenario is not None and simulator is not None:
            print(f"scenario {scenario.id}: {scenario.report(simulator.world, simulator.events)}")
    return result


def _presets(args: argparse.Namespace) -> dict[str, Any]:
    presets: dict[str, Any] = {}
    if args.say is not None:
        presets[keys.UTTERANCE.name] = args.say
    for item in args.set:
        key, sep, raw = item.partition("=")
        if not sep or not key.startswith("/"):
            raise CLIError(
                f"--set {item!r}: expected /KEY=JSON, e.g. --set /turn/utterance='\"hi\"'"
            )
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw  # a bare word is taken as a string
        try:
            presets[key] = keys.spec_for(key).validate(value)
        except KeyError as error:
            raise CLIError(str(error)) from error
        except ValueError as error:
            raise CLIError(f"--set {key}: {error}") from error
    return presets


def _summarise(status: str, ticks: int, why: str, client: LLMClient, log_path: str | None) -> None:
    storage = py_trees.blackboard.Blackboard.storage
    print(f"result: {status} after {ticks} ticks ({why})")
    reply = storage.get(keys.REPLY.name)
    if reply:
        print(f"robot says: {reply}")
    records = client.call_log.records()
    outcomes = ", ".join(sorted({f"{r.module}:{r.outcome}" for r in records})) or "none"
    estimated = " estimated" if any(r.tokens_estimated for r in records) else ""
    tokens = "; ".join(
        f"{module} {prompt}+{completion}{estimated}"
        for module, (prompt, completion) in client.call_log.tokens_by_module().items()
    )
    print(f"llm calls: {len(records)} ({outcomes}); tokens (prompt+completion): {tokens or 0}")
    if status == "RUNNING" and not storage.get(keys.UTTERANCE.name):
        print("hint: the tree is still waiting; give it something to hear with --say TEXT")
    if log_path:
        print(f"tick log: {log_path} (replay with `cogtree replay {log_path}`)")


def _replay(args: argparse.Namespace) -> int:
    replay = Replay(args.log)
    if not replay.ticks:
        raise CLIError(f"{args.log} holds a header but no ticks")
    if args.tick is not None:
        if not 1 <= args.tick <= len(replay.ticks):
            raise CLIError(f"--tick {args.tick}: the log has ticks 1..{len(replay.ticks)}")
        print(replay.render(args.tick - 1))
        return 0
    print(f"replaying {args.log}: tree {replay.header.tree}, {len(replay.ticks)} ticks")
    if args.full:
        for frame in replay:
            print(frame)
        return 0
    compact = CompactTicks(sys.stdout)
    for index in range(len(replay.ticks)):
        entry = replay.at(index)  # may rebuild the tree: read the root after it
        compact(replay.root, entry)
    compact.flush()
    return 0


def _sim(args: argparse.Namespace) -> int:
    if args.sim_command == "show":
        print(render_scenario(load_scenario(args.scenario)))
        return 0
    for path in list_scenarios():
        scenario = load_scenario(path)
        print(f"{scenario.tier:<11} {scenario.id:<32} {scenario.request.text}")
    return 0


def _keys(args: argparse.Namespace) -> int:
    declared_by = {node.tag: keys.declared(node.cls) for node in default_registry()}
    print(keys.catalogue_markdown(declared_by))
    return 0


if __name__ == "__main__":
    sys.exit(main())
