"""``cogtree ros``: run the assistant tree as a ROS 2 node (the host, :mod:`trees.ros.host`).

The node is the lifecycle node ``cogtree`` (:mod:`trees.ros.lifecycle`) in ``--namespace``
(default ``/cogtree``). Every option is also a ROS parameter of the node (the list and what
each means: docs/ros.md; the example file: trees/ros/cogtree.params.yaml): the option gives
the default, ``--ros-args --params-file FILE`` or ``-p NAME:=VALUE`` overrides it, and
``ros2 param get`` shows what runs. Parameters are read at ``configure``. With ``autostart``
(the default) the node configures and activates itself; with ``-p autostart:=false`` it waits
for a lifecycle manager. Everything after ``--ros-args`` goes to ROS (remapping with
``-r utterance:=/asr/text``, parameters, log levels).

The memory store, the failure-experience store and the LLM client are built as for
``cogtree chat`` (the same options, the same :class:`~trees.handles.Handles`). SIGINT and
SIGTERM stop the node cleanly: the turn in progress is stopped (its commands cancelled), the
session closed, the node destroyed.
"""

from __future__ import annotations

import argparse
import inspect
import logging
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any

import py_trees

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.trees.assistant_session import AssistantSession, ticks_per_turn
from cogtree.trees.cli.commands import add_subcommand
from cogtree.trees.cli.conversation_command import (
    add_pack_arguments,
    add_tts_argument,
    recall_from_args,
)
from cogtree.trees.cli.llm_options import add_llm_arguments, client_from_args
from cogtree.trees.cli.signals import signals_stop
from cogtree.trees.cli.user_data import default_experience_path, default_memory_path
from cogtree.trees.handles import Handles
from cogtree.trees.loading import TreeLoadError, load_factory
from cogtree.trees.ros.cli_support import (
    INSTALL_HINT,
    RosStartError,
    add_ros_args_option,
    init_context,
    spin_until,
)

if TYPE_CHECKING:
    from rclpy.node import Node

    from cogtree.trees.ros.host import HostSettings, RosHost, TreeHooks
    from cogtree.trees.ros.lifecycle import HostLifecycleNode

log = logging.getLogger(__name__)

NODE_NAME = "cogtree"
"""The host node's name."""

DEFAULT_NAMESPACE = "/cogtree"
"""The host node's namespace unless ``--namespace`` says otherwise."""

NAMED_TREES = {
    "assistant": "cogtree.trees.assistant:create_root",
    "gated": "cogtree.trees.assistant:create_root",
    "react": "cogtree.evaluation.react.tree:create_root",
}
"""Turn trees known by name: the gated assistant tree, and the ReAct baseline (loaded by its
reference when asked for, so the host imports nothing of the evaluation wing otherwise)."""

TREE_NAMES = tuple(NAMED_TREES)

PARAMETERS = (
    "autostart",
    "robots",
    "tree",
    "packs",
    "domain",
    "llm_backend",
    "llm_model",
    "memory",
    "experience",
    "speaker",
    "scene",
    "log",
    "rate_hz",
    "command_timeout_s",
    "answer_timeout_s",
    "accept_timeout_s",
    "routes",
)
"""The host node's parameters (what each means: docs/ros.md)."""


class RosCommandError(ValueError):
    """Options or parameters ``cogtree ros`` cannot run with; the message says how to fix it."""


