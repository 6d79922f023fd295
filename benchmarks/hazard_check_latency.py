"""What the hazard check costs per plan step, with about 10,000 triples in the scene.

A kitchen belief is grown with furniture and objects (materials, hazard flags, liquids, side
relations) until the facts the hazard graph would hold for every thing of the scene reach about
10,000 triples (printed). Then, for steps of each kind (PLACE into the microwave, SWITCH_ON with
foil inside, POUR near the toaster, HANDOVER of a hot cup, DISPOSE of a glass, GOTO), it times
:func:`skills.safety.hazard_check.step_hazards`: building the step's small graph from the belief and
running every shipped rule on Oxigraph. It also times a whole five-step plan through
:func:`skills.planning.plan_validation.rehearse` with and without the hazard rules (an empty rule
set is not allowed, so "without" is the dry run with a rule that never matches).

Prints p50/p95 in milliseconds; asserts nothing. Target: p50 <= 5 ms per step.
``--quick`` (CI) takes 20 samples per step instead of 300, on a scene of about 2,000 triples
(growing the belief to 10,000 costs seconds: every shelf added, all its facts are counted again).

    python benchmarks/hazard_check_latency.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
from typing import get_args

import pyoxigraph
from query_sandbox_latency import timed

from cogtree.knowledge.robot_skills import RobotSkill
from cogtree.knowledge.safety.hazard_rules import load_hazard_rules, shipped_hazard_rules
from cogtree.skills.action_model.belief import Belief, RobotProfile, Thing
from cogtree.skills.action_model.people import Person
from cogtree.skills.capabilities.calls import skill_call
from cogtree.skills.planning.plan_validation import PlanWorld, oracle_plan, rehearse
from cogtree.skills.safety.hazard_check import NOTHING_SAID, _Facts, step_hazards

MATERIALS = ("metal", "plastic", "glass", "ceramic", "paper", "wood", "foil", "fabric")
FLAGS = ("sharp", "fragile", "electrical", "food", "drink", "chemical", "heat_source")
NEVER = '''@prefix haz: <https://cogtree.dev/hazard#> .
haz:never a haz:Rule ; haz:severity "ask_first" ; haz:catches "nothing" ; haz:says "Never." ;
    haz:query """SELECT ?x WHERE { ?x haz:never ?y }""" .
'''


def kitchen(target_triples: int) -> tuple[Belief, int]:
    """A belief grown until its things' hazard facts reach ``target_triples``; the count."""
    things: dict[str, Thing] = {
        "counter": Thing("counter", "surface", "kitchen"),
        "table": Thing("table", "surface", "kitchen"),
        "microwave": Thing(
            "microwave",
            "container",
            "kitchen",
            is_open=True,
            powered=False,
            flags=frozenset({"appliance", "electrical"}),
        ),
        "toaster": Thing(
            "toaster",
            "object",
            "kitchen",
            "on",
            "counter",
            powered=True,
            flags=frozenset({"appliance", "electrical"}),
        ),
        "recycling_bin": Thing("recycling_bin", "container", "kitchen", flags=frozenset({"bin"})),
        "foil_tray": Thing("foil_tray", "object", "kitchen", "in", "microwave", material="foil"),
        "jug": Thing(
            "jug",
            "object",
            "kitchen",
            "heldBy",
            "robot1",
            liquid="water",
            liquid_ml=800,
            capacity_ml=1000,
        ),
        "glass": Thing(
            "glass",
            "object",
            "kitchen",
            "on",
            "counter",
            capacity_ml=300,
            flags=frozenset({"fragile"}),
            beside=(("next_to", "toaster"),),
        ),
    }
    rooms = [f"room_{n}" for n in range(20)]
    count = 0
    number = 0
    while count < target_triples:
        room = rooms[number % len(rooms)]
        shelf = f"shelf_{number}"
        things[shelf] = Thing(shelf, "surface", room)
        for item in range(6):
            name = f"item_{number}_{item}"
            things[name] = Thing(
                name,
                "object",
                room,
                "on",
                shelf,
                material=MATERIALS[(number + item) % len(MATERIALS)],
                flags=frozenset({FLAGS[(number * 7 + item) % len(FLAGS)]}),
                liquid="water" if item % 3 == 0 else None,
                liquid_ml=100.0 if item % 3 == 0 else 0.0,
                capacity_ml=500.0 if item % 3 == 0 else None,
                beside=(("next_to", f"item_{number}_{(item + 1) % 6}"),),
            )
        number += 1
        belief = _belief(things, rooms)
        facts = _Facts(belief, NOTHING_SAID)
        for name in things:
            facts.describe(name)
        count = len(facts.quads)
    return belief, count


