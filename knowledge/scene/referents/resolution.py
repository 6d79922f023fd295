"""What a parsed referring expression (:mod:`.description`) refers to in the belief.

- A word clipped from a type's name is read as that name (:mod:`.clipping`: "my cardi").
- Words match a thing's type or any broader type (the household taxonomy: "fruit"), the
  type of the liquid it holds ("some juice": the carton of apple juice), its attributes,
  what its type is for or is typically like ("something to wipe with", "the citrus soda"),
  what it can become ("the rotten one": a fruit can rot), its label or synonym.
- A node is a candidate when the terms it matches cover every non-filler word, it is owned
  by the speaker if the phrase says "my" (when the belief knows of no such thing, the things
  that fit and that nobody is known to own, each with a reason that says so), and it is in
  one of the places the place part names; what a negation excludes is dropped.

:func:`resolve_referent` looks the terms up in the belief's
:class:`~knowledge.scene.scene_index.SceneIndex` (sets by name, type, attribute, owner and
place, read in place), intersects them word position by word position (costing what the
smallest position holds, not the belief), and says in words why each candidate matched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import partial
from heapq import nsmallest
from typing import Final

from cogtree.knowledge.node_tables import union
from cogtree.knowledge.scene.referents.clipping import unclipped
from cogtree.knowledge.scene.referents.description import (
    Description,
    Phrase,
    split_negation,
)
from cogtree.knowledge.scene.referents.other_uses import (
    DEFINED,
    DESCRIBED,
    NAMED_FOR,
)
from cogtree.knowledge.scene.referents.preferences import (
    BY_KIND,
    HOW_BIG,
    Way,
    head_by_kind,
    named_over_typed,
    typed_over_headed,
    whole_name_wins,
)
from cogtree.knowledge.scene.referents.ways import (
    HOLDING,
    READ_AS,
    USES,
    WORD_KIND,
    Nodes,
    bound,
    label_ways,
    person_labelled,
    term_matches,
)
from cogtree.knowledge.scene.scene_index import Node, SceneIndex
from cogtree.knowledge.scene.scene_models import UNOWNED_NOTE, Candidate, ThingKind
from cogtree.knowledge.wordnet.lemmas import SIZES, shipped_lemmas


def resolve_referent(
    index: SceneIndex, description: str, speaker: str | None = None, *, limit: int | None = None
) -> list[Candidate]:
    """The nodes of ``index`` that ``description`` may refer to, with why, sorted by id.

    Zero, one or several candidates are all normal answers; a description with no words to
    match, or with a word nothing matches, gives []. ``speaker`` (a person's id) is who "my"
    refers to; without it ownership is not checked and the reasons say so. ``limit``: at most
    that many candidates (the first by id), each saying how many matched in all
    (``among``): a description that matches thousands of things is answered by its count,
    not enumerated. Holds the index's read lock throughout, so a batch of observations lands
    before or after, not during.
    """
    wanted, excluded = split_negation(description)
    with index.reading():
        said = Description.parse(wanted)
        found = _resolve(index, said, speaker)
        if found is None or not found.ids:  # a clipped noun ("my cardi")
            found = _unclipped(index, said, speaker) or found
        if found is None:
            return []
        ids = set(found.ids)
        for text in excluded:
            dropped = _resolve(index, Description.parse(text), speaker)
            ids -= dropped.ids if dropped is not None else set()
        shown = sorted(ids) if limit is None or len(ids) <= limit else nsmallest(limit, ids)
        among = len(ids) if len(shown) < len(ids) else None
        candidates = found.candidates(index, shown, among)
    if not excluded:
        return candidates
    note = f"not {' or '.join(repr(text) for text in excluded)}"
    return [c.model_copy(update={"reasons": [*c.reasons, note]}) for c in candidates]


def _unclipped(index: SceneIndex, said: Description, speaker: str | None) -> _Match | None:
    """What ``said`` matches with its clipped noun completed (:mod:`.clipping`), else None."""
    clipped = unclipped(index, said)
    again = _resolve(index, clipped[0], speaker) if clipped else None
    if clipped is None or again is None or not again.ids:
        return None
    again.notes = [*again.notes, f"{clipped[1]!r} read as {clipped[2]!r}"]
    again.by_label = again.by_label or clipped[3]  # a synonym is a guess: asked about
    return again


def _resolve(index: SceneIndex, description: Description, speaker: str | None) -> _Match | None:
    """What ``description`` matches (see :func:`_matching`).

    For "my" with nothing the speaker owns: the fitting things nobody is known to own.
    """
    found = _matching(index, description, speaker)
    mine = description.thing.possessive is not None
    if (found is not None and found.ids) or speaker is None or not mine:
        return found
    unowned = _matching(index, description, None, owners=False)
    if unowned is not None:
        unowned.notes = [UNOWNED_NOTE]  # instead of: ownership unchecked
    return unowned


SPEAKER, PLACE = "\u0000speaker", "\u0000place"
"""The terms of "my" and of the place a description names (never words of a description)."""


@dataclass
class _Match:
    """What a description matched: the things' ids, and how each term matched (for reasons)."""

    ids: set[str]
    terms: dict[str, list[Way]]
    order: dict[str, int]
    notes: list[str]
    said: Description
    by_label: bool = False
    """Whether what matched is a guess: only the words of the things' labels (the fallback of
    :func:`_matching`), or with a word comparing sizes left out (:func:`_relative_sizes`)."""

    def candidates(
        self, index: SceneIndex, things: Iterable[str], among: int | None = None
    ) -> list[Candidate]:
        """``things`` (matched ones, in the order given) as candidates, each with why."""
        found: list[Candidate] = []
        for thing in things:
            details = _details(index, thing)
            if details is None:
                continue
            records = sorted(
                {
                    (term, how, detail)
                    for term, ways in self.terms.items()
                    for how, detail, nodes in ways
                    if thing in nodes
                },
                key=lambda record: (self.order[record[0]], record),
            )
            type_labels = (
                index.vocabulary.type_labels.get(details.types[0], ()) if details.types else ()
            )
            own_type = type_labels[0] if type_labels else ""
            reasons = [_reason(record, own_type, self.said) for record in records]
            hows = {how for _, how, _ in records}
            found.append(
                Candidate(
                    id=thing,
                    label=details.labels[0] if details.labels else thing,
                    kind=_kind(details),
                    type=details.types[0] if details.types else None,
                    reasons=[*dict.fromkeys(reasons), *self.notes],
                    among=among,
                    by_label=self.by_label,
                    by_content=bool(hows & HOLDING) and hows.isdisjoint(BY_KIND),
                    by_use=bool(hows & USES) and hows.isdisjoint(BY_KIND),
                )
            )
        return found


def _matching(
    index: SceneIndex,
    description: Description,
    speaker: str | None,
    *,
    owners: bool = True,
) -> _Match | None:
    """What ``description`` matches; None when it has no words to match.

    ``owners=False``: only things nobody is known to own.

    A match is a thing (an object, a surface, a container or a room) that every word
    position of the description matches: some term covering the position matches it (see
    :func:`term_matches`), the speaker owns it for "my", and it is in one of the places the
    description names (resolved first, the same way). Each position's things are a union of
    the index's sets read in place (:class:`Nodes`): the position with the fewest is listed,
    the others are probed, and the rules that prefer one reading walk the matches, so the
    cost follows the smallest position, not the belief; reasons are made for those shown.

    Words match what the things' types, attributes and whole names say first; only when
    nothing matches so, the words of their labels too (:func:`label_ways`: "the blue one"
    for the mug labelled "blue mug"), which would cost "the red mug" in a big home every
    thing labelled red besides every red thing.
    """
    phrase = description.thing
    if not phrase.content:
        return None
    terms: dict[str, list[Way]] = {}
    positions: dict[int, list[AbstractSet[str]]] = {}
    order: dict[str, int] = {}

    def add(term: str, at: int, ways: list[Way], *, first: bool = True) -> None:
        if first:  # a term's ways once, however many positions it covers
            terms[term] = [*terms.get(term, []), *ways]
        order[term] = min(at, order.get(term, at))
        # a mere describing word never names the thing; a word naming a label's kind only
        # describes it before the word that names it ("the telly remote")
        modifier = phrase.head is not None and at < phrase.head
        positions.setdefault(at, []).extend(
            nodes
            for how, _, nodes in ways
            if (how != "word" or at != phrase.head) and (how != WORD_KIND or modifier)
        )

    def add_terms(ways_of: Callable[[str], list[Way]]) -> None:
        for term in phrase.terms():
            ways, covers = ways_of(term.text), sorted(term.covers)
            for at in covers:
                add(term.text, at, ways, first=at == covers[0])

    add_terms(partial(term_matches, index, use=phrase.use, purpose=description.purpose))
    notes: list[str] = []
    if phrase.possessive is not None and speaker is not None:
        owned = index.owned_by([speaker]) if person_labelled(index, speaker) else set()
        add(SPEAKER, phrase.possessive, [("speaker", speaker, owned)])
    elif phrase.possessive is not None:
        notes.append("'my': speaker unknown, ownership not checked")
    match = _Match(set(), terms, order, notes, description)
    if description.place is not None:
        places = _resolve(index, description.place, speaker)
        if places is None or not places.ids:
            return match
        add(PLACE, len(phrase.words), [("place", p, index.within(p)) for p in sorted(places.ids)])
    found = _found(index, phrase, positions, terms, owners)
    unmatched = any(not any(map(bound, positions.get(at, ()))) for at in phrase.content)
    if not found and unmatched:  # not when "my" or a place alone ruled every match out
        named = list(positions.get(phrase.head, ())) if phrase.head is not None else []
        add_terms(partial(label_ways, index))
        found = _found(index, phrase, positions, terms, owners)
        # a guess when the word naming the thing matched only a label's words ("the blue
        # one"), not when it names the thing's kind and a describing word is in its label
        # ("a bath towel": a towel labelled white bath towel), nor when the taxonomy reads
        # it as the thing's type ("the hoover")
        if phrase.head is not None:
            head = phrase.words[phrase.head]
            named += [nodes for how, _, nodes in label_ways(index, head) if how == READ_AS]
        match.by_label = any(not any(thing in nodes for nodes in named) for thing in found)
    relative = _relative_sizes(phrase, positions) if not found else []
    if relative and set(positions) - set(relative):  # "the big one": nothing left to match
        for at in relative:
            positions.pop(at, None)
        found = _found(index, phrase, positions, terms, owners)
        sized = _sized_in_label(index, [phrase.words[at] for at in relative], found)
        said = ", ".join(repr(phrase.words[at]) for at in relative)
        found = sized or found  # "the little saucepan": the small non-stick saucepan
        how = f"its label says {HOW_BIG}" if sized else f"the belief does not say {HOW_BIG}"
        match.notes = [*notes, f"{said}: {how}"]
        match.by_label = True  # a guess either way: asked about, never acted on
    if phrase.someone_elses and speaker is not None and found - index.owned_by([speaker]):
        found -= index.owned_by([speaker])  # "his slippers": not the speaker's own
    named_for_it = (n for ways in terms.values() for how, _, n in ways if how == NAMED_FOR)
    if any(not found.isdisjoint(nodes) for nodes in named_for_it):
        match.by_label = True  # what a label is named for is a guess ("mandoline slicer")
    match.ids = found
    return match


def _relative_sizes(phrase: Phrase, positions: dict[int, list[AbstractSet[str]]]) -> list[int]:
    """The positions of describing words that matched nothing and only compare sizes.

    "the big orange pot": big is said of one pot beside others, which the belief may not
    measure; such a word is no reason to have seen nothing. What is found without it is kept to
    those whose labels say it or a word alike (:func:`_sized_in_label`: "small" for "little");
    either way it is a guess (``by_label``), asked about: a held-out hazard case handed a
    child the one small bottle so found. Not the word naming the thing.
    """
    lemmas = shipped_lemmas()
    if lemmas is None:
        return []
    return [
        at
        for at in sorted(phrase.content - {phrase.head})
        if not any(map(bound, positions.get(at, ()))) and lemmas.measures(phrase.words[at]) & SIZES
    ]


def _sized_in_label(index: SceneIndex, words: Sequence[str], found: set[str]) -> set[str]:
    """Of ``found``, those whose labels say each size word or one alike ("little": small)."""
    lemmas = shipped_lemmas()
    if lemmas is None:
        return set()
    for word in words:
        labelled = Nodes(index.members("by_word", sorted(lemmas.alike(word, SIZES) | {word})))
        found = {node for node in found if node in labelled}
    return found


def _found(
    index: SceneIndex,
    phrase: Phrase,
    positions: dict[int, list[AbstractSet[str]]],
    terms: dict[str, list[Way]],
    owners: bool,
) -> set[str]:
    """The things every position matches, the preference rules applied."""
    fewest, *others = sorted(positions.values(), key=lambda sets: sum(map(bound, sets)))
    survivors = set(*fewest) if len(fewest) == 1 else union(fewest)
    for sets in others:
        survivors = union(nodes & survivors for nodes in sets)
    if not owners:
        survivors = index.unowned(survivors)
    if not survivors:
        return set()
    found = named_over_typed(index.among_classes(survivors, THING_KINDS), terms)
    found = typed_over_headed(found, terms)
    headed = partial(_headed, index)
    return head_by_kind(whole_name_wins(found, terms, phrase), terms, phrase, headed)


def _headed(index: SceneIndex, word: str) -> AbstractSet[str]:
    """The things whose label's noun is ``word`` ("the paper" for the newspaper so labelled)."""
    return Nodes(index.members("by_head", [word]))


THING_KINDS: Final[dict[str, ThingKind]] = {
    "Object": "object",
    "Surface": "surface",
    "Container": "container",
    "Room": "room",
}
"""The classes of things a description may refer to, and what kind of thing each is."""


def _details(index: SceneIndex, thing: str) -> Node | None:
    """The thing's node, if it is of a class a description may refer to."""
    node = index.node(thing)
    if node is None or not set(node.classes) & THING_KINDS.keys():
        return None
    return node


def _kind(node: Node) -> ThingKind:
    return next(THING_KINDS[name] for name in THING_KINDS if name in node.classes)


REASONS: Final = {
    "attribute": "{q}: {d} {t}", "flag": "{q}: {d} is true", "holds": "{q}: it holds {d}",
    "told holds": "{q}: its label says it holds {d}",
    "head": "{q}: {a} {d} is called a {t}", "use": "{q}: {a} {d} is used to {t}",
    "quality": "{q}: {a} {d} is typically {t}", "state": "{q}: {a} {d} can be {t}",
    "kept": "{q}: it is in {a} {d}, which keeps things {t}",
    "condition": "{q}: its name says it is {d}",
    "owner": "{q}: owned by {t}", "speaker": "'my': owned by {d}",
    "named": "{q}: its label calls it {t}", "named kind": "{q}: its label names {a} {d}",
    "word": "{q}: its label says {t}", READ_AS: "{q}: read as {a} {d}",
    WORD_KIND: "{q}: its label names {a} {d}", DEFINED: "{q}: {a} {d} is for it, by its definition",
    DESCRIBED: "{q}: {a} {d} is for it, by the words of its definition",
    NAMED_FOR: "{q}: its label names it for it",
}  # fmt: skip
"""How each way a term matched is said (the type, the place and the label are said apart)."""


def _reason(record: tuple[str, str, str], own_type: str, said: Description) -> str:
    """Why one term of ``said`` matched, in words (``own_type``: the thing's type label)."""
    term, how, detail = record
    quoted = f"'{term}'"
    if how == "type":
        if own_type in ("", detail):
            return f"{quoted}: a {detail}"
        return f"{quoted}: {own_type} is a kind of {detail}"
    if how in REASONS:
        article = "an" if detail[:1] and detail[0] in "aeiou" else "a"
        return REASONS[how].format(q=quoted, t=term, d=detail, a=article)
    if how == "place":
        where = f"{said.preposition} {said.place}"
        return f"'{where}': {said.preposition} {detail}"
    return f"{quoted}: called {term}"


ASKED_LIMIT = 24
"""The most candidates a request's referent is resolved to (:func:`resolve_referent`'s
``limit`` when the robot resolves what it was asked for): more match, and the robot asks by
their count (each candidate's ``among``) rather than list them."""
