"""Every domain pack's lexicons, built once and kept current with the scene graph.

Lexicons drawn from a pack's own knowledge graph or written inline do not change while the
robot runs; lexicons drawn from the scene graph do, as the robot sees new things. A
:class:`LexiconBook` builds each pack's lexicons on first use and rebuilds a pack's lexicons
when it has scene lexicons and the scene graph's
:attr:`~knowledge.scene.scene_graph.SceneGraph.version` moved. Nodes hold :meth:`LexiconBook.view`
mappings, which always answer from the current lexicons, so one book shared through the
``lexicons`` setup handle serves the whole tree.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Mapping

from cogtree.knowledge.packs.domain_pack import PackError
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.lexicon import Lexicon, build_lexicons

log = logging.getLogger(__name__)


class LexiconBook:
    """The lexicons of every pack in ``registry``, over ``scene`` (None: no scene lexicons).

    A pack whose lexicons cannot be built (a failing lexicon query) gets none, with a
    warning: its fast paths are weaker, the tree still runs. Thread-safe.
    """

    def __init__(self, registry: DomainRegistry, scene: SceneGraph | None = None) -> None:
        self.registry = registry
        self.scene = scene
        self._lock = threading.Lock()
        self._built: dict[str, tuple[int, dict[str, Lexicon]]] = {}

    def current(self, pack: str) -> dict[str, Lexicon]:
        """The lexicons of ``pack`` now, rebuilt first if the scene changed since the last build."""
        version = self.scene.version if self.scene is not None else 0
        with self._lock:
            built = self._built.get(pack)
            if built is not None and (built[0] == version or not self._reads_scene(pack)):
                return built[1]
            lexicons = self._build(pack)
            self._built[pack] = (version, lexicons)
            return lexicons

    def view(self, pack: str) -> Mapping[str, Lexicon]:
        """A live mapping of ``pack``'s lexicons by name (it follows the scene graph)."""
        return _PackLexicons(self, pack)

    def views(self) -> dict[str, Mapping[str, Lexicon]]:
        """:meth:`view` of every pack, by pack name."""
        return {name: self.view(name) for name in self.registry.names}

    def _reads_scene(self, pack: str) -> bool:
        lexicons = self.registry.get(pack).manifest.lexicons.values()
        return self.scene is not None and any(spec.scene for spec in lexicons)

    def _build(self, pack: str) -> dict[str, Lexicon]:
        try:
            return build_lexicons(self.registry.get(pack), self.scene)
        except PackError as error:
            log.warning("domain %s: lexicons unavailable, fast paths weaker: %s", pack, error)
            return {}


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