def add_ros_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ros`` to the ``cogtree`` subcommands."""
    ros = add_subcommand(
        commands,
        "ros",
        description="The cogtree host, a lifecycle node: requests in on the `request` action "
        "or the `utterance` topic, the robot's words out on `speech`, tree snapshots on "
        "`tree/snapshot`, commands to the robots over their `execute_skill` actions. Options "
        "are also ROS parameters of the node (--ros-args --params-file FILE).",
        epilog="example: cogtree ros --robot robot1=/robot1 --llm ollama --model qwen2.5:3b "
        "--ros-args -r utterance:=/asr/text",
    )
    ros.add_argument(
        "--namespace",
        default=DEFAULT_NAMESPACE,
        metavar="NS",
        help=f"the node's namespace (default {DEFAULT_NAMESPACE})",
    )
    ros.add_argument(
        "--robot",
        action="append",
        default=[],
        dest="robots",
        metavar="NAME=NS",
        help="a robot and its namespace (repeatable: give every robot of the team, since a "
        "step for a robot not given fails; the first is the one the tree drives; default "
        "robot1=/robot1)",
    )
    ros.add_argument(
        "--scene",
        metavar="TTL",
        help="the robot's belief from a Turtle file (default: the first robot's latched state)",
    )
    ros.add_argument(
        "--tree",
        default="assistant",
        metavar="NAME",
        help=f"the turn tree: {', '.join(TREE_NAMES)} or MODULE:FUNCTION (default assistant)",
    )
    add_llm_arguments(ros)
    ros.add_argument("--model", metavar="TAG", help="Ollama model tag for every module")
    add_pack_arguments(ros)
    ros.add_argument("--speaker", metavar="ID", help="who is talking (default: unknown)")
    ros.add_argument("--rate", type=float, default=10.0, metavar="HZ", help="tick rate (10)")
    ros.add_argument(
        "--command-timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds a robot may take to finish a command it accepted (60)",
    )
    ros.add_argument(
        "--answer-timeout",
        type=float,
        default=300.0,
        metavar="S",
        help="seconds a person may take to answer a request (300)",
    )
    ros.add_argument("--log", metavar="FILE", help="write the tick log (JSON Lines) here")
    ros.add_argument(
        "--voice",
        action="store_true",
        help="also run the speech nodes beside the host: the microphone heard on `utterance`, "
        "`speech` said on the speaker (the voice extra, --tts's program, PortAudio: "
        "docs/voice.md)",
    )
    add_tts_argument(ros)
    ros.add_argument(
        "--routes",
        metavar="FILE",
        help="YAML file mapping commands to the robot's action names (skills/ros/routes.py); "
        "give the robot side the same file",
    )
    add_ros_args_option(
        ros, "everything after this goes to ROS, e.g. -r utterance:=/asr/text -p rate_hz:=5.0"
    )


def run_ros(args: argparse.Namespace) -> int:
    """Run the host node until SIGINT or SIGTERM; 0 after a clean stop, 2 when it cannot start."""
    try:
        import cogtree_interfaces.action  # noqa: F401
        import rclpy  # noqa: F401
        import std_msgs.msg  # noqa: F401
    except ImportError as error:
        print(
            f"cogtree ros: error: ROS 2 is not installed here ({error}); {INSTALL_HINT}",
            file=sys.stderr,
        )
        return 2
    try:
        return _serve(args)
    except RosCommandError as error:
        print(f"cogtree ros: error: {error}", file=sys.stderr)
        return 2


def _serve(args: argparse.Namespace) -> int:
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    from cogtree.skills.ros.protocol import check_namespace
    from cogtree.trees.ros.host import UTTERANCE_TOPIC
    from cogtree.trees.ros.lifecycle import HostLifecycleNode

    try:
        check_namespace(args.namespace)
    except ValueError as error:
        raise RosCommandError(f"--namespace: {error}") from error
    try:
        context = init_context(ros_args=args.ros_args)
    except RosStartError as error:
        raise RosCommandError(str(error)) from error
    stop = threading.Event()
    with ExitStack() as resources:
        resources.enter_context(signals_stop(stop))
        resources.callback(rclpy.shutdown, context=context)
        node = HostLifecycleNode(
            NODE_NAME,
            namespace=args.namespace,
            context=context,
            configure=lambda node, held: _configure(node, held, args),
        )
        resources.callback(node.destroy_node)
        resources.callback(node.release)
        _declare_parameters(node, args)
        executor = SingleThreadedExecutor(context=context)
        resources.callback(executor.shutdown)  # also when something fails before spinning
        executor.add_node(node)
        if args.voice:
            _start_voice(args, context, resources, executor)
        if node.get_parameter("autostart").value:
            node.start()
            if node.host is None:
                raise RosCommandError(node.failure)
            how = "active"
        else:
            how = f"unconfigured: `ros2 lifecycle set {node.get_fully_qualified_name()} configure`"
        print(
            f"cogtree ros: node {node.get_fully_qualified_name()} on ROS_DOMAIN_ID "
            f"{context.get_domain_id()} ({how}); say something on "
            f"{node.resolve_topic_name(UTTERANCE_TOPIC)}",
            file=sys.stderr,
        )
        spin_until(executor, stop, context, each=lambda: _start_if_ready(node))
        print("cogtree ros: stopping", file=sys.stderr)
    return 0


def _start_voice(
    args: argparse.Namespace, context: Any, resources: ExitStack, executor: Any
) -> None:
    """The speech nodes of ``--voice`` on a node ``speech`` beside the host (docs/voice.md).

    The recogniser is ``chat``'s default, Whisper, prompted with the robot's verbs (the
    belief, whose names ``chat`` adds, arrives later, over ROS). A missing engine or device
    is a :class:`RosCommandError`.
    """
    import rclpy

    from cogtree.trees.ros.speech_in import SpeechIn
    from cogtree.trees.ros.speech_out import SpeechOut
    from cogtree.trees.voice.errors import VoiceUnavailable
    from cogtree.trees.voice.microphone import Microphone
    from cogtree.trees.voice.speaking import SoundDeviceOutput, Speaker
    from cogtree.trees.voice.synthesizer import synthesizer_named
    from cogtree.trees.voice.vocabulary import prompt_of
    from cogtree.trees.voice.whisper_engine import WhisperRecognizer

    try:
        microphone = Microphone()
        speaker = Speaker(synthesizer_named(args.tts), SoundDeviceOutput())
        recognizer = WhisperRecognizer(prompt_of(None))
    except VoiceUnavailable as error:
        raise RosCommandError(f"--voice: {error}") from error
    node = rclpy.create_node("speech", namespace=args.namespace, context=context)
    resources.callback(node.destroy_node)
    speech_out = SpeechOut(node, speaker)
    resources.callback(speech_out.close)
    speech_in = SpeechIn(node, recognizer)
    resources.callback(speech_in.close)
    executor.add_node(node)
    speech_in.listen(microphone.listen)


def _start_if_ready(node: HostLifecycleNode) -> None:
    """Set a configured host's tree up once its belief is there (on the main thread)."""
    if node.host is not None:
        node.host.start_if_ready()


