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

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import partial
from heapq import nsmallest
from typing import Any, Final

from cogtree.knowledge.node_tables import among, union, without
from cogtree.knowledge.scene.needs import alike_states
from cogtree.knowledge.scene.referents.clipping import unclipped
from cogtree.knowledge.scene.referents.description import (
    USE_PARTICLES,
    Description,
    Phrase,
    split_negation,
)
from cogtree.knowledge.scene.referents.kept import harmless, kept_in
from cogtree.knowledge.scene.referents.other_uses import (
    DEFINED,
    DESCRIBED,
    NAMED_FOR,
    kinds_for,
    named_for,
    says_little,
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
from cogtree.knowledge.scene.scene_index import Node, SceneIndex, Vocabulary
from cogtree.knowledge.scene.scene_models import UNOWNED_NOTE, Candidate, ThingKind
from cogtree.knowledge.scene.taxonomy import (
    FOOD,
    HELD,
    content_values,
    household_taxonomy,
    is_drink,
    referred_to_by_content,
    serves_drinks,
)
from cogtree.knowledge.wording import held_by_name
from cogtree.knowledge.wordnet.lemmas import SIZES, shipped_lemmas
from cogtree.knowledge.wordnet.nouns import LIVING, shipped_nouns


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
    :func:`_term_matches`), the speaker owns it for "my", and it is in one of the places the
    description names (resolved first, the same way). Each position's things are a union of
    the index's sets read in place (:class:`_Nodes`): the position with the fewest is listed,
    the others are probed, and the rules that prefer one reading walk the matches, so the
    cost follows the smallest position, not the belief; reasons are made for those shown.

    Words match what the things' types, attributes and whole names say first; only when
    nothing matches so, the words of their labels too (:func:`_label_ways`: "the blue one"
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

    add_terms(partial(_term_matches, index, use=phrase.use, purpose=description.purpose))
    notes: list[str] = []
    if phrase.possessive is not None and speaker is not None:
        owned = index.owned_by([speaker]) if _person_labelled(index, speaker) else set()
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
    unmatched = any(not any(map(_bound, positions.get(at, ()))) for at in phrase.content)
    if not found and unmatched:  # not when "my" or a place alone ruled every match out
        named = list(positions.get(phrase.head, ())) if phrase.head is not None else []
        add_terms(partial(_label_ways, index))
        found = _found(index, phrase, positions, terms, owners)
        # a guess when the word naming the thing matched only a label's words ("the blue
        # one"), not when it names the thing's kind and a describing word is in its label
        # ("a bath towel": a towel labelled white bath towel), nor when the taxonomy reads
        # it as the thing's type ("the hoover")
        if phrase.head is not None:
            head = phrase.words[phrase.head]
            named += [nodes for how, _, nodes in _label_ways(index, head) if how == READ_AS]
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
        if not any(map(_bound, positions.get(at, ()))) and lemmas.measures(phrase.words[at]) & SIZES
    ]


def _sized_in_label(index: SceneIndex, words: Sequence[str], found: set[str]) -> set[str]:
    """Of ``found``, those whose labels say each size word or one alike ("little": small)."""
    lemmas = shipped_lemmas()
    if lemmas is None:
        return set()
    for word in words:
        labelled = _Nodes(index.members("by_word", sorted(lemmas.alike(word, SIZES) | {word})))
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
    fewest, *others = sorted(positions.values(), key=lambda sets: sum(map(_bound, sets)))
    survivors = set(*fewest) if len(fewest) == 1 else union(fewest)
    for sets in others:
        survivors = union(nodes & survivors for nodes in sets)
    if not owners:
        survivors = index.unowned(survivors)
    if not survivors:
        return set()
    found = named_over_typed(index.among_classes(survivors, THING_KINDS), terms)
    found = typed_over_headed(found, terms)
    return head_by_kind(whole_name_wins(found, terms, phrase), terms, phrase)


