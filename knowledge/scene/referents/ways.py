"""How one word of a description matches things of the belief: the ways, each with its things.

:func:`term_matches` gives every way a term matches (its type or a broader one, what a thing
holds, an attribute, a flag, a listed or defined use, a state, a label, an owner: see there);
:func:`label_ways` the fallback on the words of the things' labels. Each way's things are a
:class:`Nodes` view of the index's sets, read in place, so a way costs what is probed, not
the belief (:mod:`.resolution` intersects them word position by word position).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from functools import partial
from typing import Any, Final

from cogtree.knowledge.node_tables import among, union, without
from cogtree.knowledge.scene.needs import alike_states
from cogtree.knowledge.scene.referents.description import USE_PARTICLES
from cogtree.knowledge.scene.referents.kept import harmless, kept_in
from cogtree.knowledge.scene.referents.other_uses import (
    DEFINED,
    DESCRIBED,
    NAMED_FOR,
    kinds_for,
    named_for,
    says_little,
)
from cogtree.knowledge.scene.referents.preferences import Way
from cogtree.knowledge.scene.scene_index import SceneIndex, Vocabulary
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
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import LIVING, shipped_nouns

Parts = Sequence[Collection[str]]


class Nodes(AbstractSet[str]):
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


def bound(nodes: AbstractSet[str]) -> int:
    """At most how many ``nodes`` there are (without counting a :class:`Nodes` one by one)."""
    return sum(map(len, nodes.parts)) if isinstance(nodes, Nodes) else len(nodes)


def term_matches(
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
    - when nothing else matches (:func:`label_ways`): named: its label names the thing by it
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
        nodes: AbstractSet[str] = Nodes(index.members("by_type", kinds))
        ways += [("type", label, nodes) for label in vocabulary.type_labels.get(matched, ())]
        holders = Nodes(index.members("by_value", content_values(vocabulary, matched)))
        held = {n for n in holders if referred_to_by_content(vocabulary, matched, index.node(n))}
        ways += [("holds", label, held) for label in vocabulary.type_labels.get(matched, ())]
        told = _told_holding(index, matched, nodes)
        ways += [("told holds", label, told) for label in vocabulary.type_labels.get(matched, ())]
    typed = vocabulary.types_named.get(term, set())
    for headed in sorted(vocabulary.headed.get(term, ())):
        if _called_by_head(index, headed, typed):
            nodes = Nodes(index.members("by_type", narrower.get(headed, {headed})))
            ways += [("head", label, nodes) for label in vocabulary.type_labels.get(headed, ())]
    told = vocabulary.attributes - ({HELD} if term in vocabulary.types_named else set())
    for attribute in sorted(told):  # a liquid that is a type matches as held (above)
        nodes = Nodes(index.members("by_value", [f"{attribute}={term}"]))
        ways += [("attribute", label, nodes) for label in vocabulary.labels.get(attribute, ())]
    named_attributes = vocabulary.attributes_named.get(term, set())
    for attribute in sorted(named_attributes):
        nodes = Nodes(index.members("by_flag", [attribute]))
        ways += [("flag", label, nodes) for label in vocabulary.labels.get(attribute, ())]
    verb, _, particle = term.partition(" ")  # "dry off", which no kind is for: a use to "dry"
    bare = vocabulary.kind_words.get(verb, []) if particle in USE_PARTICLES else []
    says_itself = index.members("by_attribute", named_attributes)
    ways += _use_ways(index, vocabulary.kind_words.get(term, bare), says_itself)
    ways.append(("condition", term, Nodes(index.members("by_state", alike_states(term)))))
    named = index.named(term)
    ways.append(("label", "", named))
    owners = {node for node in named if person_labelled(index, node, term)}
    ways.append(("owner", "", index.owned_by(owners)))
    found = [way for way in ways if bound(way[2])]
    little = says_little(term, purpose)  # "keep me warm": what keeps, as definitions say
    if found and not little:
        return found
    if term not in (use, *purpose[:1]):
        return _named_for_ways(index, term, use, purpose)
    uses = kinds_for(vocabulary, term, use, purpose, partial(_present, index))
    if little and found and len(uses) > 1:
        return found  # "keep the food warm": no one definition says it better than the list
    defined = [way for way in _use_ways(index, uses, says_itself) if bound(way[2])]
    return defined or found or _named_for_ways(index, term, use, purpose)


def _named_for_ways(
    index: SceneIndex, term: str, use: str | None, purpose: tuple[str, ...]
) -> list[Way]:
    """Things whose label is named for the tool's use (:func:`named_for`: "coat hanger").

    For a tool's use, or a purpose whose verb is done on the thing ("something to kneel on").
    Only things whose own flags say no harm (:func:`~.kept.harmless`; a label may still name
    a blade, so resolution makes such a match a guess, asked about), and of those, the ones
    whose label says another word of the purpose when some do ("hair tie" for "to tie my
    hair back", over a silk tie).
    """
    done_on = purpose[-1:] != ("with",) and purpose[1:2] and purpose[1] in USE_PARTICLES
    if term != use and not (done_on and term.split()[0] == purpose[0]):
        return []
    named = harmless(index, Nodes(index.members("by_head", sorted(named_for(term)))))
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
        for node_id in Nodes(index.members("by_head", words))
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
        nodes: AbstractSet[str] = Nodes(index.members("by_type", kinds), says_itself)
        nodes = Nodes([harmless(index, nodes)]) if guessed else nodes
        if how == "kept":  # what is in them (:func:`~.kept.kept_in`): cost the fridges' contents
            nodes = Nodes([union(kept_in(index, place) for place in nodes)], says_itself)
        ways += [(how, label, nodes) for label in vocabulary.labels.get(kind, ())]
    return ways


def _present(index: SceneIndex, kind: str) -> bool:
    """Whether the belief holds a thing of ``kind`` or of a type under it."""
    return bound(Nodes(index.members("by_type", index.vocabulary.narrower.get(kind, {kind})))) > 0


def label_ways(index: SceneIndex, term: str) -> list[Way]:
    """The ways ``term`` matches the words of things' labels that no type of theirs says."""
    vocabulary, narrower = index.vocabulary, index.vocabulary.narrower
    typed = vocabulary.types_named.get(term, set())
    read = set() if typed else _read_as_type(index, term)
    ways: list[Way] = []
    said = set[str]().union(*(narrower.get(kind, {kind}) for kind in typed))
    known = [*index.members("by_name", [term]), *index.members("by_type", sorted(said))]
    ways.append(("named", "", Nodes(index.members("by_head", [term]), known)))  # no type says
    lemmas = shipped_lemmas()  # a word no dictionary knows is a name ("the Brita"), no description
    name = lemmas is not None and not lemmas.knows(term) and term.isalpha()
    ways.append(("named" if name else "word", "", Nodes(index.members("by_word", [term]), known)))
    for kind in sorted(read):  # "the hoover": the taxonomy reads the word as a vacuum cleaner
        nodes = Nodes(index.members("by_type", sorted(narrower.get(kind, {kind}))))
        ways += [(READ_AS, label, nodes) for label in vocabulary.type_labels.get(kind, ())]
    for matched in sorted(typed | read):
        words = sorted(_words_naming(vocabulary, narrower.get(matched, {matched})) - {term})
        nodes = Nodes(index.members("by_head", words), known)
        ways += [("named kind", label, nodes) for label in vocabulary.type_labels.get(matched, ())]
        nodes = Nodes(index.members("by_word", words), known)  # "the telly remote": TV remote
        ways += [(WORD_KIND, label, nodes) for label in vocabulary.type_labels.get(matched, ())]
    return [way for way in ways if bound(way[2])]


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


def person_labelled(index: SceneIndex, node_id: str, label: str | None = None) -> bool:
    """Whether ``node_id`` is a person (labelled ``label``, if given)."""
    node = index.node(node_id)
    if node is None or "Human" not in node.classes:
        return False
    return label is None or label in node.labels


HOLDING: Final = frozenset(["holds", "told holds"])
"""The ways a word matches a thing by what it holds."""
USES: Final = frozenset(["use", DEFINED, DESCRIBED, NAMED_FOR])
"""How a thing matches what it is for: its type's listed use, or its definition's."""
