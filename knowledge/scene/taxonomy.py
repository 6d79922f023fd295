"""The household taxonomy: everyday object types, their categories, usual places and properties.

The data is ``knowledge/scene/taxonomy/household.ttl`` (Turtle over the ontology's vocabulary),
loaded into every belief with the ontology (:class:`~knowledge.scene.scene_graph.SceneGraph`) so
that "a drink" or "that fruit" match through ``cog:broaderType``. This module reads the same file
for questions asked outside a belief:

- :meth:`Taxonomy.categories_of`: every broader type of a type, transitively, nearest first;
- :meth:`Taxonomy.types_of`: every type under a category, transitively;
- :meth:`Taxonomy.usual_places`: where things of a type are usually kept (``fridge``,
  ``cupboard``, ``drawer``...), inherited from the nearest category that says;
  :func:`usual_place`: the one piece of furniture of a scene that is such a place for a
  thing, as said ("in the fridge");
- :meth:`Taxonomy.properties`: the typical material and the flags
  (:data:`skills.action_model.belief.HazardFlag` names) of a type, flags accumulated over its
  categories;
- :meth:`Taxonomy.type_named`: the type a person's name for a thing denotes ("bottled iced
  tea" -> ``Tea``), by its label (a plural label in the singular too: "a tissue") or a
  synonym, else by the longest known ending of the name;
  :meth:`Taxonomy.types_in`: what each part of a mixture is ("gin and tonic");
- :meth:`Taxonomy.type_derived`: the type WordNet's hypernyms give a name the taxonomy does
  not know ("trowel" -> hand tool -> ``Tool``), read the same way; a guess, so it never
  makes a thing food or drink (see the method);
- :func:`referred_to_by_content`: whether a thing may be called by the liquid it holds (a
  drink, only in a vessel made for it: a glass or jug of water, never the kettle).

:func:`materialise_kinds` writes the closure of ``cog:broaderType`` into a belief, as
``cog:kindOf`` (once per load: the scene graph calls it); :func:`with_ontology` loads the
ontology (``knowledge/scene/ontology.ttl``) and the taxonomy into a graph that lacks them.

Vocabulary of the file: ``cog:ObjectType`` with ``rdfs:label`` and ``cog:synonym``;
``cog:broaderType`` (the category); ``cog:TopCategory`` marks the top categories;
``cog:usualPlace`` (a place word), ``cog:typicalMaterial`` and ``cog:typicalFlag`` (text).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Final, Protocol

from rdflib import OWL, RDF, RDFS, Graph, Namespace, URIRef

from cogtree.knowledge.scene.rdf_store import Term, TripleReader, load_turtle, new_graph
from cogtree.knowledge.wording import NAME_JOINS, join_at, singular_forms
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import shipped_nouns

TAXONOMY_PATH = Path(__file__).with_name("taxonomy") / "household.ttl"
"""The shipped household taxonomy (package data of ``knowledge``)."""

ONTOLOGY_IRI = URIRef("https://cogtree.dev/ontology")
ONTOLOGY_PATH = Path(__file__).with_name("ontology.ttl")
"""The ontology the taxonomy and every belief are written in."""

COG = Namespace("https://cogtree.dev/ontology#")

HELD: Final = "liquid"
"""The attribute that says what a container holds: a liquid is referred to by its container."""

DRINK: Final = "Drink"
"""The category of what people drink."""

FOOD: Final = "Food"
"""The category of what people eat."""

VESSELS: Final = frozenset(["Tableware", "ContainerItem"])
"""The categories of things made to hold what people take: served at the table (drinkware,
jugs, teapots) or kept and carried (bottles, cartons, flasks)."""

APPLIANCE: Final = "Appliance"
"""The category of machines (a kettle, a coffee machine): no vessel, whatever they hold."""

HOUSEHOLD_LEXNAMES: Final = frozenset(
    ["noun.artifact", "noun.food", "noun.substance", "noun.animal", "noun.plant", "noun.object"]
)
"""WordNet's lexicographer files of things a home holds; other senses of a word (a person, an
act, a list) are never a thing's kind: "tumbler" the acrobat is no glass."""

EXEMPTING_FLAGS: Final = frozenset(["food", "drink"])
"""Flags that only exempt a thing from hazard rules (one may eat it, warm it): a derived type
never gives them."""

CACHED_DERIVATIONS: Final = 4096
"""How many words' WordNet derivations one taxonomy remembers."""

NOT_SERVING: Final = frozenset(["appliance", "heatSource", "chemical", "cleaningTool"])
"""Flags (the ontology's attributes) of a thing no drink is served from, whatever it holds."""


