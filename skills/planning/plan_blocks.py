"""Series-parallel blocks of a plan's dependency graph: what may run at once, what in order.

The dependency graph of a ToA plan (:func:`~skills.planning.plan_model.plan_graph`) is cut into
blocks, deterministically:

1. steps with no dependency path between them (the weakly connected parts of the graph) run
   side by side (:class:`Together`) -- unless they share an agent: the parts of one agent run
   one after another, since a robot or a person does one thing at a time;
2. otherwise, the graph is cut where every step before the cut must precede every step after
   it (a series cut; found on the lexicographic topological order), and the pieces run one
   after another (:class:`Series`);
3. a piece with neither cut is not series-parallel (e.g. 1 -> 3, 2 -> 3, 2 -> 4): its steps run
   one by one in topological order (a :class:`Series` with ``exact`` False) -- correct, only
   less parallel.

The blocks are plain data; :class:`~behaviours.actions.planning.execute_plan.ExecutePlan` turns
them into py_trees composites.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # networkx (0.15 s to import) is imported where a plan's graph is built:
    import networkx as nx  # a turn that plans nothing (`cogtree ask "where is ..."`) skips it


@dataclass(frozen=True)
class Step:
    """One plan step, as a leaf of the block structure."""

    id: int


@dataclass(frozen=True)
class Series:
    """Blocks that run one after another; ``exact`` False: a fallback order for a non-SP piece."""

    parts: tuple[Block, ...]
    exact: bool = True


@dataclass(frozen=True)
class Together:
    """Blocks that run at the same time (different agents, no dependency between them)."""

    parts: tuple[Block, ...]


Block = Step | Series | Together
"""A series-parallel decomposition of a plan's dependency graph."""


def decompose(graph: nx.DiGraph[int], agents: Mapping[int, str]) -> Block | None:
    """The series-parallel blocks of ``graph`` (None when it has no steps); see the module docs.

    ``agents`` gives who does each step: parts that share an agent are not run side by side.
    """
    import networkx as nx

    order = list(nx.lexicographical_topological_sort(graph))
    if not order:
        return None
    reach = {node: nx.descendants(graph, node) for node in order}
    return _block(order, graph, reach, agents)


def _block(
    nodes: list[int],
    graph: nx.DiGraph[int],
    reach: Mapping[int, set[int]],
    agents: Mapping[int, str],
) -> Block:
    """Blocks of ``nodes`` (in topological order; a convex part of ``graph``)."""
    if len(nodes) == 1:
        return Step(nodes[0])
    position = {node: index for index, node in enumerate(nodes)}
    parts = sorted(
        (sorted(part, key=position.__getitem__) for part in _weak_parts(graph, nodes)),
        key=lambda part: position[part[0]],
    )
    if len(parts) > 1:
        groups = _by_shared_agent(parts, agents)
        blocks = [
            _series([_block(part, graph, reach, agents) for part in group]) for group in groups
        ]
        return Together(tuple(blocks)) if len(blocks) > 1 else blocks[0]
    cuts = [
        index
        for index in range(1, len(nodes))
        if all(after in reach[before] for before in nodes[:index] for after in nodes[index:])
    ]
    if cuts:
        bounds = [0, *cuts, len(nodes)]
        pieces = [nodes[start:end] for start, end in itertools.pairwise(bounds)]
        return _series([_block(piece, graph, reach, agents) for piece in pieces])
    return Series(tuple(Step(node) for node in nodes), exact=False)


def _weak_parts(graph: nx.DiGraph[int], nodes: list[int]) -> list[set[int]]:
    import networkx as nx

    return [set(part) for part in nx.weakly_connected_components(graph.subgraph(nodes))]


def _by_shared_agent(parts: list[list[int]], agents: Mapping[int, str]) -> list[list[list[int]]]:
    """Group ``parts`` so that parts sharing an agent land in one group, keeping their order."""
    groups: list[tuple[set[str], list[int]]] = []  # (agents, indices of the parts)
    for index, part in enumerate(parts):
        who = {agents[node] for node in part if node in agents}
        joined = [group for group in groups if group[0] & who]
        kept = [group for group in groups if not group[0] & who]
        members = sorted([member for group in joined for member in group[1]] + [index])
        groups = [*kept, (who.union(*(group[0] for group in joined)), members)]
    groups.sort(key=lambda group: group[1][0])
    return [[parts[member] for member in members] for _, members in groups]


def _series(blocks: Sequence[Block]) -> Block:
    """``blocks`` one after another, nested exact series flattened; a single block as is."""
    flat: list[Block] = []
    for block in blocks:
        flat.extend(block.parts if isinstance(block, Series) and block.exact else [block])
    return flat[0] if len(flat) == 1 else Series(tuple(flat))


def label(block: Block) -> str:
    """``1 > (2 | 3) > 4``: the block's steps, ``>`` for in order and ``|`` for at once."""
    if isinstance(block, Step):
        return str(block.id)
    inner = [label(part) if isinstance(part, Step) else f"({label(part)})" for part in block.parts]
    return (" | " if isinstance(block, Together) else " > ").join(inner)