def _configure(node: Node, resources: ExitStack, args: argparse.Namespace) -> RosHost:
    """The lifecycle's configure: read the parameters, load packs, models and memory."""
    from cogtree.trees.ros.host import RosHost

    settings, options = _parameters(node)
    build = _tree(options["tree"])
    domains = DomainRegistry.discover(options["packs"], active=options["domain"] or None)
    for problem in domains.problems:
        print(f"cogtree ros: warning: skipped a domain pack: {problem}", file=sys.stderr)
    handles = resources.enter_context(Handles(domains=domains))
    belief = handles.load_scene(options["scene"]) if options["scene"] else None
    llm = resources.enter_context(_client(args, options["llm_backend"], options["llm_model"]))
    handles.open_memory(
        options["memory"] or default_memory_path(), embedder=recall_from_args(args).embedder
    )
    handles.open_experience(options["experience"] or default_experience_path())

    def open_session(hooks: TreeHooks) -> AssistantSession:
        return AssistantSession(
            llm=llm,
            handles={**handles.as_kwargs(), **hooks.handles},
            speaker=options["speaker"] or None,
            robot=hooks.robot,
            log_path=options["log"] or None,
            on_tick=hooks.on_tick,
            before_tick=hooks.before_tick,
            rate_hz=None,
            max_ticks_per_turn=ticks_per_turn(settings.rate_hz),
            root_factory=build,
            tree_name=options["tree"],
        )

    return RosHost(node, settings, open_session, belief=belief, active=False)


