"""Heat: put an object in an appliance that heats (a microwave, an oven) and switch it on.

The task ``heat(object, appliance)`` brings the object into the appliance (opening it first
when closed) and switches the appliance on; it has no skill of its own. The hazard rules
judge the plan (metal in a microwave that is switched on); when the user leaves the
appliance unsaid ("nuke the foil tray"), it may be any appliance that heats and takes things
in (not a fridge).
"""

from __future__ import annotations

from collections.abc import Sequence

from cogtree.skills.action_model.belief import Belief, Thing
from cogtree.skills.action_model.specs import Args, CallSpec, NodeId
from cogtree.skills.capabilities import capability as cap


class HeatArgs(Args):
    """heat: put ``object`` in ``appliance`` and switch the appliance on."""

    object: NodeId
    appliance: NodeId


def _heat(state: cap.TaskState, thing: str, appliance: str) -> cap.Subtasks:
    found = state.belief.things.get(appliance)
    if found is None or "appliance" not in found.flags or found.kind != "container":
        state.failures.add(
            f"heat({thing}, {appliance}): {appliance} is not an appliance things go in "
            "(a microwave, an oven)"
        )
        return False
    return [("bring", thing, appliance), ("switch_on", appliance)]


def _outline(
    belief: Belief, args: dict[str, str], said: Sequence[str]
) -> list[tuple[str, dict[str, str]]]:
    thing, appliance = args["object"], args["appliance"]
    return [
        ("PICK", {"object": thing}),
        ("PLACE", {"object": thing, "target": appliance}),
        ("SWITCH_ON", {"appliance": appliance}),
    ]


def _heats(thing: Thing) -> bool:
    """What heats and takes things in (not a fridge)."""
    return {"appliance", "heat_source"} <= thing.flags and thing.kind == "container"


CAPABILITY = cap.Capability(
    name="heat",
    tasks=(
        cap.TaskKind(
            CallSpec("heat", HeatArgs, "put an object in an appliance and switch it on"),
            (_heat,),
            outline=_outline,
            fits={"appliance": _heats},
        ),
    ),
)
"""Heating a thing in an appliance."""
