"""Handles and stepping that connect a tree to the simulator (chat, ask, run and bench)."""

from __future__ import annotations

from typing import Any

from knowledge.experience import ExperienceStore
from sim.executor import SimExecutor


def simulator_handles(simulator: SimExecutor, experience: ExperienceStore) -> dict[str, Any]:
    """The ``setup`` handles a tree needs to act in ``simulator``.

    The belief (``scene_graph``), the ``workers`` pool, the command ``executor``, the
    simulated ``people`` (for delegation), the simulated ``clock`` (seconds; delegation
    timeouts count simulated time) and the failure-``experience`` store.
    """
    world = simulator.world
    return {
        "scene_graph": simulator.belief,
        "workers": simulator.workers,
        "executor": simulator,
        "people": simulator.people,
        "clock": lambda: world.now().timestamp(),
        "experience": experience,
    }


def step_when_busy(simulator: SimExecutor) -> None:
    """Advance the simulator one tick while a command or a delegated task is in progress.

    The world's clock then measures acting time, not thinking time: a slow model does not
    let scheduled events fire sooner, so runs on different backends meet the same world.
    """
    if not simulator.idle:
        simulator.step()
