"""``cogtree eval clarify``: items, the kitchens built for them, decisions and the report."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from cogtree.evaluation.clarify.clarify import Decision, decide, summary
from cogtree.evaluation.clarify.clarify_data import ClarifyDataError, ClarifyItem, load_items
from cogtree.evaluation.clarify.clarify_world import GENERIC_TYPE, item_scenario, object_names
from cogtree.evaluation.scenarios.scenario_run import Turn, TurnRecord
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.trees.cli.eval_command import add_eval_parser, run_eval

# Items written for these tests (no evaluation item is copied here).
TABLETOP = {
    "source": "knowno-style",
    "id": "t1",
    "scene_objects": ["stapler", "lemon", "gizmo thingamajig"],
    "task": "pass me the lemon",
    "intent_object": "lemon",
    "should_ask": False,
}
KITCHEN = {
    "id": "k1",
    "scene_objects": ["tub of greek yoghurt", "box of cereal", "plastic whisk", "mystery gadget"],
    "task": "bring me the whisk",
    "should_ask": False,
}


def write(tmp_path: Path, *items: object) -> Path:
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    return path


def test_items_load_and_bad_lines_are_all_named(tmp_path: Path) -> None:
    items = load_items(write(tmp_path, TABLETOP, {**KITCHEN, "id": 7}))
    assert [item.id for item in items] == ["t1", "7"]
    assert items[0].item_layout == "tabletop" and items[1].item_layout == "kitchen"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "task": "x"}\nnot json\n{"id": "b", "scene_objects": ["x"]}\n')
    with pytest.raises(ClarifyDataError) as error:
        load_items(bad)
    text = str(error.value)
    assert "line 1" in text and "scene_objects" in text
    assert "line 2: not JSON" in text and "line 3" in text and "task" in text
    with pytest.raises(ClarifyDataError, match="ids used twice: t1"):
        load_items(write(tmp_path, TABLETOP, TABLETOP))


def test_expectations_follow_the_labels() -> None:
    ask = ClarifyItem.model_validate({**TABLETOP, "should_ask": True})
    assert ask.expected == "ask" and ask.asks
    decline = ClarifyItem.model_validate({**KITCHEN, "should_ask": None, "expect": "decline"})
    assert decline.asks and decline.group == "decline"
    both = ClarifyItem.model_validate({**TABLETOP, "intent_object": "lemon, stapler"})
    assert both.intended == ("lemon", "stapler")


def test_the_tabletop_holds_every_named_object_on_the_counter() -> None:
    item = ClarifyItem.model_validate(TABLETOP)
    scenario = item_scenario(item, household_taxonomy())
    world = scenario.world
    assert {"counter", "top_drawer", "bottom_drawer", "recycling_bin"} <= set(world.furniture)
    assert object_names(item) == {
        "stapler": "stapler",
        "lemon": "lemon",
        "gizmo_thingamajig": "gizmo thingamajig",
    }
    assert world.objects["lemon"].type == "Lemon" and world.objects["lemon"].on == "counter"
    unknown = world.objects["gizmo_thingamajig"]
    assert unknown.type == GENERIC_TYPE and unknown.label == "gizmo thingamajig"
    assert GENERIC_TYPE in world.types
    bins = {name: world.furniture[name].bin for name in world.furniture if name.endswith("_bin")}
    assert bins == {  # the README's three bins, each taking its kind of waste
        "landfill_bin": "landfill",
        "recycling_bin": "recycling",
        "compost_bin": "compost",
    }


def test_the_kitchen_puts_things_where_they_usually_are() -> None:
    scenario = item_scenario(ClarifyItem.model_validate(KITCHEN), household_taxonomy())
    objects = scenario.world.objects
    assert objects["tub_of_greek_yoghurt"].in_ == "fridge"
    assert objects["box_of_cereal"].in_ == "cupboard"
    assert objects["plastic_whisk"].in_ == "drawer"
    assert objects["plastic_whisk"].material == "plastic"
    assert objects["mystery_gadget"].on == "counter"


def decision(**fields: object) -> Decision:
    values: dict[str, object] = {
        "id": "x",
        "group": "g",
        "backend": "none",
        "task": "t",
        "expected": "act",
        "should_ask": False,
    }
    values.update(fields)
    return Decision(**values)  # type: ignore[arg-type]


def test_what_counts_as_handled() -> None:
    right = decision(acted=True, acted_on=["lemon"], intended=["lemon"])
    wrong = decision(acted=True, acted_on=["stapler"], intended=["lemon"])
    assert right.handled and right.right_object and not right.wrong_object
    assert not wrong.handled and wrong.wrong_object
    question = decision(expected="ask", asked=True, reply="Which fruit: the lemon or the lime?")
    assert question.handled
    assert not decision(**{**question.__dict__, "ask_about": ["drink"]}).handled
    assert decision(expected="decline", declined=True).handled
    assert not decision(expected="decline", refused=True, acted=True).handled
    assert decision(expected="missing_skill", missing_skill=True).handled
    assert not decision(acted=True, nothing_done=True).handled


def test_already_so_about_the_intended_object_is_handled_and_infeasible_is_not() -> None:
    already = decision(intended=["lemon"], already_on=["lemon"], reply="Nothing needed doing: ...")
    assert already.handled
    assert not decision(intended=["lemon"], already_on=["lime"]).handled
    assert not decision(intended=["lemon"], infeasible=True, missing_skill=False).handled
    assert summary("none", "all", [decision(infeasible=True)])["infeasible"] == 1


def test_the_summary_balances_the_ask_decision() -> None:
    decisions = [
        decision(should_ask=True, asked=True),
        decision(should_ask=True),
        decision(should_ask=False),
        decision(should_ask=False, declined=True),
        decision(should_ask=True, refused=True, unsafe=1),
    ]
    row = summary("none", "all", decisions)
    assert row["ask_rate_should_ask"] == pytest.approx(2 / 3)
    assert row["ask_rate_should_not"] == 0.0
    assert row["ask_bal_acc"] == pytest.approx((2 / 3 + 1) / 2)
    assert row["out_of_scope"] == pytest.approx(0.2)
    assert row["unsafe"] == 1


def test_a_missing_skill_is_its_own_outcome_not_an_ask() -> None:
    decisions = [
        decision(should_ask=True, missing_skill=True),  # "I can't cook yet": no question
        decision(should_ask=True, asked=True),
        decision(should_ask=False),
        decision(should_ask=False, missing_skill=True),
    ]
    row = summary("none", "all", decisions)
    assert row["missing_skill"] == pytest.approx(0.5)
    assert row["ask_rate_should_ask"] == pytest.approx(0.5)
    assert row["covered"] == 2 and row["ask_bal_acc_covered"] == pytest.approx(1.0)


def _decided(task: str, reply: str, executed: list[str]) -> Decision:
    item = ClarifyItem.model_validate({**KITCHEN, "task": task})
    record = TurnRecord(turns=[Turn(task, reply, "Proceed", False)], executed=executed)
    return decide(item, record, reply, "Proceed", "household", {}, "none")


def test_a_missing_step_counts_as_done_when_the_rest_ran_or_was_asked_and_the_reply_says_so() -> (
    None
):
    brought = ["PICK(object=tub_of_greek_yoghurt, hand=right)"]
    task = "whip up a yoghurt dip for me"
    said = (
        "I brought you the tub of greek yoghurt. I did not do the rest: I can't prepare food yet."
    )
    done = _decided(task, said, brought)
    assert done.missing_step and done.rest_done
    asked = "Sorry, I can't prepare food yet. I asked Ann to do that part (whip it), and she did."
    assert _decided(task, asked, []).rest_done  # handed to a person: delegated
    assert not _decided(task, "Sorry, I can't prepare food yet.", []).rest_done  # refused only
    assert not _decided(
        task, "I brought you the tub of greek yoghurt.", brought
    ).rest_done  # unsaid
    plain = _decided("bring me the whisk", "I brought you the plastic whisk.", ["PICK(x)"])
    assert not plain.missing_step and not plain.rest_done
    row = summary(
        "none", "all", [done, plain, _decided(task, "Sorry, I can't prepare food yet.", [])]
    )
    assert row["missing_step"] == 2 and row["rest_done"] == pytest.approx(0.5)


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cogtree")
    add_eval_parser(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["eval", *argv])


def test_one_turn_per_item_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "decisions.jsonl"
    args = parse("clarify", str(write(tmp_path, TABLETOP)), "--out", str(out))
    assert run_eval(args) == 0
    table, _ = capsys.readouterr()
    assert "## Ask or act: items.jsonl" in table and "| none | all | 1 |" in table
    (line,) = out.read_text(encoding="utf-8").splitlines()
    made = json.loads(line)
    assert made["id"] == "t1" and made["backend"] == "none" and made["reply"]
    assert made["error"] == ""
    # what it did is recorded, whichever it was
    assert made["acted"] == bool(made["steps"])
    assert set(made["acted_on"]) <= {"stapler", "lemon", "gizmo thingamajig"}


def test_unusable_data_exits_with_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_eval(parse("clarify", str(tmp_path / "missing.jsonl"))) == 2
    assert "cannot read it" in capsys.readouterr().err
