"""The cogtree test kit: test a tree tick by tick against a mock blackboard and a scripted LLM.

Shipped in the package so users can test the trees they author::

    from cogtree.trees.testing import mock_blackboard, scripted_llm, TreeHarness

    def test_asks_for_the_destination():
        llm = scripted_llm({"by_module": {"inner_speech": [{"answer": {...}}]}})
        with mock_blackboard({"/turn/utterance": "bring the mug"}):
            harness = TreeHarness(create_root(), llm=llm.client)
            harness.tick_until(lambda h: h.root_status != "RUNNING", max_ticks=5)
            harness.trace.expect('''
                tick  AwaitUtterance  ReadinessGate  AskMissing
                1     S               R              -
                2     S               F              S
            ''')
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import py_trees
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.actions.dialogue.parse_request import ParseRequest
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.faults import FaultInjectingBackend, FaultPlan
from cogtree.knowledge.llm.scripted import Script, ScriptedBackend
from cogtree.knowledge.llm.types import CallRecord
from cogtree.trees.recording.display import status_letter
from cogtree.trees.recording.tick_log import shape_of


class BlackboardView:
    """Read access to the whole blackboard from a test, without registering keys."""

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key`` or ``default`` when it is not set."""
        return py_trees.blackboard.Blackboard.storage.get(key, default)

    def set(self, key: str, value: Any) -> None:
        """Write ``key`` (checked against the catalogue type when the key is in it)."""
        keys.preset(key, value, uncatalogued=True)


@contextmanager
def mock_blackboard(presets: Mapping[str, Any] | None = None) -> Iterator[BlackboardView]:
    """Clear the py_trees blackboard, preset keys, and clear it again afterwards.

    Presets for catalogue keys (``behaviours/keys.py``) are validated against their types;
    keys outside the catalogue are accepted for trees that define their own.
    """
    py_trees.blackboard.Blackboard.clear()
    view = BlackboardView()
    try:
        for key, value in (presets or {}).items():
            view.set(key, value)
        yield view
    finally:
        py_trees.blackboard.Blackboard.clear()


@dataclass
class ScriptedLLM:
    """A client wired to a scripted backend (and optionally a fault injector)."""

    client: LLMClient
    backend: ScriptedBackend
    faults: FaultInjectingBackend | None = None

    @property
    def calls(self) -> list[CallRecord]:
        """Every call record so far."""
        return self.client.call_log.records()


def scripted_llm(
    script: Script | Mapping[str, Any] | None = None,
    *,
    modules: Mapping[str, Mapping[str, Any]] | None = None,
    faults: FaultPlan | None = None,
) -> ScriptedLLM:
    """An :class:`LLMClient` whose every module is answered from ``script``.

    ``modules`` overrides per-module settings (e.g. ``{"inner_speech": {"timeout_s": 0.2}}``);
    ``faults`` wraps the scripted backend in a fault injector.
    """
    config = LLMConfig.from_mapping({"modules": dict(modules or {})}).with_backend("scripted")
    backend = ScriptedBackend(script)
    injector = FaultInjectingBackend(backend, faults) if faults is not None else None
    client = LLMClient(config, backends={"scripted": injector or backend})
    return ScriptedLLM(client=client, backend=backend, faults=injector)


