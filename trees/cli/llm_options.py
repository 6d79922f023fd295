"""Command-line options that choose the models, shared by every ``cogtree`` command that ticks."""

from __future__ import annotations

import argparse
from typing import Any

from behaviours.llm.client import LLMClient
from behaviours.llm.config import LLMConfig
from behaviours.llm.faults import FaultInjectingBackend, FaultPlan
from behaviours.llm.scripted import Script, ScriptedBackend
from behaviours.llm.types import BACKEND_NAMES


def add_llm_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--llm``, ``--config``, ``--script`` and ``--faults`` to ``parser``."""
    parser.add_argument("--llm", choices=BACKEND_NAMES, help="backend for every module")
    parser.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="FILE",
        help="LLM manifest layered on the packaged one (repeatable)",
    )
    parser.add_argument(
        "--script",
        metavar="FILE",
        help="YAML/JSON script for the scripted backend (implies --llm scripted)",
    )
    parser.add_argument(
        "--faults",
        metavar="SPEC",
        help="inject faults, e.g. rate=0.3,seed=7,kinds=malformed+timeout",
    )


def client_from_args(args: argparse.Namespace) -> LLMClient:
    """The LLM client the options of :func:`add_llm_arguments` describe."""
    config = LLMConfig.load(*args.config)
    backend = "scripted" if args.script and not args.llm else args.llm
    if backend:
        config = config.with_backend(backend)
    given = {"scripted": ScriptedBackend(Script.load(args.script))} if args.script else {}
    wrap = None
    if args.faults:
        plan = FaultPlan.parse(args.faults)

        def wrap(inner: Any) -> Any:
            return FaultInjectingBackend(inner, plan)

    return LLMClient(config, backends=given, wrap=wrap)
