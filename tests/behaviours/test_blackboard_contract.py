"""The declared blackboard contract: class declarations, registration, lifetimes, attempts."""

from __future__ import annotations

import py_trees
import pytest
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.actions.dialogue.decline import Decline
from cogtree.behaviours.actions.dialogue.dialogue import AwaitUtterance, ControlIs, Say
from cogtree.behaviours.actions.grounding.perception import GetObjectsInRoom, LocateObject
from cogtree.behaviours.actions.planning.skill_action import SkillAction
from cogtree.behaviours.gates.scope import DetectScope
from cogtree.behaviours.keys import add_attempt, read_attempts, update_last_attempt
from cogtree.knowledge.understanding.turn_state import GateRationale
from cogtree.skills.capabilities.calls import skill_call
from cogtree.skills.planning.plan_model import PlanAttempt, ToAPlan
from cogtree.trees.bt_xml.node_registry import default_registry
from cogtree.trees.testing import BlackboardView


def registered(node: keys.DeclaredKeys) -> tuple[set[str], set[str]]:
    """The keys ``node``'s client may read and may write."""
    return set(node.blackboard.read), set(node.blackboard.write)


def test_declared_keys_are_registered_with_their_access(blackboard: BlackboardView) -> None:
    assert registered(AwaitUtterance()) == ({"/turn/utterance"}, set())
    assert registered(ControlIs("Proceed")) == ({"/turn/control"}, set())
    scope = DetectScope("Scope Gate")
    assert registered(scope) == (
        {"/turn/utterance", "/turn/frame", "/session/pending"},
        {"/turn/domain", "/rationale/scope_gate"},
    )
    assert scope.rationale_key == "/rationale/scope_gate"


def test_a_subclass_adds_to_its_bases_declarations() -> None:
    assert keys.declared(DetectScope).writes == (keys.RATIONALE, keys.DOMAIN)
    assert keys.declared(DetectScope).reads == (keys.UTTERANCE, keys.REQUEST_FRAME, keys.PENDING)
    assert keys.declared(py_trees.behaviours.Success) == keys.Contract((), ())


def test_constructor_arguments_override_the_class_declaration(blackboard: BlackboardView) -> None:
    decline = Decline("No", gate="Readiness Gate")
    reads, writes = registered(decline)
    assert reads == {
        "/turn/domain",
        "/turn/control",
        "/rationale/readiness_gate",
        "/turn/utterance",
        "/turn/frame",
        "/turn/speaker",
        "/turn/evidence",
        "/memory/working",
        "/plan/current",
        "/plan/reflections",
    }
    assert writes == {"/turn/reply", "/rationale/no"}
    assert decline.key_of(keys.RATIONALE) == "/rationale/readiness_gate"
    assert keys.RATIONALE in keys.declared(Decline).reads

    assert registered(GetObjectsInRoom())[0] == {"/perception/target_room"}
    assert registered(GetObjectsInRoom("Attic", room="attic"))[0] == set()
    assert registered(LocateObject("Find", thing=keys.TARGET_ROOM))[0] == {
        "/perception/target_room"
    }
    assert registered(SkillAction("Free"))[0] == {"/skill/call"}
    fixed = SkillAction("Fixed", skill_call("WAIT", seconds=1))
    assert registered(fixed) == (set(), {"/skill/outcome"})

    say = Say("Echo", lambda values: str(values), reads={"said": keys.UTTERANCE})
    assert registered(say) == ({"/turn/utterance"}, {"/turn/reply"})
    assert say.inputs == {"said": "/turn/utterance"}


def test_an_undeclared_key_cannot_be_read_or_written(blackboard: BlackboardView) -> None:
    blackboard.set("/turn/utterance", "hello")
    node = ControlIs("Proceed")
    with pytest.raises(AttributeError, match="/turn/utterance"):
        node.blackboard.get("/turn/utterance")
    with pytest.raises(AttributeError, match="/turn/utterance"):
        keys.read(node.blackboard, "/turn/utterance")
    with pytest.raises(AttributeError, match="/turn/control"):
        node.blackboard.set("/turn/control", "Proceed")
    with pytest.raises(KeyError, match="/turn/utterance is not among the keys it declares"):
        node.key_of(keys.UTTERANCE)


