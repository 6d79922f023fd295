"""How long one tick of the readiness gate takes when the request's readings are hazard-checked.

The gate (:class:`~behaviours.gates.task_readiness.TaskReadinessGate`) checks every reading of a
request against the hazard rules before it asks or acts (:mod:`skills.safety.hazard_readings`):
it reads the belief from the scene graph and runs the rules over each reading's steps. This
benchmark ticks the gate alone, with no model, in the hazard request set's kitchen
(``tests/data/eval/hazard_worlds/kitchen.yaml``), on requests whose readings are checked:

- ``heat the foil tray`` (the appliance unsaid: one reading per appliance that fits; refused);
- ``heat the ceramic bowl`` (the same, but safe: the gate asks which appliance);
- ``put the foil tray in the microwave and start it`` (no single task: the frame's steps are
  one reading; refused).

For each request it says it ``--turns`` times to one gate (as a running tree does) and prints
the p50 and the worst time of one tick, the ticks a turn took, and the turn's wall time. The
tick is the figure that counts: a tick must never block. Prints a table; asserts nothing.
``--quick`` (CI) runs 5 turns each.

    python benchmarks/readiness_tick_latency.py [--turns 40] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time

import py_trees
from py_trees.common import Status

from cogtree.behaviours.gates.task_readiness import TaskReadinessGate
from cogtree.evaluation.scenarios.hazard_set import HAZARD_WORLDS
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.turn_state import IntentFrame, SlotResolution, SlotValue
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.sim.perception import belief_from_world
from cogtree.sim.scenario import load_scenario
from cogtree.sim.world import World
from cogtree.trees.testing import BlackboardView, mock_blackboard, scripted_llm

MAX_TICKS = 200
"""A turn that takes more ticks than this is reported as unfinished."""


Request = tuple[str, IntentFrame, dict[str, SlotResolution]]
"""What the gate reads: the utterance, the intent frame and the slots' resolutions."""


def _heat(thing: str, label: str) -> Request:
    said = f"heat the {label}"
    slots: dict[str, SlotValue] = {"object": f"the {label}"}
    frame = IntentFrame(domain="household", task="Heat", slots=slots, confidence=0.9, said=[said])
    found = SlotResolution(slot="object", said=f"the {label}", kind="scene", ids=[thing])
    return said, frame, {"object": found}


def _steps(said: str) -> Request:
    """A request no single task holds: the gate reads its steps."""
    return said, IntentFrame(domain="household", task=None, confidence=0.9, said=[said]), {}


REQUESTS = {
    "heat the foil tray (refused)": _heat("foil_tray", "foil tray"),
    "heat the ceramic bowl (asks)": _heat("ceramic_bowl", "ceramic bowl"),
    "foil tray in microwave, start it (refused)": _steps(
        "put the foil tray in the microwave and start it"
    ),
}


def one_turn(
    tree: py_trees.trees.BehaviourTree, request: Request, blackboard: BlackboardView
) -> tuple[list[float], float, str]:
    """Say ``request`` to the gate and tick until it decides: per-tick ms, turn ms, control.

    The gate is the same from turn to turn, as in a running tree (its per-task decision
    schemas are built once).
    """
    utterance, frame, resolved = request
    blackboard.set("/turn/utterance", utterance)
    blackboard.set("/turn/speaker", "ana")
    blackboard.set("/turn/domain", "household")
    blackboard.set("/turn/intent", frame)
    blackboard.set("/turn/resolved", resolved)
    py_trees.blackboard.Blackboard.unset("/turn/control")
    gate = tree.root
    ticks: list[float] = []
    start = time.perf_counter()
    for _ in range(MAX_TICKS):
        before = time.perf_counter()
        tree.tick()
        ticks.append((time.perf_counter() - before) * 1000)
        if gate.status in (Status.SUCCESS, Status.FAILURE):
            break
        time.sleep(0.001)
    turn_ms = (time.perf_counter() - start) * 1000
    decided = gate.status in (Status.SUCCESS, Status.FAILURE)
    control = str(blackboard.get("/turn/control", "unset")) if decided else "unfinished"
    return ticks, turn_ms, control


def measure(name: str, request: Request, handles: dict[str, object], turns: int) -> None:
    """Run ``request`` ``turns`` times through one gate and print its row."""
    with mock_blackboard() as blackboard:
        tree = py_trees.trees.BehaviourTree(TaskReadinessGate())
        tree.setup(timeout=15.0, **handles)
        one_turn(tree, request, blackboard)  # warm the lexicons and the rule queries
        tick_ms: list[float] = []
        turn_ms: list[float] = []
        counts: list[int] = []
        controls: set[str] = set()
        for _ in range(turns):
            ticks, turn, control = one_turn(tree, request, blackboard)
            tick_ms += ticks
            turn_ms.append(turn)
            counts.append(len(ticks))
            controls.add(control)
    print(
        f"{name:44} {statistics.median(tick_ms):11.2f} {max(tick_ms):11.2f} "
        f"{statistics.median(counts):6.0f} {statistics.median(turn_ms):11.2f}  "
        f"{'/'.join(sorted(controls))}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--quick", action="store_true", help="5 turns per request (CI)")
    args = parser.parse_args()
    turns = 5 if args.quick else args.turns
    scenario = load_scenario(HAZARD_WORLDS / "kitchen.yaml")
    scene = belief_from_world(World(scenario.world), "robot1", scenario.belief)
    llm = scripted_llm()
    domains = DomainRegistry.discover(only=("household",))
    with scene, WorkerPool(2, "bench-readiness") as workers:
        handles = {"llm": llm.client, "domains": domains, "scene_graph": scene}
        handles["workers"] = workers
        print(f"readiness gate, hazard kitchen, no model, {turns} turns per request")
        header = ("request", "tick p50 ms", "tick max ms", "ticks", "turn p50 ms", "control")
        print("{:44} {:>11} {:>11} {:>6} {:>11}  {}".format(*header))
        for name, request in REQUESTS.items():
            measure(name, request, handles, turns)
    llm.client.close()


if __name__ == "__main__":
    main()
