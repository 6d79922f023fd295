"""State claims: the sentences of a reply that say what state a thing is in, held to the belief.

A reply may say more than "I did it": "the hob is off now, it is safe to touch", "your
leftovers are heating". Such a sentence states the *state* of a thing the robot believes in,
and a wrong one is dangerous (a person touches a lit hob) or false (the switch-on was refused).
:func:`unbacked_state_claims` finds each claim, resolves what it is about, and keeps the ones
the belief does not back:

- **off** ("is off", "switched off", "unplugged", "not running"): backed only when the belief
  knows the thing is unpowered. Unknown is not off.
- **cool, safe to touch, or safe** ("cool", "cold", "not hot", "safe to touch", "safe"): backed
  only when the thing is not hot, is no heat source (a hob or an oven stays hot after it is
  switched off, and the robot does not measure surface heat), rests on or in no running heat
  source, and, said "safe", is of no hazardous kind (chemical, sharp, medicine, animal).
- **running or heating** ("is on", "running", "heating", "warming up", "boiling"): an appliance
  or heat source must be powered in the belief; anything else must rest on or in one that is.

Saying a thing is hot, or not safe, is a warning and never refused. Questions, conditions
("once the hob is cool"), plans ("I will switch it on") and negated sentences ("I could not
switch it off") state no state; a modal after the claim ("it is safe, you can touch it") does
not undo it. A claim with a pronoun or no subject ("it is safe to touch", "off and cool") is
about the thing named last, else the one thing the turn was about, else a thing named after it
("safe to touch: the hob"). A claim that something is cool or safe to touch tied to nothing the
robot can check is refused (unknown is not safe); other claims about nothing checkable (a dish
"safe" for a diet) are left to their own checks. A name that fits several things backs a
cautious claim only when it holds of all of them, and an activity claim when it holds of one.

The claims are found by words, one clause at a time; who the claim is about comes from the
names each clause states, as the names of the things the robot knows find them (``forms``:
:meth:`~knowledge.language.entity_names.EntityNames.mentions`, the one reading of names in a
reply), so the cost is the reply's length, not the world's. Pure functions; :class:`ThingState`
is read from a :class:`~skills.action_model.belief.Belief` (:func:`belief_states`) or the scene
index (:func:`indexed_state`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from cogtree.knowledge.language.entity_names import EntityNames
from cogtree.knowledge.language.success_claims import NEGATED
from cogtree.knowledge.safety.thing_properties import Descriptions, safety_properties
from cogtree.knowledge.scene.scene_index import Node, SceneIndex
from cogtree.skills.action_model.belief import Belief, Thing

Claimed = Literal["off", "cool", "touch", "safe", "running"]

HAZARDOUS_KINDS = frozenset({"chemical", "sharp", "medicine", "animal", "heat_source"})
"""Kinds of thing no bare "it is safe" may be said of."""


@dataclass(frozen=True)
class ThingState:
    """What the belief holds of one thing, for its state claims.

    ``powered``: None when unknown. ``heat_source``: any of its descriptions makes it one.
    ``support``: what it rests on or in (None when nothing is known).
    """

    label: str
    powered: bool | None = None
    hot: bool = False
    heat_source: bool = False
    kinds: frozenset[str] = frozenset()
    support: str | None = None


StateOf = Callable[[str], ThingState | None]
"""The state of a thing by id (None: the belief holds no such thing)."""


@dataclass(frozen=True)
class StateClaim:
    """One clause of a reply that states a thing's state."""

    clause: str
    claimed: Claimed
    about: frozenset[str]
    """The ids it is about (empty: nothing the robot can check)."""


_ALONE = r"(?=\s*(?:$|[.,;:!?—–-]|(?:now|again|still|already|too)\b))"
"""After "on" or "off": the word ends its clause, so it is a state, not a place ("on the table")."""
_VERB = r"(?:switched|turned|powered|shut)"


def _switched(particle: str) -> str:
    """A switching verb with ``particle`` next to it or after what it switched (up to 3 words)."""
    return rf"{_VERB}\s+{particle}\b|{_VERB}\s+(?:[\w'’-]+\s+){{1,3}}?{particle}{_ALONE}"


