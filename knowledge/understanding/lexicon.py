"""Lexicons: the words a domain's things go by, and where an utterance mentions them.

A :class:`Lexicon` maps canonical ids (``tiramisu``, ``living_room``, ``bottle_blue``) to their
surface forms ("tiramisu", "living room", "blue bottle") and spots them in an utterance with
:meth:`Lexicon.find`: case-insensitive, whole words, longest match first, no overlaps, simple
English plurals both ways ("berries" finds "berry", "peanut" "peanuts" unless an id is called
"peanut"), possessives ("anna's mug" finds "anna") and hyphens ("hot-water bottle"). Matching
walks a token trie: the utterance is split into words once, and every word is tried in its
few variants (as written, without apostrophes or a possessive ``'s``, singular), so a lookup
costs a handful of dictionary probes per word whatever the lexicon's size.

:func:`build_lexicons` builds the lexicons a domain pack declares (see
:class:`~knowledge.packs.domain_pack.LexiconSpec`): inline ``terms``, a ``query`` over the pack's
knowledge graph, or node families of the robot's ``scene`` graph.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from sys import intern
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from cogtree.knowledge.packs.domain_pack import DomainPack, SceneSource
from cogtree.knowledge.packs.lexicon_rows import query_entries
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_index import SCENE_CLASSES, Node, SceneIndex
from cogtree.knowledge.wording import name_parts, singular_forms

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


CLITICS: Final = {"ve": "have", "re": "are"}
"""Auxiliaries said as a clitic that only ever stand for one word ("what've" is "what have");
"'s", "'d" and "'ll" are left whole ("anna's", "i'd")."""


def tokenize(text: str) -> list[Token]:
    """The words of ``text`` in order, lowercased, with curly apostrophes made straight.

    A word with an auxiliary clitic of :data:`CLITICS` is two words: "what've" -> what, have.
    """
    tokens: list[Token] = []
    for match in WORD.finditer(text):
        word, start, end = match.group(0).lower().replace("\u2019", "'"), *match.span()
        stem, _, clitic = word.rpartition("'")
        if stem and clitic in CLITICS:
            tokens += [Token(stem, start, start + len(stem)), Token(CLITICS[clitic], end - 2, end)]
        else:
            tokens.append(Token(word, start, end))
    return tokens


def _variants(token: Token) -> Iterator[tuple[str, int]]:
    """Keys a word may match in the trie, each with where the match would end."""
    bare = token.text.replace("'", "")
    yield bare, token.end
    if token.text.endswith("'s") and len(token.text) > 2:
        yield token.text[:-2], token.end - 2
    for singular in singular_forms(bare)[1:]:
        yield singular, token.end


FORM_CACHE = 4096
"""Forms whose keys are kept (two caches): the forms many things share ("red mug") stay; a big
home's one-off names ("table 8334") pass through (65k kept cost 0.2 KB per object at 100k)."""


