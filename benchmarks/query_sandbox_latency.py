"""What the read-only query sandbox costs, and what the tick sees while a model query runs.

On the advisor pack's knowledge graph (about 2,600 triples) and a scene graph:

- checks: the text rules (:class:`QueryChecker`) and the whole check (:class:`QueryVetter`:
  the rules, then Oxigraph's reading in its worker process, warm) on a short and on a
  4,000-character query; GenerateQuery runs the whole check on the model call's worker;
- template query: ``graph.query`` straight vs ``runner.run(text, template=True)`` (in-process,
  on the runner's thread): the runner's added latency;
- model query: the same text in the sandbox process (warm worker, snapshot loaded), a cold
  start (new worker and snapshot), and a snapshot sent again after a change of the graph;
- SQL: the larder pack's SQLite backend: a bound template, a statement the authorizer
  refuses (a DELETE), and a runaway self-join interrupted at its deadline;
- ticks: a tree with RunQuery ticked every 5 ms while a runaway model query runs in the sandbox
  until it is killed at its deadline, then while a normal model query runs (RunQuery checks
  and runs on its worker thread). No tick may take over 50 ms because of query checking; the
  checks table counts the checks over 50 ms (none of them runs on a tick).

Prints tables; asserts nothing. A few seconds on two cores (mostly the runaway query's 0.5 s
deadline and worker starts); ``--quick`` (CI) repeats each measurement 5 times instead of 50.

    python benchmarks/query_sandbox_latency.py [--quick]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import py_trees
from py_trees.common import Status
from rdflib import Literal

from cogtree.behaviours.actions.grounding.run_query import RunQuery
from cogtree.knowledge.packs.domain_pack import load_pack
from cogtree.knowledge.packs.domain_registry import OPTIONAL_PACKS, DomainRegistry
from cogtree.knowledge.scene.readonly_query import (
    QueryChecker,
    QueryRefused,
    QueryVetter,
    ReadOnlyQueryRunner,
)
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import GeneratedQuery
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.trees.testing import mock_blackboard

DISH_QUERY = (
    "SELECT ?dish ?label ?kcal WHERE { ?dish a adv:Dish ; rdfs:label ?label ; "
    "adv:hasIngredient/adv:ingredient/adv:kcalPer100g ?kcal } ORDER BY ?label LIMIT 50"
)
RUNAWAY_QUERY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
TICK_BUDGET_MS = 50.0
SCENE_TTL = Path(__file__).resolve().parents[1] / "knowledge" / "scene" / "scenes" / "home.ttl"
COG = "https://cogtree.dev/ontology#"


def timed(action: Callable[[], object], repeats: int) -> list[float]:
    """Milliseconds of ``repeats`` calls of ``action``."""
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1000.0)
    return samples


def added(samples: list[float], baseline: list[float]) -> float:
    """The median of ``samples`` less the median of ``baseline``, in ms."""
    return statistics.median(samples) - statistics.median(baseline)


def row(label: str, samples: list[float]) -> str:
    """One table row: count, median, 95th percentile and maximum in ms."""
    ordered = sorted(samples)
    p95 = ordered[math.ceil(0.95 * len(ordered)) - 1]
    median = statistics.median(ordered)
    return f"{label:<52} {len(ordered):>5} {median:9.3f} {p95:9.3f} {ordered[-1]:9.3f}"


def header(title: str) -> str:
    return f"== {title}\n{'':<52} {'n':>5} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9}"


def checks(prefixes: dict[str, str], repeats: int) -> list[str]:
    checker = QueryChecker(prefixes)
    names = ""
    for n in range(1000):
        if len(names) > 3600:
            break
        names += f" adv:dish_{n}"
    patterns = "?dish adv:hasIngredient ?line . ?line adv:grams ?grams ; adv:ingredient ?food ."
    long = f"SELECT * WHERE {{ VALUES ?dish {{{names} }} {patterns} }} LIMIT 1"
    lines = []
    with QueryVetter(prefixes) as vetter:
        vetter.refusal(DISH_QUERY)  # start the worker
        for label, text in (("short query", DISH_QUERY), (f"{len(long):,} characters", long)):
            for how, check in (("text rules", checker.check), ("whole check", vetter.refusal)):
                samples = timed(lambda: check(text), repeats)  # noqa: B023 (called at once)
                over = sum(1 for sample in samples if sample > TICK_BUDGET_MS)
                lines.append(row(f"{how}, {label} (over {TICK_BUDGET_MS:g} ms: {over})", samples))
    return lines


def queries(domains: DomainRegistry, repeats: int) -> list[str]:
    pack = domains.get("advisor")
    graph = pack.knowledge_graph()
    checker = QueryChecker(pack.manifest.prefixes)
    executed = checker.check(DISH_QUERY).text
    lines = []
    with ReadOnlyQueryRunner(graph, pack.manifest.prefixes) as runner:
        direct = timed(lambda: list(graph.query(executed, initNs=runner.prefixes)), repeats)
        template = timed(lambda: runner.run(DISH_QUERY, template=True), repeats)
        runner.run(DISH_QUERY)  # start the worker, send the snapshot
        model = timed(lambda: runner.run(DISH_QUERY), repeats)
        lines += [
            row("graph.query in-process (no runner)", direct),
            row("template query, runner in-process", template),
            row("model query, sandbox process (warm)", model),
            "",
            f"added per template query: {added(template, direct):.3f} ms; "
            f"per model query: {added(model, direct):.3f} ms",
            "",
        ]
    cold = []
    for _ in range(max(2, repeats // 10)):
        with ReadOnlyQueryRunner(graph, pack.manifest.prefixes) as runner:
            cold += timed(lambda: runner.run(DISH_QUERY), 1)
    lines.append(row("model query, cold (start worker, send snapshot)", cold))
    scene = SceneGraph.from_turtle_file(SCENE_TTL)
    try:
        ask = "ASK { ?thing a cog:Object }"
        scene.query_readonly(ask)
        changed = []
        for n in range(max(2, repeats // 5)):
            scene.load_text(f"<https://cogtree.dev/scene#bench{n}> a <{COG}Object> .")
            changed += timed(lambda: scene.query_readonly(ask), 1)
        lines.append(row(f"scene graph ({len(scene)} triples) changed: snapshot+query", changed))
    finally:
        scene.close()
    return lines


def sql_rows(repeats: int) -> list[str]:
    """The SQLite backend of the larder pack: a template, a refusal, a deadline."""
    larder = load_pack(OPTIONAL_PACKS / "larder")
    backend = larder.open_backend()
    text = larder.query("stock_level").bind(item=Literal("basmati_rice"))
    runaway = "SELECT count(*) FROM " + ", ".join(f"stock s{n}" for n in range(30))

    def refused(statement: str) -> None:
        try:
            backend.run(statement)
        except QueryRefused:
            return
        raise AssertionError(f"the SQL backend ran {statement!r}")

    try:
        return [
            row("SQL template (stock_level)", timed(lambda: backend.run(text), repeats)),
            row(
                "SQL write refused by the authorizer",
                timed(lambda: refused("DELETE FROM stock"), repeats),
            ),
            row("SQL runaway join interrupted at its deadline", timed(lambda: refused(runaway), 2)),
        ]
    finally:
        backend.close()


def ticks(domains: DomainRegistry, query: str, limit_s: float) -> tuple[list[float], str]:
    """Tick a RunQuery tree every 5 ms until the query ends; per-tick ms and how it ended."""
    samples: list[float] = []
    presets = {
        "/turn/domain": "advisor",
        "/turn/query": GeneratedQuery(text=query, source="model"),
    }
    with mock_blackboard(presets), WorkerPool(2, "bench-workers") as workers:
        node = RunQuery()
        tree = py_trees.trees.BehaviourTree(node)
        tree.setup(timeout=15.0, domains=domains, workers=workers)
        deadline = time.perf_counter() + limit_s
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            tree.tick()
            samples.append((time.perf_counter() - started) * 1000.0)
            if node.status != Status.RUNNING:
                break
            time.sleep(0.005)
        ending = node.feedback_message
        tree.shutdown()
    return samples, ending


def tick_rows(domains: DomainRegistry) -> list[str]:
    lines = []
    for label, query in (
        ("runaway model query (killed)", RUNAWAY_QUERY),
        ("model query", DISH_QUERY),
    ):
        samples, ending = ticks(domains, query, limit_s=30.0)
        over = sum(1 for sample in samples if sample > TICK_BUDGET_MS)
        lines.append(row(f"ticks while a {label} runs", samples))
        lines.append(f"    ticks over {TICK_BUDGET_MS:g} ms: {over}; ended: {ending[:70]}")
    return lines


def main() -> None:
    """Run every measurement and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repeats (CI): a few seconds")
    args = parser.parse_args()
    repeats = 5 if args.quick else 50
    domains = DomainRegistry.discover(only=["advisor"])
    prefixes = dict(domains.get("advisor").manifest.prefixes)
    print(header("checks (ms)"))
    print("\n".join(checks(prefixes, repeats)))
    print()
    print(header("queries (ms)"))
    print("\n".join(queries(domains, repeats)))
    print()
    print(header("SQL on SQLite (ms)"))
    print("\n".join(sql_rows(repeats)))
    print()
    print(header("ticks of a RunQuery tree (ms)"))
    print("\n".join(tick_rows(domains)))


if __name__ == "__main__":
    main()
