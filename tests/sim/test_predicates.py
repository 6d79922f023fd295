"""Goal predicates: parsing with clear errors, reference checks, evaluation on ground truth."""

from __future__ import annotations

import re

import pytest

from cogtree.sim.predicates import Predicate
from cogtree.sim.world import World
from cogtree.sim.world_spec import Placement


def test_parse_and_write_back() -> None:
    predicate = Predicate.parse("  not on( bottle ,table_2 ) ")
    assert (predicate.name, predicate.args, predicate.negated) == (
        "on",
        ("bottle", "table_2"),
        True,
    )
    assert str(predicate) == "not on(bottle, table_2)"
    assert Predicate.parse(str(predicate)) == predicate


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("on bottle table_2", "bad predicate 'on bottle table_2': write name(arg, ...)"),
        ("ontop(bottle, table_2)", "unknown predicate 'ontop'"),
        ("in_rom(bottle, kitchen)", "did you mean in_room?"),
        ("on(bottle)", "on takes 2 arguments: on(object, surface), got 1 in 'on(bottle)'"),
        ("is_open(fridge, door)", "is_open takes 1 argument"),
        ("on(Bottle, table_2)", "argument 'Bottle' of 'on(Bottle, table_2)' is not an id"),
        ("on(, table_2)", "argument '' of"),
    ],
)
def test_parse_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Predicate.parse(text)


def test_problems_name_unknown_things_and_wrong_kinds(world: World) -> None:
    spec = world.spec
    assert Predicate.parse("on(bottle, table_2)").problems(spec, "goal") == []
    [wrong_kind] = Predicate.parse("on(bottle, fridge)").problems(spec, "goal.all[0]")
    assert wrong_kind.field == "goal.all[0]"
    assert wrong_kind.message.startswith("in on(bottle, fridge): fridge is a container, not a")
    [unknown] = Predicate.parse("holds(robot1, cake)").problems(spec, "goal")
    assert "no object 'cake'" in unknown.message
    [ability] = Predicate.parse("did(anna, dance)").problems(spec, "goal")
    assert "anna has no ability 'dance' (sign, print)" in ability.message


def test_evaluation_follows_ground_truth(world: World) -> None:
    def holds(text: str) -> bool:
        return Predicate.parse(text).holds(world)

    assert holds("on(bottle, table_1)") and not holds("on(bottle, table_2)")
    assert holds("in(milk, fridge)") and holds("in_room(milk, kitchen)")
    assert holds("in_room(base1_locker, hallway)") and holds("at(robot1, hallway)")
    assert not holds("is_open(fridge)") and holds("is_open(kitchen_door)")
    assert holds("not is_open(bathroom_door)")
    world.move_object("bottle", Placement(relation="held_by", support="robot1"))
    assert holds("holds(robot1, bottle)") and holds("in_room(bottle, hallway)")
    world.move_object("bottle", Placement(relation="held_by", support="alex"))
    assert holds("delivered(bottle, alex)") and holds("holds(alex, bottle)")
    assert not holds("did(anna, sign)")
    world.finish_task("anna", "sign")
    assert holds("did(anna, sign)")
    assert not holds("on(ghost, table_1)")
