"""Command-line options that choose the models, shared by every ``cogtree`` command that ticks."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import JUDGE_MODULE, LLMConfig
from cogtree.knowledge.llm.faults import FaultInjectingBackend, FaultPlan
from cogtree.knowledge.llm.scripted import Script, ScriptedBackend
from cogtree.knowledge.llm.types import BACKEND_NAMES
from cogtree.trees.cli.errors import CLIError
from cogtree.trees.cli.user_data import calibration_path

READINESS_MODULE = "inner_speech"
"""The module whose settings name the calibrated gate's threshold."""

NAMED_AT_START = ("ollama", "llama-cpp")
"""Backends checked when the command starts (a model server or file that may be missing)."""


def add_llm_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--llm``, ``--config``, ``--script``, ``--faults`` and the judge switch."""
    parser.add_argument("--llm", choices=BACKEND_NAMES, help="backend for every module")
    add_judge_argument(parser)
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


def add_judge_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--judge/--no-judge``: the plan judge on or off (default: as the manifest says)."""
    parser.add_argument(
        "--judge",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="switch the validation gate's LLM judge on or off (default: the manifest's "
        "plan_validation.enabled, off as packaged); it may reject a plan the dry run "
        "accepted, never approve one it refused",
    )


def with_judge_switch(config: LLMConfig, judge: bool | None) -> LLMConfig:
    """``config`` with the judge as ``--judge/--no-judge`` say (None: unchanged)."""
    return config if judge is None else config.with_judge(judge)


def client_from_args(args: argparse.Namespace, model: str = "") -> LLMClient:
    """The LLM client the options of :func:`add_llm_arguments` describe.

    ``model``: a model tag that overrides the manifest's (before the calibration file of the
    model is looked up, so the threshold found is the one for the model that runs).
    """
    config = with_judge_switch(LLMConfig.load(*args.config), args.judge)
    backend = "scripted" if args.script and not args.llm else args.llm
    if backend:
        config = config.with_backend(backend)
    if model:
        config = config.with_model(model)
    given = {"scripted": ScriptedBackend(Script.load(args.script))} if args.script else {}
    wrap = None
    if args.faults:
        plan = FaultPlan.parse(args.faults)

        def wrap(inner: Any) -> Any:
            return FaultInjectingBackend(inner, plan)

    client = LLMClient(config, backends=given, wrap=wrap)
    try:
        check_named_backends(client)
    except CLIError:
        client.close()
        raise
    print(f"cogtree: {backend_summary(client)}", file=sys.stderr)
    calibrated = use_default_calibration(client)
    if calibrated is not None:
        print(f"cogtree: calibrated readiness gate: {calibrated}", file=sys.stderr)
    warn_judge_without_model(client)
    return client


def use_default_calibration(client: LLMClient) -> Path | None:
    """Calibrate the readiness gate with the threshold file of the model it runs, if any.

    When the manifest names no ``calibration`` for the readiness module and
    :func:`~trees.cli.user_data.calibration_path` holds a file for its backend and model (the one
    ``cogtree eval card`` fits), the client's settings point at it; the file used, else None.
    A threshold made for another model is refused by the gate, never used.
    """
    settings = client.settings_for(READINESS_MODULE)
    backend = client.backend_for(READINESS_MODULE)
    if settings.calibration is not None or backend.name in ("none", "scripted"):
        return None
    path = calibration_path(backend.name, backend.model_name(settings))
    if not path.is_file():
        return None
    client.config = client.config.with_module(READINESS_MODULE, calibration=str(path))
    return path


def warn_judge_without_model(client: LLMClient) -> None:
    """Say on stderr when the judge is on but no model serves it: every plan is rejected."""
    if not client.settings_for(JUDGE_MODULE).enabled:
        return
    if client.backend_for(JUDGE_MODULE).name == "none":
        print(
            f"cogtree: the plan judge is on but no model serves {JUDGE_MODULE}: it cannot "
            "answer, so every plan the dry run accepts is rejected (the safe decision)",
            file=sys.stderr,
        )


def check_named_backends(client: LLMClient) -> None:
    """Fail at start (:class:`CLIError`, exit 2) when a backend asked for by name cannot serve.

    ``--llm ollama`` with no server or without the model, ``--llm llama-cpp`` without the
    package or the GGUF: the fix goes to the operator now, never to the user mid-turn.
    """
    checked: set[tuple[str, str, str]] = set()
    for module in client.config.module_names:
        settings = client.settings_for(module)
        if settings.backend not in NAMED_AT_START:
            continue
        backend = client.backend_for(module)
        key = (settings.backend, settings.model, settings.ollama_host or "")
        if key in checked:
            continue
        checked.add(key)
        status = backend.probe(settings)
        if not status.ready:
            fix = f"; fix: {status.fix}" if status.fix else ""
            raise CLIError(
                f"--llm {settings.backend} cannot serve module {module}: {status.detail}{fix} "
                "(or leave --llm out: auto runs without a model when none is there)"
            )


def backend_summary(client: LLMClient) -> str:
    """One line: which backend and model serve the modules (``auto`` says why)."""
    served: dict[str, list[str]] = {}
    for module in client.config.module_names:
        settings = client.settings_for(module)
        backend = client.backend_for(module)
        if backend.name == "none":
            why = client.describe()[module].removeprefix("auto -> ").removeprefix("none: ")
            line = f"no model ({why}): gates run their fast paths"
        else:
            line = f"{backend.name} {backend.model_name(settings)}"
        served.setdefault(line, []).append(module)
    if len(served) == 1:
        return f"LLM: {next(iter(served))}"
    return "LLM: " + "; ".join(
        f"{line} for {', '.join(modules)}" for line, modules in served.items()
    )