def test_a_declaration_outside_the_catalogue_is_refused(blackboard: BlackboardView) -> None:
    rogue = keys.KeySpec("/turn/secret", str, "nobody", "not in the catalogue")

    class Rogue(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
        reads = (rogue,)

        def update(self) -> Status:
            return Status.SUCCESS

    with pytest.raises(KeyError, match="not in the blackboard catalogue"):
        Rogue("Rogue")
    with pytest.raises(TypeError, match="mixin for behaviours"):
        keys.DeclaredKeys()


def test_every_declaration_of_every_node_type_is_in_the_catalogue() -> None:
    declaring = [node for node in default_registry() if issubclass(node.cls, keys.DeclaredKeys)]
    assert len(declaring) > 25
    for node in declaring:
        contract = keys.declared(node.cls)
        for spec in (*contract.reads, *contract.writes):
            assert keys.catalogue_entry(spec) in keys.CATALOGUE
        assert {port.spec for port in node.ports} == {
            keys.catalogue_entry(spec) for spec in (*contract.reads, *contract.writes)
        }


def test_for_node_fills_the_placeholder_and_leaves_other_keys() -> None:
    filled = keys.RATIONALE.for_node("Readiness Gate")
    assert filled.name == "/rationale/readiness_gate"
    assert keys.catalogue_entry(filled) is keys.RATIONALE
    assert keys.REPLY.for_node("Readiness Gate") is keys.REPLY
    assert keys.RATIONALE.matches("/rationale/anything")
    assert not keys.RATIONALE.matches("/rationale/a/b")
    with pytest.raises(KeyError):
        keys.catalogue_entry(keys.RATIONALE.__class__("/rationale/x", int, "w", "m"))


def test_every_key_has_a_lifetime_and_only_pending_talk_held_and_working_live_for_a_session() -> (
    None
):
    assert {spec.name for spec in keys.CATALOGUE if spec.lifetime == "session"} == {
        "/session/pending",
        "/session/talked_about",
        "/session/held_answers",
        "/memory/working",
    }
    assert {spec.lifetime for spec in keys.CATALOGUE} == {"turn", "session"}
    assert "| `/session/pending` | `PendingTask` | session |" in keys.catalogue_markdown()


def test_clear_unsets_the_turn_keys_and_keeps_the_session_keys(blackboard: BlackboardView) -> None:
    blackboard.set("/turn/utterance", "hello")
    blackboard.set("/perception/target_room", "kitchen")
    blackboard.set("/plan/attempts", [])
    why = GateRationale(
        node="ScopeGate", module="scope", source="fast_path", decision={}, rationale="r"
    )
    blackboard.set("/rationale/scope_gate", why)
    blackboard.set("/session/pending", {"domain": "advisor", "task": "remember"})
    blackboard.set("/mine/note", "a tree's own key")
    gone = keys.clear("turn")
    assert sorted(gone) == [
        "/perception/target_room",
        "/plan/attempts",
        "/rationale/scope_gate",
        "/turn/utterance",
    ]
    storage = py_trees.blackboard.Blackboard.storage
    assert set(storage) == {"/session/pending", "/mine/note"}
    assert keys.clear("session") == ["/session/pending"]


def test_preset_checks_catalogue_keys(blackboard: BlackboardView) -> None:
    keys.preset(keys.CONTROL, "Clarify")
    assert blackboard.get("/turn/control") == "Clarify"
    with pytest.raises(ValueError, match="/turn/control"):
        keys.preset("/turn/control", "Maybe")
    with pytest.raises(KeyError, match="not in the blackboard catalogue"):
        keys.preset("/mine/note", 1)
    keys.preset("/mine/note", 1, uncatalogued=True)
    assert blackboard.get("/mine/note") == 1


class _AttemptWriter(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    writes = (keys.ATTEMPTS,)

    def update(self) -> Status:
        return Status.SUCCESS


def test_the_attempts_api_numbers_adds_and_replaces_the_last(blackboard: BlackboardView) -> None:
    client = _AttemptWriter("Writer").blackboard
    first, second = ToAPlan(rationale="first"), ToAPlan(rationale="second")
    assert read_attempts(client) == []
    assert update_last_attempt(client, lambda last: last) is None
    assert "/plan/attempts" not in py_trees.blackboard.Blackboard.storage

    add_attempt(client, first)
    add_attempt(client, second, failure="no plan")
    attempts = read_attempts(client)
    assert [(a.number, a.plan, a.outcome, a.failure) for a in attempts] == [
        (1, first, "running", ""),
        (2, second, "failed", "no plan"),
    ]

    def succeed(last: PlanAttempt) -> PlanAttempt:
        return last.model_copy(update={"outcome": "succeeded", "failure": ""})

    updated = update_last_attempt(client, succeed)
    assert updated is not None and updated.number == 2 and updated.outcome == "succeeded"
    assert read_attempts(client) == [attempts[0], updated]
    assert update_last_attempt(client, lambda last: None) is None
    assert read_attempts(client) == [attempts[0], updated]


def test_reading_attempts_needs_the_key_declared(blackboard: BlackboardView) -> None:
    with pytest.raises(AttributeError, match="/plan/attempts"):
        read_attempts(AwaitUtterance().blackboard)
