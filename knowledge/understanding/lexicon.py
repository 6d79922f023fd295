"""Lexicons: the words a domain's things go by, and where an utterance mentions them.

A :class:`Lexicon` maps canonical ids (``tiramisu``, ``living_room``, ``bottle_blue``) to their
surface forms ("tiramisu", "living room", "blue bottle") and spots them in an utterance with
:meth:`Lexicon.find`: case-insensitive, whole words, longest match first, no overlaps, simple
English plurals both ways ("peanuts" finds "peanut", "dishes" "dish", "berries" "berry"; and
"peanut" finds "peanuts", unless another id is called "peanut"), possessives
("anna's mug" finds "anna") and hyphens ("hot-water bottle" is "hot water bottle").

Matching walks a token trie: the utterance is split into words once and every word is tried
in its few variants (as written, without apostrophes, without a possessive ``'s``, singular),
so a lookup costs a handful of dictionary probes per word whatever the lexicon's size.

:func:`build_lexicons` builds the lexicons a domain pack declares (see
:class:`~knowledge.packs.domain_pack.LexiconSpec`): inline ``terms``, a ``query`` over the pack's
knowledge graph, or node families of the robot's ``scene`` graph.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict
from rdflib import Literal, URIRef
from rdflib.query import ResultRow

from cogtree.knowledge.packs.domain_pack import DomainPack, LexiconSpec, PackError, SceneSource
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.wording import singular_forms

log = logging.getLogger(__name__)

TYPE_PREFIX = "type:"
"""Prefix of the ids of object-type forms in scene lexicons (``type:Bottle``)."""

WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
"""A word: letters and digits, with inner apostrophes ("anna's", "don't"); hyphens split."""

_WORD_ID = re.compile(r"[a-z]+(?:_[a-z]+)*")
"""An id that is itself words (``tiramisu``, ``living_room``), so it counts as a form."""


@dataclass(frozen=True)
class Token:
    """One word of an utterance: lowercased ``text`` and its character offsets."""

    text: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """The words of ``text`` in order, lowercased, with curly apostrophes made straight."""
    return [
        Token(match.group(0).lower().replace("\u2019", "'"), match.start(), match.end())
        for match in WORD.finditer(text)
    ]


def _variants(token: Token) -> Iterator[tuple[str, int]]:
    """Keys a word may match in the trie, each with where the match would end."""
    bare = token.text.replace("'", "")
    yield bare, token.end
    if token.text.endswith("'s") and len(token.text) > 2:
        yield token.text[:-2], token.end - 2
    for singular in singular_forms(bare)[1:]:
        yield singular, token.end


def _form_key(form: str) -> tuple[str, ...]:
    """The trie key of a surface form: its words without apostrophes ("priya's desk")."""
    return tuple(token.text.replace("'", "") for token in tokenize(form.replace("_", " ")))


class Mention(BaseModel):
    """One place where an utterance names something a lexicon knows."""

    model_config = ConfigDict(frozen=True)

    lexicon: str
    id: str
    text: str
    """The words as they appear in the utterance."""
    start: int
    end: int
    """Character offsets of ``text`` in the utterance."""


@dataclass
class _Node:
    """A trie node: the next words, and the id whose form ends here."""

    children: dict[str, _Node] = field(default_factory=dict)
    id: str | None = None


class Lexicon:
    """Canonical ids and their surface forms, with a fast, deterministic mention finder.

    Args:
        name: the lexicon's name (``ingredients``, ``objects``); mentions carry it.
        entries: canonical id -> surface forms. An id made of words (``tiramisu``,
            ``living_room``) is also a form of itself. A form claimed by two ids stays with
            the first (entries are read in order).

    """

    def __init__(self, name: str, entries: Mapping[str, Iterable[str]]) -> None:
        self.name = name
        self._forms: dict[str, list[str]] = {}
        self._claims: dict[tuple[str, ...], dict[str, None]] = {}
        """Every id that has a form, in order (a dict as an ordered set: 40k mugs stay linear)."""
        self._root = _Node()
        for entry_id, forms in entries.items():
            own = [entry_id.replace("_", " ")] if _WORD_ID.fullmatch(entry_id.lower()) else []
            for form in [*forms, *own]:
                self._add(entry_id, " ".join(form.lower().split()))
            self._forms.setdefault(entry_id, [])
        for entry_id, forms in list(self._forms.items()):
            for form in forms:
                self._add_singular(entry_id, _form_key(form))

    def _add(self, entry_id: str, form: str) -> None:
        key = _form_key(form)
        if not key:
            return
        self._claims.setdefault(tuple(key), {})[entry_id] = None
        node = self._root
        for word in key:
            node = node.children.setdefault(word, _Node())
        if node.id is None:
            node.id = entry_id
        elif node.id != entry_id:
            log.debug("lexicon %s: %r stays with %s, not %s", self.name, form, node.id, entry_id)
            return
        forms = self._forms.setdefault(entry_id, [])
        if form not in forms:
            forms.append(form)

    def _add_singular(self, entry_id: str, key: tuple[str, ...]) -> None:
        """Let the singulars of a plural form find ``entry_id`` ("peanut" for "peanuts").

        English names a food by its singular in a compound ("a peanut allergy") and after
        "a" or "one"; an utterance's plural already finds a singular form (``_variants``).
        A singular another id has as a form of its own stays with that id, and is no label.
        """
        for singular in singular_forms(key[-1])[1:]:
            derived = (*key[:-1], singular)
            if derived in self._claims:
                continue
            self._claims[derived] = {entry_id: None}
            node = self._root
            for word in derived:
                node = node.children.setdefault(word, _Node())
            node.id = entry_id

    def claimants(self, form: str) -> list[str]:
        """Every id that has ``form`` (a mention finds only the first; "alex" may be two)."""
        return list(self._claims.get(tuple(_form_key(" ".join(form.lower().split()))), {}))

    @property
    def ids(self) -> list[str]:
        """Every canonical id, in the order the entries gave them."""
        return list(self._forms)

    def forms(self, entry_id: str) -> list[str]:
        """The surface forms of ``entry_id`` (lowercase); KeyError for an unknown id."""
        try:
            return list(self._forms[entry_id])
        except KeyError:
            raise KeyError(f"lexicon {self.name} has no id {entry_id!r}") from None

    def label(self, entry_id: str) -> str:
        """The first form of ``entry_id`` (its id when it has none)."""
        forms = self.forms(entry_id)
        return forms[0] if forms else entry_id

    def __len__(self) -> int:
        return len(self._forms)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._forms

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self)} ids)"

    def find(self, text: str) -> list[Mention]:
        """Every mention in ``text``: longest match first, no overlaps, in text order."""
        tokens = tokenize(text)
        found: list[Mention] = []
        index = 0
        while index < len(tokens):
            match = self._longest_at(tokens, index)
            if match is None:
                index += 1
                continue
            entry_id, last, end = match
            start = tokens[index].start
            found.append(
                Mention(lexicon=self.name, id=entry_id, text=text[start:end], start=start, end=end)
            )
            index = last + 1
        return found

    def _longest_at(self, tokens: list[Token], first: int) -> tuple[str, int, int] | None:
        """(id, index of the last word, end offset) of the longest form starting at ``first``."""
        best: tuple[str, int, int] | None = None
        frontier = [self._root]
        index = first
        while frontier and index < len(tokens):
            reached: list[_Node] = []
            for node in frontier:
                for key, end in _variants(tokens[index]):
                    child = node.children.get(key)
                    if child is None:
                        continue
                    reached.append(child)
                    if child.id is not None and (best is None or best[1] < index):
                        best = (child.id, index, end)
            frontier = reached
            index += 1
        return best


# -- lexicons of a domain pack ------------------------------------------------------------------

_SCENE_CLASSES: Mapping[str, tuple[str, ...]] = {
    "objects": ("Object",),
    "furniture": ("Furniture", "Surface", "Container"),
    "rooms": ("Room",),
    "people": ("Human",),
    "places": ("Furniture", "Surface", "Container", "Room"),
}
"""The ``cog:`` classes whose nodes make up each scene family."""

_SCENE_FORMS = """
PREFIX cog: <https://cogtree.dev/ontology#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?node ?class ?form ?how ?type WHERE {
  ?node a ?class .
  FILTER(?class IN (cog:Object, cog:Furniture, cog:Surface, cog:Container, cog:Room, cog:Human))
  {
    ?node rdfs:label ?form . BIND(0 AS ?how)
  } UNION {
    ?node cog:synonym ?form . BIND(1 AS ?how)
  } UNION {
    ?node cog:objectType/cog:broaderType* ?type .
    ?type rdfs:label ?form . BIND(2 AS ?how)
  } UNION {
    ?node cog:objectType/cog:broaderType* ?type .
    ?type cog:synonym ?form . BIND(3 AS ?how)
  }
}
"""
"""Every name of the scene's things: labels (0), synonyms (1), type labels (2) and synonyms (3)."""


