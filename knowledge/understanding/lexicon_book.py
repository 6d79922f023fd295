"""Every domain pack's lexicons, built once and kept current with the scene.

Lexicons drawn from a pack's own knowledge graph or written inline do not change while the
robot runs; lexicons drawn from the scene do, as the robot sees new things. A
:class:`LexiconBook` builds each pack's lexicons once: at session setup those of the packs
that read the scene (:meth:`LexiconBook.prepare`), the others on their first need, which the
scope gate's preparation meets on a worker (:meth:`LexiconBook.deferred`); a book that was
not prepared builds a pack on first use. Its scene lexicons read the belief's
:class:`~knowledge.scene.scene_index.SceneIndex` through one
:class:`~knowledge.understanding.lexicon.SceneLexicon` per basic family (objects, furniture,
rooms, people: a family that is the union of others, places, is read through them), so each
node is put into a lexicon once or twice, not once per scene lexicon a pack declares; a
pack's scene lexicon is a :class:`FamilyLexicon` over those, shared by the packs that
declare the same one. The index tells the book, in the writer's thread, which
nodes' names a write changed, and only those entries are edited; a move or a new colour
changes no name and costs the lexicons nothing. Nothing here runs on the tick thread of a
prepared book. Nodes hold :meth:`LexiconBook.view` mappings, which always answer from the current
lexicons, so one book shared through the ``lexicons`` setup handle serves the whole tree.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import get_args

from cogtree.knowledge.packs.domain_pack import DomainPack, PackError, SceneSource
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_index import SCENE_CLASSES
from cogtree.knowledge.understanding.lexicon import (
    Claim,
    Lexicon,
    Match,
    Rank,
    SceneLexicon,
    Token,
    build_lexicons,
)

log = logging.getLogger(__name__)

SLOW_BUILD_S = 1.0
"""A pack whose lexicons take longer than this to build is reported at INFO (a big belief)."""


class LexiconBook:
    """The lexicons of every pack in ``registry``, over ``scene`` (None: no scene lexicons).

    A pack whose lexicons cannot be built (a failing lexicon query) gets none, with a
    warning: its fast paths are weaker, the tree still runs. Thread-safe.
    """

    def __init__(self, registry: DomainRegistry, scene: SceneGraph | None = None) -> None:
        self.registry = registry
        self.scene = scene
        self._lock = threading.Lock()
        self._built: dict[str, dict[str, Lexicon]] = {}
        self._families: dict[str, SceneLexicon] = {}
        """Basic family -> its nodes' lexicon (what every scene lexicon reads)."""
        self._scene_lexicons: dict[tuple[str, tuple[str, ...]], FamilyLexicon] = {}
        self._deferred: set[str] = set()
        if scene is not None:
            scene.index.add_listener(self._renamed)

    def prepare(self) -> None:
        """Build now (at setup) the lexicons of every pack that reads the scene.

        So no turn waits for those of a big belief. A pack whose lexicons are its own
        knowledge alone (inline terms, its graph's queries: they do not grow with the world)
        is left for its first need (:meth:`deferred`): a turn about the home never pays for
        the advisor's dish and ingredient queries.
        """
        packs = self.registry.names
        self.build(name for name in packs if _reads_scene(self.registry.get(name)))
        with self._lock:
            self._deferred = {name for name in packs if name not in self._built}

    def build(self, packs: Iterable[str]) -> None:
        """Build the lexicons of ``packs`` that are not built yet (each pack's time logged)."""
        for pack in packs:
            started = time.perf_counter()
            built = self.current(pack)
            seconds = time.perf_counter() - started
            level = logging.INFO if seconds > SLOW_BUILD_S else logging.DEBUG
            log.log(level, "domain %s: %d lexicons built in %.1f s", pack, len(built), seconds)

    def deferred(self, packs: Iterable[str]) -> list[str]:
        """Those of ``packs`` that :meth:`prepare` left for their first need, still unbuilt.

        A node builds them on a worker (its preparation) before its tick reads them.
        """
        with self._lock:
            return [pack for pack in packs if pack in self._deferred and pack not in self._built]

    def names(self, pack: str) -> Collection[str]:
        """The names of ``pack``'s lexicons: the built ones, else those its manifest declares."""
        with self._lock:
            built = self._built.get(pack)
        return built if built is not None else self.registry.get(pack).manifest.lexicons

    def current(self, pack: str) -> dict[str, Lexicon]:
        """The lexicons of ``pack`` now (built on first use unless :meth:`prepare` ran).

        The pack's own lexicons are built outside the book's lock, so a worker building a
        deferred pack keeps no tick from reading the others; the first build installed wins.
        Its scene lexicons are joined under the lock (they share the families' lexicons).
        """
        with self._lock:
            built = self._built.get(pack)
        if built is not None:
            return built
        own = self._own(pack)
        with self._lock:
            built = self._built.get(pack)
            if built is None:
                built = self._built[pack] = self._with_scene(pack, own)
            return built

    def view(self, pack: str) -> Mapping[str, Lexicon]:
        """A live mapping of ``pack``'s lexicons by name (it follows the scene graph)."""
        return _PackLexicons(self, pack)

    def views(self) -> dict[str, Mapping[str, Lexicon]]:
        """:meth:`view` of every pack, by pack name."""
        return {name: self.view(name) for name in self.registry.names}

    def _own(self, pack: str) -> dict[str, Lexicon] | None:
        """``pack``'s lexicons drawn from its own knowledge (None: they cannot be built)."""
        try:
            return build_lexicons(self.registry.get(pack), None)
        except PackError as error:
            log.warning("domain %s: lexicons unavailable, fast paths weaker: %s", pack, error)
            return None

    def _with_scene(self, pack: str, own: dict[str, Lexicon] | None) -> dict[str, Lexicon]:
        """``own`` with ``pack``'s scene lexicons joined (hold the lock); none if ``own`` failed."""
        if own is None:
            return {}
        if self.scene is not None:
            for name, spec in self.registry.get(pack).manifest.lexicons.items():
                if spec.source() == "scene":
                    key = (name, tuple(spec.scene))
                    if key not in self._scene_lexicons:
                        groups = [self._parts(family) for family in spec.scene]
                        self._scene_lexicons[key] = FamilyLexicon(name, groups)
                    own[name] = self._scene_lexicons[key]
        return own

    def _parts(self, family: SceneSource) -> list[SceneLexicon]:
        """The basic families' lexicons that ``family`` is read through (built on first use)."""
        assert self.scene is not None
        parts = basic_families(family)
        for part in parts:
            if part not in self._families:
                self._families[part] = SceneLexicon(part, [part], self.scene.index)
        return [self._families[part] for part in parts]

    def _renamed(self, nodes: frozenset[str] | None, changed: frozenset[str]) -> None:
        """Edit the families' lexicons for ``nodes`` whose names changed (None: rebuild them).

        The nodes ``changed`` otherwise: each family holds the index's new node.
        """
        with self._lock:
            for family in self._families.values():
                if nodes is None or nodes:
                    family.update(nodes)
                family.follow(changed)