class TypeTables(Protocol):
    """The belief's types as its scene index reads them (``scene_index.Vocabulary``)."""

    type_labels: dict[str, tuple[str, ...]]
    type_synonyms: dict[str, tuple[str, ...]]
    kinds: dict[str, set[str]]
    narrower: dict[str, set[str]]


class Holder(Protocol):
    """A thing as the scene index knows it (``scene_index.Node``): its types and true flags."""

    @property
    def types(self) -> tuple[str, ...]: ...  # noqa: D102
    @property
    def flags(self) -> tuple[str, ...]: ...  # noqa: D102


def content_values(vocabulary: TypeTables, liquid: str) -> list[str]:
    """The values of :data:`HELD` that say a thing holds ``liquid`` or a narrower kind of it."""
    names = vocabulary.type_labels, vocabulary.type_synonyms
    kinds = vocabulary.narrower.get(liquid, {liquid})
    return sorted({f"{HELD}={word}" for k in kinds for table in names for word in table.get(k, ())})


def referred_to_by_content(vocabulary: TypeTables, liquid: str, node: Holder | None) -> bool:
    """Whether the thing ``node`` may be called by the ``liquid`` (a type) it holds.

    Any liquid but a drink (bleach, oil) names what holds it. A drink names only a vessel made
    to serve or keep it (:data:`VESSELS`): a glass or a carton of water is "the water", a kettle
    of water is not (an appliance and a heat source, by its category or its flags), nor is a
    bottle flagged chemical.
    """
    if node is None or not is_drink(vocabulary, liquid):
        return True
    return serves_drinks(vocabulary, node)


def serves_drinks(vocabulary: TypeTables, node: Holder) -> bool:
    """Whether ``node`` is a vessel a drink is served or kept in (:data:`VESSELS`).

    Not an appliance, a heat source, a chemical's or a cleaning tool (:data:`NOT_SERVING`).
    """
    kinds = vocabulary.kinds
    held_in = {kind for name in node.types for kind in kinds.get(name, {name})}
    return bool(held_in & VESSELS) and APPLIANCE not in held_in and not NOT_SERVING & {*node.flags}


def is_drink(vocabulary: TypeTables, kind: str) -> bool:
    """Whether ``kind`` is a drink or a kind of one."""
    return DRINK in vocabulary.kinds.get(kind, ())


class Placed(Holder, Protocol):
    """A thing as the scene index knows it, with its classes and labels."""

    @property
    def classes(self) -> tuple[str, ...]: ...  # noqa: D102
    @property
    def labels(self) -> tuple[str, ...]: ...  # noqa: D102


class PlaceIndex(Protocol):
    """The scene index's lookups :func:`usual_place` needs (``scene_index.SceneIndex``)."""

    def node(self, node_id: str) -> Placed | None:
        """What is known of ``node_id``."""

    def of_kind(self, kind: str) -> set[str]:
        """The nodes whose type is ``kind`` or a type under it."""


def usual_place(index: PlaceIndex, thing: str) -> str:
    """Where ``thing`` is usually kept, as said ("in the fridge"), when the scene has one such.

    The usual places of its types (:meth:`Taxonomy.usual_places`: a milk carton's is the
    fridge) that name exactly one piece of furniture of the scene; "in" a container, "on" a
    surface. Empty when they name none, several, or a room.
    """
    node = index.node(thing)
    taxonomy = household_taxonomy()
    kinds = {
        kind
        for name in (node.types if node is not None else ())
        for place in taxonomy.usual_places(name)
        if (kind := taxonomy.type_named(place)) is not None
    }
    found = sorted({place for kind in kinds for place in index.of_kind(kind)} - {thing})
    place = index.node(found[0]) if len(found) == 1 else None
    if place is None or not place.labels:
        return ""
    if "Container" in place.classes:
        return f"in the {place.labels[0]}"
    return f"on the {place.labels[0]}" if {"Surface", "Furniture"} & {*place.classes} else ""


@dataclass(frozen=True)
class TypeProperties:
    """What things of a type are typically like: material (or None) and flags."""

    material: str | None
    flags: frozenset[str]


