"""Questions about the scene answered from the scene index: what there is of a kind, and where.

"How many mugs are there?", "is there any milk in the fridge?", "what fruit do we have?",
"what is on the table?": each asks for the things of a kind (any kind the taxonomy knows:
"fruit" is every thing whose type is under Fruit), optionally in a place, or for everything in
a place. :func:`things_of_a_kind` answers from the belief's
:class:`~knowledge.scene.scene_index.SceneIndex` by referent resolution
(:func:`~knowledge.scene.referents.resolution.resolve_referent`), so an answer costs what it
finds, not what the belief holds, and no SPARQL runs.

The answer is one row of text columns, the evidence a pack's templated reply is filled from:
``asked`` (what was asked about, as said, without its article), ``count``, ``listing`` (each
thing as "the green cup in the cupboard", by label), and three answers: ``count_answer``
("I know of 2: ..."), ``have_answer`` ("Yes: ..." / "No, I have not seen any ...") and
``list_answer`` ("I have seen ..."). A vessel found by what it holds that the belief says is
empty holds none of it ("is there any milk left?": "No, ...; the carton of milk is empty").
Every name in them is a label of the belief, so the reply passes the faithfulness check
against this row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from cogtree.knowledge.scene.referents.description import FILLER_WORDS, Description
from cogtree.knowledge.scene.referents.resolution import resolve_referent
from cogtree.knowledge.scene.scene_index import SceneIndex, short
from cogtree.knowledge.scene.scene_models import Candidate
from cogtree.knowledge.wording import held_by_name, id_words, with_the
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

SceneRow = dict[str, str | None]
"""One row of evidence, as the query runners return them."""

PLACED_BY = {"on": "on", "in": "in", "mountedOn": "on", "inRoom": "in"}
"""How a placement is said, in order of preference (the support before the room)."""

EMPTY = "empty"
"""The belief's flag of a vessel that holds nothing any more: none of what it held is there."""

COUNTED_KINDS = frozenset(["Object", "Furniture", "Surface", "Container"])
"""The classes of things a question about the scene counts (never rooms, people or robots)."""


def things_of_a_kind(index: SceneIndex, kind: str, place: str = "") -> SceneRow:
    """The things ``kind`` names, in ``place`` when one is said (module docstring).

    ``kind`` may carry its own place ("books in the bedroom"): a ``place`` said apart
    ("in the bedroom") then adds nothing. An empty ``kind`` ("what is on the table") asks for
    everything in the place. Never raises for any text; nothing found is an answer too.
    """
    asked = _without_article(kind)
    there = asked if Description.parse(asked).place is not None else f"{asked} {place}".strip()
    description = Description.parse(there)
    emptied: list[str] = []
    if description.thing.content:
        candidates = [c for c in resolve_referent(index, there) if _counted(index, c.id)]
        emptied = [c.id for c in candidates if _emptied(index, c, asked)]
        found = [c.id for c in candidates if c.id not in emptied]
    else:
        found = _everything_in(index, description)
    phrases = sorted({_where(index, thing) for thing in found})
    listing = ", ".join(phrases)
    said = _without_article(there)
    none = (f"I have not seen any {said}" if asked else f"I have not seen anything {said}").rstrip()
    if emptied:  # "is there any milk left": the carton of milk is empty
        verb = "are" if len(emptied) > 1 else "is"
        none += f"; {_and(sorted({_where(index, thing) for thing in emptied}))} {verb} empty"
    return {
        "asked": said or "anything",
        "count": str(len(found)),
        "listing": listing,
        "count_answer": f"I know of {len(found)}: {listing}" if found else none,
        "have_answer": f"Yes: {listing}" if found else f"No, {none}",
        "list_answer": f"I have seen {_and(phrases)}" if found else none,
    }


def _emptied(index: SceneIndex, candidate: Candidate, asked: str) -> bool:
    """Whether ``candidate``, found by what it held, holds nothing any more.

    Found so by what it holds, or by its label's words after "of" ("carton of milk", "milk").
    """
    node = index.node(candidate.id)
    if node is None or EMPTY not in node.flags:
        return False
    held, said = held_by_name(_label(index, candidate.id)).split(), asked.lower().split()
    return candidate.by_content or bool(held and said and held[-1] == said[-1])  # not "bottles"


STATE_WORDS: Mapping[str, tuple[str, bool]] = {
    "on": ("powered", True), "off": ("powered", False),
    "open": ("isOpen", True), "closed": ("isOpen", False), "shut": ("isOpen", False),
}  # fmt: skip
"""The last word of a question whether a thing is in a state ("is the oven on", "did I leave
the back door open"): the belief's attribute it asks about and the value it names."""

