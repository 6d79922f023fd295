"""The node registry is read from the code: classes, parameters, ports, handles, meanings."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Literal

import py_trees
import pytest
from pydantic import BaseModel

from cogtree.behaviours import keys
from cogtree.behaviours.actions.dialogue.dialogue import AwaitUtterance, ControlIs
from cogtree.evaluation.react.step import ReActStep
from cogtree.trees.bt_xml.node_modules import NODE_MODULES
from cogtree.trees.bt_xml.node_registry import (
    _registry_of,
    behaviour_classes,
    behaviour_modules,
    build_registry,
    default_registry,
    node_type_for,
    registry_for,
)
from cogtree.trees.bt_xml.node_types import REQUIRED
from cogtree.trees.bt_xml.values import format_default, parse_value, value_form


def test_every_behaviour_class_is_a_node_type_or_says_why_not() -> None:
    registry = default_registry()
    unavailable = {u.cls: u.reason for u in registry.unavailable}
    for cls in behaviour_classes(behaviour_modules()):
        assert cls.__name__ in registry or unavailable.get(cls), cls
    assert (
        "has no XML form"
        in unavailable[next(c for c in unavailable if c.__name__ == "ReflectedStep")]
    )
    assert (
        "AttemptLoop" in registry
        and "Sequence" in registry
        and "UnsetBlackboardVariable" in registry
    )


def test_a_registry_for_some_tags_has_their_node_types_as_the_full_registry_has_them() -> None:
    full = default_registry()
    tags = {"Sequence", "DetectScope", "AwaitUtterance", "ReadinessGate", "ForceSuccess"}
    partial = registry_for(tags)
    assert tags <= set(partial.types) and set(partial.types) <= set(full.types)
    for node_type in partial:
        same = full[node_type.tag]
        assert node_type.cls is same.cls and node_type.read_handles() == same.read_handles()
        assert node_type == dataclasses.replace(same, read_handles=node_type.read_handles)
    assert registry_for(tags) is partial  # built once per set of tags


def test_an_unknown_tag_gets_the_full_registry_and_its_suggestions() -> None:
    assert registry_for({"Sequence", "DetectScop"}) is default_registry()


def test_a_stale_node_index_gets_the_full_registry_and_says_how_to_fix_it(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(NODE_MODULES, "AwaitUtterance", "cogtree.behaviours.keys")
    _registry_of.cache_clear()  # registries built from the right index by earlier tests
    try:
        assert registry_for({"AwaitUtterance", "Sequence"}) is default_registry()
    finally:
        _registry_of.cache_clear()  # later tests build theirs from the restored index
    assert "cogtree catalogue --update" in caplog.text


def test_the_example_trees_nodes_are_node_types_too() -> None:
    gate = default_registry()["ReadinessGate"]
    assert gate.class_path == "cogtree.trees.examples.readiness_gate.ReadinessGate"
    assert {p.name: p.direction for p in gate.ports}["control"] == "output"


def test_ports_are_the_keys_the_node_registers() -> None:
    registry = default_registry()
    assert [(p.name, p.direction, p.spec) for p in registry["AwaitUtterance"].ports] == [
        ("utterance", "input", keys.UTTERANCE)
    ]
    gate = {p.name: p.direction for p in registry["TaskReadinessGate"].ports}
    assert gate["control"] == "output" and gate["utterance"] == "input"
    assert gate["rationale"] == "output"
    for node_type in registry:
        if node_type.kind != "leaf" or any(p.required for p in node_type.parameters):
            continue
        built = node_type.build(None, {})
        clients = [c for member in built.iterate() for c in member.blackboards]
        registered = {k for c in clients for k in c.read | c.write | c.exclusive}
        assert {keys.spec_for(k).name for k in registered} == {
            p.spec.name for p in node_type.ports
        }, node_type.tag


def test_parameters_come_from_the_signature() -> None:
    registry = default_registry()
    gate = registry["ValidationGate"]
    assert [(p.name, p.annotation, p.default) for p in gate.parameters] == [
        ("robot", str, "robot1"),
        ("judge", bool | None, None),
    ]
    control = registry["ControlIs"].parameter("expected")
    assert control is not None and control.required and control.default is REQUIRED
    assert registry["Sequence"].parameter("memory").default is True  # type: ignore[union-attr]
    assert registry["SkillAction"].not_in_xml == ("call", "facts", "lifted")


def test_every_node_type_says_what_it_means() -> None:
    for node_type in default_registry():
        assert node_type.summary, node_type.tag
        assert any(word in " ".join(node_type.statuses) for word in ("SUCCESS", "FAILURE")), (
            node_type.tag
        )
        for parameter in node_type.parameters:
            assert parameter.meaning, f"{node_type.tag}.{parameter.name} has no meaning"


def test_kinds_and_categories() -> None:
    registry = default_registry()
    assert registry["AttemptLoop"].kind == "decorator"
    assert registry["ExecutePlan"].kind == "leaf"  # its children are compiled at run time
    assert registry["Selector"].category == "Control"
    assert registry["ControlIs"].category == "Condition"
    assert registry["DetectScope"].category == "Action"


def test_handles_are_read_from_setup() -> None:
    registry = default_registry()
    scope = {h.name: h.required for h in registry["DetectScope"].handles}
    assert scope == {
        "llm": True,
        "domains": True,
        "scene_graph": False,
        "lexicons": False,
        "workers": False,
    }
    consolidate = {h.name: h.required for h in registry["Consolidate"].handles}
    assert consolidate == {"memory": True, "workers": True, "domains": False}
    assert [h.name for h in registry["ExecutePlan"].handles] == [
        "scene_graph",
        "workers",
        "executor",
        "people",
        "clock",
    ]
    assert registry["AwaitUtterance"].handles == ()


def test_a_node_built_with_children_has_their_ports_and_handles() -> None:
    step = node_type_for(ReActStep)  # the baseline's step: not in the runtime's registry
    assert {h.name: h.required for h in step.handles} == {
        "llm": True,  # its decision gate's
        "scene_graph": True,  # its action node's
        "workers": True,
        "executor": True,
        "people": False,
        "clock": False,
    }
    ports = {p.name: p.direction for p in step.ports}
    assert ports["utterance"] == "input" and ports["rationale"] == "output"  # the gate's
    assert ports["skill_call"] == "output"  # the action node's
    assert ports["reply"] == "inout"  # the action node writes it; the report holds it to the belief


def test_two_classes_with_one_name_are_refused() -> None:
    clash = type("AwaitUtterance", (AwaitUtterance,), {"__module__": "elsewhere"})
    with pytest.raises(ValueError, match="two node types are called AwaitUtterance"):
        build_registry([AwaitUtterance, clash], notes=())


def test_building_the_registry_leaves_no_blackboard_client(blackboard: Any) -> None:
    before = set(py_trees.blackboard.Blackboard.clients)
    registry = build_registry([AwaitUtterance, ControlIs], notes=())
    assert set(registry.types) == {"AwaitUtterance", "ControlIs"}
    assert set(py_trees.blackboard.Blackboard.clients) == before


class Schema(BaseModel):
    """A task schema to reference from XML."""


def compose(values: Mapping[str, Any]) -> str:
    """A sentence to reference from XML."""
    return "hi"


VALUES = [
    ("true", bool, True),
    ("false", bool, False),
    ("3", int, 3),
    ("0.5", float, 0.5),
    ("Clarify", Literal["Proceed", "Clarify"], "Clarify"),
    ("", int | None, None),
    ("7", int | None, 7),
    (f"{__name__}:compose", Callable[[Mapping[str, Any]], str], compose),
    (f"{__name__}:Schema", type[BaseModel], Schema),
    ("target_room", keys.KeySpec, keys.TARGET_ROOM),
    ("/turn/task", keys.KeySpec, keys.TASK),
    ("task, why=rationale", Mapping[str, keys.KeySpec], {"task": keys.TASK, "why": keys.RATIONALE}),
    ("kitchen", str | keys.KeySpec, "kitchen"),
    ("target_room", str | keys.KeySpec, keys.TARGET_ROOM),
]


@pytest.mark.parametrize(("text", "annotation", "value"), VALUES)
def test_xml_values_are_read_by_type(text: str, annotation: Any, value: Any) -> None:
    assert parse_value(text, annotation) == value


BAD_VALUES = [
    ("yes please", bool, "expected bool (true or false)"),
    ("three", int, "expected int, got 'three'"),
    ("Clarfy", Literal["Proceed", "Clarify"], "did you mean 'Clarify'"),
    ("compose", Callable[[str], str], "expected MODULE:ATTRIBUTE"),
    ("nowhere.at.all:thing", Callable[[str], str], "cannot import 'nowhere.at.all'"),
    (f"{__name__}:compose", type[BaseModel], "not a class"),
    (f"{__name__}:VALUES", Callable[[str], str], "not a function"),
    ("utterence", keys.KeySpec, "did you mean 'utterance'"),
]


@pytest.mark.parametrize(("text", "annotation", "message"), BAD_VALUES)
def test_a_bad_value_says_what_was_expected(text: str, annotation: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_value(text, annotation)


def test_forms_and_defaults_as_written_in_xml() -> None:
    assert value_form(Literal["a", "b"]) == '"a" | "b"'
    assert value_form(int | None) == "int | None"
    assert value_form(dict[str, int]) is None
    assert format_default(True) == "true"
    assert format_default(None) == ""
    assert format_default(keys.TARGET_ROOM) == "/perception/target_room"
    assert format_default(compose) == f"{__name__}:compose"