_OFF = (
    rf"{_switched('off')}|(?:is|are|'s|’s|now)\s+off{_ALONE}|unplugged"
    rf"|(?:not|(?:is|are|was|were)n['’]t)\s+(?:on{_ALONE}|running)"
    rf"|no\s+longer\s+(?:on{_ALONE}|running)"
)
_COOL = r"cool(?:ed)?(?:\s+down)?|cold|(?:not|(?:is|are)n['’]t)\s+hot|no\s+longer\s+hot"
_TOUCH = r"(?:safe|fine|ok|okay|alright)\s+to\s+(?:touch|handle|hold|pick\s+up|lean\s+on)"
_SAFE = r"safe(?:\s+to\s+\w+)?|(?:fine|ok|okay)\s+to\s+(?:use|eat|drink)"
_RUNNING = (
    rf"{_switched('on')}|(?:is|are|'s|’s|now)\s+(?:on{_ALONE}|running)"
    r"|heating(?:\s+up)?|warming(?:\s+up)?|cooking|boiling|baking|toasting"
    r"|being\s+(?:heated|warmed|cooked)"
)
_TRANSITIVE = re.compile(rf"{_VERB}\b", re.IGNORECASE)
_PATTERNS: dict[Claimed, str] = {
    "off": _OFF,
    "cool": _COOL,
    "touch": _TOUCH,
    "safe": _SAFE,
    "running": _RUNNING,
}
_PHYSICAL: frozenset[Claimed] = frozenset({"cool", "touch"})
"""Claims that a thing may be touched: one tied to nothing the robot can check is refused."""
_CLAIMS = {
    claimed: re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])", re.IGNORECASE)
    for claimed, pattern in _PATTERNS.items()
}
_CONDITION = re.compile(
    r"^\s*(?:if|when|once|until|unless|after|before|wait|let|please|make\s+sure|check)\b",
    re.IGNORECASE,
)
_QUOTED = re.compile(r'"[^"]*"|\u201c[^\u201d]*\u201d')
"""A quotation: the user's own words, reported ('You said the glass has "boiling water" in
it'), are theirs, not the robot's claim."""
_MODAL = re.compile(
    r"\b(?:will|shall|going\s+to|'ll|’ll|can|could|should|would|may|might|must|want|need)\b",
    re.IGNORECASE,
)
_NOT_SAFE = re.compile(r"\b(?:not|never|un)\s*safe|\bunsafe\b", re.IGNORECASE)
_SUBJECT = re.compile(r"\b(?:the|a|an|my|your|our|their|his|her)\s+[\w'’-]+", re.IGNORECASE)
"""A subject of its own that names no thing the robot knows ("the robot side")."""
_PRONOUN = re.compile(r"(?<!\w)(?:it|its|this|that|they|them|these|those)(?!\w)", re.IGNORECASE)
_CONDITION_WORD = re.compile(r"\b(?:if|when|once|until|unless|after|before)\b", re.IGNORECASE)
"""A word that makes what follows it a condition ("until it is off and cool")."""
_PUNCTUATION = re.compile(r"(?<=[.!;:,])\s+")
_OWN_VERB = re.compile(r"\b(?:is|are|was|were|has|have|had|'s|’s|feels?|seems?)\b", re.IGNORECASE)
"""A verb that makes a clause after "and" one of its own, not a condition going on."""
_JOINS = re.compile(r"\s+(and|but|so|[—–-])\s+", re.IGNORECASE)
_SENTENCES = re.compile(r"(?<=[.!?])\s+")


def unbacked_state_claims(
    reply: str,
    forms: EntityNames,
    state_of: StateOf,
    topic: Iterable[str] = (),
) -> list[str]:
    """The clauses of ``reply`` that state a state the belief does not back, each with why.

    ``forms``: the names of known things; ``topic``: the things the turn was
    about (what an unattached pronoun means when nothing was named before it).
    """
    refused = []
    for claim in state_claims(reply, forms, topic):
        why = _unbacked(claim, state_of)
        if why is not None:
            refused.append(f"{claim.clause!r} ({why})")
    return refused


def states_claimed(reply: str) -> bool:
    """Whether ``reply`` states any state at all (a cheap test before reading the belief)."""
    return any(
        next(_claimed(clause, conditional), None) is not None
        for sentence in _SENTENCES.split(reply.strip())
        if not sentence.rstrip().endswith("?")
        for clause, conditional in _clauses(sentence)
    )