@lru_cache(maxsize=FORM_CACHE)
def _singular_keys(key: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The keys of a form's singulars when its last word is a plural ("peanuts" -> "peanut")."""
    return tuple((*key[:-1], singular) for singular in singular_forms(key[-1])[1:]) if key else ()


@lru_cache(maxsize=FORM_CACHE)
def _one(value: Any) -> Any:
    """``value``, one tuple for every equal one: the ranks and claims that many ids share."""
    return value


def _text(form: str) -> str:
    """A form as lexicons keep it: lowercase, single spaces (one string for many lexicons)."""
    return intern(" ".join(form.lower().split()))


@lru_cache(maxsize=FORM_CACHE)
def _form_key(form: str) -> tuple[str, ...]:
    """The trie key of a surface form: its words without apostrophes ("priya's desk")."""
    spaced = form.replace("_", " ")
    if "'" not in spaced and "\u2019" not in spaced:  # no clitic: the words as they are
        return tuple(intern(word.lower()) for word in WORD.findall(spaced))
    return tuple(intern(token.text.replace("'", "")) for token in tokenize(spaced))


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


Rank = tuple[int | str, ...]
"""Which of two ids sharing a form owns it: the lower rank (``(position,)`` by default), then
the lower id (so ids of one rank share it: a scene's thousands of labelled objects)."""


@dataclass(slots=True)
class _Node:
    """A trie node: the next words, and the id (with its rank) that owns the form ending here.

    Most forms of a big scene have one claimant (a room's own name): no dictionaries until needed.
    """

    children: dict[str, _Node] | None = None
    id: str | None = None
    rank: Claim = (0, ())
    claims: dict[str, Claim] | None = None
    """Every id with a claim on the form ending here, once a second one claims it."""

    def claimed(self) -> dict[str, Claim]:
        """Every id with a claim on the form ending here, with its claim (a new dictionary)."""
        if self.claims is not None:
            return dict(self.claims)
        return {} if self.id is None else {self.id: self.rank}


Claim = tuple[int, Rank]
"""A claim's strength: 0 for a form, 1 for the singular of a plural form; then its rank."""

Match = tuple[str, int, int, Claim]
"""A form found in an utterance: its owner's id, the index of its last word, its end offset
and the owner's claim."""


class Lexicon:
    """Canonical ids and their surface forms, with a fast, deterministic mention finder.

    Args:
        name: the lexicon's name (``ingredients``, ``objects``); mentions carry it.
        entries: canonical id -> surface forms. An id made of words (``tiramisu``,
            ``living_room``) is also a form of itself. A form claimed by two ids stays with
            the first (entries are read in order).

    The singulars of a plural form find its id too ("a peanut allergy" for "peanuts"):
    English names a thing by its singular in a compound and after "a" or "one" (an
    utterance's plural already finds a singular form, ``_variants``). A singular that some id
    has as a form of its own stays with that id, and is no label. ``singulars=False`` for a
    lexicon of particular things (the scene's): "Okafor's pills" is one thing's name, and
    "Okafor's pill" is not another way to say it.

    A lexicon that follows a changing world (the scene's) is edited in place with
    :meth:`put` and :meth:`drop`, each form claimed at a rank: a form belongs to the
    claimant of the lowest rank, whatever the order of the edits. Edits and the reads that
    list ids or forms take a lock; :meth:`find` reads the trie as it is.

    """

    def __init__(
        self,
        name: str,
        entries: Mapping[str, Iterable[str]],
        *,
        singulars: bool = True,
        kept: SceneLexicon | None = None,
    ) -> None:
        self.name = name
        self.singulars = singulars
        self.kept = kept
        """What keeps the forms and ranks of the ids put with ``record=False`` (the scene's)."""
        self._lock = threading.Lock()
        self._forms: dict[str, str | tuple[str, ...]] = {}
        """Every id with its forms in order (those it lost included): a single one as itself."""
        self._ranks: dict[str, Rank] = {}
        self._root = _Node()
        for position, (entry_id, forms) in enumerate(entries.items()):
            self.put(entry_id, [(form, (position,)) for form in forms], (position,))

    def put(
        self, entry_id: str, forms: Iterable[tuple[str, Rank]], rank: Rank, *, record: bool = True
    ) -> None:
        """Give ``entry_id`` these (form, rank) pairs, replacing any it had; ``rank``: its own.

        An id made of words is also a form of itself, at ``rank``. ``record=False``: the
        forms and rank are not kept here but by :attr:`kept` (which drops the id first).
        """
        own = [entry_id.replace("_", " ")] if _WORD_ID.fullmatch(entry_id.lower()) else []
        with self._lock:
            if entry_id in self._forms:
                self._drop(entry_id)
            texts: list[str] = []
            ranked: list[tuple[tuple[str, ...], Rank]] = []
            for form, at in [*forms, *((word, rank) for word in own)]:
                text = _text(form)
                key = _form_key(text)
                if key and text not in texts:
                    texts.append(text)
                    ranked.append((key, at))
                if key:
                    self._claim(entry_id, key, _one((0, at)))
            for key, at in ranked if self.singulars else ():
                for singular in _singular_keys(key):
                    self._claim(entry_id, singular, _one((1, at)))
            if record:
                self._forms[entry_id] = texts[0] if len(texts) == 1 else tuple(texts)
                self._ranks[entry_id] = rank

    def drop(self, entry_id: str, texts: list[str] | None = None) -> None:
        """Forget ``entry_id`` and its forms (``texts``, of an id not recorded here)."""
        with self._lock:
            self._drop(entry_id, texts)

    def _claim(self, entry_id: str, key: tuple[str, ...], rank: Claim) -> None:
        node = self._root
        for word in key:
            if node.children is None:
                node.children = {}
            child = node.children.get(word)
            if child is None:
                child = node.children[word] = _Node()
            node = child
        if node.claims is None and node.id is not None and node.id != entry_id:
            node.claims = {node.id: node.rank}
        if node.claims is not None:  # every claimant with its strongest claim (40k mugs)
            held = node.claims.get(entry_id)
            node.claims[entry_id] = rank if held is None or rank < held else held
        if node.id is None or (node.id != entry_id and (rank, entry_id) < (node.rank, node.id)):
            if node.id is not None:
                log.debug("lexicon %s: %r goes to %s, not %s", self.name, key, entry_id, node.id)
            node.id, node.rank = entry_id, rank

    def _drop(self, entry_id: str, texts: list[str] | None = None) -> None:
        listed = _listed(self._forms.pop(entry_id, ())) if texts is None else texts
        keys = [_form_key(text) for text in listed]
        derived = [singular for key in keys for singular in _singular_keys(key)]
        for key in [*keys, *derived]:
            node = self._node(key)
            if node is None:
                continue
            claims = node.claims
            if claims is not None:
                claims.pop(entry_id, None)
            if node.id != entry_id:
                continue
            if claims:
                node.id = min(claims, key=lambda claimant: (claims[claimant], claimant))
                node.rank = claims[node.id]
            else:
                node.id, node.rank, node.claims = None, (0, ()), None
        self._ranks.pop(entry_id, None)

    def _node(self, key: tuple[str, ...]) -> _Node | None:
        node: _Node | None = self._root
        for word in key:
            node = node.children.get(word) if node is not None and node.children else None
        return node

    def claimants(self, form: str) -> list[str]:
        """Every id that has ``form``, by rank (a mention finds only the first; "alex" may be two).

        The singular of a plural form has the ids of that plural only if no id has it as a form.
        """
        claims = self.claims(form)
        strongest = min((tier for tier, _ in claims.values()), default=0)
        found = [claimant for claimant, claim in claims.items() if claim[0] == strongest]
        return sorted(found, key=lambda claimant: (claims[claimant], claimant))

    def claims(self, form: str) -> dict[str, Claim]:
        """Every id that has ``form`` or its plural (a plural none has: its singular's, "kids")."""
        key = _form_key(" ".join(form.lower().split()))
        with self._lock:
            node = next(filter(None, map(self._node, (key, *_singular_keys(key)))), None)
            return {} if node is None else node.claimed()

    def ranks(self) -> dict[str, Rank]:
        """Every canonical id with its own rank."""
        with self._lock:
            return dict(self._ranks) | (self.kept.ranks() if self.kept is not None else {})

    @property
    def ids(self) -> list[str]:
        """Every canonical id, by rank (for a lexicon built at once: the order of its entries)."""
        ranks = self.ranks()
        return sorted(ranks, key=lambda entry_id: (ranks[entry_id], entry_id))

    def forms(self, entry_id: str) -> list[str]:
        """The surface forms ``entry_id`` owns (lowercase); KeyError for an unknown id."""
        with self._lock:
            texts = self._texts(entry_id)
            if texts is None:
                raise KeyError(f"lexicon {self.name} has no id {entry_id!r}")
            return [text for text in texts if self.owner(text)[0] == entry_id]

    def texts(self, entry_id: str) -> list[str]:
        """Every surface form given to ``entry_id``, those it lost included ([] if unknown)."""
        with self._lock:
            return self._texts(entry_id) or []

    def _texts(self, entry_id: str) -> list[str] | None:
        found = self._forms.get(entry_id)
        if found is not None:
            return _listed(found)
        return None if self.kept is None else self.kept.texts(entry_id)

    def owner(self, text: str) -> tuple[str | None, Claim]:
        """The id that owns the form ``text`` (lowercase), with its claim; (None, ...) if none."""
        node = self._node(_form_key(text))
        return (None, (0, ())) if node is None else (node.id, node.rank)

    def form_said(self, words: list[Token], entry_id: str) -> str:
        """The form of ``entry_id`` that ``words`` say ("tables" says "table"); else the words."""
        said = [{key for key, _ in _variants(token)} for token in words]
        for text in self.texts(entry_id):
            key = _form_key(text)
            if len(key) == len(said) and all(w in ks for w, ks in zip(key, said, strict=True)):
                return text
        return " ".join(token.text for token in words)

    def label(self, entry_id: str) -> str:
        """The first form of ``entry_id`` (its id when it has none)."""
        forms = self.forms(entry_id)
        return forms[0] if forms else entry_id

    def __len__(self) -> int:
        return len(self._forms) + (len(self.kept) if self.kept is not None else 0)

    def __contains__(self, entry_id: object) -> bool:
        kept = self.kept is not None and isinstance(entry_id, str) and self.kept.texts(entry_id)
        return entry_id in self._forms or bool(kept)

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self)} ids)"

    def find(self, text: str) -> list[Mention]:
        """Every mention in ``text``: longest match first, no overlaps, in text order."""
        tokens = tokenize(text)
        found: list[Mention] = []
        index = 0
        while index < len(tokens):
            match = self.match_at(tokens, index)
            if match is None:
                index += 1
                continue
            entry_id, last, end, _ = match
            start = tokens[index].start
            found.append(
                Mention(lexicon=self.name, id=entry_id, text=text[start:end], start=start, end=end)
            )
            index = last + 1
        return found

    def match_at(self, tokens: list[Token], first: int) -> Match | None:
        """The longest form starting at word ``first`` (see :data:`Match`)."""
        best: Match | None = None
        frontier = [self._root]
        index = first
        while frontier and index < len(tokens):
            reached: list[_Node] = []
            for node in frontier:
                if node.children is None:
                    continue
                for key, end in _variants(tokens[index]):
                    child = node.children.get(key)
                    if child is None:
                        continue
                    reached.append(child)
                    if child.id is not None and (best is None or best[1] < index):
                        best = (child.id, index, end, child.rank)
            frontier = reached
            index += 1
        return best