def _belief(things: dict[str, Thing], rooms: list[str]) -> Belief:
    robot = RobotProfile(
        "robot1", ("right", "left"), 5.0, None, None, frozenset(get_args(RobotSkill))
    )
    people = {
        "user": Person("user", "kitchen", "available"),
        "grandma": Person("grandma", "room_1", "available"),
    }
    all_rooms = ["kitchen", *rooms]
    return Belief(
        robot=robot,
        robot_room="kitchen",
        held={"jug": "right", "hot_cup": "left"},
        things={
            **things,
            "hot_cup": Thing(
                "hot_cup",
                "object",
                "kitchen",
                "heldBy",
                "robot1",
                hot=True,
                liquid="tea",
                liquid_ml=200,
            ),
        },
        people=people,
        rooms={room: tuple(r for r in all_rooms if r != room) for room in all_rooms},
        heights={},
        homes={},
    )


def p95(samples: list[float]) -> float:
    return sorted(samples)[max(0, int(len(samples) * 0.95) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 samples per step (CI)")
    parser.add_argument(
        "--triples",
        type=int,
        help="about how many hazard triples the scene holds (default 10000, --quick 2000; "
        "105000: about 10k objects)",
    )
    args = parser.parse_args()
    repeats = 20 if args.quick else 300
    rules = shipped_hazard_rules()
    belief, triples = kitchen(args.triples or (2_000 if args.quick else 10_000))
    print(
        f"scene: {len(belief.things)} things, {triples} hazard triples; "
        f"{len(rules.rules)} rules; pyoxigraph {pyoxigraph.__version__}; {repeats} samples"
    )
    steps = {
        "PLACE in microwave": skill_call("PLACE", object="jug", target="microwave", hand="right"),
        "SWITCH_ON (foil in)": skill_call("SWITCH_ON", appliance="microwave"),
        "POUR near toaster": skill_call("POUR", source="jug", target="glass", hand="right"),
        "HANDOVER hot cup": skill_call("HANDOVER", object="hot_cup", person="user", hand="left"),
        "DISPOSE glass": skill_call("DISPOSE", object="glass", bin="recycling_bin", hand="right"),
        "GOTO room": skill_call("GOTO", target="room_3"),
    }
    print(f"{'step':<22}{'hazards':>8}{'p50 ms':>9}{'p95 ms':>9}")
    medians = []
    for label, call in steps.items():
        found = step_hazards(rules, belief, call)
        samples = timed(lambda call=call: step_hazards(rules, belief, call), repeats)
        medians.append(statistics.median(samples))
        print(f"{label:<22}{len(found):>8}{medians[-1]:>9.2f}{p95(samples):>9.2f}")
    print(f"median of the step medians: {statistics.median(medians):.2f} ms (target <= 5 ms)")

    plan = oracle_plan(
        [
            {"skill": "GOTO", "target": "counter"},
            {"skill": "PLACE", "object": "jug", "target": "counter", "hand": "right"},
            {"skill": "PICK", "object": "item_0_1", "hand": "right"},
            {"skill": "GOTO", "target": "room_3"},
            {"skill": "PLACE", "object": "item_0_1", "target": "shelf_3", "hand": "right"},
        ]
    )
    world = PlanWorld(beliefs={"robot1": belief}, people=belief.people)
    never = load_hazard_rules("never.ttl", text=NEVER)
    runs = max(5, repeats // 10)
    with_rules = timed(lambda: rehearse(plan, world, rules=rules), runs)
    without = timed(lambda: rehearse(plan, world, rules=never), runs)
    print(
        f"five-step dry run: {statistics.median(with_rules):.1f} ms with the rules, "
        f"{statistics.median(without):.1f} ms with a rule that never matches ({runs} runs)"
    )


if __name__ == "__main__":
    main()
