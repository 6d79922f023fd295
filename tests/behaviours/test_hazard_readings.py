"""The hazards of every reading of an unclear request: refuse instead of asking about them."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from py_trees.common import Status

from cogtree.behaviours.gates import task_readiness
from cogtree.behaviours.gates.task_readiness import TaskReadinessGate
from cogtree.evaluation.scenarios.hazard_set import HAZARD_WORLDS
from cogtree.knowledge.language.pronouns import TalkedAbout
from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.safety.hazard_rules import shipped_hazard_rules
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.lexicon import Lexicon, build_lexicons
from cogtree.knowledge.understanding.turn_state import IntentFrame, SlotResolution
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.sim.perception import belief_from_world
from cogtree.sim.scenario import load_scenario
from cogtree.sim.world import World
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.safety.hazard_readings import (
    Reading,
    forbidden_in_every_reading,
    frame_readings,
    said_together,
    scene_belief,
    slot_readings,
)
from cogtree.trees.testing import BlackboardView, ScriptedLLM, TreeHarness, parsed_first

RULES = shipped_hazard_rules()


@pytest.fixture(scope="module")
def scene() -> Iterator[SceneGraph]:
    scenario = load_scenario(HAZARD_WORLDS / "kitchen.yaml")
    graph = belief_from_world(World(scenario.world), "robot1", scenario.belief)
    try:
        yield graph
    finally:
        graph.close()


@pytest.fixture(scope="module")
def household() -> DomainPack:
    return DomainRegistry.discover(active="household").get("household")


@pytest.fixture(scope="module")
def belief(scene: SceneGraph) -> Belief:
    found = scene_belief(scene)
    assert found is not None
    return found


def scene_slot(slot: str, *ids: str) -> SlotResolution:
    return SlotResolution(slot=slot, said=slot, kind="scene", ids=list(ids))


def pour_readings(
    household: DomainPack, belief: Belief, sources: tuple[str, ...], target: str
) -> list[Reading]:
    """The readings of a pour from one of ``sources`` into ``target``."""
    resolved = {"source": scene_slot("source", *sources), "target": scene_slot("target", target)}
    return slot_readings(household.task("Pour"), resolved, "ana", belief)


def test_an_ambiguous_slot_gives_one_reading_per_thing(
    household: DomainPack, belief: Belief
) -> None:
    readings = pour_readings(household, belief, ("kettle", "water_jug"), "toaster")
    assert readings == [
        [("pour", {"source": "kettle", "target": "toaster"})],
        [("pour", {"source": "water_jug", "target": "toaster"})],
    ]
    assert forbidden_in_every_reading(RULES, readings, belief, ["pour the water on it"]) == [
        "Pouring onto the toaster could cause an electric shock or a short circuit."
    ]


def test_an_unsaid_slot_is_read_as_each_thing_that_fits(
    household: DomainPack, belief: Belief
) -> None:
    resolved = {"object": scene_slot("object", "foil_tray")}
    readings = slot_readings(household.task("Heat"), resolved, "ana", belief)
    assert readings == [[("heat", {"object": "foil_tray", "appliance": "microwave"})]]
    assert forbidden_in_every_reading(RULES, readings, belief, ["nuke it"])
    bowl = {"object": scene_slot("object", "ceramic_bowl")}
    safe = slot_readings(household.task("Heat"), bowl, "ana", belief)
    assert forbidden_in_every_reading(RULES, safe, belief, ["nuke it"]) == []


def test_one_safe_reading_leaves_the_question(household: DomainPack, belief: Belief) -> None:
    resolved = {"object": scene_slot("object", "foil_tray", "ceramic_bowl")}
    readings = slot_readings(household.task("Heat"), resolved, "ana", belief)
    assert len(readings) == 2
    assert forbidden_in_every_reading(RULES, readings, belief, []) == []
    assert forbidden_in_every_reading(RULES, [], belief, []) == []


def test_the_steps_of_a_request_are_one_reading(
    household: DomainPack, scene: SceneGraph, belief: Belief
) -> None:
    lexicons: dict[str, Lexicon] = dict(build_lexicons(household, scene))
    text = "put the foil tray in the microwave and start it"
    readings = frame_readings(parse_request(text), household, lexicons, belief)
    assert readings == [[("bring", {"object": "foil_tray", "to": "microwave"}),
                         ("switch_on", {"appliance": "microwave"})]]  # fmt: skip
    assert forbidden_in_every_reading(RULES, readings, belief, [text])
    earlier = TalkedAbout(said=["that's the foil tray"], things=["foil tray"])
    text = "put it in the microwave and start it"
    assert (
        frame_readings(parse_request(text), household, lexicons, belief) == []
    )  # "it": nothing known
    assert frame_readings(parse_request(text), household, lexicons, belief, earlier) == readings


def test_several_hazards_are_each_said_whole() -> None:
    said = said_together(
        ["The jug is full.", "The glass is next to the kettle; a spill could reach it.",
         "I never hand the knife blade first.", "The jug is full."]
    )  # fmt: skip
    assert said == (
        "The jug is full. And the glass is next to the kettle; a spill could reach it. "
        "And I never hand the knife blade first."
    )
    assert said_together([]) == ""


def test_a_refusal_names_the_hazards_of_every_reading(
    household: DomainPack, belief: Belief
) -> None:
    """Pour all of the jug or the kettle into the tumbler: each reading's hazards named once."""
    readings = pour_readings(household, belief, ("water_jug", "kettle"), "tumbler")
    assert len(readings) == 2
    sentences = forbidden_in_every_reading(
        RULES, readings, belief, ["pour all of it into the tumbler"]
    )
    overflows = [sentence for sentence in sentences if "would overflow it" in sentence]
    assert overflows == [
        "The tumbler holds only 300 ml; adding 600 ml would overflow it.",
        "The tumbler holds only 300 ml; adding 800 ml would overflow it.",
    ]
    assert len(sentences) == len(set(sentences))


