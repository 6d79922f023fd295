"""The hazard check: each plan step's predicted state as a small RDF graph, run by the rules.

For a step and the belief the plan predicts just before it, :func:`step_graph` builds an
Oxigraph store of what matters: the step, the things and people it names, what rests on, in
or beside them, what the robot holds, the people near, the home's children. The rules of
:mod:`knowledge.safety.hazard_rules` run over it; every row of a rule is a :class:`Hazard`.
A small graph per step keeps the cost flat however big the scene is.

The step's graph (prefix ``haz:``):

- ``haz:step``: ``haz:skill "PLACE"``; one property per argument (``haz:object``, ``haz:target``,
  ``haz:container``, ``haz:source``, ``haz:person``, ``haz:amountMl``...), a node for a thing
  or person of the belief, else a literal; PLACE always has its relation (``on`` or
  ``in`` from the target's kind when the step does not say); ``haz:manner`` for each manner
  the request asked for (``hurried``, ``blade_first``, ``thrown``).
- a thing (``a haz:Thing``): ``haz:kind``, ``haz:type`` (its ontology type, e.g. ``Microwave``,
  and every broader type of the household taxonomy, so a narrower kind of microwave counts),
  ``haz:word`` (each word of its id), ``haz:named`` (each word of every name, type and
  content it is described by: "peanut", "butter"), and what every description of it makes it
  (:mod:`knowledge.safety.thing_properties`, the union): ``haz:type`` also for each type its
  label or id names, ``haz:flag`` (each hazard flag), ``haz:material`` (each material class:
  ``metal``, ``flammable``, ``meltable``, ``breakable``..., from its material or label, else
  its types' typical material: a fork of no known material is metal, and then
  ``haz:materialTypical``) or ``haz:materialUnknown``,
  ``haz:typeUnknown`` (no type the taxonomy knows; then ``haz:namedAsFood`` when a name's
  last word names a food in the dictionary: "the trifle"), ``haz:sealed`` (an object that is closed)
  or ``haz:openUnknown``, ``haz:hot``, ``haz:powered``,
  ``haz:madeFor`` (``food`` or ``drink``: a name says it holds one, "lemonade bottle"),
  ``haz:faulty`` (said faulty or broken), ``haz:wet`` (said water is in, on or round it),
  ``haz:soiled`` (said, or labelled, muddy, greasy...), ``haz:liquid`` (what it holds; until
  its contents are seen, also what its names say: "my cup of tea"), ``haz:contentsUnknown``
  (a vessel made for liquids whose contents nobody has seen), ``haz:holds`` (every type each
  part of its liquid names, with their categories: ``AlcoholicDrink`` for wine),
  ``haz:holdsFlag`` (each hazard flag of those types: a kettle of descaler holds a chemical;
  the thing itself takes no flag from it, so a mug of washing-up liquid is still a mug),
  ``haz:holdsChild`` (its contents name a small child), ``haz:liquidMl``, ``haz:capacityMl``,
  ``haz:support``, ``haz:relation``, ``haz:beside`` (each landmark it stands beside, both
  ways), ``haz:held`` (the robot holds it), for the object a PLACE sets down
  ``haz:besideAfter`` (what it will stand next to), a PLACE target's ``haz:heightM``.
- a person (``a haz:Person``): ``haz:word``, ``haz:ageGroup``, ``haz:child`` (a toddler or
  child), ``haz:minor`` (under 18), ``haz:speaker``, ``haz:vulnerable`` (each vulnerability),
  ``haz:allergicTo`` (each word of what an allergy is to: "nuts"), ``haz:inWater`` (said to be
  in the bath or the shower), ``haz:nearby`` (in the robot's room or where the step ends),
  ``haz:atDestination`` (where the step ends); also what the user said
  of them, or the speaker of themselves (:mod:`knowledge.safety.said_of_people`: "I'm only
  six" makes the speaker a child, "I'm fifteen" a minor, "my hands are shaking" vulnerable,
  "grandma is only four" grandma a toddler; the union, never less than the belief holds). A
  thing's ``haz:owner`` is the person it belongs to (described too), ``haz:massKg`` its mass.
- ``haz:step haz:offered true`` when the robot brings things for a step it cannot do itself
  (a request's missing first step, whose things are set out for a person to use).

A hazard that what the user said made more hazardous ends with what was said ("You said
"I'm only six"."; 'You said the pot has "hamster" in it'). :mod:`skills.safety.plan_hazards`
checks a whole plan.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import pyoxigraph
from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad

from cogtree.knowledge.safety.hazard_rules import HAZ, HazardRules, Severity
from cogtree.knowledge.safety.said_of_people import (
    CHILDREN,
    SPEAKER,
    YOUNGEST_FIRST,
    SaidOfSelf,
    allergens,
    holds_a_child,
    in_water,
    is_allergy,
    youngest,
)
from cogtree.knowledge.safety.said_of_things import (
    DAMAGE_STATES,
    FAULT_STATES,
    SEEN_STATES,
    contents_said,
    quoted,
    states_said,
)
from cogtree.knowledge.safety.said_prohibitions import falls_under
from cogtree.knowledge.safety.thing_properties import (
    HOLDS_LIQUID,
    Descriptions,
    SafetyProperties,
    edible_held,
    liquids_said_to_be,
    named_words,
    raising_flags_held,
    safety_properties,
    types_held,
)
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wording import TITLES, capitalised, singular
from cogtree.knowledge.wordnet.nouns import BEINGS, shipped_nouns
from cogtree.skills.action_model.belief import Belief, Thing
from cogtree.skills.action_model.checks import Check
from cogtree.skills.action_model.people import Person
from cogtree.skills.capabilities.calls import SkillCall

_NS = str(HAZ)
_STEP = NamedNode(_NS + "step")
_TYPE = NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
_THING = NamedNode(_NS + "Thing")
_PERSON = NamedNode(_NS + "Person")
_XSD_DOUBLE = NamedNode("http://www.w3.org/2001/XMLSchema#double")
_TRUE = Literal("true", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#boolean"))
_FALSE = Literal("false", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#boolean"))
_THINGS_NS = "https://cogtree.dev/hazard/thing/"
_ROLES = {"amount_ml": "amountMl"}
_SIDE_RELATIONS = frozenset({"next_to", "near", "left_of", "right_of", "behind", "in_front_of"})
_SKIPPED_ARGS = frozenset({"hand", "text", "seconds"})


RULES_UNREADABLE = "rules_unreadable"
"""The hazard of every step while the rule file has an error: the step is refused."""


@dataclass(frozen=True)
class Hazard:
    """One hazard a rule found in a step: the rule, its severity and the sentence said."""

    rule: str
    severity: Severity
    sentence: str
    step: int | None = None

    @property
    def forbids(self) -> bool:
        """Whether the step must never run."""
        return self.severity == "forbidden"

    @property
    def doubt(self) -> str:
        """``hazard <rule>: '<sentence>'``: how a question names it for the user to confirm."""
        return hazard_doubt(self.rule, self.sentence)


def hazard_doubt(rule: str, sentence: str) -> str:
    """The safety doubt an ask-first hazard raises, as ``/session/pending.confirm`` lists it.

    The same form as :meth:`knowledge.safety.doubts.SafetyDoubt.describe`.
    """
    return f"hazard {rule}: {sentence!r}"


def _p(name: str) -> NamedNode:
    return NamedNode(_NS + name)


def _node(name: str) -> NamedNode:
    return NamedNode(_THINGS_NS + name)


def _number(value: float) -> Literal:
    return Literal(repr(float(value)), datatype=_XSD_DOUBLE)


def _words(name: str) -> list[str]:
    return [word for word in name.lower().replace("-", "_").split("_") if word.isalpha()]


@dataclass(frozen=True)
class Said:
    """What the user said, as the step's graph reads it: of things, and of the speaker.

    Immutable: the mappings given are held as read-only copies, so no caller can change a
    shared one (:data:`NOTHING_SAID`).
    """

    of_things: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Thing id -> what the user called it (:func:`~skills.safety.plan_hazards.said_about`)."""
    speaker: str | None = None
    """The person speaking (their id in the belief), when known."""
    of_people: Mapping[str, SaidOfSelf] = field(default_factory=dict)
    """Person id (``SPEAKER``: the speaker) -> what the user said of them."""
    offered: bool = False
    """Whether the robot brings things nobody asked it to bring."""
    kept_from: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Person id -> what the user said must be kept from them (:mod:`.said_prohibitions`)."""
    not_to_use: tuple[str, ...] = ()
    """What the user told the robot not to use (:func:`.said_prohibitions.not_to_use`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "of_things", MappingProxyType(dict(self.of_things)))
        object.__setattr__(self, "of_people", MappingProxyType(dict(self.of_people)))
        object.__setattr__(self, "kept_from", MappingProxyType(dict(self.kept_from)))


