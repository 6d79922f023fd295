"""``cogtree tick TREE``: run a tree until it finishes, and say how it ended.

The tree is a Python factory or an XML tree file (``load_tree_reference`` of
:mod:`trees.bt_xml.loader`). Its ``setup`` receives the model client and the handles the
options describe: the domain packs as ``domains`` (the shipped ones and those under
``--packs``, loaded before the tree, whose XML may name a pack's classes such as
``cogtree_pack_larder_tasks:StockLevel``), a worker pool, and the belief of ``--scene`` or the
world of a simulator ``--scenario``. ``--say`` and ``--set`` preset the blackboard. The exit
code is the root's status: 0 SUCCESS, 1 FAILURE, 3 still RUNNING when the tick budget ran out.
"""

from __future__ import annotations

import argparse
import json
from contextlib import ExitStack
from typing import Any

import py_trees

from cogtree.behaviours import keys
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import Scenario, load_scenario
from cogtree.trees.assistant_session import MAX_UTTERANCE_CHARS
from cogtree.trees.bt_xml.loader import load_tree_reference
from cogtree.trees.cli.arg_types import utterance
from cogtree.trees.cli.commands import add_subcommand
from cogtree.trees.cli.domain_options import add_domain_arguments, domains_from_args
from cogtree.trees.cli.errors import CLIError
from cogtree.trees.cli.llm_options import add_llm_arguments, client_from_args
from cogtree.trees.cli.render_command import TREE_HELP
from cogtree.trees.cli.user_data import add_experience_argument, experience_path
from cogtree.trees.cli.watch_options import add_watch_arguments, linger, watch_from_args
from cogtree.trees.handles import Handles
from cogtree.trees.runner import RunResult, TreeRunner
from cogtree.trees.viewer.tick_watch import TickWatch

EXIT_CODES = {"SUCCESS": 0, "FAILURE": 1, "RUNNING": 3, "INVALID": 3}
"""The exit code of each status the root may end in."""


def add_tick_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``tick`` to the ``cogtree`` subcommands."""
    tick = add_subcommand(commands, "tick")
    tick.add_argument("tree", help=TREE_HELP)
    add_llm_arguments(tick)
    tick.add_argument(
        "--say",
        metavar="TEXT",
        type=utterance,
        help=f"the user's utterance (/turn/utterance; at most {MAX_UTTERANCE_CHARS:,} characters)",
    )
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
    add_domain_arguments(tick)
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


def run_tick(args: argparse.Namespace) -> int:
    """Run the tree; the exit code of its status (:data:`EXIT_CODES`)."""
    client = client_from_args(args)
    domains = domains_from_args(args)  # first: the tree may name a pack's classes
    root = load_tree_reference(args.tree)
    scenario = load_scenario(args.scenario) if args.scenario else None
    if scenario is not None and args.say is None:
        args.say = scenario.request.text
    for key, value in presets(args).items():
        keys.preset(key, value)
    with watch_from_args(args, tree_name=args.tree) as watch:
        result = _run_tree(args, client, domains, root, scenario, watch)
        _summarise(result.status.value, result.ticks, result.stopped_because, client, args.log)
        linger(watch)
    return EXIT_CODES[result.status.value]


def _run_tree(
    args: argparse.Namespace,
    client: LLMClient,
    domains: DomainRegistry,
    root: py_trees.behaviour.Behaviour,
    scenario: Scenario | None,
    watch: TickWatch,
) -> RunResult:
    """Set the tree up with its handles and run it."""
    with ExitStack() as resources:
        resources.enter_context(client)
        handles = resources.enter_context(Handles(domains=domains))
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


def presets(args: argparse.Namespace) -> dict[str, Any]:
    """The blackboard keys ``--say`` and ``--set`` preset, checked against the catalogue."""
    given: dict[str, Any] = {}
    if args.say is not None:
        given[keys.UTTERANCE.name] = args.say
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
            given[key] = keys.spec_for(key).validate(value)
        except KeyError as error:
            raise CLIError(str(error)) from error
        except ValueError as error:
            raise CLIError(f"--set {key}: {error}") from error
    return given


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
