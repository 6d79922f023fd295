"""Handles given to ``setup(**kwargs)``: fetch one by name with an error that names the fix."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import py_trees

from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.lexicon import Lexicon
from cogtree.knowledge.understanding.lexicon_book import LexiconBook

H = TypeVar("H")


class MissingHandleError(RuntimeError):
    """A behaviour's ``setup`` did not receive a handle it needs."""


def optional_handle(
    behaviour: py_trees.behaviour.Behaviour,
    kwargs: Mapping[str, Any],
    name: str,
    kind: type[H],
) -> H | None:
    """Return ``kwargs[name]``, or None when it was not given; a wrong type is an error."""
    if kwargs.get(name) is None:
        return None
    return require_handle(behaviour, kwargs, name, kind)


def require_handle(
    behaviour: py_trees.behaviour.Behaviour,
    kwargs: Mapping[str, Any],
    name: str,
    kind: type[H],
) -> H:
    """Return ``kwargs[name]`` if it is a ``kind``; otherwise raise naming node, handle and fix."""
    handle = kwargs.get(name)
    if handle is None:
        raise missing_handle(behaviour, name, kind)
    if not isinstance(handle, kind):
        raise MissingHandleError(
            f"{behaviour.name}: handle `{name}` must be a {kind.__name__}, "
            f"got {type(handle).__name__}"
        )
    return handle


def missing_handle(
    behaviour: py_trees.behaviour.Behaviour, name: str, kind: type
) -> MissingHandleError:
    """The error for a handle ``behaviour`` needs and was not given, naming the fix."""
    return MissingHandleError(
        f"{behaviour.name} ({type(behaviour).__name__}) needs the `{name}` handle: call "
        f"tree.setup({name}=...) with a {kind.__name__}, or give it to "
        f"cogtree.trees.runner.TreeRunner(handles={{'{name}': ...}}); `cogtree tick` passes `llm`, "
        "and `scene_graph` and `workers` with --scene FILE.ttl"
    )


def lexicon_book(
    node: py_trees.behaviour.Behaviour, kwargs: Mapping[str, Any], registry: DomainRegistry
) -> LexiconBook:
    """The tree's book of lexicons, or one of the node's own.

    The ``lexicons`` handle (a :class:`~knowledge.understanding.lexicon_book.LexiconBook` the
    whole tree shares) when given, else a book over the optional ``scene_graph`` handle.
    """
    book = optional_handle(node, kwargs, "lexicons", LexiconBook)
    if book is None:
        book = LexiconBook(registry, optional_handle(node, kwargs, "scene_graph", SceneGraph))
    return book


def pack_lexicons(
    node: py_trees.behaviour.Behaviour, kwargs: Mapping[str, Any], registry: DomainRegistry
) -> dict[str, Mapping[str, Lexicon]]:
    """Every pack's lexicons by pack name, live: they follow the scene graph as it changes.

    The views of :func:`lexicon_book`.
    """
    return lexicon_book(node, kwargs, registry).views()