Parts = Sequence[Collection[str]]


class _Nodes(AbstractSet[str]):
    """The index's nodes under some keys less those under others, uncopied (lock held)."""

    def __init__(self, parts: Parts, minus: Parts = ()) -> None:
        self.parts, self.minus = parts, minus

    def __contains__(self, node: object) -> bool:
        return any(node in part for part in self.parts) and not any(node in m for m in self.minus)

    def __iter__(self) -> Iterator[str]:
        return iter(without(union(self.parts), self.minus))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __and__(self, other: AbstractSet[Any]) -> set[str]:
        """The nodes of ``other`` among these (cost ``other``, or a sorted part: see ``among``)."""
        nodes = other if isinstance(other, set) else set(other)
        return without(union(among(nodes, part) for part in self.parts), self.minus)

    __rand__ = __and__
    _from_iterable = set  # what the other set operations make: a plain set


def _bound(nodes: AbstractSet[str]) -> int:
    """At most how many ``nodes`` there are (without counting a :class:`_Nodes` one by one)."""
    return sum(map(len, nodes.parts)) if isinstance(nodes, _Nodes) else len(nodes)


THING_KINDS: Final[dict[str, ThingKind]] = {
    "Object": "object",
    "Surface": "surface",
    "Container": "container",
    "Room": "room",
}
"""The classes of things a description may refer to, and what kind of thing each is."""


def _term_matches(
    index: SceneIndex, term: str, use: str | None = None, purpose: tuple[str, ...] = ()
) -> list[Way]:
    """Every way ``term`` matches things, with the things (see ``THING_KINDS``).

    - type: it names the thing's type or a broader type ("bottle", "drink"); detail: that type
    - head: it is the last word of the name of the thing's type or a broader type ("bottle" for
      a water bottle); it yields to things of a type it names (:func:`typed_over_headed`)
    - holds: it names the type of the liquid the thing holds, or a broader type ("juice"); a
      drink names only a vessel made for it, never a kettle (``referred_to_by_content``)
    - attribute: it is an attribute value ("blue", "earl grey"); detail: the attribute
    - flag: it names a boolean attribute that is true ("caffeinated")
    - use / quality / state: the thing's type or a broader one is used for it, is typically
      like it (a quality, or the flags sharp, fragile, electrical) or can become it ("wipe",
      "citrus", "rotten"); detail: that type. What the thing itself says wins: a thing with
      an attribute of that name does not match so (decaf coffee is not "caffeinated").
    - label: it is the thing's own label or synonym ("kitchen table", "lounge")
    - when nothing else matches (:func:`_label_ways`): named: its label names the thing by it
      ("cola" for the can of cola: the last word, and the last after "of"), or it is a word of
      the label no dictionary knows, a name ("the Brita" for the Brita jug); named kind: so,
      by a word naming a narrower type ("a drink"); word: it is a word of the thing's label
      ("blue" for the blue mug), never for the word a description names its thing by ("the
      tea" is no tea towel: see :func:`_matching`)
    - owner: it is the label of the thing's owner ("anna")
    """
    vocabulary, narrower = index.vocabulary, index.vocabulary.narrower
    ways: list[Way] = []
    for matched in sorted(vocabulary.types_named.get(term, ())):
        kinds = narrower.get(matched, {matched})
        nodes: AbstractSet[str] = _Nodes(index.members("by_type", kinds))
        ways += [("type", label, nodes) for label in vocabulary.type_labels.get(matched, ())]
        holders = _Nodes(index.members("by_value", content_values(vocabulary, matched)))
        held = {n for n in holders if referred_to_by_content(vocabulary, matched, index.node(n))}
        ways += [("holds", label, held) for label in vocabulary.type_labels.get(matched, ())]
        told = _told_holding(index, matched, nodes)
        ways += [("told holds", label, told) for label in vocabulary.type_labels.get(matched, ())]
    typed = vocabulary.types_named.get(term, set())
    for headed in sorted(vocabulary.headed.get(term, ())):
        if _called_by_head(index, headed, typed):
            nodes = _Nodes(index.members("by_type", narrower.get(headed, {headed})))
            ways += [("head", label, nodes) for label in vocabulary.type_labels.get(headed, ())]
    told = vocabulary.attributes - ({HELD} if term in vocabulary.types_named else set())
    for attribute in sorted(told):  # a liquid that is a type matches as held (above)
        nodes = _Nodes(index.members("by_value", [f"{attribute}={term}"]))
        ways += [("attribute", label, nodes) for label in vocabulary.labels.get(attribute, ())]
    named_attributes = vocabulary.attributes_named.get(term, set())
    for attribute in sorted(named_attributes):
        nodes = _Nodes(index.members("by_flag", [attribute]))
        ways += [("flag", label, nodes) for label in vocabulary.labels.get(attribute, ())]
    verb, _, particle = term.partition(" ")  # "dry off", which no kind is for: a use to "dry"
    bare = vocabulary.kind_words.get(verb, []) if particle in USE_PARTICLES else []
    says_itself = index.members("by_attribute", named_attributes)
    ways += _use_ways(index, vocabulary.kind_words.get(term, bare), says_itself)
    ways.append(("condition", term, _Nodes(index.members("by_state", alike_states(term)))))
    named = index.named(term)
    ways.append(("label", "", named))
    owners = {node for node in named if _person_labelled(index, node, term)}
    ways.append(("owner", "", index.owned_by(owners)))
    found = [way for way in ways if _bound(way[2])]
    little = says_little(term, purpose)  # "keep me warm": what keeps, as definitions say
    if found and not little:
        return found
    if term not in (use, *purpose[:1]):
        return _named_for_ways(index, term, use, purpose)
    uses = kinds_for(vocabulary, term, use, purpose, partial(_present, index))
    if little and found and len(uses) > 1:
        return found  # "keep the food warm": no one definition says it better than the list
    defined = [way for way in _use_ways(index, uses, says_itself) if _bound(way[2])]
    return defined or found or _named_for_ways(index, term, use, purpose)