def _reads_scene(pack: DomainPack) -> bool:
    return any(spec.source() == "scene" for spec in pack.manifest.lexicons.values())


def scene_names(pack: DomainPack, lexicons: Mapping[str, Lexicon]) -> Callable[[str], list[str]]:
    """The names of the belief's things some words mention, as said, by ``pack``'s scene lexicons.

    ("a cheese sandwich" -> ["cheese"] in a kitchen holding cheddar cheese.) People are no
    things: "make Tom an apple salad" mentions the apple, not Tom.
    """
    scene = [
        lexicon
        for name, lexicon in lexicons.items()
        if (spec := pack.manifest.lexicons.get(name)) is not None
        and spec.scene
        and "people" not in spec.scene
    ]
    return lambda words: [mention.text for lexicon in scene for mention in lexicon.find(words)]


def basic_families(family: SceneSource) -> list[SceneSource]:
    """The scene families ``family`` is the union of ("places": furniture and rooms), or itself.

    A family is read through others when their classes, each a strict part of its own, make
    up all of them; their nodes then share its rank, as one family.
    """
    classes = SCENE_CLASSES[family]
    parts: list[SceneSource] = sorted(
        f for f in get_args(SceneSource) if SCENE_CLASSES[f] < classes
    )
    covered = frozenset[str]().union(*(SCENE_CLASSES[part] for part in parts))
    return parts if parts and covered == classes else [family]