NOTHING_SAID = Said()
"""The user said nothing the hazard check reads."""


class _Facts:
    """The triples of one step's graph, each thing described once."""

    def __init__(self, belief: Belief, said: Said) -> None:
        self.belief = belief
        self.said = said.of_things
        self.heard = said
        self.quads: list[Quad] = []
        self.described: set[str] = set()
        self.quotes: dict[str, tuple[str, ...]] = {}
        """Node id -> what the user said that made it more hazardous, as quoted."""

    def add(self, subject: NamedNode, prop: str, value: Any) -> None:
        self.quads.append(Quad(subject, _p(prop), value, DefaultGraph()))

    def term(self, value: Any) -> NamedNode | Literal:
        if isinstance(value, str) and (value in self.belief.things or value in self.belief.people):
            self.describe(value)
            return _node(value)
        if isinstance(value, bool):
            return _TRUE if value else _FALSE
        if isinstance(value, int | float):
            return _number(value)
        return Literal(str(value))

    def describe(self, name: str) -> None:
        if name in self.described:
            return
        self.described.add(name)
        node = _node(name)
        for word in _words(name):
            self.add(node, "word", Literal(word))
        person = self.belief.people.get(name)
        if person is not None:
            self.quads.append(Quad(node, _TYPE, _PERSON, DefaultGraph()))
            self._person(node, person)
            return
        thing = self.belief.things.get(name)
        if thing is None:
            return
        self.quads.append(Quad(node, _TYPE, _THING, DefaultGraph()))
        self._properties(node, thing)

    def _person(self, node: NamedNode, person: Person) -> None:
        """A person's facts: the belief's, and what the user said of them (or of themselves)."""
        age_group, vulnerabilities = person.age_group, set(person.vulnerabilities)
        heard = self.heard.of_people
        said = [
            heard.get(person.id),
            heard.get(SPEAKER) if person.id == self.heard.speaker else None,
        ]
        for own in filter(None, said):
            age_group = youngest(age_group, own.age_group)
            vulnerabilities.update(own.conditions)
            quoted = self.quotes.get(person.id, ()) + tuple(f'"{clause}"' for clause in own.clauses)
            self.quotes[person.id] = tuple(dict.fromkeys(quoted))
        if person.id == self.heard.speaker:
            self.add(node, "speaker", _TRUE)
        if age_group is not None:
            self.add(node, "ageGroup", Literal(age_group))
        if age_group in CHILDREN:
            self.add(node, "child", _TRUE)
        if age_group in YOUNGEST_FIRST:
            self.add(node, "minor", _TRUE)
        for vulnerability in sorted(v for v in vulnerabilities if not is_allergy(v)):
            self.add(node, "vulnerable", Literal(vulnerability))
        if any(map(in_water, vulnerabilities)):
            self.add(node, "inWater", _TRUE)
        for allergen in sorted({word for said in vulnerabilities for word in allergens(said)}):
            self.add(node, "allergicTo", Literal(allergen))

    def _properties(self, node: NamedNode, thing: Thing) -> None:
        self.add(node, "kind", Literal(thing.kind))
        described = Descriptions(
            id=thing.id,
            type=thing.type,
            label=thing.label,
            material=thing.material,
            flags=thing.flags,
            said=self.said.get(thing.id, ()),
        )
        found = safety_properties(described)
        self._quote(thing, described, found)
        # the declared type is kept even when the taxonomy does not know it (a world's own type)
        for type_name in sorted(found.types | ({thing.type} if thing.type else set())):
            self.add(node, "type", Literal(type_name))
        for flag in sorted(found.kinds):
            self.add(node, "flag", Literal(flag))
        for kind in sorted(edible_held(described)):
            self.add(node, "madeFor", Literal(kind))
        for word in sorted(named_words(described, found.types, thing.liquid)):
            self.add(node, "named", Literal(word))
        for material in sorted(found.materials):
            self.add(node, "material", Literal(material))
        if found.material_unknown:
            self.add(node, "materialUnknown", _TRUE)
        if found.material_typical:
            self.add(node, "materialTypical", _TRUE)
        if not found.types:
            self.add(node, "typeUnknown", _TRUE)
            if _names_a_food(described.seen_names):  # "the trifle": no type, but a food's name
                self.add(node, "namedAsFood", _TRUE)
        if thing.owner is not None:
            self.add(node, "owner", _node(thing.owner))
            self.describe(thing.owner)
        taxonomy = household_taxonomy()
        labels = (taxonomy.label(name) for name in found.types if name in taxonomy.types)
        known_as = {*described.seen_names, *labels, *found.materials, *found.kinds}
        # what it was told not to use: that very thing ("the reading lamp"), no floor lamp
        names = described.seen_names
        if any(falls_under(p, known_as, found.types, names=names) for p in self.heard.not_to_use):
            self.add(node, "notToUse", _TRUE)
        for person, phrases in self.heard.kept_from.items():
            kept = [p for p in phrases if falls_under(p, known_as, found.types)]
            if kept and person in self.belief.people:
                self.add(node, "keptFrom", _node(person))
                self.describe(person)
                said = tuple(f'"{phrase}"' for phrase in kept)
                self.quotes[thing.id] = tuple(dict.fromkeys(self.quotes.get(thing.id, ()) + said))
        if thing.mass_kg is not None:
            self.add(node, "massKg", _number(thing.mass_kg))
        if thing.kind == "object" and thing.is_open is False:
            self.add(node, "sealed", _TRUE)
        elif thing.kind == "object" and thing.is_open is None:
            self.add(node, "openUnknown", _TRUE)
        stated = states_said(self.said.get(thing.id, ()))
        if thing.hot or "hot" in stated:
            self.add(node, "hot", _TRUE)
        if stated & FAULT_STATES:
            self.add(node, "faulty", _TRUE)
        if "wet" in stated:
            self.add(node, "wet", _TRUE)
        if "soiled" in stated | (states_said(described.seen_names) & SEEN_STATES):
            self.add(node, "soiled", _TRUE)
        if "powered" in stated:
            self.add(node, "powered", _TRUE)
        elif thing.powered is not None:
            self.add(node, "powered", _TRUE if thing.powered else _FALSE)
        unseen = not thing.contents_seen and not thing.liquid
        held = [thing.liquid] if thing.liquid else list(found.liquids_named) if unseen else []
        if unseen and HOLDS_LIQUID in found.kinds:
            self.add(node, "contentsUnknown", _TRUE)
        said = self.said.get(thing.id, ())
        as_held = liquids_said_to_be(said) if HOLDS_LIQUID in found.kinds else ()
        for liquid in (*held, *contents_said(said), *as_held):
            self.add(node, "liquid", Literal(liquid))
            for type_name in sorted(types_held(liquid)):
                self.add(node, "holds", Literal(type_name))
            for flag in sorted(raising_flags_held(liquid)):
                self.add(node, "holdsFlag", Literal(flag))
            if holds_a_child(liquid):
                self.add(node, "holdsChild", _TRUE)
        if thing.liquid_ml:
            self.add(node, "liquidMl", _number(thing.liquid_ml))
        if thing.capacity_ml is not None:
            self.add(node, "capacityMl", _number(thing.capacity_ml))
        if thing.relation is not None:
            self.add(node, "relation", Literal(thing.relation))
        if thing.support is not None:
            self.add(node, "support", _node(thing.support))
        if thing.id in self.belief.held:
            self.add(node, "held", _TRUE)
        for _, landmark in thing.beside:
            self.add(node, "beside", _node(landmark))
            self.add(_node(landmark), "beside", node)

    def _quote(self, thing: Thing, described: Descriptions, found: SafetyProperties) -> None:
        """Note what the user said of ``thing`` that made it more hazardous than the belief."""
        seen = safety_properties(replace(described, said=())).kinds
        stated = states_said(described.said) - ({"hot"} if thing.hot else set())
        if found.kinds == seen and not stated & (DAMAGE_STATES | {"hot"}):
            return
        raising = [
            phrase
            for phrase in described.said
            if (not thing.hot and "hot" in states_said((phrase,)))
            or states_said((phrase,)) & DAMAGE_STATES
            or safety_properties(replace(described, said=(phrase,))).kinds - seen
        ]
        name = " ".join(_words(thing.id)) or thing.id
        names = {word for seen in described.seen_names for word in seen.lower().split()}
        self.quotes[thing.id] = tuple(quoted(phrase, name, names) for phrase in raising)