def _clauses(sentence: str) -> Iterator[tuple[str, bool]]:
    """Each clause of ``sentence``, and whether it goes on with a condition said before it.

    Clauses end at punctuation and at "and", "but", "so" or a dash; a condition ("until it
    is off") goes on over "and" to a bare state ("... and cool": cool is the condition too),
    not to a clause with a verb of its own ("when you asked and it is cool now": a claim),
    nor past a comma or another join.
    """
    for part in _PUNCTUATION.split(sentence):
        pieces = _JOINS.split(part)
        conditional = False
        for at in range(0, len(pieces), 2):
            if at and (pieces[at - 1].lower() != "and" or _OWN_VERB.search(pieces[at])):
                conditional = False
            yield pieces[at], conditional
            conditional = conditional or _CONDITION_WORD.search(pieces[at]) is not None


def state_claims(reply: str, forms: EntityNames, topic: Iterable[str] = ()) -> list[StateClaim]:
    """Every clause of ``reply`` that states a thing's state, with what it is about."""
    topic_ids = frozenset(topic)
    last: frozenset[str] = topic_ids if len(topic_ids) == 1 else frozenset()
    found = []
    for sentence in _SENTENCES.split(reply.strip()):
        if sentence.rstrip().endswith("?"):
            continue
        for clause, conditional in _clauses(sentence):
            mentions = [(named.start, forms.ids_of(named.form)) for named in forms.mentions(clause)]
            for claimed, start, transitive in _claimed(clause, conditional):
                before = [ids for at, ids in mentions if at < start]
                after = [ids for at, ids in mentions if at > start]
                if transitive and after:  # "switched the hob off": what the verb switched
                    about = after[0]
                elif before:
                    about = before[-1]
                elif _SUBJECT.search(clause[:start]) and not _PRONOUN.search(clause[:start]):
                    about = frozenset()  # "the robot side is not running": not a thing here
                elif _PRONOUN.search(clause[:start]) or not after:
                    about = last  # "it is safe", or no subject: the thing named last
                else:
                    about = after[0]  # "safe to touch: the hob"
                found.append(StateClaim(clause.strip(), claimed, about))
            if mentions:
                last = mentions[-1][1]
    return found


def _claimed(clause: str, conditional: bool = False) -> Iterator[tuple[Claimed, int, bool]]:
    """The states ``clause`` claims, each with where it starts and whether a switching verb says it.

    Said by a switching verb, a claim is about what the verb switched. None when ``clause``
    is a condition ("once the hob is cool") or goes on with one (``conditional``); a claim
    after a condition word ("I will wait until it is cool"), a modal ("I will switch it on")
    or a negation ("I could not switch it off") is no claim; a modal after it does not matter.
    Nor is a quotation of the user's words ('You said the glass has "boiling water" in it').
    """
    clause = _QUOTED.sub(lambda quoted: " " * len(quoted.group()), clause)  # offsets kept
    if conditional or _CONDITION.search(clause):
        return
    for claimed, pattern in _CLAIMS.items():
        match = pattern.search(clause)
        if match is None:
            continue
        if claimed in ("safe", "touch") and _NOT_SAFE.search(clause):
            continue
        if claimed == "safe" and _CLAIMS["touch"].search(clause):
            continue  # "safe to touch" is the touch claim
        ahead = clause[: match.start()]
        if _MODAL.search(ahead) or NEGATED.search(ahead) or re.search(r"\bnot\s*$", ahead):
            continue
        if _CONDITION_WORD.search(ahead):
            continue
        yield claimed, match.start(), _TRANSITIVE.match(match.group()) is not None


def _unbacked(claim: StateClaim, state_of: StateOf) -> str | None:
    """Why the belief does not back ``claim`` (None: it does, or it is about nothing checkable)."""
    if not claim.about:
        if claim.claimed in _PHYSICAL:
            return "it names nothing the robot knows the state of; unknown is not safe"
        return None
    states = {thing: state_of(thing) for thing in claim.about}
    known = {thing: state for thing, state in states.items() if state is not None}
    if not known:
        return None
    verdicts = [_verdict(claim.claimed, state, state_of) for state in known.values()]
    if claim.claimed == "running":
        return None if any(why is None for why in verdicts) else verdicts[0]
    return next((why for why in verdicts if why is not None), None)


