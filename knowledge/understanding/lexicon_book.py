"""Every domain pack's lexicons, built once and kept current with the scene.

Lexicons drawn from a pack's own knowledge graph or written inline do not change while the
robot runs; lexicons drawn from the scene do, as the robot sees new things. A
:class:`LexiconBook` builds each pack's lexicons once (:meth:`LexiconBook.prepare` at session
setup, else on first use); its scene lexicons are
:class:`~knowledge.understanding.lexicon.SceneLexicon` objects over the belief's
:class:`~knowledge.scene.scene_index.SceneIndex`, one per name and families, shared by the
packs that declare the same one. The index tells the book, in the writer's thread, which
nodes' names a write changed, and only those entries are edited; a move or a new colour
changes no name and costs the lexicons nothing. Nothing here runs on the tick thread after
setup. Nodes hold :meth:`LexiconBook.view` mappings, which always answer from the current
lexicons, so one book shared through the ``lexicons`` setup handle serves the whole tree.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Mapping

from cogtree.knowledge.packs.domain_pack import PackError
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.lexicon import Lexicon, SceneLexicon, build_lexicons

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
        self._scene_lexicons: dict[tuple[str, tuple[str, ...]], SceneLexicon] = {}
        if scene is not None:
            scene.index.add_listener(self._renamed)

    def prepare(self) -> None:
        """Build every pack's lexicons now (at setup, so that no turn waits for them)."""
        for pack in self.registry.names:
            started = time.perf_counter()
            built = self.current(pack)
            seconds = time.perf_counter() - started
            level = logging.INFO if seconds > SLOW_BUILD_S else logging.DEBUG
            ids = sum(len(lexicon) for lexicon in built.values())
            log.log(level, "domain %s: %d lexicon ids built in %.1f s", pack, ids, seconds)

    def current(self, pack: str) -> dict[str, Lexicon]:
        """The lexicons of ``pack`` now (built on first use unless :meth:`prepare` ran)."""
        with self._lock:
            built = self._built.get(pack)
            if built is None:
                built = self._built[pack] = self._build(pack)
            return built

    def view(self, pack: str) -> Mapping[str, Lexicon]:
        """A live mapping of ``pack``'s lexicons by name (it follows the scene graph)."""
        return _PackLexicons(self, pack)

    def views(self) -> dict[str, Mapping[str, Lexicon]]:
        """:meth:`view` of every pack, by pack name."""
        return {name: self.view(name) for name in self.registry.names}

    def _build(self, pack: str) -> dict[str, Lexicon]:
        domain = self.registry.get(pack)
        try:
            lexicons = build_lexicons(domain, None)
        except PackError as error:
            log.warning("domain %s: lexicons unavailable, fast paths weaker: %s", pack, error)
            return {}
        if self.scene is not None:
            for name, spec in domain.manifest.lexicons.items():
                if spec.source() == "scene":
                    key = (name, tuple(spec.scene))
                    if key not in self._scene_lexicons:
                        self._scene_lexicons[key] = SceneLexicon(name, spec.scene, self.scene.index)
                    lexicons[name] = self._scene_lexicons[key].lexicon
        return lexicons

    def _renamed(self, nodes: frozenset[str] | None) -> None:
        """Edit the scene lexicons for ``nodes`` whose names changed (None: rebuild them)."""
        with self._lock:
            for scene_lexicon in self._scene_lexicons.values():
                old = scene_lexicon.lexicon
                scene_lexicon.update(nodes)
                if scene_lexicon.lexicon is old:
                    continue
                for built in self._built.values():
                    for name, lexicon in built.items():
                        if lexicon is old:
                            built[name] = scene_lexicon.lexicon


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
