"""The wipe capability: WIPE makes a surface clean with a held cloth or sponge; the wipe task
fetches the cloth or sponge the user named, else the one in hand, else the nearest."""

from __future__ import annotations

from dataclasses import replace

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.calls import check_preconditions, project, skill_call
from cogtree.skills.capabilities.capability import Fact
from cogtree.skills.capabilities.registry import END_STATES, FITS, SKILLS
from cogtree.skills.planning.decomposition import SkillDecomposer
from cogtree.skills.planning.tasks import task_call
from tests.skills.capabilities.kitchen import holding, plan, reasons, without


def test_wipe_makes_the_surface_clean(kitchen: Belief) -> None:
    belief = holding(kitchen, "sponge")
    assert belief.things["counter"].clean is False
    call = skill_call("WIPE", surface="counter", tool="sponge", hand="right")
    commands = SkillDecomposer().decompose(call, belief).commands
    assert [command.describe() for command in commands] == [
        "approach(target=counter)",
        "wipe(surface=counter, tool=sponge, hand=right)",
    ]
    assert project(call, belief).things["counter"].clean is True
    assert SKILLS["WIPE"].facts(call.args, "robot1", {}) == [Fact("clean", "counter", "yes")]


def test_wipe_failures(kitchen: Belief) -> None:
    belief = holding(kitchen, "cup", "sponge")
    failed = [
        check_preconditions(skill_call("WIPE", args), belief).failure
        for args in (
            {"surface": "counter", "tool": "cup", "hand": "right"},
            {"surface": "microwave", "tool": "sponge", "hand": "left"},
        )
    ]
    assert [(check.name, check.code) for check in failed if check is not None] == [
        ("is_cleaning_tool", "wrong_tool"),
        ("is_surface", "object_not_found"),
    ]


def test_wipe_fetches_a_sponge_first(kitchen: Belief) -> None:
    assert plan(kitchen, "wipe", surface="counter") == [
        "PICK(sponge, right)",
        "WIPE(counter, sponge, right)",
    ]
    assert "no cloth or sponge" in reasons(without(kitchen, "sponge"), "wipe", surface="counter")


def test_wipe_uses_the_cloth_the_user_named(kitchen: Belief) -> None:
    """ "wipe the counter with the blue cloth": that cloth, though the sponge would do."""
    cloth = replace(kitchen.things["sponge"], id="blue_cloth")
    belief = replace(kitchen, things={**kitchen.things, "blue_cloth": cloth})
    assert plan(belief, "wipe", surface="counter", tool="blue_cloth") == [
        "PICK(blue_cloth, right)",
        "WIPE(counter, blue_cloth, right)",
    ]
    assert (
        plan(without(belief, "blue_cloth"), "wipe", surface="counter")[0] == "PICK(sponge, right)"
    )
    found = reasons(kitchen, "wipe", surface="counter", tool="cup")
    assert "wipe(counter, cup): cup is not a cloth or a sponge" in found
    assert "mop is not in the belief" in reasons(kitchen, "wipe", surface="counter", tool="mop")


def test_a_dirty_cloth_or_one_kept_for_another_thing_is_never_taken_unasked(
    kitchen: Belief,
) -> None:
    """A floor cloth (named by a made thing) or a dirty one: the plain cloth first; with none
    (checked to fail before: the floor cloth wiped the counter), no plan, saying why, unless
    the user names the one to use."""
    sponge = kitchen.things["sponge"]
    floor = replace(sponge, id="a_floor_cloth", label="floor cloth")
    dirty = replace(sponge, id="b_cloth", label="blue cloth", clean=False)
    plain = replace(sponge, id="c_cloth", label="muslin cloth")
    things = {**without(kitchen, "sponge").things, "a_floor_cloth": floor, "b_cloth": dirty}
    belief = replace(kitchen, things={**things, "c_cloth": plain})
    assert plan(belief, "wipe", surface="counter")[0] == "PICK(c_cloth, right)"
    unfit = without(belief, "c_cloth")
    assert "the floor cloth is kept for something else" in reasons(unfit, "wipe", surface="counter")
    assert "the blue cloth is dirty" in reasons(
        without(unfit, "a_floor_cloth"), "wipe", surface="counter"
    )
    named = plan(unfit, "wipe", surface="counter", tool="a_floor_cloth")
    assert named[0] == "PICK(a_floor_cloth, right)"


def test_an_unset_tool_is_left_out_and_an_unsaid_one_is_a_cleaning_tool(kitchen: Belief) -> None:
    assert task_call("wipe", surface="counter").values == ("counter",)
    assert task_call("wipe", surface="counter", tool="sponge").values == ("counter", "sponge")
    assert str(task_call("wipe", surface="counter")) == "wipe(counter)"
    fits = FITS[("wipe", "tool")]
    assert [thing for thing in sorted(kitchen.things) if fits(kitchen.things[thing])] == ["sponge"]
    assert END_STATES["wipe"] == "clean"