def _named_for_ways(
    index: SceneIndex, term: str, use: str | None, purpose: tuple[str, ...]
) -> list[Way]:
    """Things whose label is named for the tool's use (:func:`named_for`: "coat hanger").

    For a tool's use, or a purpose whose verb is done on the thing ("something to kneel on").
    Only things nothing flags as harmful (:func:`~.kept.harmless`), and of those, the ones
    whose label says another word of the purpose when some do ("hair tie" for "to tie my
    hair back", over a silk tie).
    """
    done_on = purpose[-1:] != ("with",) and purpose[1:2] and purpose[1] in USE_PARTICLES
    if term != use and not (done_on and term.split()[0] == purpose[0]):
        return []
    named = harmless(index, _Nodes(index.members("by_head", sorted(named_for(term)))))
    said = {word for word in purpose[1:] if word not in USE_PARTICLES}
    labels = {n: [*node.labels] for n in named if (node := index.node(n)) is not None}
    fitting = {n for n, names in labels.items() if _made_for_it(names, said)}
    told = {n for n in fitting if said & {*" ".join(labels[n]).split()}}
    nodes = told or fitting
    return [(NAMED_FOR, term.split()[0], nodes)] if nodes else []


def _made_for_it(labels: Sequence[str], said: AbstractSet[str]) -> bool:
    """Whether what a label says its thing is for fits what the purpose acts on.

    "a bottle opener" is for bottles: not for "this wine" (a drink); "a coat hanger" is for
    coats, and so for "this shirt" (both clothing). Only types the taxonomy names are held
    against each other; a label or a purpose that names none fits.
    """
    taxonomy = household_taxonomy()

    def kinds(words: Iterable[str]) -> set[str]:
        found = {kind for word in words if (kind := taxonomy.type_named(word)) is not None}
        return found | {c for kind in found for c in taxonomy.categories_of(kind)}

    acted_on = kinds(said)
    made_for = kinds(word for label in labels for word in label.lower().split()[:-1])
    return not acted_on or not made_for or bool(acted_on & made_for)


