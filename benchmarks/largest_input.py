"""The worst tick for the largest input the command line accepts: no tick may take a second.

Three inputs, each at its limit:

- **request**: a turn (``AssistantSession.turn``, the path of ``cogtree ask`` and ``chat``) of
  :data:`~trees.assistant_session.MAX_UTTERANCE_CHARS` characters, with no model, in the
  ``everyday_home`` world: a rambling request of many steps (hazard words in each, so the
  readiness gate weighs every step) and a long knowledge question;
- **model query**: ``GenerateQuery`` then ``RunQuery`` on the advisor pack, a model (scripted)
  answering a SPARQL query of just under the runner's 4,000 characters, the tree ticked every
  5 ms while the query is checked (on the model call's worker) and run (in the sandbox);
- **script**: a BehaviorTree.CPP ``Script`` node of up to
  :data:`~behaviours.btcpp.scripting.MAX_SCRIPT_CHARS` characters, each statement nested just
  under :data:`~behaviours.btcpp.scripting.MAX_SCRIPT_DEPTH` (brackets, then long sums),
  loaded from XML and ticked.

Prints the worst and median tick in ms for each, and whether every tick stayed under the
1,000 ms target. Asserts nothing. ``--quick`` (CI) runs each input once instead of five times.

    python benchmarks/largest_input.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import py_trees

from cogtree.behaviours.actions.grounding.query_generation import GenerateQuery
from cogtree.behaviours.actions.grounding.run_query import RunQuery
from cogtree.behaviours.btcpp.scripting import MAX_SCRIPT_CHARS, MAX_SCRIPT_DEPTH
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.memory.experience import ExperienceStore
from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.turn_state import IntentFrame
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.assistant_session import MAX_UTTERANCE_CHARS, AssistantSession
from cogtree.trees.bt_xml.loader import load_tree_reference
from cogtree.trees.handles import Handles
from cogtree.trees.sim_wiring import step_when_busy
from cogtree.trees.testing import TreeHarness, mock_blackboard, scripted_llm

TARGET_MS = 1000.0
PERIOD_S = 0.005
RAMBLING = (
    "heat the foil tray in the microwave, then wipe the hob and put the knife in the drawer; "
)
QUESTION = "how many calories are in the tiramisu and is there anything with peanuts in it "


def fill(phrase: str, size: int) -> str:
    """``phrase`` repeated to exactly ``size`` characters."""
    return (phrase * (size // len(phrase) + 1))[:size]


def longest_query() -> str:
    """A SELECT of just under 4,000 characters a model could write about the advisor's dishes."""
    head = "SELECT ?dish ?label WHERE { ?dish a adv:Dish ; rdfs:label ?label . FILTER("
    tests: list[str] = []
    n = 0
    while len(head) + len(" || ".join(tests)) < 3900:
        tests.append(f'CONTAINS(LCASE(?label), "dish number {n}")')
        n += 1
    return head + " || ".join(tests[:-1]) + ") } LIMIT 50"


def row(label: str, ticks: list[float]) -> str:
    worst = max(ticks)
    verdict = "yes" if worst < TARGET_MS else "NO"
    return f"{label:<50} {len(ticks):>6} {statistics.median(ticks):9.2f} {worst:9.2f} {verdict:>9}"


def requests(runs: int, domains: DomainRegistry) -> list[str]:
    """Worst ticks of turns at the utterance limit (no model)."""
    lines = []
    scenario = load_scenario("everyday_home")
    for label, text in (
        ("request: many steps, hazard words", fill(RAMBLING, MAX_UTTERANCE_CHARS)),
        ("request: a long knowledge question", fill(QUESTION, MAX_UTTERANCE_CHARS)),
    ):
        ticks: list[float] = []
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as folder:
                simulator = SimExecutor.from_scenario(scenario)
                domains.switch("household")
                handles = Handles(
                    domains=domains,
                    memory=MemoryStore(Path(folder) / "memory.sqlite"),
                    experience=ExperienceStore(),
                )
                handles.attach_simulator(simulator)
                session = AssistantSession(
                    llm=LLMClient(LLMConfig.load().with_backend("none")),
                    handles=handles.as_kwargs(),
                    speaker=scenario.request.speaker,
                    robot=scenario.main_robot,
                    before_tick=lambda: step_when_busy(simulator),  # noqa: B023 (this turn's)
                )
                try:
                    result = session.turn(text)
                finally:
                    session.close()
            ticks += [entry.duration_ms for entry in result.entries]
        lines.append(row(f"{label} ({len(text):,} chars)", ticks))
    return lines