def _names_a_food(names: Iterable[str]) -> bool:
    """Whether a name's last word names a food and no being ("trifle"; not "lamb", "crab").

    A name with a title ("Mr Fudge") is someone's, a pet's or a toy's: no food.
    """
    nouns = shipped_nouns()
    said = [re.findall(r"[a-z]+", name.lower()) for name in names]
    heads = [words[-1] for words in said if words and words[0] not in TITLES]
    return nouns is not None and any(
        nouns.has_sense_in(form, "noun.food") and not set(nouns.files(form)) & BEINGS
        for head in heads
        for form in (head, singular(head))
    )


def _related(belief: Belief, names: Iterable[str]) -> set[str]:
    """The things resting on or in ``names``, what they rest on, and what stands beside them.

    Read from the belief's indexes, so it costs what is related, not the whole belief.
    """
    found: set[str] = set()
    for name in names:
        found.update(belief.resting_on.get(name, ()))
        found.update(belief.standing_beside.get(name, ()))
        named = belief.things.get(name)
        if named is not None:
            if named.support is not None and named.support in belief.things:
                found.add(named.support)
            found.update(landmark for _, landmark in named.beside if landmark in belief.things)
    return found


def _destination_room(belief: Belief, call: SkillCall) -> str | None:
    for key in ("target", "person"):
        name = getattr(call.args, key, None)
        if isinstance(name, str):
            return belief.room_of(name)
    return None