def _told_holding(index: SceneIndex, drink: str, typed: AbstractSet[str]) -> set[str]:
    """The vessels labelled "<vessel> of <drink>" for ``drink`` (or a food) or a kind of it.

    What a vessel is called by says what it holds ("can of cola", "bowl of muesli"), when the
    whole of what follows "of" names a drink or a food: "bottle of white spirit", "jar of
    bicarbonate of soda" or "glass of water with dentures" hold neither. Only vessels things
    are served or kept in (:func:`serves_drinks`), not the things of ``drink``'s own types.
    """
    vocabulary = index.vocabulary
    food = FOOD in vocabulary.kinds.get(drink, ()) and not _alive_first(drink, vocabulary)
    if not (is_drink(vocabulary, drink) or food):
        return set()
    kinds = vocabulary.narrower.get(drink, {drink})
    words = sorted(_words_naming(vocabulary, kinds))
    return {
        node_id
        for node_id in _Nodes(index.members("by_head", words))
        if node_id not in typed
        and (node := index.node(node_id)) is not None
        and serves_drinks(vocabulary, node)
        and any(
            vocabulary.types_named.get(held_by_name(label), set()) & kinds for label in node.labels
        )
    }


def _alive_first(kind: str, vocabulary: Vocabulary) -> bool:
    """Whether a word for food ``kind`` names a living being first ("a bowl of fish": a pet)."""
    nouns = shipped_nouns()
    return nouns is not None and any(
        nouns.first_in(word, LIVING) for word in _words_naming(vocabulary, [kind])
    )


def _use_ways(index: SceneIndex, uses: Iterable[tuple[str, str]], says_itself: Parts) -> list[Way]:
    """The ways things match as of kinds ``uses`` names (a use, a quality, a state).

    Or as kept in a thing of such a kind (``kept``: what is in a fridge is cold).
    """
    vocabulary, ways = index.vocabulary, list[Way]()
    for kind, how in uses:  # a definition's kinds come each on its own (other_uses)
        guessed = how in (DEFINED, DESCRIBED)  # a definition's kind alone, nothing that harms
        kinds = {kind} if guessed else vocabulary.narrower.get(kind, {kind})
        nodes: AbstractSet[str] = _Nodes(index.members("by_type", kinds), says_itself)
        nodes = _Nodes([harmless(index, nodes)]) if guessed else nodes
        if how == "kept":  # what is in them (:func:`~.kept.kept_in`): cost the fridges' contents
            nodes = _Nodes([union(kept_in(index, place) for place in nodes)], says_itself)
        ways += [(how, label, nodes) for label in vocabulary.labels.get(kind, ())]
    return ways


def _present(index: SceneIndex, kind: str) -> bool:
    """Whether the belief holds a thing of ``kind`` or of a type under it."""
    return _bound(_Nodes(index.members("by_type", index.vocabulary.narrower.get(kind, {kind})))) > 0


