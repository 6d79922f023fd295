"""The one door to gtpyhop: quiet import, one process-wide lock, backtracking search.

gtpyhop 2.0 keeps everything it plans with in module globals: the current domain, the
verbosity, the search strategy, a state-copy counter and a structured log. Two threads
planning at once would plan in each other's domain. So every use of gtpyhop in cogtree goes
through :class:`HtnPlanner`, which creates its ``Domain`` and, for each planning call, sets
the current domain, a silent verbosity and the backtracking strategy, all inside
``_GTPYHOP_LOCK``. That lock is the one documented piece of process-wide state in cogtree.

What gtpyhop does that callers must know:

- It prints on import unless ``GTPYHOP_QUIET=true``; this module sets it (only if unset)
  before the import, and it is the only module that imports gtpyhop.
- Its default strategy commits to the first applicable method and never backtracks; this
  module uses ``iterative_dfs_backtracking``.
- An action whose returned state equals its input is treated as a no-op and left out of the
  plan. Actions that stand for commands (``verify_grasp``, ``speak``) must therefore change
  the state, e.g. count steps.
- ``set_verbose_level`` prints, so the verbosity is set through the module attribute.
- Every planning step is appended to an unbounded in-memory log (``gtpyhop_global``); this
  module clears it after each call, or a long-running robot would grow without bound.
- ``timeout_ms`` relies on SIGALRM (main thread only, whole seconds), so it is not used:
  the domains here are small and their searches finite.
- Each new ``Domain`` is appended to a module-level registry and would stay there for the
  life of the process; a planner keeps its own reference and takes its domain out of that
  registry, so building planners (one per behaviour, per tree) does not leak.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping, Sequence
from typing import Any

# gtpyhop prints a banner on import unless this is set, so it must come before the import.
os.environ.setdefault("GTPYHOP_QUIET", "true")

import gtpyhop
import gtpyhop.main as gtpyhop_main

from cogtree.skills.capabilities.capability import Action, Method, Step

log = logging.getLogger(__name__)

STRATEGY = "iterative_dfs_backtracking"
"""gtpyhop's depth-first search that tries the next method when a branch fails."""

GLOBAL_LOG = "gtpyhop_global"
"""The session id of gtpyhop's process-wide structured log."""

_GTPYHOP_LOCK = threading.Lock()
"""Serialises every use of gtpyhop's module globals (see the module docstring)."""


class HtnPlanner:
    """A gtpyhop domain (actions and task methods) and planning with it, thread-safe.

    ``actions`` maps each action name to its function; ``methods`` maps each task name to its
    methods in the order they are tried. Create a planner once and reuse it.
    """

    def __init__(
        self, name: str, actions: Mapping[str, Action], methods: Mapping[str, Sequence[Method]]
    ) -> None:
        overlap = sorted(set(actions) & set(methods))
        if overlap:
            raise ValueError(f"{name}: {', '.join(overlap)} cannot be both action and task")
        self.name = name
        with _GTPYHOP_LOCK:
            self._domain = gtpyhop.Domain(name)
            gtpyhop.set_current_domain(self._domain)
            gtpyhop.declare_actions(*(_named(n, action) for n, action in actions.items()))
            for task, task_methods in methods.items():
                gtpyhop.declare_task_methods(task, *task_methods)
            gtpyhop_main._domains.remove(self._domain)  # we hold it; the registry need not

    def plan(self, state: Mapping[str, Any], todo: Sequence[Step]) -> list[Step] | None:
        """The actions that accomplish ``todo`` from ``state`` (state variables by name).

        Returns None when no decomposition works. Exceptions raised by actions or methods
        (bugs, or a task nobody declared) propagate.
        """
        with _GTPYHOP_LOCK:
            gtpyhop.set_current_domain(self._domain)
            gtpyhop_main.verbose = 0
            gtpyhop.set_recursive_planning(STRATEGY)
            try:
                found = gtpyhop.find_plan(gtpyhop.State(self.name, **state), list(todo))
            finally:
                gtpyhop.get_logger(GLOBAL_LOG).clear_logs()
        if found is False or found is None:
            log.debug("%s: no plan for %s", self.name, todo)
            return None
        return [tuple(step) for step in found]


def _named(name: str, action: Action) -> Action:
    """``action`` under the name gtpyhop declares it by (it uses the function's ``__name__``)."""

    def named(*args: Any) -> Any:
        return action(*args)

    named.__name__ = name
    return named