def step_graph(
    belief: Belief, call: SkillCall, manners: Iterable[str] = (), said: Said = NOTHING_SAID
) -> pyoxigraph.Store:
    """The step's graph (see the module docs) for ``call`` in ``belief``.

    ``said``: what the user called each thing in this conversation (thing id -> phrases), one
    more description of it (:class:`~knowledge.safety.thing_properties.Descriptions`), and
    what the speaker said of themselves.
    """
    return _step_facts(belief, call, manners, said)[0]


def _step_facts(
    belief: Belief, call: SkillCall, manners: Iterable[str], said: Said
) -> tuple[pyoxigraph.Store, _Facts]:
    """The step's graph, and the facts it was built from (what was quoted of whom)."""
    facts = _Facts(belief, said)
    args = call.args.model_dump()
    facts.add(_STEP, "skill", Literal(call.skill))
    named = []
    for key, value in args.items():
        if value is None or key in _SKIPPED_ARGS:
            continue
        facts.add(_STEP, _ROLES.get(key, key), facts.term(value))
        if isinstance(value, str) and value in belief.things:
            named.append(value)
    relation = args.get("relation")
    if call.skill == "PLACE":
        target = belief.things.get(args["target"])
        if relation is None:
            relation = "in" if target is not None and target.kind == "container" else "on"
            facts.add(_STEP, "relation", Literal(relation))
        facts.describe(args["object"])
        height = belief.place_height(args["target"])
        if height is not None:
            facts.add(_node(args["target"]), "heightM", _number(height))
        after = (
            [args["target"]]
            if relation in _SIDE_RELATIONS
            else list(belief.resting_on.get(args["target"], ()))
        )
        for neighbour in after:
            if neighbour != args["object"] and neighbour in belief.things:
                facts.describe(neighbour)
                facts.add(_node(args["object"]), "besideAfter", _node(neighbour))
    for manner in sorted(manners):
        facts.add(_STEP, "manner", Literal(manner))
    if said.offered:
        facts.add(_STEP, "offered", _TRUE)
    for name in sorted(_related(belief, named)) + sorted(belief.held):
        facts.describe(name)
    destination = _destination_room(belief, call)
    for person in belief.people.values():
        near = person.room in {belief.robot_room, destination}
        if near or person.age_group in CHILDREN or person.id in said.of_people:
            facts.describe(person.id)  # those near, the children of the home, those spoken of
        if near:
            facts.add(_node(person.id), "nearby", _TRUE)
        if destination is not None and person.room == destination:
            facts.add(_node(person.id), "atDestination", _TRUE)
    store = pyoxigraph.Store()
    store.extend(facts.quads)
    return store, facts