LEAVING_VERBS: Mapping[str, str] = {"shut": "shut", "close": "closed", "open": "open"}
"""A verb that leaves the thing after it in a state ("did I shut the freezer"), and the
state word (:data:`STATE_WORDS`) it leaves it in."""

QUESTION_VERB = re.compile(
    r"\s+(?:(?:is|are|was|were)(?:\s+left)?"
    r"|(?:have|has|had|did)\s+\w+\s+(?:left|leave|turned|turn|switched|switch))\s+(?=\S+$)",
    re.IGNORECASE,
)
"""The question's own verb before the state word, where the thing came first ("which of the
lamps have I left on": the lamps, on)."""


def _state_asked(asked: str) -> list[str]:
    """The words of the thing asked about, then the state word, if one ends or opens them.

    "shut the chest freezer properly" -> "the chest freezer shut"; "shut the oven off" -> "the
    oven off"; "the lamps have I left on" -> "the lamps on".
    """
    words = QUESTION_VERB.sub(" ", f" {_without_article(asked)}").split()
    while len(words) > 2 and _adverb_only(words[-1].lower()):
        words = words[:-1]  # "shut the freezer properly": the freezer
    if len(words) > 1 and words[0].lower() in LEAVING_VERBS:
        state = [] if words[-1].lower() in STATE_WORDS else [LEAVING_VERBS[words[0].lower()]]
        return [*words[1:], *state]  # "shut the oven off": off
    return words


def _adverb_only(word: str) -> bool:
    """Whether ``word`` is only an adverb ("properly"), no word a thing could be named by."""
    lemmas = shipped_lemmas()
    return (
        lemmas is not None
        and lemmas.lemma_of(word, "adv") == word
        and not any(lemmas.lemma_of(word, part) for part in ("noun", "verb", "adj"))
    )


def state_of(index: SceneIndex, asked: str, place: str = "") -> SceneRow:
    """Whether the thing ``asked`` names is in the state its last word says ("the oven on").

    A verb before the thing says the state as well ("shut the freezer"; :func:`_state_asked`).

    The thing is resolved in ``place`` when one is said, and each thing found is told in that
    state or its opposite from the belief, or as not known (``listing``). Without a state word
    a thing is told as on or off. ``state_answer`` says yes or no first when one thing is
    found and its state is known ("Yes: the oven is on"). Where a thing is is a state too:
    "my scarf in the drawer" is answered by :func:`placed_in`. Never raises for any text;
    nothing found is an answer too.
    """
    words = _state_asked(asked)
    attribute, state = STATE_WORDS.get(words[-1].lower(), ("", None)) if words else ("", None)
    thing = _without_article(" ".join(words[:-1] if state is not None else words))
    if state is None and Description.parse(thing).place is not None:
        return placed_in(index, thing)
    attribute = attribute or "powered"
    found = [c.id for c in resolve_referent(index, f"{thing} {place}".strip()) if thing]
    found = [node for node in found if _counted(index, node)]
    states = {node: _flag(index, node, attribute) for node in found}
    said: dict[bool, str] = {}  # the first word of each value: "closed" before "shut"
    for word, (named, value) in STATE_WORDS.items():
        if named == attribute:
            said.setdefault(value, word)
    told = [
        f"the {_label(index, node)} is {said[value]}"
        if value is not None
        else f"I do not know whether the {_label(index, node)} is {said[state is not False]}"
        for node, value in states.items()
    ]
    answer = _and(told) if found else f"I have not seen any {thing or 'such thing'}"
    if len(found) == 1 and state is not None and states[found[0]] is not None:
        answer = f"{'Yes' if states[found[0]] is state else 'No'}: {answer}"
    return {"asked": thing, "count": str(len(found)), "listing": _and(told), "state_answer": answer}


def placed_in(index: SceneIndex, asked: str) -> SceneRow:
    """Whether the thing ``asked`` names is in or on the place it names, and where it is.

    "my scarf in the drawer": the scarf is found wherever it is (not only in the drawer), and
    ``state_answer`` says yes or no first when one thing is found and the place is known ("No:
    the scarf is on the chair"), else where each is. Nothing found is an answer too.
    """
    described = Description.parse(asked)
    thing = _without_article(str(described.thing))
    found = _named(index, thing) if thing else []
    places = resolve_referent(index, str(described.place)) if described.place else []
    there = {node for place in places for node in index.within(place.id)}
    told = [_where(index, node, "is ") for node in found]
    answer = _and(told) if found else f"I have not seen any {thing or 'such thing'}"
    if len(found) == 1 and places:  # a place the belief does not know: only where it is
        answer = f"{'Yes' if found[0] in there else 'No'}: {answer}"
    return {"asked": thing, "count": str(len(found)), "listing": _and(told), "state_answer": answer}


