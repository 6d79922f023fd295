"""``cogtree sim list`` and ``cogtree sim show SCENARIO``: the simulator's shipped scenarios."""

from __future__ import annotations

import argparse

from cogtree.sim.scenario import list_scenarios, load_scenario
from cogtree.sim.show import render_scenario
from cogtree.trees.cli.commands import add_subcommand


def add_sim_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``sim`` and its ``show`` and ``list`` to the ``cogtree`` subcommands."""
    sim = add_subcommand(commands, "sim")
    sim_commands = sim.add_subparsers(dest="sim_command", required=True, metavar="SIM_COMMAND")
    show = sim_commands.add_parser("show", help="print a scenario's world, request and goal")
    show.add_argument("scenario", help="a shipped scenario id (see `cogtree sim list`) or a path")
    sim_commands.add_parser("list", help="list the shipped scenarios by tier")


def run_sim(args: argparse.Namespace) -> int:
    """Show one scenario, or list them all with their tier and request."""
    if args.sim_command == "show":
        print(render_scenario(load_scenario(args.scenario)))
        return 0
    for path in list_scenarios():
        scenario = load_scenario(path)
        print(f"{scenario.tier:<11} {scenario.id:<32} {scenario.request.text}")
    return 0
