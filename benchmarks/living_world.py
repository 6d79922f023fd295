"""A living world: the assistant's turns while perception keeps changing a big belief.

Builds synthetic care homes of 1k, 10k and 100k objects (the flats of
``scene_graph_latency``: rooms, furniture, a resident and a dozen objects each, loaded in one
bulk load), opens an assistant session over each (the shipped packs, no model, a worker
pool), then runs turns while a second thread streams observation batches into the belief,
10 a second, each moving a few objects and now and then seeing a new one. Prints one growth
table:

- load: the bulk load of the home's Turtle (not part of setup);
- setup: building the session over the loaded belief (the tree's setup, the lexicons, any
  index over the belief);
- load and setup also in CPU seconds of the process (what they cost on a machine shared with
  other work, where the wall time also counts the waits for a core);
- worst tick and p99 tick: the whole ``TreeRunner.tick`` (the tree and the runner's record)
  over every turn, while batches stream in; the worst tick also in CPU time of the ticking
  thread (on a loaded machine a tick's wall time counts its waits for a core);
- resolve: the slowest median of a few referent resolutions scoped by a place or an owner
  ("the book in kitchen 3", "my mug"), and of "the red mug" across the building, whose
  matches grow with it (their number is printed), resolved as a request's referent is (at
  most ``ASKED_LIMIT`` candidates, each saying how many matched);
- memory: the process's resident memory (``VmRSS`` of ``/proc/self/status``: what the
  store's Rust allocations and files mapped in count too, which tracemalloc does not see)
  after the turns less before the home was built (the packs are loaded by then), per object;
- store: where the belief's triples live, chosen by the home's size unless ``--storage``
  says (``knowledge.scene.rdf_store.Storage``); a store on disk is removed at the end.

Targets (issue 32): worst tick <= 50 ms at 10k; setup <= 2 s at 10k and <= 10 s at 100k;
resolve <= 5 ms at 100k; <= 2 KB per object. Every size runs in its own process, so memory
is measured on a clean heap. Asserts nothing.

    python benchmarks/living_world.py [--quick] [--sizes 1000,10000,100000] [--storage disk]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

import scene_graph_latency

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.rdf_store import Storage, is_on_disk
from cogtree.knowledge.scene.referents.resolution import ASKED_LIMIT
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import Observation
from cogtree.trees.assistant_session import AssistantSession
from cogtree.trees.handles import Handles
from cogtree.trees.testing import mock_blackboard

SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (1_000,)
BATCHES_PER_SECOND = 10
MOVES_PER_BATCH = 3
STORAGES = {"size": Storage(), "memory": Storage(on_disk=False), "disk": Storage(on_disk=True)}
"""The stores ``--storage`` names: by the home's size (the default), in memory, on disk."""
NEW_THING_EVERY = 5
"""Every fifth batch also sees a thing the belief did not know."""

TURNS = (
    "where is the book?",
    "bring me the red mug from kitchen 3",
    "who is in the living room 2?",
    "where is the blue bottle in kitchen 1?",
    "what is the weather like?",
)
DESCRIPTIONS = ("the book in kitchen 3", "my mug", "the blue bottle on table 2")
"""Descriptions scoped by a place or an owner: a handful of matches at any size."""
BUILDING_WIDE = "the red mug"
"""A description that matches about one object in 110 across the building."""


@dataclass(frozen=True)
class Row:
    """One home's figures."""

    objects: int
    store: str
    triples: int
    load_s: float
    load_cpu_s: float
    setup_s: float
    setup_cpu_s: float
    ticks: int
    batches: int
    worst_tick_ms: float
    worst_tick_cpu_ms: float
    p99_tick_ms: float
    resolve_ms: float
    wide_matches: int
    wide_resolve_ms: float
    kb_per_object: float