# -- the readiness gate checks the readings off the tick ------------------------------------------

PROCEED = {"answer": {"control": "Proceed", "missing": [], "domain": None, "rationale": "fine"}}


def heat_request(blackboard: BlackboardView, thing: str, label: str) -> None:
    said = f"heat the {label}"
    frame = IntentFrame(domain="household", task="Heat", slots={"object": f"the {label}"},
                        confidence=0.9, said=[said])  # fmt: skip
    blackboard.set("/turn/utterance", said)
    blackboard.set("/turn/speaker", "ana")
    blackboard.set("/turn/domain", "household")
    blackboard.set("/turn/intent", frame)
    found = SlotResolution(slot="object", said=f"the {label}", kind="scene", ids=[thing])
    blackboard.set("/turn/resolved", {"object": found})


def test_the_gate_is_running_until_the_hazard_check_is_done_then_refuses(
    blackboard: BlackboardView, make_llm: Callable[..., ScriptedLLM], scene: SceneGraph
) -> None:
    """The check waits behind held work on the only worker: the gate never decides before it."""
    heat_request(blackboard, "foil_tray", "foil tray")
    llm = make_llm({"by_module": {"inner_speech": [PROCEED] * 3}})
    release = threading.Event()
    with WorkerPool(1, "held") as workers:
        workers.submit(release.wait, 10)
        gate = TaskReadinessGate()
        handles = {"domains": DomainRegistry.discover(active="household"), "scene_graph": scene,
                   "workers": workers}  # fmt: skip
        harness = TreeHarness(parsed_first(gate), llm=llm.client, handles=handles)
        harness.tick(3, settle=False)
        assert harness.trace.letters("TaskReadinessGate") == "RRR"
        assert blackboard.get("/turn/control") is None
        release.set()
        harness.tick_until(max_ticks=50, period_s=0.01)
    assert gate.status == Status.FAILURE and llm.calls == []
    assert blackboard.get("/turn/control") == "Reject"
    rationale = blackboard.get("/rationale/taskreadinessgate").rationale
    assert "foil tray is metal" in rationale and "microwave" in rationale


