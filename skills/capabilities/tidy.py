"""Put away and tidy: take things back to their home places.

The task ``put_away(object, to?)`` brings the object where the user said it goes, else to
its home place, when the belief has one;
``tidy(room)`` puts away every object of the room that is out of place (held by a person: in
use, not out of place). Those that cannot be put away are left where they are and reported
(the bookkeeping action :data:`~cogtree.skills.capabilities.capability.SKIP`). Neither has a
skill of its own: they bring.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogtree.skills.action_model.belief import Belief, Thing
from cogtree.skills.action_model.specs import Args, CallSpec, NodeId
from cogtree.skills.capabilities import capability as cap


class PutAwayArgs(Args):
    """put_away: take ``object`` to ``to``, the place the user said it goes, else its home."""

    object: NodeId
    to: NodeId | None = None


class TidyArgs(Args):
    """tidy: put away every object of ``room`` that is out of place."""

    room: NodeId


def _at_home(state: cap.TaskState, thing: str, to: str | None = None) -> cap.Subtasks:
    return [] if to is None and state.belief.is_at_home(thing) else False


def _to_home(state: cap.TaskState, thing: str, to: str | None = None) -> cap.Subtasks:
    home = to or state.belief.homes.get(thing)
    if home is None:
        state.failures.add(f"put_away({thing}): the belief has no home place for {thing}")
        return False
    return [("bring", thing, home)]


def _tidy(state: cap.TaskState, room: str) -> cap.Subtasks:
    belief = state.belief
    if room not in belief.rooms:
        known = ", ".join(sorted(belief.rooms))
        state.failures.add(f"tidy({room}): {room} is not a room of the belief (rooms: {known})")
        return False
    out_of_place = _out_of_place(belief, room)
    homeless = _without_home(belief, room)
    if not out_of_place and homeless:
        state.failures.add(
            f"tidy({room}): no home place known for {', '.join(homeless)}: ask where they go"
        )
        return False
    return [("put_away_or_skip", thing) for thing in out_of_place]


def _objects_in(belief: Belief, room: str) -> list[Thing]:
    """The objects the belief places in ``room``, by id."""
    return [
        thing
        for thing in sorted(belief.things.values(), key=lambda t: t.id)
        if thing.kind == "object" and thing.room == room
    ]


def _without_home(belief: Belief, room: str) -> list[str]:
    """Loose objects in ``room`` (not held by anyone) whose home place the belief lacks."""
    return [
        thing.id
        for thing in _objects_in(belief, room)
        if thing.id not in belief.homes and thing.relation != "heldBy"
    ]


def _out_of_place(belief: Belief, room: str) -> list[str]:
    """Objects in ``room`` with a home they are not at (held by a person: in use, not out)."""
    return [
        thing.id
        for thing in _objects_in(belief, room)
        if thing.id in belief.homes
        and not belief.is_at_home(thing.id)
        and (thing.relation != "heldBy" or thing.id in belief.held)
    ]


def _put_away(state: cap.TaskState, thing: str) -> cap.Subtasks:
    return [("put_away", thing)]


def _skip_it(state: cap.TaskState, thing: str) -> cap.Subtasks:
    return [(cap.SKIP, thing)]


def _outline(
    belief: Belief, args: dict[str, str], said: Sequence[str]
) -> list[tuple[str, dict[str, str]]]:
    return [("PICK", {"object": args["object"]})]


CAPABILITY = cap.Capability(
    name="tidy",
    tasks=(
        cap.TaskKind(
            CallSpec("put_away", PutAwayArgs, "take an object to its home place"),
            (_at_home, _to_home),
            outline=_outline,
        ),
        cap.TaskKind(
            CallSpec("tidy", TidyArgs, "put away what is out of place in a room"),
            (_tidy,),
            ends_in="tidy",
        ),
    ),
    helpers={"put_away_or_skip": (_put_away, _skip_it)},
)
"""Putting things back where they belong."""