def home_turtle(objects: int, seed: int = 7) -> tuple[str, int]:
    """The Turtle of a care home with at least ``objects`` objects, and its number of flats."""
    rng = random.Random(seed)
    flats = -(-objects // scene_graph_latency.OBJECTS_PER_FLAT)
    body = "\n".join(scene_graph_latency.flat_turtle(flat, rng) for flat in range(flats))
    return scene_graph_latency.PREFIXES + scene_graph_latency.ROBOTS + body, flats


def resident_memory_kb() -> int:
    """The process's resident memory now, in KB (Linux)."""
    for line in Path("/proc/self/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Stream(threading.Thread):
    """Observation batches into ``scene``, 10 a second, until stopped."""

    def __init__(self, scene: SceneGraph, flats: int, seed: int = 11) -> None:
        super().__init__(daemon=True, name="observations")
        self.scene = scene
        self.flats = flats
        self.rng = random.Random(seed)
        self.batches = 0
        self.stopped = threading.Event()

    def run(self) -> None:
        period = 1.0 / BATCHES_PER_SECOND
        while not self.stopped.wait(period):
            self.scene.observe(self.batch())
            self.batches += 1

    def batch(self) -> list[Observation]:
        """A few objects moved to other furniture of their flat; sometimes a new thing seen."""
        now = datetime.now(timezone.utc)
        found = []
        for _ in range(MOVES_PER_BATCH):
            flat = self.rng.randrange(self.flats)
            kind = self.rng.choice(scene_graph_latency.OBJECT_TYPES).lower()
            index = self.rng.randrange(scene_graph_latency.OBJECTS_PER_FLAT)
            subject = f"f{flat}_{kind}{index}"
            if (SceneGraph.iri(subject), None, None) not in self.scene.graph:
                continue
            support = self.rng.choice(["table", "counter", "coffee_table", "shelf"])
            relation = "on"
            found.append(
                Observation(
                    subject=subject,
                    predicate=relation,
                    object=f"f{flat}_{support}",
                    source="camera",
                    time=now,
                )
            )
        if self.batches % NEW_THING_EVERY == 0:
            thing = f"seen_{self.batches}"
            flat = self.rng.randrange(self.flats)
            for predicate, value in (
                ("type", "Object"),
                ("objectType", "Mug"),
                ("label", f"spotted mug {self.batches}"),
                ("on", f"f{flat}_table"),
            ):
                found.append(
                    Observation(
                        subject=thing, predicate=predicate, object=value, source="camera", time=now
                    )
                )
        return found


def median_ms(call: Callable[[], object], repetitions: int) -> float:
    """The median wall time of ``call()`` in ms."""
    samples = []
    for _ in range(repetitions):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000.0)
    return statistics.median(samples)


def measure(objects: int, turns: int, storage: Storage) -> Row:
    """Build the home in ``storage``, open a session, run ``turns`` turns while batches stream."""
    domains = DomainRegistry.discover()
    domains.switch("household")
    llm = LLMClient(LLMConfig.load().with_backend("none"))
    SceneGraph().close()  # the ontology and taxonomy parsers, loaded before memory is read
    before_kb = resident_memory_kb()
    text, flats = home_turtle(objects)
    started, cpu = time.perf_counter(), time.process_time()
    scene = SceneGraph.from_turtle_text(text, source="care home", storage=storage)
    load_s, load_cpu_s = time.perf_counter() - started, time.process_time() - cpu
    del text
    ticks: list[float] = []
    tick_cpus: list[float] = []
    tick_started = [0.0, 0.0]

    def before_tick() -> None:
        tick_started[:] = [time.perf_counter(), time.thread_time()]

    def on_tick(*_: object) -> None:
        ticks.append((time.perf_counter() - tick_started[0]) * 1000.0)
        tick_cpus.append((time.thread_time() - tick_started[1]) * 1000.0)

    with Handles(domains=domains, scene_graph=scene) as handles, mock_blackboard():
        handles.open_memory()
        handles.open_experience()
        handles.open_workers()
        started, cpu = time.perf_counter(), time.process_time()
        session = AssistantSession(
            llm=llm,
            handles=handles.as_kwargs(),
            speaker="resident3",
            before_tick=before_tick,
            on_tick=on_tick,
            rate_hz=200.0,
        )
        setup_s, setup_cpu_s = time.perf_counter() - started, time.process_time() - cpu
        stream = Stream(scene, flats)
        stream.start()
        try:
            for index in range(turns):
                session.turn(TURNS[index % len(TURNS)])
        finally:
            stream.stopped.set()
            stream.join()
            session.close()
        resolve = partial(scene.resolve_referent, limit=ASKED_LIMIT)
        resolve_ms = max(median_ms(partial(resolve, d, "resident3"), 5) for d in DESCRIPTIONS)
        wide = resolve(BUILDING_WIDE)
        wide_matches = wide[0].among or len(wide) if wide else 0
        wide_ms = median_ms(partial(resolve, BUILDING_WIDE), 5)
        kb = (resident_memory_kb() - before_kb) / objects
    llm.close()
    triples, store = len(scene), "disk" if is_on_disk(scene.graph) else "memory"
    scene.close()
    ordered = sorted(ticks)
    return Row(
        objects=objects,
        store=store,
        triples=triples,
        load_s=round(load_s, 2),
        load_cpu_s=round(load_cpu_s, 2),
        setup_s=round(setup_s, 2),
        setup_cpu_s=round(setup_cpu_s, 2),
        ticks=len(ordered),
        batches=stream.batches,
        worst_tick_ms=round(ordered[-1], 1),
        worst_tick_cpu_ms=round(max(tick_cpus), 1),
        p99_tick_ms=round(ordered[int(0.99 * (len(ordered) - 1))], 1),
        resolve_ms=round(resolve_ms, 2),
        wide_matches=wide_matches,
        wide_resolve_ms=round(wide_ms, 2),
        kb_per_object=round(kb, 2),
    )


def main() -> None:
    """Measure each size in its own process and print the growth table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="1k objects only (in memory and on disk), for CI"
    )
    parser.add_argument("--sizes", help="comma-separated object counts")
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument(
        "--storage",
        choices=STORAGES,
        default="size",
        help="the belief's store: by the home's size (the default), in memory, or on disk",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(asdict(measure(args.one, args.turns, STORAGES[args.storage]))))
        return
    sizes: tuple[int, ...] = QUICK_SIZES if args.quick else SIZES
    if args.sizes:
        sizes = tuple(int(size) for size in args.sizes.split(","))
    turns = 3 if args.quick else args.turns
    print(
        "| objects | store | triples | load (s) | load CPU (s) | setup (s) | setup CPU (s) | ticks "
        "| batches | worst tick (ms) | worst tick CPU (ms) | p99 tick (ms) | resolve (ms) "
        "| 'the red mug' (matches, ms) | KB / object |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    runs = [(size, args.storage) for size in sizes]
    if args.quick and args.storage == "size":
        runs.append((QUICK_SIZES[0], "disk"))  # the store on disk runs in CI too
    for size, storage in runs:
        command = [sys.executable, __file__, "--one", str(size), "--turns", str(turns)]
        command += ["--storage", storage]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode:
            print(f"| {size} | failed: {done.stderr.strip().splitlines()[-1]} |")
            continue
        row = Row(**json.loads(done.stdout.strip().splitlines()[-1]))
        print(
            f"| {row.objects} | {row.store} | {row.triples} | {row.load_s} | {row.load_cpu_s} "
            f"| {row.setup_s} | {row.setup_cpu_s} | {row.ticks} "
            f"| {row.batches} | {row.worst_tick_ms} | {row.worst_tick_cpu_ms} | {row.p99_tick_ms} "
            f"| {row.resolve_ms} "
            f"| {row.wide_matches}, {row.wide_resolve_ms} | {row.kb_per_object} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