def ticked(tree: py_trees.trees.BehaviourTree, done: Callable[[], bool]) -> list[float]:
    """Tick ``tree`` every :data:`PERIOD_S` until ``done()``; each tick's ms."""
    ticks: list[float] = []
    for _ in range(4000):
        started = time.perf_counter()
        tree.tick()
        ticks.append((time.perf_counter() - started) * 1000.0)
        if done():
            break
        time.sleep(PERIOD_S)
    return ticks


def model_query(runs: int, domains: DomainRegistry) -> list[str]:
    """Worst ticks while a model's longest accepted query is checked and run."""
    query = longest_query()
    answer = {"answer": {"sparql": query, "rationale": "dishes by name"}}
    ticks: list[float] = []
    outcome = ""
    for _ in range(runs):
        llm = scripted_llm({"by_module": {"query_generation": [answer]}})
        presets = {
            "/turn/domain": "advisor",
            "/turn/intent": IntentFrame(domain="advisor", task="SubstituteDish"),
            "/turn/task": domains.get("advisor").schema_for("SubstituteDish")(
                dish="not an id!"  # the template cannot bind: the model writes the query
            ),
        }
        root = py_trees.composites.Sequence("Query", memory=True)
        root.add_children([GenerateQuery(), RunQuery()])
        with mock_blackboard(presets), WorkerPool(2, name="bench") as workers:
            harness = TreeHarness(
                root, llm=llm.client, handles={"domains": domains, "workers": workers}
            )
            status = harness.tree.root
            ticks += ticked(harness.tree, lambda: status.status.value in ("SUCCESS", "FAILURE"))  # noqa: B023
            outcome = f"{status.status.value}: {root.children[-1].feedback_message[:60]}"
            harness.tree.shutdown()
    return [row(f"model query ({len(query):,} chars)", ticks), f"    last outcome: {outcome}"]


def script(runs: int) -> list[str]:
    """Worst ticks of a Script node at the size and depth limits, loaded from XML."""
    depth = MAX_SCRIPT_DEPTH - 4
    statements = ["x := " + "(" * depth + "1" + ")" * depth]
    sum_of_ones = "x += " + " + ".join(["1"] * depth)
    while len("; ".join([*statements, sum_of_ones])) <= MAX_SCRIPT_CHARS:
        statements.append(sum_of_ones)  # a flat sum nests one level per term: many statements
    code = "; ".join(statements)
    xml = (
        '<root BTCPP_format="4" main_tree_to_execute="Main">\n'
        '  <BehaviorTree ID="Main">\n'
        f'    <Script code="{code}"/>\n'
        "  </BehaviorTree>\n"
        "</root>\n"
    )
    ticks: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "largest_script.xml"
        path.write_text(xml, encoding="utf-8")
        for _ in range(runs):
            with mock_blackboard():
                tree = py_trees.trees.BehaviourTree(load_tree_reference(str(path)))
                tree.setup(timeout=15.0)
                ticks += ticked(tree, lambda: tree.root.status.value != "RUNNING")  # noqa: B023
    return [row(f"script ({len(code):,} chars, {depth} deep)", ticks)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run of each input (CI)")
    args = parser.parse_args()
    runs = 1 if args.quick else 5
    domains = DomainRegistry.discover()
    print(
        f"== worst tick for the largest accepted input (target: every tick under {TARGET_MS:g} ms)"
    )
    print(f"{'':<50} {'ticks':>6} {'p50 ms':>9} {'max ms':>9} {'< 1 s':>9}")
    for line in (*requests(runs, domains), *model_query(runs, domains), *script(runs)):
        print(line)


if __name__ == "__main__":
    main()
