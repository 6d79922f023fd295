"""The table of ``cogtree``'s subcommands: name, one-line help, and the module that runs it.

Building the top-level parser reads only this table, so ``cogtree --help`` imports no
subcommand. A subcommand's module, and with it whatever the subcommand needs (py_trees, the
scene graph, the simulator, the evaluation wing, ...), is imported only when that subcommand
is the one chosen (:func:`trees.cli.main.main`).

Each module has an *adder*, a function given ``cogtree``'s subparsers that adds its
subcommand's parser with :func:`add_subcommand` (which takes the help from this table), and a
*runner*, a function given the parsed arguments that runs the subcommand and returns its exit
code. Two subcommands that share their options may share a module and its adder (``chat`` and
``ask``, ``run`` and ``bench``): the adder then adds both.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

PACKAGE = "cogtree.trees.cli"
"""The package of the subcommands' modules."""

Runner = Callable[[argparse.Namespace], int]
"""Runs a subcommand with its parsed arguments; returns the exit code."""


@dataclass(frozen=True)
class Subcommand:
    """One subcommand: its name, its one-line help and where its adder and runner are."""

    name: str
    help: str
    module: str
    """The module under :data:`PACKAGE` holding the adder and the runner."""
    adder: str
    """The function of ``module`` that adds the parser: ``adder(subparsers)``."""
    runner: str
    """The function of ``module`` that runs it: ``runner(args) -> exit code``."""

    def add_parser(self, commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        """Import the module and add the subcommand's full parser (its adder's others too)."""
        adder = cast(Callable[[Any], None], self._function(self.adder))
        adder(commands)

    def load_runner(self) -> Runner:
        """Import the module and return the runner."""
        return cast(Runner, self._function(self.runner))

    def _function(self, name: str) -> object:
        return getattr(importlib.import_module(f"{PACKAGE}.{self.module}"), name)


SUBCOMMANDS: dict[str, Subcommand] = {
    subcommand.name: subcommand
    for subcommand in (
        Subcommand(
            "doctor",
            "check packages, Ollama and which backend runs",
            "doctor",
            "add_doctor_parser",
            "run_doctor",
        ),
        Subcommand(
            "render",
            "print a tree as text, Graphviz dot or BT.CPP v4 XML (Groot2)",
            "render_command",
            "add_render_parser",
            "run_render",
        ),
        Subcommand(
            "tick",
            "run a tree until it finishes",
            "tick_command",
            "add_tick_parser",
            "run_tick",
        ),
        Subcommand(
            "replay",
            "re-render a tick log tick by tick",
            "replay_command",
            "add_replay_parser",
            "run_replay",
        ),
        Subcommand(
            "keys",
            "print the blackboard contract (behaviours/keys.py)",
            "keys_command",
            "add_keys_parser",
            "run_keys",
        ),
        Subcommand(
            "sim",
            "the symbolic simulator's scenarios",
            "sim_command",
            "add_sim_parser",
            "run_sim",
        ),
        Subcommand(
            "chat",
            "talk to the assistant tree, turn after turn (memory kept across runs)",
            "conversation_command",
            "add_conversation_parsers",
            "run_chat",
        ),
        Subcommand(
            "ask",
            "one turn of the assistant tree: print the robot's reply",
            "conversation_command",
            "add_conversation_parsers",
            "run_ask",
        ),
        Subcommand(
            "eval",
            "evaluate the turn tree's modules",
            "eval_command",
            "add_eval_parser",
            "run_eval",
        ),
        Subcommand(
            "run",
            "run a scenario in the simulator: dialogue, steps run, goal (exit 0 when met)",
            "run_command",
            "add_run_parsers",
            "run_run",
        ),
        Subcommand(
            "bench",
            "run scenario suites per tree and backend; SR, CR, RR, RSR, calls, tokens",
            "run_command",
            "add_run_parsers",
            "run_bench_command",
        ),
        Subcommand(
            "view",
            "show a tick log, or a running robot's tree (--ros), in the web viewer",
            "view_command",
            "add_view_parser",
            "run_view",
        ),
        Subcommand(
            "sim-ros",
            "run a scenario's robots and people as a ROS 2 node (the robot side of `cogtree ros`)",
            "sim_ros_command",
            "add_sim_ros_parser",
            "run_sim_ros",
        ),
        Subcommand(
            "ros",
            "run the assistant tree as a ROS 2 node (needs the ros extra)",
            "ros_command",
            "add_ros_parser",
            "run_ros",
        ),
        Subcommand(
            "catalogue",
            "the node catalogue (every XML node type, its ports and handles), as Markdown or "
            "a Groot2 models file",
            "catalogue_command",
            "add_catalogue_parser",
            "run_catalogue",
        ),
        Subcommand(
            "calibrate",
            "compute the conformal threshold of the calibrated ask-or-act gate on a JSONL set",
            "calibrate_command",
            "add_calibrate_parser",
            "run_calibrate",
        ),
    )
}
"""Every subcommand by name, in the order ``cogtree --help`` lists them."""


def add_subcommand(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], name: str, **options: Any
) -> argparse.ArgumentParser:
    """Add the parser of subcommand ``name`` with its help from :data:`SUBCOMMANDS`.

    ``options`` are the parser's others (``description``, ``epilog``).
    """
    return commands.add_parser(name, help=SUBCOMMANDS[name].help, **options)
