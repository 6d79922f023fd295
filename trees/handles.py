"""``Handles``: what a tree's ``setup(**kwargs)`` receives, built in one place for every command.

Each field is one handle, under the name the behaviours ask for (``require_handle(self,
kwargs, "scene_graph", SceneGraph)``); :meth:`Handles.as_kwargs` gives the ones that are
set, for :class:`~trees.runner.TreeRunner`, :class:`~trees.assistant_session.AssistantSession`
or :class:`~trees.testing.TreeHarness`. The LLM client is not a field: the runner and the
session take it on its own, as ``llm``.

A handle is either given (``Handles(domains=..., memory=...)``, or
:meth:`~Handles.attach_simulator`): the caller keeps it and closes it; or opened by the
``open_*`` and :meth:`~Handles.load_scene` methods: :meth:`~Handles.close` closes it, the
last opened first. A new handle is one more field, and an ``open_*`` method if the handles
should own it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.language.similarity import Embedder
from cogtree.knowledge.memory.experience import ExperienceStore
from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.rdf_store import Storage
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.sim.executor import SimExecutor
from cogtree.sim.humans import People
from cogtree.skills.action_model.commands import Executor
from cogtree.skills.execution.human_channel import HumanChannel

Clock = Callable[[], float]
"""Seconds now, on the clock delegation timeouts count (the simulator's, or the wall's)."""

_NOT_HANDLES = ("extra", "opened")


@dataclass
class Handles(Closeable):
    """The handles of one run (see the module docs); None means "not given to ``setup``".

    ``domains``: the domain packs (:class:`~knowledge.packs.domain_registry.DomainRegistry`);
    ``memory``: the dialogue memory; ``experience``: the failure-experience store;
    ``scene_graph``: the robot's belief; ``executor``: runs robot commands; ``people``:
    delegates tasks to people (a :class:`~skills.execution.human_channel.HumanChannel`, or the
    simulator's :class:`~sim.humans.People`); ``clock``: the time delegation timeouts count;
    ``workers``: the thread pool slow work (model calls, queries) is submitted to;
    ``extra``: the handles of one host only, by name (the ROS node, the team of robots).
    """

    domains: DomainRegistry | None = None
    memory: MemoryStore | None = None
    experience: ExperienceStore | None = None
    scene_graph: SceneGraph | None = None
    executor: Executor | None = None
    people: HumanChannel | People | None = None
    clock: Clock | None = None
    workers: WorkerPool | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    opened: ExitStack = field(default_factory=ExitStack, repr=False, compare=False)

    def as_kwargs(self) -> dict[str, Any]:
        """The handles that are set, by name, then ``extra``: ``setup(**handles.as_kwargs())``."""
        named = {spec.name: getattr(self, spec.name) for spec in fields(self)}
        given = {name: value for name, value in named.items() if name not in _NOT_HANDLES}
        return {**{name: value for name, value in given.items() if value is not None}, **self.extra}

    # -- handles these handles open, and close --------------------------------------------------

    def open_memory(
        self, path: str | Path | None = None, *, embedder: Embedder | None = None
    ) -> MemoryStore:
        """The memory in the SQLite file ``path`` (folders are made); None: a temporary file.

        ``embedder``: archive recall through an embedding model; None: TF-IDF with synonyms.
        """
        if path is None:
            folder = self.opened.enter_context(tempfile.TemporaryDirectory(prefix="cogtree-"))
            memory_path = Path(folder) / "memory.sqlite"
        else:
            memory_path = Path(path)
            memory_path.parent.mkdir(parents=True, exist_ok=True)
        self.memory = self.opened.enter_context(MemoryStore(memory_path, embedder=embedder))
        return self.memory

    def open_experience(
        self, path: str | Path | None = None, *, scenario: str | None = None
    ) -> ExperienceStore:
        """The failure-experience store: the shipped seeds plus what was learnt in ``path``.

        ``path``: the SQLite file learnt recoveries persist in (folders are made); None:
        the seeds only, and what this run learns is forgotten when it ends. ``scenario``:
        the simulator scenario the run plays, kept in the provenance of what it learns.
        """
        self.experience = self.opened.enter_context(ExperienceStore(path, scenario=scenario))
        return self.experience

    def open_workers(self, threads: int = 2, name: str = "cogtree-workers") -> WorkerPool:
        """A pool of ``threads`` worker threads (named ``name``) for the tree's slow work."""
        self.workers = self.opened.enter_context(WorkerPool(threads, name))
        return self.workers

    def load_scene(self, path: str | Path, *, storage: Storage | None = None) -> SceneGraph:
        """The belief from the Turtle file ``path`` (TurtleError names the line).

        ``storage``: Oxigraph in memory or on disk; by default by the file's size (a store on
        disk is removed when these handles close; docs/belief_storage.md).
        """
        self.scene_graph = self.opened.enter_context(
            SceneGraph.from_turtle_file(path, storage=storage)
        )
        return self.scene_graph

    # -- handles given ------------------------------------------------------------------------

    def attach_simulator(self, simulator: SimExecutor) -> None:
        """Act in ``simulator`` (the caller closes it): its belief, workers, executor and more.

        The handles become its belief, its worker pool, the simulator as executor, its people
        and its clock: delegation timeouts then count simulated seconds.
        """
        world = simulator.world
        self.scene_graph = simulator.belief
        self.workers = simulator.workers
        self.executor = simulator
        self.people = simulator.people
        self.clock = lambda: world.now().timestamp()

    def close(self) -> None:
        """Close what these handles opened, the last opened first; given handles stay open."""
        self.opened.close()
