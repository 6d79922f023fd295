"""The context of a skill call, as the failure-experience store matches it.

When a skill starts, its belief says what the call handles: the object, its type, the place
and room it is believed in (where it was last seen), the target, the person. If the skill
fails, those facets (:data:`knowledge.memory.experience.CONTEXT_FACETS`) go with the failure to the
explainer, which keeps only the records whose context fits, and fills the placeholders of
their recovery (``GOTO({room})``) with them.
"""

from __future__ import annotations

from cogtree.knowledge.memory.experience import FailureContext
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.calls import SkillCall


def skill_context(call: SkillCall, belief: Belief) -> FailureContext:
    """The facets of ``call`` in ``belief`` (only those that apply and are known).

    ``room`` is where the call's person is believed to be, else its object (unless the
    robot holds it), else its target.
    """
    args = call.args
    facets: dict[str, str] = {}
    obj = getattr(args, "object", None)
    target = getattr(args, "target", None)
    person = getattr(args, "person", None)
    if isinstance(obj, str):
        facets["object"] = obj
        thing = belief.things.get(obj)
        if thing is not None and thing.type:
            facets["object_type"] = thing.type.lower()
        if thing is not None and thing.relation in ("on", "in") and thing.support:
            facets["place"] = thing.support
            support = belief.things.get(thing.support)
            if support is not None and support.type:
                facets["place_type"] = support.type.lower()
    if isinstance(target, str):
        facets["target"] = target
    if isinstance(person, str):
        facets["person"] = person
    resting = obj if isinstance(obj, str) and obj not in belief.held else None
    located = next(
        (node for node in (person, resting, target) if isinstance(node, str)),
        None,
    )
    room = belief.room_of(located) if located is not None else None
    if room:
        facets["room"] = room
    return facets