def _named(index: SceneIndex, said: str) -> list[str]:
    """The things ``said`` names; else the things of its last word whose names hold its words.

    "my lilac cardigan" is the cardigan called "Mavis's lilac cardigan": a word the belief
    gives only in a name ("lilac") is read in the names of the things the noun finds.
    """
    found = [c.id for c in resolve_referent(index, said) if _counted(index, c.id)]
    phrase = Description.parse(said).thing
    words = [phrase.words[at] for at in sorted(phrase.content)]
    if found or not words:
        return found
    return [
        c.id
        for c in resolve_referent(index, words[-1])
        if _counted(index, c.id) and set(words) <= set(Description.parse(c.label).thing.words)
    ]


def _flag(index: SceneIndex, thing: str, attribute: str) -> bool | None:
    """Whether the belief says ``attribute`` of ``thing`` is true (None: it says nothing)."""
    node = index.node(thing)
    if node is None or attribute not in node.attributes:
        return None
    return attribute in node.flags


SCENE_QUESTIONS: Mapping[str, Callable[[SceneIndex, str, str], SceneRow]] = {
    "things_of_a_kind": things_of_a_kind,
    "state_of": state_of,
}
"""The questions a pack's task may name as its ``perception`` (each: index, kind, place)."""


REMAINING = frozenset(["left", "remaining", "still", "anymore"])
"""Words after a kind that ask whether some remains ("any bread left"): not part of the kind."""


def _without_article(text: str) -> str:
    words = text.strip().rstrip("?.!").split()
    while words and words[0].lower() in FILLER_WORDS:
        words = words[1:]
    while len(words) > 1 and words[-1].lower() in REMAINING:
        words = words[:-1]
    return " ".join(words)


def _counted(index: SceneIndex, thing: str) -> bool:
    node = index.node(thing)
    return node is not None and bool(COUNTED_KINDS & set(node.classes))


def _everything_in(index: SceneIndex, description: Description) -> list[str]:
    """Every thing on or in the places ``description`` names ("on the table")."""
    if description.place is None:
        return []
    places = resolve_referent(index, str(description.place))
    return sorted(
        {thing for place in places for thing in index.within(place.id) if _counted(index, thing)}
    )


def describe(index: SceneIndex, thing: str) -> str:
    """``thing`` as a person would pick it out, ready to say, from the index alone.

    ``the blue bottle in the fridge`` (its label and its nearest placement, by the support's
    label); a person by name and room, ``Alex Rossi in the reception``; a robot's load,
    ``the mug held by the robot``; the id in words when the index does not know the thing.
    """
    node = index.node(thing)
    if node is None:
        return with_the(id_words(thing))
    label = node.labels[0] if node.labels else id_words(thing)
    placements = dict(node.placements)
    if "Human" in node.classes:
        room = placements.get("inRoom")
        return f"{label} in {with_the(_label(index, room))}" if room else label
    holders = [robot for robot in sorted(index.of_class("Robot")) if _holds(index, robot, thing)]
    if holders:
        return with_the(f"{label} held by {with_the(_label(index, holders[0]))}")
    for relation, said in PLACED_BY.items():
        if relation in placements:
            return with_the(f"{label} {said} {with_the(_label(index, placements[relation]))}")
    return with_the(label)


def _holds(index: SceneIndex, holder: str, thing: str) -> bool:
    node = index.node(holder)
    return node is not None and thing in node.held


def _label(index: SceneIndex, node_id: str) -> str:
    node = index.node(node_id)
    return node.labels[0] if node is not None and node.labels else id_words(node_id)


def _where(index: SceneIndex, thing: str, verb: str = "") -> str:
    """A thing and where it is ("the green cup in the cupboard"); alone when placed nowhere.

    ``verb`` goes before the place ("is ": "the green cup is in the cupboard").
    """
    node = index.node(thing)
    placements = dict(node.placements) if node is not None else {}
    for relation, said in PLACED_BY.items():
        if relation in placements:
            support = _label(index, short(placements[relation]))
            return f"the {_label(index, thing)} {verb}{said} the {support}"
    return f"the {_label(index, thing)}"


def _and(phrases: list[str]) -> str:
    if len(phrases) < 2:
        return "".join(phrases)
    return f"{', '.join(phrases[:-1])} and {phrases[-1]}"