def _declare_parameters(node: Node, args: argparse.Namespace) -> None:
    """Declare the node's parameters, the options as defaults (docs/ros.md lists them)."""
    from rcl_interfaces.msg import ParameterDescriptor, ParameterType
    from rclpy.exceptions import ParameterException

    string_array = ParameterType.PARAMETER_STRING_ARRAY
    declared = {
        "autostart": (True, "configure and activate at start (false: wait for a manager)", None),
        "robots": (list(args.robots) or ["robot1=/robot1"], "NAME=NAMESPACE each", string_array),
        "tree": (args.tree, f"turn tree: {', '.join(TREE_NAMES)} or MODULE:FUNCTION", None),
        "packs": (list(args.packs), "extra domain pack folders", string_array),
        "domain": (args.domain or "", "the pack active at the start ('' for the default)", None),
        "llm_backend": (args.llm or "", "backend of every module ('' for the manifest's)", None),
        "llm_model": (args.model or "", "Ollama model tag ('' for the manifest's)", None),
        "memory": (args.memory or "", "memory database ('' for the default)", None),
        "experience": (
            str(args.experience or ""),
            "failure-experience database ('' for the default)",
            None,
        ),
        "speaker": (args.speaker or "", "who is talking ('' for unknown)", None),
        "scene": (args.scene or "", "belief from a Turtle file ('' for the robot's state)", None),
        "log": (args.log or "", "tick log file, JSON Lines ('' for none)", None),
        "rate_hz": (float(args.rate), "tree ticks per second", None),
        "command_timeout_s": (float(args.command_timeout), "seconds per accepted command", None),
        "answer_timeout_s": (float(args.answer_timeout), "seconds per request to a person", None),
        "accept_timeout_s": (
            5.0,
            "seconds to find a robot's action and have a goal accepted",
            None,
        ),
        "routes": (args.routes or "", "routes file: commands to action names ('' for none)", None),
    }
    assert tuple(declared) == PARAMETERS
    for name, (default, description, kind) in declared.items():
        descriptor = ParameterDescriptor(description=description)
        if kind is not None:
            descriptor.type = kind
        try:
            node.declare_parameter(name, default, descriptor)
        except ParameterException as error:
            raise RosCommandError(
                f"parameter {name}: {error}; give it like the default {default!r}"
            ) from error


def _parameters(node: Node) -> tuple[HostSettings, dict[str, Any]]:
    """The parameters' values now, and the host settings they make (RosCommandError if bad)."""
    from cogtree.skills.ros.protocol import parse_robot_namespaces
    from cogtree.skills.ros.routes import CommandRoutes, load_routes
    from cogtree.trees.ros.host import HostSettings

    values = {name: node.get_parameter(name).value for name in PARAMETERS}
    try:
        routes = load_routes(values["routes"]) if values["routes"] else CommandRoutes()
        settings = HostSettings(
            robots=parse_robot_namespaces(values["robots"]),
            rate_hz=values["rate_hz"],
            command_timeout_s=values["command_timeout_s"],
            answer_timeout_s=values["answer_timeout_s"],
            accept_timeout_s=values["accept_timeout_s"],
            routes=routes,
        )
    except ValueError as error:
        raise RosCommandError(str(error)) from error
    return settings, values


@contextmanager
def _client(args: argparse.Namespace, backend: str, model: str) -> Iterator[LLMClient]:
    """The LLM client of the options, with the ``llm_backend``/``llm_model`` parameters."""
    args.llm = backend or None
    with client_from_args(args, model) as client:
        yield client


def _tree(name: str) -> Callable[[str], py_trees.behaviour.Behaviour]:
    """The turn-tree factory ``name`` names (a robot id in, the root out)."""
    if ":" not in name and name not in NAMED_TREES:
        raise RosCommandError(
            f"unknown tree {name!r}: use {', '.join(TREE_NAMES)} or MODULE:FUNCTION"
        )
    try:
        factory = load_factory(NAMED_TREES.get(name, name))
    except TreeLoadError as error:
        raise RosCommandError(str(error)) from error

    takes_robot = bool(inspect.signature(factory).parameters)

    def build(robot: str) -> py_trees.behaviour.Behaviour:
        root = factory(robot) if takes_robot else factory()  # type: ignore[call-arg]
        if not isinstance(root, py_trees.behaviour.Behaviour):
            raise TreeLoadError(f"{name} returned {type(root).__name__}, not a py_trees behaviour")
        return root

    return build