def _label_ways(index: SceneIndex, term: str) -> list[Way]:
    """The ways ``term`` matches the words of things' labels that no type of theirs says."""
    vocabulary, narrower = index.vocabulary, index.vocabulary.narrower
    typed = vocabulary.types_named.get(term, set())
    read = set() if typed else _read_as_type(index, term)
    ways: list[Way] = []
    said = set[str]().union(*(narrower.get(kind, {kind}) for kind in typed))
    known = [*index.members("by_name", [term]), *index.members("by_type", sorted(said))]
    ways.append(("named", "", _Nodes(index.members("by_head", [term]), known)))  # no type says
    lemmas = shipped_lemmas()  # a word no dictionary knows is a name ("the Brita"), no description
    name = lemmas is not None and not lemmas.knows(term) and term.isalpha()
    ways.append(("named" if name else "word", "", _Nodes(index.members("by_word", [term]), known)))
    for kind in sorted(read):  # "the hoover": the taxonomy reads the word as a vacuum cleaner
        nodes = _Nodes(index.members("by_type", sorted(narrower.get(kind, {kind}))))
        ways += [(READ_AS, label, nodes) for label in vocabulary.type_labels.get(kind, ())]
    for matched in sorted(typed | read):
        words = sorted(_words_naming(vocabulary, narrower.get(matched, {matched})) - {term})
        nodes = _Nodes(index.members("by_head", words), known)
        ways += [("named kind", label, nodes) for label in vocabulary.type_labels.get(matched, ())]
        nodes = _Nodes(index.members("by_word", words), known)  # "the telly remote": TV remote
        ways += [(WORD_KIND, label, nodes) for label in vocabulary.type_labels.get(matched, ())]
    return [way for way in ways if _bound(way[2])]


READ_AS: Final = "read as"
"""How a word no type of the belief is named by matched the type the taxonomy reads it as."""
WORD_KIND: Final = "word kind"
"""How a describing word matched a word of a label that names the same type ("telly": tv)."""


def _read_as_type(index: SceneIndex, term: str) -> set[str]:
    """The type the taxonomy reads the one word ``term`` as, when the belief holds things of it.

    :meth:`~knowledge.scene.taxonomy.Taxonomy.type_named`, WordNet's kinds above the word
    included ("hoover": a vacuum cleaner); none for a word it reads as no type.
    """
    lemmas = shipped_lemmas()
    if " " in term or lemmas is None or lemmas.lemma_of(term, "noun") is None:
        return set()  # "eat" is no noun, whatever a kind's name derives from it
    kind = household_taxonomy().type_named(term)
    return {kind} if kind is not None and kind in index.vocabulary.type_labels else set()


def _words_naming(vocabulary: Vocabulary, types: Iterable[str]) -> set[str]:
    """The one-word labels and synonyms of ``types`` ("cola", "coke" for the type Cola)."""
    return {
        word
        for kind in types
        for word in (*vocabulary.type_labels.get(kind, ()), *vocabulary.type_synonyms.get(kind, ()))
        if " " not in word
    }


def _called_by_head(index: SceneIndex, headed: str, typed: AbstractSet[str]) -> bool:
    """Whether type ``headed``, whose name ends on a word, is of what the word names (``typed``).

    A water bottle is a bottle (both hold drinks); a trash can (a bin) is no can. A word naming
    no type names it; a kind the word names already matches as such.
    """
    kinds = index.vocabulary.kinds
    own = kinds.get(headed, {headed})
    if not typed.isdisjoint(own):
        return False
    categories = own - {headed}
    return not typed or any(categories & (kinds.get(kind, {kind}) - {kind}) for kind in typed)


def _details(index: SceneIndex, thing: str) -> Node | None:
    """The thing's node, if it is of a class a description may refer to."""
    node = index.node(thing)
    if node is None or not set(node.classes) & THING_KINDS.keys():
        return None
    return node


def _person_labelled(index: SceneIndex, node_id: str, label: str | None = None) -> bool:
    """Whether ``node_id`` is a person (labelled ``label``, if given)."""
    node = index.node(node_id)
    if node is None or "Human" not in node.classes:
        return False
    return label is None or label in node.labels


def _kind(node: Node) -> ThingKind:
    return next(THING_KINDS[name] for name in THING_KINDS if name in node.classes)


HOLDING: Final = frozenset(["holds", "told holds"])
"""The ways a word matches a thing by what it holds."""
USES: Final = frozenset(["use", DEFINED, DESCRIBED, NAMED_FOR])
"""How a thing matches what it is for: its type's listed use, or its definition's."""

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