@dataclass
class _SceneForms:
    """The scene's names by family: node id -> forms, and type id -> forms, in priority order."""

    nodes: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    names: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    types: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    @classmethod
    def read(cls, scene: SceneGraph) -> _SceneForms:
        rows = sorted(
            (
                int(row["how"]),
                SceneGraph.short_id(row["node"]),
                SceneGraph.short_id(row["class"]),
                str(row["form"]),
                SceneGraph.short_id(row["type"]) if row["type"] is not None else "",
            )
            for row in scene.graph.query(_SCENE_FORMS)
            if isinstance(row, ResultRow)
        )
        forms = cls()
        for how, node, node_class, form, node_type in rows:
            for family, classes in _SCENE_CLASSES.items():
                if node_class not in classes:
                    continue
                if how < 2:
                    forms.nodes.setdefault(family, {}).setdefault(node, []).append(form)
                if how == 0 and node_class == "Human":
                    parts = _name_parts(form)
                    if parts != [form]:
                        forms.names.setdefault(family, {}).setdefault(node, []).extend(parts)
                else:
                    type_id = TYPE_PREFIX + node_type
                    forms.types.setdefault(family, {}).setdefault(type_id, []).append(form)
        return forms

    def entries(self, families: Iterable[SceneSource]) -> dict[str, list[str]]:
        """Forms of ``families``' nodes by id, in the order that settles a shared form.

        Node labels and synonyms come first, then the words of people's names ("weber" for
        "dr weber"), then type names.
        """
        entries: dict[str, list[str]] = {}
        for table in (self.nodes, self.names, self.types):
            for family in families:
                for entry_id, forms in table.get(family, {}).items():
                    known = entries.setdefault(entry_id, [])
                    known.extend(form for form in forms if form not in known)
        return entries


