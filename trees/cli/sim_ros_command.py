"""``cogtree sim-ros SCENARIO``: the simulated robots and people as a ROS 2 node.

It runs :class:`sim.ros_robot.SimRobotNode` for a fresh run of the scenario until SIGINT or
SIGTERM: every robot of the scenario is served under its namespace (``/<robot>`` unless
``--namespace ROBOT=NS``), the people answer on the host's people topics, and the host
(``cogtree ros``, or any program using :class:`skills.ros.executor.RosExecutor`) drives it
over DDS on the same ``ROS_DOMAIN_ID``. Needs the ``ros`` extra (rclpy); rclpy is imported
only when the command runs, so the rest of the CLI works without it.
"""

from __future__ import annotations

import argparse
import sys
import threading

from cogtree.sim.scenario import load_scenario
from cogtree.skills.ros.protocol import (
    DEFAULT_HOST_NAMESPACE,
    parse_robot_namespaces,
    robot_namespaces,
)
from cogtree.skills.ros.routes import CommandRoutes, RoutesError, load_routes
from cogtree.trees.cli.arg_types import non_negative_int, positive_float
from cogtree.trees.cli.commands import add_subcommand
from cogtree.trees.cli.signals import signals_stop
from cogtree.trees.ros.cli_support import (
    INSTALL_HINT,
    RosStartError,
    domain_id,
    init_context,
    spin_until,
)

NODE_NAME = "cogtree_sim"
"""The name of the simulated robot side's node."""


def add_sim_ros_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``sim-ros`` to the ``cogtree`` subcommands."""
    parser = add_subcommand(
        commands,
        "sim-ros",
        description="Serve every robot of SCENARIO on its ROS 2 namespace (the execute_skill "
        "action, observations, state) and play its people on the host's people/delegate "
        "action, until Ctrl-C or SIGTERM.",
        epilog="example: cogtree sim-ros robee_bottle --domain-id 42 --namespace robot1=/r1",
    )
    parser.add_argument("scenario", help="a shipped scenario id (`cogtree sim list`) or a path")
    parser.add_argument(
        "--namespace",
        action="append",
        default=[],
        metavar="ROBOT=NS",
        help="serve ROBOT under the absolute namespace NS (repeatable); every robot not "
        "named here is served under /ROBOT. The host must map the robot the same way",
    )
    parser.add_argument(
        "--host-namespace",
        default=DEFAULT_HOST_NAMESPACE,
        metavar="NS",
        help=f"namespace of the host node, where the people/delegate action lives (default "
        f"{DEFAULT_HOST_NAMESPACE})",
    )
    parser.add_argument(
        "--domain-id",
        type=domain_id,
        metavar="N",
        help="the ROS_DOMAIN_ID to join (default: $ROS_DOMAIN_ID, else 0); the host must use "
        "the same one",
    )
    parser.add_argument(
        "--rate",
        type=positive_float,
        default=10.0,
        metavar="HZ",
        help="simulator ticks per second while a command or a delegated task runs (default 10)",
    )
    parser.add_argument(
        "--routes",
        metavar="FILE",
        help="YAML file mapping commands to action names (see skills/ros/routes.py); give the "
        "host the same file",
    )
    parser.add_argument("--seed", type=int, help="seed of the world (default: the scenario's)")
    parser.add_argument(
        "--stop-answering-after",
        type=non_negative_int,
        metavar="N",
        help="fault injection: answer N goals, then accept every later goal and never finish "
        "it, so the host's command timeout can be tested",
    )


def run_sim_ros(args: argparse.Namespace) -> int:
    """Run the robot side until SIGINT/SIGTERM; 0 on a clean stop, 2 on a usage error."""
    scenario = load_scenario(args.scenario)
    try:
        namespaces = robot_namespaces(scenario.world.robots, parse_robot_namespaces(args.namespace))
        routes = load_routes(args.routes) if args.routes else CommandRoutes()
        import cogtree_interfaces.action  # noqa: F401  # built from interfaces/
        import rclpy  # the ros extra, only now
    except (ValueError, RoutesError) as error:
        return _usage_error(str(error))
    except ImportError as error:
        return _usage_error(
            f"cogtree sim-ros needs ROS 2's Python client ({error.name} is missing): {INSTALL_HINT}"
        )
    from rclpy.executors import SingleThreadedExecutor

    from cogtree.sim.ros_robot import SimRobotNode

    try:
        context = init_context(domain_id=args.domain_id)
    except RosStartError as error:
        return _usage_error(str(error))
    node = rclpy.create_node(NODE_NAME, context=context)
    stop = threading.Event()
    try:
        with signals_stop(stop):
            try:
                robot = SimRobotNode.from_scenario(
                    node,
                    scenario,
                    seed=args.seed,
                    namespaces=namespaces,
                    routes=routes,
                    host_namespace=args.host_namespace,
                    step_period_s=1.0 / args.rate,
                    stop_answering_after=args.stop_answering_after,
                )
            except ValueError as error:
                return _usage_error(str(error))
            with robot:
                served = ", ".join(f"{name} on {ns}" for name, ns in robot.namespaces.items())
                print(
                    f"cogtree sim-ros: scenario {scenario.id} on ROS_DOMAIN_ID "
                    f"{context.get_domain_id()}: {served}; people on "
                    f"{args.host_namespace.rstrip('/')}/people/delegate. Ctrl-C to stop.",
                    flush=True,
                )
                executor = SingleThreadedExecutor(context=context)
                executor.add_node(node)
                spin_until(executor, stop, context)
                outcome = scenario.goal.report(robot.simulator.world)
    finally:
        node.destroy_node()
        rclpy.shutdown(context=context)
    print(
        f"cogtree sim-ros: stopped after {robot.goals_accepted} goals; scenario {scenario.id}: "
        f"{outcome}",
        flush=True,
    )
    return 0


def _usage_error(message: str) -> int:
    print(f"cogtree: error: {message}", file=sys.stderr)
    return 2