class Taxonomy:
    """Questions over the taxonomy graph (the ontology's types included); see the module docs."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self._broader: dict[str, list[str]] = {}
        self._names: dict[str, str] = {}
        self._labels: dict[str, str] = {}
        # the store read directly, one pass over each predicate: not one lookup per type (2,600
        # of them), nor an rdflib term made of every triple read (most of the cost of a load)
        reader = TripleReader(graph)
        nodes = sorted({node for node, _ in reader.with_predicate(RDF.type, COG.ObjectType)})
        broader = _objects_by_subject(reader, COG.broaderType)
        for node in nodes:
            self._broader[_local(node)] = sorted(
                _local(text) for text, kind in broader.get(node, ()) if kind == "iri"
            )
        # a label names its type before any other type's synonym does
        labels = _objects_by_subject(reader, RDFS.label)
        for words in (labels, _objects_by_subject(reader, COG.synonym)):
            for node in nodes:
                for word, _ in words.get(node, ()):
                    self._names.setdefault(word.lower(), _local(node))
        # a plural label names one of them in the singular ("tissues": "a tissue"), unless
        # that is another type's own name
        for node in nodes:
            for label, _ in labels.get(node, ()):
                *head, last = label.lower().split() or [""]
                for form in singular_forms(last):
                    self._labels.setdefault(" ".join([*head, form]), _local(node))
                    self._names.setdefault(" ".join([*head, form]), _local(node))
        self.top_categories = frozenset(
            _local(node) for node, _ in reader.with_predicate(RDF.type, COG.TopCategory)
        )
        # what the graph says of each type (and category), read once: the questions below are
        # asked for every thing a plan touches, and a store lookup each costs more than a turn
        self._label_of = {name: words[0] for name, words in _said_of(labels).items()}
        self._synonyms_of = _said_of(_objects_by_subject(reader, COG.synonym))
        self._places_of = _said_of(_objects_by_subject(reader, COG.usualPlace))
        self._flags_of = _said_of(_objects_by_subject(reader, COG.typicalFlag))
        self._material_of = {
            name: words[0]
            for name, words in _said_of(_objects_by_subject(reader, COG.typicalMaterial)).items()
        }
        self._wordnet_type = lru_cache(maxsize=CACHED_DERIVATIONS)(self._walk_wordnet)

    @classmethod
    def load(cls, path: Path = TAXONOMY_PATH, *, ontology: Path | None = None) -> Taxonomy:
        """The taxonomy in ``path`` with the ontology's own types (``ontology``: its file)."""
        if ontology is None:
            ontology = Path(__file__).with_name("ontology.ttl")
        graph = new_graph()
        load_turtle(graph, ontology)
        load_turtle(graph, path)
        return cls(graph)

    @property
    def types(self) -> frozenset[str]:
        """Every object type and category (``Apple``, ``Fruit``, ``Food``, ...)."""
        return frozenset(self._broader)

    def label(self, type_name: str) -> str:
        """The type's label (its name in words when it has none)."""
        return self._label_of.get(type_name, type_name.lower())

    def synonyms(self, type_name: str) -> list[str]:
        """The other words for the type, sorted."""
        return sorted(self._synonyms_of.get(type_name, ()))

    def categories_of(self, type_name: str) -> list[str]:
        """Every broader type of ``type_name``, transitively, nearest first (itself excluded)."""
        found: list[str] = []
        frontier = list(self._broader.get(type_name, []))
        while frontier:
            current = frontier.pop(0)
            if current not in found and current != type_name:
                found.append(current)
                frontier.extend(self._broader.get(current, []))
        return found

    def types_of(self, category: str) -> list[str]:
        """Every type under ``category``, transitively (the category itself excluded), sorted."""
        return sorted(name for name in self._broader if category in self.categories_of(name))

    def is_a(self, type_name: str, category: str) -> bool:
        """Whether ``type_name`` is ``category`` or lies under it."""
        return type_name == category or category in self.categories_of(type_name)

    def alive(self, type_name: str) -> bool:
        """Whether things of the type are living animals (a type or category flagged so)."""
        return "animal" in self.properties(type_name).flags

    def usual_places(self, type_name: str) -> list[str]:
        """Where things of the type are usually kept; from the nearest category that says."""
        for name in (type_name, *self.categories_of(type_name)):
            places = sorted(self._places_of.get(name, ()))
            if places:
                return places
        return []

    def properties(self, type_name: str) -> TypeProperties:
        """The typical material (nearest that says) and the flags of the type and its categories."""
        material: str | None = None
        flags: set[str] = set()
        for name in (type_name, *self.categories_of(type_name)):
            flags.update(self._flags_of.get(name, ()))
            if material is None:
                material = self._material_of.get(name)
        return TypeProperties(material, frozenset(flags))

    def type_named(self, name: str) -> str | None:
        """The type ``name`` denotes: its label or synonym, else its longest known ending.

        After "of" the contents name the thing ("a bag of pretzels" -> ``Pretzels``, else
        the head: "a bag of stuff" -> ``Bag``), up to the next join word ("a bottle of bleach
        by the sink" -> ``Bleach``); after "with", "for", "from", "without" or a place word
        only the head does ("sponge with soap on it" -> ``Sponge``; "antifreeze in the
        bottle" -> None: where it is says not what it is). "bottled iced tea" -> ``IcedTea``;
        "the cups" -> ``Cup``; None when no ending is known. The word "toy" (or "plaything")
        before the ending makes the whole a toy ("a toy dog" is no dog); a kind of toy does not
        ("ball jar" is a jar, "game knife" a knife).
        """
        return self._read(name, self._names.get)

    def type_derived(self, name: str) -> str | None:
        """The type WordNet derives for ``name``, read as :meth:`type_named` reads it.

        For each phrase and ending :meth:`type_named` tries (the whole phrase first: WordNet
        knows "letter opener", a knife), the word's noun senses in :data:`HOUSEHOLD_LEXNAMES`,
        most frequent first, and every synset above them, nearest first: the first one with a
        lemma that is a type's label gives the type ("trowel" -> hand tool -> tool). A
        label, not a synonym: a synonym may be looser than WordNet's word ("device" for an
        appliance would make a doorstop one); and not a label WordNet reads two ways in one
        lexicographer file ("appliance" is also a gadget: a "gizmo" is no electrical
        appliance). None when the word's household senses lie in more than one lexicographer
        file (a "rail" is a bird or a bar, a "fryer" a chicken or
        a pan: the word alone does not say which), or when the type would make the thing
        food or drink (:data:`EXEMPTING_FLAGS`: a guess only ever adds what raises a hazard).
        Callers ask :meth:`type_named` first: the taxonomy's own words win.
        """
        return self._read(name, self._wordnet_type)

    def type_synonymous(self, word: str) -> str | None:
        """The type a label names that WordNet puts in one synset with ``word`` ("specs").

        Only ``word``'s own senses in :data:`HOUSEHOLD_LEXNAMES`, never a broader synset (a
        synonym names the same thing, a hypernym a kind of it: a "trowel" is no tool to fetch
        any tool for), a label WordNet reads one way in the synset's file, and one type in
        all ("specs" -> ``Spectacles``; a word two types share names neither). None when
        nothing is so named or WordNet is not installed.
        """
        nouns = shipped_nouns()
        if nouns is None:
            return None
        found: set[str] = set()
        for offset in nouns.senses(word):
            synset = nouns.synset(offset)
            if synset.lexname not in HOUSEHOLD_LEXNAMES:
                continue
            for lemma in synset.lemmas:
                named = self._labels.get(lemma.replace("_", " ").lower())
                if named is not None and not nouns.is_ambiguous(lemma, synset):
                    found.add(named)
        return next(iter(found)) if len(found) == 1 else None

    def _read(self, name: str, lookup: Callable[[str], str | None]) -> str | None:
        """The type ``lookup`` gives the longest ending of ``name`` it knows (see type_named)."""
        words = name.lower().split()[:NAME_WORDS]
        whole = next(filter(None, map(lookup, _forms(words))), None)  # "corn on the cob"
        if whole is not None:
            return whole
        at = join_at(words)
        phrases = [words]
        if at is not None:
            head, rest = words[:at], words[at + 1 :]
            # "bleach" of "bottle of bleach by the sink"; "milk of magnesia" whole
            contents = rest[: join_at(rest, NAME_JOINS - {"of"})]
            phrases = [contents, head] if words[at] == "of" else [head]
        for phrase in phrases:
            for start in range(len(phrase)):
                for form in _forms(phrase[start:]):
                    if (found := lookup(form)) is not None:
                        return self._toy_named(phrase[:start]) or found
        return None

    def _walk_wordnet(self, word: str) -> str | None:
        """The type of the nearest synset above ``word``'s household senses that a label names."""
        nouns = shipped_nouns()
        if nouns is None:
            return None
        senses = [nouns.synset(offset) for offset in nouns.senses(word)]
        if len({sense.lexname for sense in senses} & HOUSEHOLD_LEXNAMES) != 1:
            return None
        for synset in nouns.broader(word, HOUSEHOLD_LEXNAMES):
            for lemma in synset.lemmas:
                found = self._labels.get(lemma.replace("_", " ").lower())
                if found is not None and not nouns.is_ambiguous(lemma, synset):
                    return None if self.properties(found).flags & EXEMPTING_FLAGS else found
        return None

    def types_in(self, mixture: str) -> frozenset[str]:
        """Every type each part of ``mixture`` names, with its categories: what a liquid is.

        "wine and water" -> ``Wine``, ``AlcoholicDrink``, ``Drink``, ``Water``: a mixture is
        every part of it (one part that is alcohol makes it hold alcohol). Words after what a
        part names that are no noun say how it is ("a kitten asleep": a kitten); a noun is
        never dropped ("dog hair" names no dog).
        """
        lemmas = shipped_lemmas()
        found: set[str] = set()
        for part in _MIXTURE_PARTS.split(mixture.lower()):
            words = part.split()
            while len(words) > 1 and lemmas is not None and not lemmas.lemma_of(words[-1], "noun"):
                words = words[:-1]  # "asleep", "inside"
            named = self.type_named(" ".join(words)) if words else None
            if named is not None:
                found.update((named, *self.categories_of(named)))
        return frozenset(found)

    def _toy_named(self, modifiers: list[str]) -> str | None:
        """:data:`TOY` when one of ``modifiers`` names the category itself ("toy")."""
        return TOY if any(self._names.get(word) == TOY for word in modifiers) else None

    def materials(self) -> frozenset[str]:
        """Every material the taxonomy names."""
        return frozenset(str(value) for value in self.graph.objects(None, COG.typicalMaterial))