TITLES = frozenset(["mr", "mrs", "ms", "miss", "dr", "prof", "sir", "madam"])
"""Words of a person's label that do not name them on their own."""

_NAME_ENDS = frozenset(["at", "of", "in", "from", "on", "for", "and", "with", "by", "the"])
"""Words after a person's name in a label ("nadia at reception")."""


def _name_parts(label: str) -> list[str]:
    """The words of a person's label that name them alone: "dr weber" -> ["weber"]."""
    parts = []
    for word in label.split():
        if word in _NAME_ENDS:
            break
        if word.strip(".") not in TITLES:
            parts.append(word)
    return parts


def build_lexicons(pack: DomainPack, scene: SceneGraph | None) -> dict[str, Lexicon]:
    """The lexicons ``pack`` declares, by name.

    ``terms`` lexicons are inline; ``query`` lexicons run the pack's query over its knowledge
    graph (rows ``?id ?label`` and optionally ``?alias``; ids are the IRIs' local names);
    ``scene`` lexicons read labels, synonyms and type names of the scene's nodes (type names
    map to ``type:<Type>`` ids) and are empty when ``scene`` is None. Raises
    :class:`~knowledge.packs.domain_pack.PackError` when a lexicon query cannot run.
    """
    scene_forms: _SceneForms | None = None
    lexicons: dict[str, Lexicon] = {}
    for name, spec in pack.manifest.lexicons.items():
        source = spec.source()
        if source == "terms":
            lexicons[name] = Lexicon(name, spec.terms)
        elif source == "query":
            lexicons[name] = Lexicon(name, _query_entries(pack, name, spec))
        elif scene is None:
            lexicons[name] = Lexicon(name, {})
        else:
            if scene_forms is None:
                scene_forms = _SceneForms.read(scene)
            lexicons[name] = Lexicon(name, scene_forms.entries(spec.scene))
        log.debug("domain %s: lexicon %s has %d ids", pack.name, name, len(lexicons[name]))
    return lexicons


def _query_entries(pack: DomainPack, name: str, spec: LexiconSpec) -> dict[str, list[str]]:
    """Canonical id -> forms from the lexicon's query over the pack's knowledge graph."""
    assert spec.query is not None
    query = pack.query(spec.query)
    text = query.bind(**dict.fromkeys(query.parameters))
    graph = pack.knowledge_graph()
    try:
        rows = [row.asdict() for row in graph.query(text) if isinstance(row, ResultRow)]
    except Exception as error:  # rdflib/Oxigraph raise several types for a bad query
        raise PackError(
            f"domain {pack.name}: lexicon {name}: query {spec.query}.rq failed: "
            f"{type(error).__name__}: {error}; it must SELECT ?id ?label (and optionally ?alias)"
        ) from error
    entries: dict[str, list[str]] = {}
    for row in rows:
        if "id" not in row or "label" not in row:
            raise PackError(
                f"domain {pack.name}: lexicon {name}: query {spec.query}.rq must SELECT "
                f"?id and ?label (got {', '.join(sorted(row)) or 'no columns'})"
            )
        forms = entries.setdefault(_local_name(row["id"]), [])
        for column in ("label", "alias"):
            value = row.get(column)
            if isinstance(value, Literal | URIRef) and str(value) not in forms:
                forms.append(str(value))
    return entries


def _local_name(term: object) -> str:
    """The local name of an IRI (after ``#`` or the last ``/``); a literal as it is."""
    text = str(term)
    if isinstance(term, URIRef):
        return re.split(r"[#/]", text)[-1] or text
    return text