def _spoken(term: Any, belief: Belief) -> str:
    """How a sentence says ``term``: its label after "the" (no "my"), else its id's words."""
    if isinstance(term, NamedNode):
        ident = term.value.removeprefix(_THINGS_NS)
        thing, person = belief.things.get(ident), belief.people.get(ident)
        label = thing.label if thing is not None else person.label if person is not None else None
        if label:
            return re.sub(r"^(?:the|a|an|my|your|our)\s+", "", label.strip(), flags=re.IGNORECASE)
        return " ".join(ident.split("_"))
    if isinstance(term, Literal) and term.datatype == _XSD_DOUBLE:
        return f"{float(term.value):g}"
    return str(getattr(term, "value", term))


def _sentence(
    template: str, row: pyoxigraph.QuerySolution, names: Sequence[str], facts: _Facts
) -> str:
    """The rule's sentence for ``row``, ending with what was said of whom it names."""
    values = {
        name: _spoken(row[name], facts.belief) if row[name] is not None else "it" for name in names
    }
    named = [row[name].value.removeprefix(_THINGS_NS) for name in names if _is_node(row[name])]
    quotes = [quote for node in dict.fromkeys(named) for quote in facts.quotes.get(node, ())]
    said = f" You said {' and '.join(quotes)}." if quotes else ""
    return capitalised(template.format(**values)) + said