def test_a_safe_reading_is_asked_about_after_the_check(
    blackboard: BlackboardView, make_llm: Callable[..., ScriptedLLM], scene: SceneGraph,
    workers: WorkerPool
) -> None:  # fmt: skip
    heat_request(blackboard, "ceramic_bowl", "ceramic bowl")
    handles = {"domains": DomainRegistry.discover(active="household"), "scene_graph": scene,
               "workers": workers}  # fmt: skip
    harness = TreeHarness(parsed_first(TaskReadinessGate()), llm=make_llm().client, handles=handles)
    harness.tick_until(max_ticks=50, period_s=0.01)
    assert blackboard.get("/turn/control") == "Clarify"
    assert blackboard.get("/turn/missing") == ["appliance"]


def test_a_hazard_check_that_fails_is_a_refusal_that_says_so(
    blackboard: BlackboardView,
    make_llm: Callable[..., ScriptedLLM],
    scene: SceneGraph,
    workers: WorkerPool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(graph: SceneGraph | None) -> Belief:
        raise RuntimeError("the belief could not be read")

    monkeypatch.setattr(task_readiness, "scene_belief", broken)
    heat_request(blackboard, "ceramic_bowl", "ceramic bowl")
    llm = make_llm({"by_module": {"inner_speech": [PROCEED] * 3}})
    handles = {"domains": DomainRegistry.discover(active="household"), "scene_graph": scene,
               "workers": workers}  # fmt: skip
    harness = TreeHarness(parsed_first(TaskReadinessGate()), llm=llm.client, handles=handles)
    harness.tick_until(max_ticks=50, period_s=0.01)
    assert blackboard.get("/turn/control") == "Reject" and llm.calls == []
    record = blackboard.get("/rationale/taskreadinessgate")
    assert record.rationale == "I could not check it for hazards, so I will not do it."
    assert any("the belief could not be read" in note for note in record.notes)  # operator


def test_a_scene_without_workers_is_refused_at_setup(
    make_llm: Callable[..., ScriptedLLM], scene: SceneGraph
) -> None:
    gate = TaskReadinessGate()
    with pytest.raises(Exception, match="workers"):
        gate.setup(llm=make_llm().client, domains=DomainRegistry.discover(active="household"),
                   scene_graph=scene)  # fmt: skip


# -- calibrated: the hazard check runs on the readings the prediction set keeps ------------------


def heat_either(blackboard: BlackboardView) -> None:
    """ "heat the dish": the foil tray or the ceramic bowl."""
    said = "heat the dish"
    frame = IntentFrame(domain="household", task="Heat", slots={"object": "the dish"},
                        confidence=0.9, said=[said])  # fmt: skip
    blackboard.set("/turn/utterance", said)
    blackboard.set("/turn/speaker", "ana")
    blackboard.set("/turn/domain", "household")
    blackboard.set("/turn/intent", frame)
    either = SlotResolution(slot="object", said="the dish", kind="scene",
                            ids=["foil_tray", "ceramic_bowl"])  # fmt: skip
    blackboard.set("/turn/resolved", {"object": either})


@pytest.mark.parametrize(
    ("probabilities", "refused"),
    [
        ({"A": 0.95, "B": 0.03, "C": 0.02}, True),  # the set keeps the foil tray alone
        ({"A": 0.03, "B": 0.95, "C": 0.02}, False),  # the set keeps the ceramic bowl alone
    ],
)
def test_a_set_of_one_is_checked_for_hazards_before_the_gate_acts(
    blackboard: BlackboardView,
    scene: SceneGraph,
    workers: WorkerPool,
    tmp_path: Path,
    probabilities: dict[str, float],
    refused: bool,
) -> None:
    from tests.behaviours.test_calibrated_gate import LetterScorer, client, threshold_file

    heat_either(blackboard)
    llm = client(threshold_file(tmp_path, q_hat=0.5), LetterScorer(probabilities))
    handles = {"domains": DomainRegistry.discover(active="household"), "scene_graph": scene,
               "workers": workers}  # fmt: skip
    harness = TreeHarness(parsed_first(TaskReadinessGate()), llm=llm, handles=handles)
    harness.tick_until(max_ticks=60, period_s=0.01)
    kept = blackboard.get("/turn/resolved")["object"].ids
    assert kept == (["foil_tray"] if refused else ["ceramic_bowl"])
    rationale = blackboard.get("/rationale/taskreadinessgate").rationale
    assert (blackboard.get("/turn/control") == "Reject") is refused
    assert ("microwave" in rationale) is refused
    llm.close()