def _listed(texts: str | tuple[str, ...]) -> list[str]:
    """An id's forms as :attr:`Lexicon._forms` keeps them, as a list."""
    return [texts] if isinstance(texts, str) else list(texts)


# -- lexicons of a domain pack ------------------------------------------------------------------


def _forms_of(node: Node, index: SceneIndex) -> list[str]:
    """A node's labels, synonyms, other names ("dad") and a person's name words ("weber")."""
    named = (*node.synonyms, *index.other_names(node))
    forms = [*node.labels, *dict.fromkeys(word for word in named if word not in node.labels)]
    people = node.labels if "Human" in node.classes else ()  # "weber" for "dr weber"
    return forms + [
        part for name in people if (parts := name_parts(name)) != [name] for part in parts
    ]


class SceneLexicon:
    """A lexicon of the scene's things (``families`` of nodes), read from the scene index.

    Its ids are the nodes of the families' classes, with their labels and synonyms (a
    person also by the words of their name: "weber" for "dr weber"), and ``type:<Type>`` for
    every type of those nodes and each broader type, with the type's labels and synonyms.
    Where two ids share a form, a node's own name wins over a type's; between nodes, the
    first family, a labelled node before one with synonyms only, then the lower id; between
    types, the first family, a type's label before another's synonym, then the lower id.

    :meth:`update` edits :attr:`lexicon` for the nodes whose names changed, at a cost that
    follows them, not the scene; a rebuild (after a bulk load) makes a new lexicon and
    swaps it in. A node's forms and rank are not copied into the lexicon: they are read from
    the index's node as it was put, which this keeps (:meth:`follow` swaps in the index's
    new node when it changed but for its names: no old node is held).
    """

    def __init__(self, name: str, families: Iterable[SceneSource], index: SceneIndex) -> None:
        self.name = name
        self.index = index
        self._classes = [SCENE_CLASSES[family] for family in families]
        self._counts: dict[str, list[int]] = {}
        """Type -> how many nodes of each family are of it (or of a type under it)."""
        self._family_of_type: dict[str, int] = {}
        self._nodes: dict[str, Node] = {}
        """Every node of the families as it was put (what its entry and counts were made of)."""
        self._named = 0  # how many of them have forms (are ids of the lexicon)
        self._families: dict[tuple[str, ...], tuple[int, ...]] = {}
        self._vocabulary = index.vocabulary
        self._kinds: dict[tuple[str, ...], frozenset[str]] = {}
        """Types -> their kinds, for :attr:`_vocabulary` (nodes of the same types share one)."""
        self.lexicon = Lexicon(name, {}, singulars=False, kept=self)
        self.update(None)

    def update(self, renamed: Iterable[str] | None) -> None:
        """Follow a change of the names of ``renamed`` nodes (None: of any: rebuild)."""
        if renamed is not None:
            for node_id in sorted(renamed):
                self._remove(node_id)
                self._put(node_id)
            return
        was = self._counts, self._family_of_type, self._nodes, self._named, self.lexicon
        self._counts, self._family_of_type, self._nodes, self._named = {}, {}, {}, 0
        self.lexicon = Lexicon(self.name, {}, singulars=False, kept=self)
        try:
            for node_id in sorted(self.index.of_class(*frozenset().union(*self._classes))):
                self._put(node_id, types=False)
            for kind in sorted(self._counts):
                self._put_type(kind)
        except BaseException:
            self._counts, self._family_of_type, self._nodes, self._named, self.lexicon = was
            raise

    def follow(self, changed: Iterable[str]) -> None:
        """Keep the index's node now for ``changed`` nodes whose names are the same (moved)."""
        for node_id in changed:
            was, now = self._nodes.get(node_id), self.index.node(node_id)
            if was is not None and now is not None and now.naming() == was.naming():
                self._nodes[node_id] = now

    def texts(self, node_id: str) -> list[str] | None:
        """The forms of the node ``node_id`` as its entry has them (None: no entry)."""
        node = self._nodes.get(node_id)
        forms = _forms_of(node, self.index) if node is not None else []
        if not forms:
            return None
        own = [node_id.replace("_", " ")] if _WORD_ID.fullmatch(node_id.lower()) else []
        return list(dict.fromkeys(t for t in map(_text, [*forms, *own]) if _form_key(t)))

    def ranks(self) -> dict[str, Rank]:
        """The rank of every node with an entry."""
        nodes = list(self._nodes.items())
        return {node_id: self._rank(node) for node_id, node in nodes if _forms_of(node, self.index)}

    def __len__(self) -> int:
        return self._named

    def _rank(self, node: Node) -> Rank:
        """One rank for every node alike (ties: the lower id)."""
        return _one((0, self._families_of(node.classes)[0], 0 if node.labels else 1))  # type: ignore[no-any-return]

    def _put(self, node_id: str, *, types: bool = True) -> None:
        """Put the node's entry and count its types (``types``: and put their entries now)."""
        node = self.index.node(node_id)
        if node is None:
            return
        families = self._families_of(node.classes)
        if not families:
            return
        self._nodes[node_id] = node
        if forms := _forms_of(node, self.index):
            rank = self._rank(node)
            self.lexicon.put(node_id, [(form, rank) for form in forms], rank, record=False)
            self._named += 1
        for kind in self._kinds_of(node.types):
            counts = self._counts.get(kind)
            if counts is None:
                counts = self._counts[kind] = [0] * len(self._classes)
            for family in families:
                counts[family] += 1
            if types:
                self._put_type(kind)

    def _families_of(self, classes: tuple[str, ...]) -> tuple[int, ...]:
        """The positions of the families a node of ``classes`` belongs to (one tuple each)."""
        families = self._families.get(classes)
        if families is None:
            found = frozenset(classes)
            families = tuple(i for i, wanted in enumerate(self._classes) if wanted & found)
            self._families[classes] = families
        return families

    def _kinds_of(self, types: tuple[str, ...]) -> frozenset[str]:
        """``types`` and every broader type (one frozenset per ``types``, shared by nodes)."""
        vocabulary = self.index.vocabulary
        if vocabulary is not self._vocabulary:
            self._vocabulary, self._kinds = vocabulary, {}
        kinds = self._kinds.get(types)
        if kinds is None:
            kinds = frozenset(k for t in types for k in vocabulary.kinds.get(t, {t}))
            self._kinds[types] = kinds
        return kinds

    def _remove(self, node_id: str) -> None:
        texts, node = self.texts(node_id), self._nodes.pop(node_id, None)
        if node is None:
            return
        if texts:
            self.lexicon.drop(node_id, texts)
            self._named -= 1
        families = self._families_of(node.classes)
        for kind in self._kinds_of(node.types):
            for family in families:
                self._counts[kind][family] -= 1
            self._put_type(kind)

    def _put_type(self, kind: str) -> None:
        """Give ``type:<kind>`` the rank of the first family that has it, or drop it."""
        counts = self._counts.get(kind, [])
        family = next((i for i, count in enumerate(counts) if count), None)
        if family == self._family_of_type.get(kind):
            return
        entry_id = TYPE_PREFIX + kind
        vocabulary = self.index.vocabulary
        labels = vocabulary.type_labels.get(kind, vocabulary.labels.get(kind, ()))
        synonyms = vocabulary.type_synonyms.get(kind, ())
        if family is None or not (labels or synonyms):
            self._family_of_type.pop(kind, None)
            self.lexicon.drop(entry_id)
            return
        self._family_of_type[kind] = family
        forms = [(label, (2, family, 2, kind)) for label in labels]
        forms += [(word, (2, family, 3, kind)) for word in synonyms if word not in labels]
        self.lexicon.put(entry_id, forms, forms[0][1])


def build_lexicons(pack: DomainPack, scene: SceneGraph | None) -> dict[str, Lexicon]:
    """The lexicons ``pack`` declares, by name.

    ``terms`` lexicons are inline; ``query`` lexicons run the pack's query over its knowledge
    graph (rows ``?id ?label`` and optionally ``?alias``; ids are the IRIs' local names);
    ``scene`` lexicons read labels, synonyms and type names of the scene's nodes (type names
    map to ``type:<Type>`` ids) and are empty when ``scene`` is None. Raises
    :class:`~knowledge.packs.domain_pack.PackError` when a lexicon query cannot run.
    """
    lexicons: dict[str, Lexicon] = {}
    for name, spec in pack.manifest.lexicons.items():
        source = spec.source()
        if source == "terms":
            lexicons[name] = Lexicon(name, spec.terms)
        elif source == "query":
            lexicons[name] = Lexicon(name, query_entries(pack, name, spec))
        elif scene is None:
            lexicons[name] = Lexicon(name, {})
        else:
            lexicons[name] = SceneLexicon(name, spec.scene, scene.index).lexicon
        log.debug("domain %s: lexicon %s has %d ids", pack.name, name, len(lexicons[name]))
    return lexicons