def _is_node(term: Any) -> bool:
    return isinstance(term, NamedNode) and term.value.startswith(_THINGS_NS)


def step_hazards(
    rules: HazardRules,
    belief: Belief,
    call: SkillCall,
    *,
    manners: Iterable[str] = (),
    said: Said = NOTHING_SAID,
    step: int | None = None,
) -> list[Hazard]:
    """Every hazard the rules find in ``call`` done in ``belief`` (none: it is safe to try).

    ``said``: what the user said each thing is and what the speaker said of themselves.
    Forbidden hazards come first; a rule gives one hazard per distinct sentence. Rules that
    are unreadable (a file with an error) forbid every step, saying why (:data:`RULES_UNREADABLE`).
    """
    if rules.unreadable is not None:
        sentence = f"I cannot read my hazard rules ({rules.unreadable}), so I will not do it"
        return [Hazard(RULES_UNREADABLE, "forbidden", sentence, step)]
    store, facts = _step_facts(belief, call, manners, said)
    found: dict[tuple[str, str], Hazard] = {}
    for rule in rules.rules:
        if not rule.applies(call.skill):
            continue
        answer = store.query(rule.query)
        assert isinstance(answer, pyoxigraph.QuerySolutions)
        for row in answer:
            sentence = _sentence(rule.says, row, rule.placeholders, facts)
            found.setdefault((rule.id, sentence), Hazard(rule.id, rule.severity, sentence, step))
    return sorted(found.values(), key=lambda hazard: not hazard.forbids)


def hazard_refusal(
    rules: HazardRules, belief: Belief, call: SkillCall, *, lifted: Collection[str] = ()
) -> Check | None:
    """The failed check that stops ``call`` at run time; None when no hazard stands.

    Its first hazard stops it, unless the user lifted it (an ask-first hazard whose doubt is
    in ``lifted``). The last guard before any command moves: whatever path chose the skill
    (a validated plan, a ReAct step), a forbidden hazard, or an ask-first one nobody
    confirmed, fails it.
    """
    for hazard in step_hazards(rules, belief, call):
        if hazard.forbids or hazard.doubt not in lifted:
            return Check(
                name=f"hazard {hazard.rule}", ok=False, reason=hazard.sentence, code="unsafe_object"
            )
    return None