class FamilyLexicon(Lexicon):
    """A scene lexicon of several families read through their own lexicons, never copied.

    ``groups``: the families in order, each as the lexicons of the basic families it is made
    of. An entry ranks as it does in its basic family's lexicon, with that family's position
    in place of its own (every basic family's lexicon ranks by ``(tier, family, ...)`` with
    family 0), so a form goes to the same id as in one lexicon built of all the nodes: a
    node's own name before a type's, then the first family. At the same span of an
    utterance, the lower rank wins, then the lower id. Read-only: the families' lexicons
    are edited instead.
    """

    def __init__(self, name: str, groups: Sequence[Sequence[SceneLexicon]]) -> None:
        super().__init__(name, {}, singulars=False)
        self._parts = [(position, part) for position, group in enumerate(groups) for part in group]

    def _lexicons(self) -> Iterator[tuple[int, Lexicon]]:
        for position, part in self._parts:
            yield position, part.lexicon

    def put(
        self, entry_id: str, forms: Iterable[tuple[str, Rank]], rank: Rank, *, record: bool = True
    ) -> None:
        """Not supported: the families' lexicons are edited, this one reads them."""
        raise TypeError(f"lexicon {self.name} reads the scene's families; it is not edited")

    def drop(self, entry_id: str, texts: list[str] | None = None) -> None:
        """Not supported (see :meth:`put`)."""
        raise TypeError(f"lexicon {self.name} reads the scene's families; it is not edited")

    def match_at(self, tokens: list[Token], first: int) -> Match | None:
        """The longest form of any family at word ``first``; the lower rank at the same span."""
        if len(self._parts) == 1:  # one family, at position 0: its own ranks
            return self._parts[0][1].lexicon.match_at(tokens, first)
        best: Match | None = None
        best_order: tuple[int, int, Claim, str] = (0, 0, (0, ()), "")
        for position, lexicon in self._lexicons():
            found = lexicon.match_at(tokens, first)
            if found is None:
                continue
            entry_id, last, end, claim = found
            found = (entry_id, last, end, _moved(claim, position))
            order = (-last, -end, found[3], entry_id)  # the longest; then lower claim, lower id
            if best is None or order < best_order:
                best, best_order = found, order
        return best

    def claims(self, form: str) -> dict[str, Claim]:
        """Every id of the families that has ``form``, with its strongest claim here."""
        found: dict[str, Claim] = {}
        for position, lexicon in self._lexicons():
            for entry_id, claim in lexicon.claims(form).items():
                moved = _moved(claim, position)
                if entry_id not in found or moved < found[entry_id]:
                    found[entry_id] = moved
        return found

    def ranks(self) -> dict[str, Rank]:
        """Every id of the families, with its rank here."""
        found: dict[str, Rank] = {}
        for position, lexicon in self._lexicons():
            for entry_id, rank in lexicon.ranks().items():
                moved = _moved((0, rank), position)[1]
                if entry_id not in found or moved < found[entry_id]:
                    found[entry_id] = moved
        return found

    def owner(self, text: str) -> tuple[str | None, Claim]:
        """The id that owns ``text`` here: the lowest claim of the families' owners."""
        best: tuple[str | None, Claim] = (None, (0, ()))
        for position, lexicon in self._lexicons():
            entry_id, claim = lexicon.owner(text)
            if entry_id is not None:
                moved = _moved(claim, position)
                if best[0] is None or (moved, entry_id) < (best[1], best[0]):
                    best = (entry_id, moved)
        return best

    def texts(self, entry_id: str) -> list[str]:
        """Every form given to ``entry_id`` by any family."""
        return list(
            dict.fromkeys(t for _, lexicon in self._lexicons() for t in lexicon.texts(entry_id))
        )

    def forms(self, entry_id: str) -> list[str]:
        """The forms ``entry_id`` owns here; KeyError for an id of no family."""
        if entry_id not in self:
            raise KeyError(f"lexicon {self.name} has no id {entry_id!r}")
        return [text for text in self.texts(entry_id) if self.owner(text)[0] == entry_id]

    def __len__(self) -> int:
        if len(self._parts) == 1:
            return len(self._parts[0][1].lexicon)
        return len(self.ranks())

    def __contains__(self, entry_id: object) -> bool:
        return any(entry_id in lexicon for _, lexicon in self._lexicons())


def _moved(claim: Claim, position: int) -> Claim:
    """``claim`` of a basic family's lexicon (family 0) with the family at ``position``."""
    tier, rank = claim
    return (tier, (rank[0], position, *rank[2:])) if len(rank) > 1 else claim


class _PackLexicons(Mapping[str, Lexicon]):
    """One pack's lexicons as a mapping that always reads the book's current build."""

    def __init__(self, book: LexiconBook, pack: str) -> None:
        self._book = book
        self._pack = pack

    def __getitem__(self, name: str) -> Lexicon:
        return self._book.current(self._pack)[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._book.current(self._pack))

    def __len__(self) -> int:
        return len(self._book.current(self._pack))

    def __contains__(self, name: object) -> bool:
        return name in self._book.names(self._pack)  # builds nothing