@dataclass
class TickTrace:
    """Per-tick statuses of every node, by name, to read as an "Expect" table."""

    names: list[str]
    rows: list[dict[str, Status]] = field(default_factory=list)

    def column(self, name: str) -> list[Status]:
        """The statuses of node ``name``, one per tick."""
        self._check(name)
        return [row[name] for row in self.rows]

    def letters(self, name: str) -> str:
        """``column(name)`` as letters: S, F, R, and - for INVALID."""
        return "".join(status_letter(status) for status in self.column(name))

    def table(self, *names: str) -> str:
        """The trace as a table of letters (all nodes when ``names`` is empty)."""
        chosen = list(names) or self.names
        for name in chosen:
            self._check(name)
        widths = [max(len(name), 1) for name in chosen]
        lines = ["tick  " + "  ".join(n.ljust(w) for n, w in zip(chosen, widths, strict=True))]
        for number, row in enumerate(self.rows, start=1):
            cells = [status_letter(row[n]).ljust(w) for n, w in zip(chosen, widths, strict=True)]
            lines.append(f"{number:<4}  " + "  ".join(cells))
        return "\n".join(line.rstrip() for line in lines)

    def expect(self, table: str) -> None:
        """Assert the trace matches ``table``: a header ``tick Name ...`` and rows of letters.

        Letters: S success, F failure, R running, - invalid; ``*`` matches anything.
        """
        lines = [line.split() for line in table.strip().splitlines() if line.strip()]
        header, rows = lines[0], lines[1:]
        if header[0] != "tick":
            raise ValueError("an Expect table starts with a `tick` column")
        names = header[1:]
        actual = self.table(*names)
        problems = []
        if len(rows) != len(self.rows):
            problems.append(f"expected {len(rows)} ticks, ran {len(self.rows)}")
        for row in rows:
            number = int(row[0])
            if number > len(self.rows):
                continue
            for name, want in zip(names, row[1:], strict=True):
                got = status_letter(self.rows[number - 1][name])
                if want != "*" and want != got:
                    problems.append(f"tick {number} {name}: expected {want}, got {got}")
        if problems:
            raise AssertionError("\n".join(problems) + "\nactual trace:\n" + actual)

    def _check(self, name: str) -> None:
        if name not in self.names:
            raise KeyError(f"no node named {name!r}; nodes: {', '.join(self.names)}")


def parsed_first(node: py_trees.behaviour.Behaviour) -> py_trees.behaviour.Behaviour:
    """``node`` behind a :class:`ParseRequest`, as the assistant tree runs its gates.

    Scope, intent, readiness and refusal read the turn's one parse (``/turn/frame``); a test
    that ticks one of them on a preset ``/turn/utterance`` ticks this sequence instead. The
    parse succeeds in the first tick, so tick counts are the node's own.
    """
    return py_trees.composites.Sequence("Turn", memory=True, children=[ParseRequest(), node])


class TreeHarness:
    """Ticks a tree for a test and records its :class:`TickTrace`.

    Model calls run on worker threads; by default the harness waits for calls in flight
    to finish between ticks (``settle``), so a trace is the same on every run. Pass
    ``settle=False`` to watch a call that is deliberately held or slow.
    """

    def __init__(
        self,
        root: py_trees.behaviour.Behaviour,
        *,
        llm: LLMClient,
        handles: Mapping[str, Any] | None = None,
        settle_timeout_s: float = 10.0,
    ) -> None:
        names = [shape.name for shape in shape_of(root)]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"node names must be unique to trace a tree: {duplicates}")
        self.tree = py_trees.trees.BehaviourTree(root)
        self.llm = llm
        self.settle_timeout_s = settle_timeout_s
        self.trace = TickTrace(names=names)
        self.tree.setup(timeout=15.0, llm=llm, **dict(handles or {}))

    @property
    def root_status(self) -> str:
        """The root's status name after the last tick."""
        return self.tree.root.status.value

    def tick(self, times: int = 1, *, settle: bool = True) -> TickTrace:
        """Tick ``times`` times (waiting for model calls in between when ``settle``)."""
        for _ in range(times):
            if settle:
                self.llm.wait_for_calls(self.settle_timeout_s)
            self.tree.tick()
            self.trace.rows.append({node.name: node.status for node in self.tree.root.iterate()})
        return self.trace

    def tick_until(
        self,
        until: Callable[[TreeHarness], bool] | None = None,
        *,
        max_ticks: int = 20,
        settle: bool = True,
        period_s: float = 0.0,
    ) -> TickTrace:
        """Tick until ``until(harness)`` (default: root terminal) or ``max_ticks``."""
        done = until or (
            lambda harness: harness.tree.root.status in (Status.SUCCESS, Status.FAILURE)
        )
        for _ in range(max_ticks):
            self.tick(settle=settle)
            if done(self):
                break
            if period_s:
                time.sleep(period_s)
        return self.trace
