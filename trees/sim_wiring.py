"""Stepping the simulator while a tree acts in it (chat, ask, run and bench).

The simulator's handles come from :meth:`trees.handles.Handles.attach_simulator`.
"""

from __future__ import annotations

from cogtree.sim.executor import SimExecutor


def step_when_busy(simulator: SimExecutor) -> None:
    """Advance the simulator one tick while a command or a delegated task is in progress.

    The world's clock then measures acting time, not thinking time: a slow model does not
    let scheduled events fire sooner, so runs on different backends meet the same world.
    """
    if not simulator.idle:
        simulator.step()