NAME_WORDS: Final = 16
"""The most words of a name read (a thing's name is a few words; the cost grows with them)."""

TOY = "Toy"
"""The category of things made to look like others: a toy of a kind is not of that kind."""

_MIXTURE_PARTS = re.compile(r",|&|\b(?:and|with|plus|mixed with)\b")
"""What joins the parts of a mixture ("gin and tonic", "water with a splash of wine")."""


def _forms(words: list[str]) -> Iterable[str]:
    """The phrase as said, then with each singular form of its last word."""
    if not words:
        return
    yield " ".join(words)
    for last in singular_forms(words[-1]):
        yield " ".join((*words[:-1], last))


def with_ontology(graph: Graph) -> Graph:
    """``graph``, with the ontology and the household taxonomy loaded unless it holds them."""
    if (ONTOLOGY_IRI, RDF.type, OWL.Ontology) not in graph:
        load_turtle(graph, ONTOLOGY_PATH)
        load_turtle(graph, TAXONOMY_PATH)
    return graph


def materialise_kinds(graph: Graph) -> int:
    """Add ``?type cog:kindOf ?category`` for every type and each broader type, itself included.

    The closure of ``cog:broaderType`` is computed once per load (the taxonomy, a scene that
    declares types), so that referent matching joins on one triple instead of walking a
    property path for every term. Returns how many triples were added (0 when up to date).
    """
    reader = TripleReader(graph)
    broader: dict[str, set[str]] = {
        node: set() for node, _ in reader.with_predicate(RDF.type, COG.ObjectType)
    }
    for narrower, (wider, what) in reader.with_predicate(COG.broaderType):
        if what == "iri":
            broader.setdefault(narrower, set()).add(wider)
            broader.setdefault(wider, set())
    known = {(node, kind) for node, (kind, _) in reader.with_predicate(COG.kindOf)}
    missing = []
    for node in broader:
        seen = {node}
        frontier = [node]
        while frontier:
            for wider in broader.get(frontier.pop(), ()):
                if wider not in seen:
                    seen.add(wider)
                    frontier.append(wider)
        missing += [(node, kind) for kind in seen if (node, kind) not in known]
    if missing:
        # loaded as Turtle (N-Triples), as the taxonomy was: the store's own parser adds them, at
        # a third of the cost of adding them one by one as rdflib terms
        text = "".join(f"<{node}> <{COG.kindOf}> <{kind}> .\n" for node, kind in missing)
        load_turtle(graph, "<cog:kindOf closure>", text=text)
    return len(missing)


def _objects_by_subject(reader: TripleReader, predicate: str) -> dict[str, list[Term]]:
    """The objects of ``predicate`` in the graph ``reader`` reads, by subject."""
    found: dict[str, list[Term]] = {}
    for subject, value in reader.with_predicate(predicate):
        found.setdefault(subject, []).append(value)
    return found


def _said_of(objects: dict[str, list[Term]]) -> dict[str, list[str]]:
    """The texts of ``objects`` (:func:`_objects_by_subject`) by type name (ontology IRIs)."""
    return {
        _local(subject): [text for text, _ in values]
        for subject, values in objects.items()
        if subject.startswith(COG)
    }


def _local(node: str) -> str:
    return node.removeprefix(COG)


@cache
def household_taxonomy() -> Taxonomy:
    """The shipped taxonomy, read once (it is package data and never changes at run time)."""
    return Taxonomy.load()
