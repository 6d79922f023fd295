"""Which robot-side observations may lower a hazard the host believes in.

A batch of observations from the robot side may say a thing is less hazardous than the host
believes: the foil tray is a "ceramic dish" of ceramic, the pan is no longer hot, the bottle is
not a chemical. Such a batch is applied only when every observation it holds of that thing
comes from the robot's **own perception** (its ``source`` is the one the robot side gives its
perception, :func:`~skills.ros.protocol.perception_source`) and is **fresh**: seen no earlier
than anything the belief holds of the thing, and no more than :data:`MAX_OBSERVATION_AGE`
before the newest observation the host applied from that robot. Otherwise the batch is
refused whole (:meth:`ObservationTrust.refusal` says why) and the belief keeps the hazardous
description. A batch that raises a hazard, or changes nothing the rules read, is applied as
it comes.

**Less hazardous** is read from the safety properties (:mod:`knowledge.safety.thing_properties`):
the thing's kinds and material classes from every description it has (its type, label,
material and flags) before the batch and as the batch would leave them. A kind or material
class lost is a lowering when the hazard rules test it (its name, quoted, is in a rule's
query: ``"metal"``, ``"chemical"``, ``"sharp"``...), so a rule added later counts without a
list here; a state the rules test (``haz:hot``, ``haz:powered``, ``haz:sealed``) lost is one
too. Unknown is not safe: a material that becomes unknown has lost its classes.

This keeps a confused or compromised publisher from talking a hazard away; it is not
authentication (anyone on the DDS domain can write the source string): see docs/ros.md for
DDS security, and the robot side's own re-checks before it takes an object.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from rdflib import RDFS, Literal, URIRef

from cogtree.knowledge.safety.hazard_rules import shipped_hazard_rules
from cogtree.knowledge.safety.thing_properties import Descriptions, safety_properties
from cogtree.knowledge.scene.scene_graph import COG, SceneGraph
from cogtree.knowledge.scene.scene_models import AttributeValue, Observation
from cogtree.skills.action_model.belief import FLAG_ATTRIBUTES

MAX_OBSERVATION_AGE = timedelta(seconds=60)
"""How much older than the newest observation applied from a robot a lowering one may be."""

HAZARD_STATES: Mapping[str, tuple[str, bool]] = {
    "hot": ("hot", True),
    "powered": ("powered", True),
    "isOpen": ("sealed", False),
}
"""Scene attributes whose value is a hazard state of the rules: attribute -> (the state's name
in the hazard check's graph, the value that makes it hold)."""

_DESCRIBING = frozenset({"objectType", "label", "material", *FLAG_ATTRIBUTES, *HAZARD_STATES})
"""The predicates of an observation that can change what a thing is for safety."""


class ObservationTrust:
    """Decides whether a robot's batch may be applied (see the module docs).

    ``perception``: robot -> the ``source`` its own perception writes. Not thread-safe: the
    caller applies batches one at a time and calls :meth:`applied` after each.
    """

    def __init__(
        self, perception: Mapping[str, str], *, max_age: timedelta = MAX_OBSERVATION_AGE
    ) -> None:
        self.perception = dict(perception)
        self.max_age = max_age
        self._newest: dict[str, datetime] = {}

    def refusal(
        self, scene: SceneGraph, robot: str, observations: Sequence[Observation]
    ) -> str | None:
        """Why ``robot``'s ``observations`` may not be applied to ``scene``, or None."""
        for thing, lost in lowerings(scene, observations).items():
            about = [o for o in observations if o.subject == thing and o.predicate in _DESCRIBING]
            doubt = self._doubt(scene, robot, thing, about)
            if doubt is not None:
                return (
                    f"it would make {thing} less hazardous (no longer {', '.join(sorted(lost))}), "
                    f"and {doubt}; the belief keeps what it held"
                )
        return None

    def applied(self, robot: str, observations: Iterable[Observation]) -> None:
        """Remember the newest time of ``robot``'s observations the belief took in."""
        for observation in observations:
            newest = self._newest.get(robot)
            if newest is None or observation.time > newest:
                self._newest[robot] = observation.time

    def _doubt(
        self, scene: SceneGraph, robot: str, thing: str, about: Sequence[Observation]
    ) -> str | None:
        """What is wrong with the observations of ``thing`` that lower it, or None."""
        own = self.perception.get(robot)
        foreign = sorted({o.source for o in about if o.source != own})
        if foreign:
            return f"it comes from {', '.join(foreign)}, not {robot}'s own perception ({own})"
        held = [o.time for o in scene.observations_of(thing)]
        newest = self._newest.get(robot)
        for observation in about:
            if held and observation.time < max(held):
                return f"it was seen at {observation.time}, before the belief last saw {thing}"
            if newest is not None and observation.time < newest - self.max_age:
                return (
                    f"it was seen at {observation.time}, more than {self.max_age} before "
                    f"{robot}'s newest observation ({newest})"
                )
        return None


def lowerings(scene: SceneGraph, observations: Sequence[Observation]) -> dict[str, frozenset[str]]:
    """Each thing ``observations`` make less hazardous, with what it would no longer be."""
    changes: dict[str, dict[str, AttributeValue]] = {}
    for observation in observations:
        if observation.predicate in _DESCRIBING:
            changes.setdefault(observation.subject, {})[observation.predicate] = observation.object
    found = {}
    for thing, changed in changes.items():
        before = _described(scene, thing)
        lost = _lost(thing, before, {**before, **changed})
        if lost:
            found[thing] = lost
    return found


def _described(scene: SceneGraph, thing: str) -> dict[str, AttributeValue]:
    """What the belief holds of ``thing`` among the describing predicates (see the module)."""
    node = SceneGraph.iri(thing)
    values: dict[str, AttributeValue] = {}
    kind = scene.graph.value(node, COG.objectType)
    if isinstance(kind, URIRef):
        values["objectType"] = SceneGraph.short_id(kind)
    label = scene.graph.value(node, RDFS.label)
    if isinstance(label, Literal):
        values["label"] = str(label)
    for name in _DESCRIBING - {"objectType", "label"}:
        value = scene.graph.value(node, COG[name])
        if isinstance(value, Literal):
            values[name] = value.toPython()
    return values


def _lost(
    thing: str, before: Mapping[str, AttributeValue], after: Mapping[str, AttributeValue]
) -> frozenset[str]:
    """What lowers a hazard from ``before`` to ``after`` (see :data:`EXEMPTING`).

    A hazard-relevant kind, material class or state lost, an unknown material made known, or
    an exempting kind or type gained.
    """
    was, now = _properties(thing, before), _properties(thing, after)
    lost = {name for name in (was - now) if _tested(f'"{name}"')}
    if UNKNOWN_MATERIAL in was - now:  # an unknown material made known lifts a question
        lost.add(UNKNOWN_MATERIAL)
    lost.update(f"not {name}" for name in (now - was) & EXEMPTING)  # a new exemption
    lost.update(
        state
        for attribute, (state, hazardous) in HAZARD_STATES.items()
        if before.get(attribute) is hazardous
        and after.get(attribute) is not hazardous
        and _tested(f"haz:{state}")
    )
    return frozenset(lost)


def _properties(thing: str, values: Mapping[str, AttributeValue]) -> frozenset[str]:
    """The kinds and material classes every description of ``thing`` in ``values`` gives it."""

    def text(name: str) -> str | None:
        value = values.get(name)
        return value if isinstance(value, str) and value else None

    flags = frozenset(flag for name, flag in FLAG_ATTRIBUTES.items() if values.get(name) is True)
    found = safety_properties(
        Descriptions(
            id=thing,
            type=text("objectType"),
            label=text("label"),
            material=text("material"),
            flags=flags,
        )
    )
    unknown = {UNKNOWN_MATERIAL} if found.material_unknown else set()
    return found.kinds | found.materials | (found.types & EXEMPTING) | unknown


UNKNOWN_MATERIAL = "unknown material"
"""The marker of a thing no description says the material of (the rules ask about it)."""

EXEMPTING = frozenset({"food", "drink", "Cookware", "Tableware", "PlumbingFixture"})
"""Kinds and types that exempt a thing from a rule (cookware on a lit hob, food in a
microwave): gaining one lowers a hazard as losing a kind does."""


def _rules_text() -> str | None:
    """Every shipped rule's query, or None while the rule file is unreadable."""
    rules = shipped_hazard_rules()
    if rules.unreadable is not None:
        return None
    return "\n".join(rule.query for rule in rules.rules)


def _tested(term: str) -> bool:
    """Whether a hazard rule tests ``term``; every term counts while the rules do not load."""
    text = _rules_text()
    return text is None or term in text
