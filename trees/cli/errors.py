"""The command line's user errors: printed as ``cogtree: error: ...`` with exit code 2."""

from __future__ import annotations


class CLIError(Exception):
    """A user error: printed as ``cogtree: error: ...`` with exit code 2."""


def user_errors() -> tuple[type[Exception], ...]:
    """Every error a subcommand reports as ``cogtree: error: ...`` (exit 2), not as a crash.

    The wrong input of the user (options, files, packs, scenarios, a tree reference) and a
    model or store that cannot serve. Imported when a subcommand has failed, not at start:
    their modules bring in py_trees, pydantic and rdflib.
    """
    from cogtree.behaviours.setup_handles import MissingHandleError
    from cogtree.knowledge.llm.errors import LLMConfigError
    from cogtree.knowledge.memory.db import MemoryStoreError
    from cogtree.knowledge.packs.domain_pack import PackError
    from cogtree.knowledge.scene.rdf_store import TurtleError
    from cogtree.sim.scenario import ScenarioError
    from cogtree.trees.loading import TreeLoadError
    from cogtree.trees.recording.tick_log import TickLogError
    from cogtree.trees.viewer.errors import ViewerError

    return (
        CLIError,
        LLMConfigError,
        TreeLoadError,
        TickLogError,
        MissingHandleError,
        TurtleError,
        ScenarioError,
        PackError,
        MemoryStoreError,
        ViewerError,
    )