def _verdict(claimed: Claimed, state: ThingState, state_of: StateOf) -> str | None:
    """Why ``state`` does not back ``claimed`` of one thing (None when it does)."""
    under = state_of(state.support) if state.support else None
    heated = under is not None and under.heat_source and under.powered is True
    if claimed == "off":
        if state.powered is False:
            return None
        return f"the belief says the {state.label} is " + (
            "on" if state.powered else "in no known power state"
        )
    if claimed == "running":
        if state.powered is True or heated:
            return None
        if state.powered is False:
            return f"the belief says the {state.label} is off"
        if under is not None and (under.heat_source or under.powered is not None):
            return f"the {under.label} it is in is not running"
        return f"nothing in the belief heats or runs the {state.label}"
    if state.hot:
        return f"the belief says the {state.label} is hot"
    if state.heat_source:
        return f"the {state.label} is a heat source and may still be hot; the robot cannot tell"
    if heated:
        assert under is not None
        return f"the {state.label} is on the {under.label}, which is on"
    hazardous = sorted(state.kinds & HAZARDOUS_KINDS)
    if claimed in ("safe", "touch") and hazardous:
        return f"the {state.label} is {' and '.join(hazardous)}".replace("_", " ")
    return None


# -- reading states from the belief ------------------------------------------------------------


def belief_states(
    belief: Belief, synonyms: Callable[[str], Iterable[str]] = lambda _: ()
) -> tuple[dict[str, frozenset[str]], StateOf]:
    """The names of ``belief``'s things and their states (reads every thing: run off the tick).

    ``synonyms``: other names of a thing by id (the scene's ``cog:synonym``: a stove's "hob").
    """
    forms: dict[str, set[str]] = {}
    for thing in belief.things.values():
        for name in _names(thing) | {synonym.casefold() for synonym in synonyms(thing.id)}:
            forms.setdefault(name, set()).add(thing.id)

    def state_of(thing_id: str) -> ThingState | None:
        thing = belief.things.get(thing_id)
        return None if thing is None else _thing_state(thing)

    return {name: frozenset(ids) for name, ids in forms.items()}, state_of


def _names(thing: Thing) -> set[str]:
    """What a reply may call ``thing``: its label, its id as words, its type as words."""
    described = Descriptions(id=thing.id, type=thing.type, label=thing.label)
    names = {name.casefold() for name in described.seen_names}
    if thing.type:
        names.add(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", thing.type).casefold())
    names.update(name.split()[-1] for name in list(names) if name.split())
    return names


def _thing_state(thing: Thing) -> ThingState:
    kinds = (
        frozenset(thing.flags)
        | safety_properties(
            Descriptions(id=thing.id, type=thing.type, label=thing.label, material=thing.material)
        ).kinds
    )
    return ThingState(
        label=(thing.label or thing.id.replace("_", " ")),
        powered=thing.powered,
        hot=thing.hot,
        heat_source="heat_source" in kinds,
        kinds=kinds,
        support=thing.support,
    )


def indexed_state(thing_id: str, node: Node | None) -> ThingState | None:
    """The state of ``thing_id`` from its scene-index ``node`` (None: no such thing)."""
    if node is None or not (node.types or "Object" in node.classes):
        return None
    label = node.labels[0] if node.labels else thing_id.replace("_", " ")
    kinds = set(node.flags)
    for declared in node.types or (None,):
        described = Descriptions(id=thing_id, type=declared, label=label)
        kinds |= safety_properties(described).kinds
    support = next((on for relation, on in node.placements if relation in ("on", "in")), None)
    return ThingState(
        label=label,
        powered=("powered" in node.flags) if "powered" in node.attributes else None,
        hot="hot" in node.flags,
        heat_source="heat_source" in kinds,
        kinds=frozenset(kinds),
        support=support,
    )


def unbacked_in_index(
    reply: str, forms: EntityNames, index: SceneIndex | None, topic: Iterable[str]
) -> list[str]:
    """:func:`unbacked_state_claims` with states read from the scene ``index`` (cost: the reply).

    Without an index (no belief), nothing is checked: the reply names no thing it holds.
    """
    if index is None or not states_claimed(reply):
        return []
    return unbacked_state_claims(
        reply, forms, lambda thing: indexed_state(thing, index.node(thing)), topic
    )
