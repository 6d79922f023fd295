"""The composition of one dish as a graph, and the ingredient paths through it.

SPARQL property paths say *whether* an ingredient is reachable from a dish, not *through
which* ingredients. The composition query returns the edges instead (dish → recipe
ingredient, ingredient → what it contains); this graph turns them into shortest paths by
breadth-first search. Cycles in the data (an ingredient that ends up containing itself) are
harmless: every node is visited once per search.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping


class Composition:
    """What a dish's recipe ingredients contain, to any depth, as ids with labels."""

    def __init__(
        self,
        recipe: Iterable[str],
        contains: Iterable[tuple[str, str]],
        labels: Mapping[str, str],
    ) -> None:
        """``recipe``: the dish's ingredient ids; ``contains``: (parent, child) id pairs."""
        self._labels = dict(labels)
        self._children: dict[str, list[str]] = {}
        for parent, child in contains:
            self._children.setdefault(parent, []).append(child)
        for children in self._children.values():
            children.sort(key=self._order)
        self.recipe: tuple[str, ...] = tuple(sorted(set(recipe), key=self._order))
        self._from_root: dict[str, dict[str, tuple[str, ...]]] = {}

    def label(self, node: str) -> str:
        """The label of an ingredient id (the id itself when the graph gives none)."""
        return self._labels.get(node, node)

    def shortest_paths(self) -> dict[str, tuple[str, ...]]:
        """Every reachable ingredient and one shortest path to it from a recipe ingredient."""
        return self._search(self.recipe)

    def paths_to(self, target: str) -> list[tuple[str, ...]]:
        """For each recipe ingredient that brings ``target`` in, its shortest path to it.

        One path per recipe ingredient, so "milk" in a lasagne is reported once through the
        béchamel and once through the parmesan, each the shortest way down that branch.
        """
        paths = []
        for root in self.recipe:
            if root not in self._from_root:
                self._from_root[root] = self._search((root,))
            path = self._from_root[root].get(target)
            if path is not None:
                paths.append(path)
        return paths

    def _search(self, roots: Iterable[str]) -> dict[str, tuple[str, ...]]:
        paths: dict[str, tuple[str, ...]] = {}
        queue: deque[str] = deque()
        for root in roots:
            if root not in paths:
                paths[root] = (root,)
                queue.append(root)
        while queue:
            node = queue.popleft()
            for child in self._children.get(node, ()):
                if child not in paths:
                    paths[child] = (*paths[node], child)
                    queue.append(child)
        return paths

    def _order(self, node: str) -> tuple[str, str]:
        return (self.label(node).casefold(), node)
